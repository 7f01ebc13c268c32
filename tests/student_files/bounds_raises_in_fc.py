"""Common mistake: constraint_bounds raises ValueError on an empty domain (min of an empty
tuple), and the student's own forward_check calls it, so the same crash costs both hooks."""

from model_answer import at_least_clauses, at_most_clauses, order_values, select_variable  # noqa: F401


def constraint_bounds(scope, domains):
    return sum(min(domains[v]) for v in scope), sum(max(domains[v]) for v in scope)


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            pick = min if low == constraint.total else max
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (pick(narrowed[var]),)
    return narrowed
