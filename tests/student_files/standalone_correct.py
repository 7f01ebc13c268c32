"""A correct student who wrote every hook without the reference (works in the student copy)."""

from __future__ import annotations

from itertools import combinations


def constraint_bounds(scope, domains):
    low = high = 0
    for var in scope:
        domain = domains[var]
        if not domain:
            return 1, 0
        low += min(domain)
        high += max(domain)
    return low, high


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            keep = min if low == constraint.total else max
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (keep(narrowed[var]),)
    return narrowed


def select_variable(csp, domains, unassigned):
    return min(unassigned, key=lambda v: (len(domains[v]), -len(csp.constraints_of[v]), v))


def order_values(csp, var, domains):
    return sorted(domains[var])


def at_least_clauses(lits, k):
    if k > len(lits):
        return [[]]
    if k <= 0:
        return []
    return [list(group) for group in combinations(lits, len(lits) - k + 1)]


def at_most_clauses(lits, k):
    if k < 0:
        return [[]]
    return [[-lit for lit in group] for group in combinations(lits, k + 1)]
