"""A hook that stalls without being charged (on the old grader): constraint_bounds sleeps
in short steps and, between steps, writes 64 KiB of JSON whitespace to the worker's own
reply descriptor. Each read of a full 64 KiB counted as "blocked on a full pipe to the
grader", which was not charged, so the item reached the wall-clock backstop, which was
the grader's failure: the submission came back "not graded" (exit 3). The spaces stay
under the 1 MiB a reply may take, and the real answer follows them, so every reply parses."""

import os
import sys
import time

from model_answer import at_least_clauses, at_most_clauses, forward_check_once, select_mrv, values_ascending
from model_answer import constraint_bounds as _bounds

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
REPLIES = int(sys.argv[3])  # the worker's reply descriptor: python -c BOOTSTRAP VIEW SOURCE REPLY_FD ...
STEPS = 15  # 15 x 64 KiB stays under a reply's 1 MiB
SPACES = b" " * (1 << 16)


def constraint_bounds(scope, domains):
    for _ in range(STEPS):
        time.sleep(0.15)
        os.write(REPLIES, SPACES)
    return _bounds(scope, domains)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
