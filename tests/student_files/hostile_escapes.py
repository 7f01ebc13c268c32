"""An attacker that prints terminal escape sequences (clear screen, window title, an OSC 8
link, a bell) and raises an exception whose text carries them too."""

from model_answer import *  # noqa: F401,F403

NASTY = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\\x07\x9b31m"
print(NASTY)


def order_values(csp, var, domains):
    print(NASTY)
    raise ValueError(NASTY)
