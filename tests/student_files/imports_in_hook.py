"""A correct student but for select_variable, which imports numpy when it is called:
the file loads, and each call to that hook fails on the import."""

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending  # noqa: F401

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    import numpy  # IMPORT_LINE

    return int(numpy.argmin([select_mrv(csp, domains, unassigned)]))


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
