"""A student who empties the (frozen) CSP's constraints so the engine accepts anything.

forward_check wipes csp.constraints and fixes every variable to its smallest value, so the
engine's goal test (csp.satisfied_by) accepts the all-safe layout as a solution.
"""

from model_answer import constraint_bounds, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    object.__setattr__(csp, "constraints", ())
    object.__setattr__(csp, "constraints_of", tuple(() for _ in csp.cells))
    return {var: values[:1] for var, values in domains.items()}


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
