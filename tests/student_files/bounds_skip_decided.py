"""A student whose constraint_bounds forgets the decided variables (it sums only the
undecided ones), under a forward_check that is right and calls it: the next step must
name constraint_bounds, the hook underneath, not forward_check."""

from __future__ import annotations

from itertools import combinations


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


def select_variable(csp, domains, unassigned):
    ranked = sorted(unassigned, key=lambda var: (len(domains[var]), -len(csp.constraints_of[var]), var))
    return ranked[0]


def order_values(csp, var, domains):
    return [value for value in (0, 1) if value in domains[var]]


def at_least_clauses(lits, k):
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return [list(group) for group in combinations(lits, len(lits) - k + 1)]


def at_most_clauses(lits, k):
    return at_least_clauses([-lit for lit in lits], len(lits) - k)
