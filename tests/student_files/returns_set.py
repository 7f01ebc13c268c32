"""A student whose select_variable returns a set holding the variable."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    return {select_mrv(csp, domains, unassigned)}


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
