"""A student whose forward_check gets the dead-end test wrong by one: it treats
high == total as a dead end (`high <= total` where the rule says `high < total`)."""

from model_answer import constraint_bounds, select_variable, order_values, at_least_clauses, at_most_clauses  # noqa: F401


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high <= constraint.total:  # the bug
            return None
        if low == constraint.total:
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (min(narrowed[var]),)
    return narrowed
