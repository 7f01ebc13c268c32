"""A hook that stalls without being charged (on the old grader): constraint_bounds sleeps
in short steps and, between steps, writes 64 KiB of JSON whitespace, in turn to the
worker's own reply descriptor and to its standard output. Each read of a full 64 KiB
counted as "blocked on a full pipe to the grader", which was not charged, so the item
reached the wall-clock backstop, which was the grader's failure: the submission came
back "not graded" (exit 3). The spaces stay under the 1 MiB a reply may take (the real
answer follows them, so every reply parses) and under the 16 MiB an item may print."""

import os
import sys
import time

from model_answer import at_least_clauses, at_most_clauses, forward_check_once, select_mrv, values_ascending
from model_answer import constraint_bounds as _bounds

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
REPLIES = int(sys.argv[3])  # the worker's reply descriptor: python -c BOOTSTRAP VIEW SOURCE REPLY_FD ...
STEPS = 30  # per call: 15 x 64 KiB to the replies (under 1 MiB), 15 x 64 KiB printed (16 calls: 15 MiB)
SPACES = b" " * (1 << 16)


def constraint_bounds(scope, domains):
    for step in range(STEPS):
        time.sleep(0.15)
        os.write(REPLIES if step % 2 else 1, SPACES)
    return _bounds(scope, domains)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
