"""A student whose constraint_bounds forgets the decided variables (it sums only the
undecided ones), under a forward_check that is right and calls it: the next step must
name constraint_bounds, the hook underneath, not forward_check."""

from model_answer import at_least_clauses, at_most_clauses, order_values, select_variable  # noqa: F401


def constraint_bounds(scope, domains):
    chosen = [domains[var] for var in scope]
    if any(len(domain) == 0 for domain in chosen):
        return 1, 0
    undecided = [domain for domain in chosen if len(domain) > 1]  # BUG: decided mines count too
    return sum(domain[0] for domain in undecided), sum(domain[-1] for domain in undecided)


def forward_check(csp, domains, assigned):
    result = {var: tuple(domain) for var, domain in domains.items()}
    for index in range(len(csp.constraints)):
        scope, total = csp.constraints[index].scope, csp.constraints[index].total
        low, high = constraint_bounds(scope, result)
        if not low <= total <= high:
            return None
        if total in (low, high):
            end = 0 if total == low else -1
            for var in scope:
                if len(result[var]) > 1:
                    result[var] = (result[var][end],)
    return result
