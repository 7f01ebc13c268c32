"""A student whose constraint_bounds starts a child process that sleeps, then loops (or returns).

The test passes CLASSROOM_SLEEP (the sleep argument, unique per run), CLASSROOM_PID_FILE
(where the child's pid is written) and CLASSROOM_MODE ("loop" or "return").
"""

import os
import subprocess

from solvers.strategies import forward_check_once, select_mrv, values_ascending
from solvers.strategies import constraint_bounds as _bounds

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
_started = []


def constraint_bounds(scope, domains):
    if not _started:
        child = subprocess.Popen(["sleep", os.environ.get("CLASSROOM_SLEEP", "1000")])
        _started.append(child)
        with open(os.environ["CLASSROOM_PID_FILE"], "a", encoding="utf-8") as handle:
            handle.write(f"{child.pid}\n")
    if os.environ.get("CLASSROOM_MODE", "loop") == "loop":
        while True:
            pass
    return _bounds(scope, domains)


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from solvers.sat import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
