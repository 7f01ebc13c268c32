"""Hostile: a select_variable that picks any unassigned variable at random, from the
operating system's randomness (not `random`, which the grader seeds alike every run), so
that the same calls get other answers in every run."""

import os

from model_answer import *  # noqa: F401,F403


def select_variable(csp, domains, unassigned):
    return unassigned[int.from_bytes(os.urandom(4), "big") % len(unassigned)]
