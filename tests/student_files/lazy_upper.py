"""A student whose forward_check forgets the upper-bound half of the rule (high == total).

It still finds every solution, but the search pops more nodes than the reference.
"""

from model_answer import constraint_bounds, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total:
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (min(narrowed[var]),)
    return narrowed


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
