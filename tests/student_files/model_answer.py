"""A correct student, written independently of the kit's reference (which student code
cannot import): the hooks of the handout, and the subset encodings of the SAT exercise."""

from itertools import combinations


def constraint_bounds(scope, domains):
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


def select_variable(csp, domains, unassigned):
    return min(unassigned, key=lambda v: (len(domains[v]), -len(csp.constraints_of[v]), v))


def order_values(csp, var, domains):
    return sorted(domains[var])


def at_least_clauses(lits, k):
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return [list(group) for group in combinations(lits, len(lits) - k + 1)]


def at_most_clauses(lits, k):
    if k < 0:
        return [[]]
    return [[-lit for lit in group] for group in combinations(lits, k + 1)]


# The names some test students import these under.
forward_check_once, select_mrv, values_ascending = forward_check, select_variable, order_values
at_least_subsets, at_most_subsets = at_least_clauses, at_most_clauses
