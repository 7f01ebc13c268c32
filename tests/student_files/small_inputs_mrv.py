"""A student who special-cases the hook tests: MRV only on inputs as small as the named
cases' (at most 17 variables), the first unassigned variable on every real board."""

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    if len(domains) <= 17:
        return select_mrv(csp, domains, unassigned)
    return unassigned[0]


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
