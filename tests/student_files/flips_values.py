"""A student whose forward_check swaps the two halves of the bound rule: where the rule
makes cells safe it makes them mines, and the reverse."""

from model_answer import constraint_bounds, select_variable, order_values, at_least_clauses, at_most_clauses  # noqa: F401


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            pick = max if low == constraint.total else min  # the bug: swapped
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (pick(narrowed[var]),)
    return narrowed
