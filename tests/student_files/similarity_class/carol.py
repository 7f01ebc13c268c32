"""Carol's hooks: plain loops, no library helpers."""


def constraint_bounds(scope, domains):
    lowest = 0
    highest = 0
    for variable in scope:
        values = domains[variable]
        if len(values) == 0:
            return (1, 0)
        lowest += values[0]
        highest += values[len(values) - 1]
    return (lowest, highest)


def forward_check(csp, domains, assigned):
    current = {}
    for variable in domains:
        current[variable] = domains[variable]
    for constraint in csp.constraints:
        bounds = constraint_bounds(constraint.scope, current)
        if bounds[0] > constraint.total:
            return None
        if bounds[1] < constraint.total:
            return None
        keep_low = bounds[0] == constraint.total
        keep_high = bounds[1] == constraint.total
        if not keep_low and not keep_high:
            continue
        for variable in constraint.scope:
            values = current[variable]
            if len(values) < 2:
                continue
            if keep_low:
                current[variable] = (values[0],)
            else:
                current[variable] = (values[len(values) - 1],)
    return current


def select_variable(csp, domains, unassigned):
    best = None
    best_key = None
    for variable in unassigned:
        key = (len(domains[variable]), -len(csp.constraints_of[variable]), variable)
        if best_key is None or key < best_key:
            best, best_key = variable, key
    return best


def order_values(csp, var, domains):
    ordered = list(domains[var])
    ordered.sort()
    return ordered


def _groups(items, size):
    if size == 0:
        return [[]]
    if size > len(items):
        return []
    with_first = [[items[0]] + rest for rest in _groups(items[1:], size - 1)]
    return with_first + _groups(items[1:], size)


def at_least_clauses(lits, k):
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return _groups(list(lits), len(lits) - k + 1)


def at_most_clauses(lits, k):
    if k < 0:
        return [[]]
    clauses = []
    for group in _groups(list(lits), k + 1):
        clauses.append([-literal for literal in group])
    return clauses
