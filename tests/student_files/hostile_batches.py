"""An attacker of the batches the grader asks at once (a hook's cases, a board's clauses),
which misbehaves right after the answer where asking one by one would have stopped: a
batch must end there too. The test writes how its constraint_bounds misbehaves on its
third call in an item ({{HOW}}):

- "fatal-then-hang": raises NotImplementedError, then loops forever on any later call;
- "crash": ends its process;
- "forged-extra": first writes a forged reply of its own to the descriptor the worker
  replies on, so every later reply of the batch comes one call late.

Its clause hooks are right, but at_least_clauses' first answer in an item uses a literal
it was not given, and at_most_clauses loops forever when it is called right after it:
asked one by one, the board's clauses stop at that answer, so it never is."""

import os
import sys

import model_answer
from model_answer import *  # noqa: F401,F403

CALLS = []
LAST = []  # what at_least_clauses answered last: "bad" once


def constraint_bounds(scope, domains):
    CALLS.append(1)
    if len(CALLS) == 3 and "{{HOW}}" == "fatal-then-hang":
        raise NotImplementedError("constraint_bounds")
    if len(CALLS) > 3 and "{{HOW}}" == "fatal-then-hang":
        while True:
            pass
    if len(CALLS) == 3 and "{{HOW}}" == "crash":
        os._exit(3)
    if len(CALLS) == 3 and "{{HOW}}" == "forged-extra":
        os.write(int(sys.argv[3]), b'{"value": [0, 0]}\n')
    return model_answer.constraint_bounds(scope, domains)


def at_least_clauses(lits, k):
    if not LAST:
        LAST.append("bad")
        return [[99]]
    LAST[:] = ["fine"]
    return list(model_answer.at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    if LAST == ["bad"]:
        while True:
            pass
    return list(model_answer.at_most_subsets(lits, k))
