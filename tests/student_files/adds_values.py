"""Common mistake: adding a value that was not there (a safe cell turned into a mine)."""

from model_answer import *  # noqa: F401,F403
from model_answer import forward_check as _correct


def forward_check(csp, domains, assigned):
    narrowed = _correct(csp, domains, assigned)
    if narrowed is not None:
        for var, values in narrowed.items():
            if values == (0,):
                narrowed[var] = (1,)  # the bug: a value the domain did not hold
                break
    return narrowed
