"""A student whose forward_check only applies the lower-bound half of the rule."""

from model_answer import constraint_bounds, select_mrv, values_ascending
from model_answer import at_least_subsets, at_most_subsets

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
        # never narrows to the maximum when high == total
    return narrowed


def at_least_clauses(lits, k):  # part 2 is right
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
