"""An attacker that prints terminal escape sequences (clear screen, window title, an OSC 8
link, a bell), raises exceptions whose text carries them (and a lone surrogate, which no
terminal can encode), and returns an object whose repr carries them too."""

from model_answer import *  # noqa: F401,F403
from model_answer import constraint_bounds as _bounds

NASTY = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\\x07\x9b31m"
print(NASTY)


class Evil:
    def __repr__(self):
        return NASTY + "[red]markup[/red]"


def constraint_bounds(scope, domains):
    if len(scope) == 3:
        raise ValueError("lone \ud800 surrogate")
    return _bounds(scope, domains)


def select_variable(csp, domains, unassigned):
    return Evil()


def order_values(csp, var, domains):
    print(NASTY)
    raise ValueError(NASTY)
