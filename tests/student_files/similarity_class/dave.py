"""Dave's hooks: a small helper class for the bounds, and bit masks for the subsets."""

import functools


class _Range:
    def __init__(self):
        self.low, self.high, self.empty = 0, 0, False

    def add(self, values):
        if not values:
            self.empty = True
        else:
            self.low, self.high = self.low + min(values), self.high + max(values)

    def result(self):
        return (1, 0) if self.empty else (self.low, self.high)


def constraint_bounds(scope, domains):
    span = _Range()
    for v in scope:
        span.add(domains[v])
    return span.result()


def forward_check(csp, domains, assigned):
    doms = dict(domains)
    for c in csp.constraints:
        lo, hi = constraint_bounds(c.scope, doms)
        if not (lo <= c.total <= hi):
            return None
        if c.total == lo:
            doms.update({v: (min(doms[v]),) for v in c.scope if len(doms[v]) > 1})
        elif c.total == hi:
            doms.update({v: (max(doms[v]),) for v in c.scope if len(doms[v]) > 1})
    return doms


def _better(csp, domains, a, b):
    ka = (len(domains[a]), -len(csp.constraints_of[a]), a)
    kb = (len(domains[b]), -len(csp.constraints_of[b]), b)
    return a if ka <= kb else b


def select_variable(csp, domains, unassigned):
    return functools.reduce(lambda a, b: _better(csp, domains, a, b), unassigned)


def order_values(csp, var, domains):
    return sorted(set(domains[var]))


def _subsets(lits, size):
    n = len(lits)
    out = []
    for mask in range(1 << n):
        if bin(mask).count("1") == size:
            out.append([lits[i] for i in range(n) if mask >> i & 1])
    out.sort(key=lambda group: [lits.index(x) for x in group])
    return out


def at_least_clauses(lits, k):
    lits = list(lits)
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return _subsets(lits, len(lits) - k + 1)


def at_most_clauses(lits, k):
    lits = list(lits)
    if k < 0:
        return [[]]
    if k >= len(lits):
        return []
    return [[-x for x in group] for group in _subsets(lits, k + 1)]
