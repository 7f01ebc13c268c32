"""A student whose forward_check returns a generator of (variable, domain) pairs."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    narrowed = forward_check_once(csp, domains, assigned)
    if narrowed is None:
        return None
    return ((var, values) for var, values in narrowed.items())


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
