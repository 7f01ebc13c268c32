"""Common mistake: reversing order_values for the stack (the engine does that already)."""

from model_answer import *  # noqa: F401,F403


def order_values(csp, var, domains):
    return sorted(domains[var], reverse=True)
