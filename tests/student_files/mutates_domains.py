"""A correct student who vandalises its inputs after using them: the answers are right."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending


def forward_check(csp, domains, assigned):
    narrowed = forward_check_once(csp, dict(domains), assigned)
    domains.clear()  # the dict it was given
    return narrowed


def select_variable(csp, domains, unassigned):
    var = select_mrv(csp, domains, unassigned)
    unassigned.clear()
    domains.clear()
    return var


def order_values(csp, var, domains):
    values = values_ascending(csp, var, domains)
    domains[var] = ()
    return values


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
