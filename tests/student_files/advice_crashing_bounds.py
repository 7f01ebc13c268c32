"""A student whose constraint_bounds raises on a large scope (more than 12 variables: the
mine count's), under a right forward_check that calls it: every board's search ends in that
exception at its first node, and the next step's stake must count those boards."""

from model_answer import at_least_clauses, at_most_clauses, order_values, select_variable  # noqa: F401

LARGEST = 12  # variables in the largest scope it takes


def constraint_bounds(scope, domains):
    if len(scope) > LARGEST:
        raise ValueError(f"a scope of {len(scope)} variables is too large")
    if any(not domains[v] for v in scope):
        return 1, 0
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
