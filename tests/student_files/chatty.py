"""A correct student who prints megabytes: at import, in select_variable, on stderr and on fd 1."""

import os
import sys

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending

print("i" * 5_000_000)
os.write(1, b"w" * 5_000_000)  # past sys.stdout, straight to the process's standard output


def select_variable(csp, domains, unassigned):
    print("x" * 5_000_000)
    print("e" * 1_000_000, file=sys.stderr)
    return select_mrv(csp, domains, unassigned)


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
