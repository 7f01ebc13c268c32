"""Erin's hooks: generators and itertools throughout."""

from itertools import combinations as choose
from operator import itemgetter


def constraint_bounds(scope, domains):
    ranges = [(d[0], d[-1]) for d in (domains[x] for x in scope) if d]
    if len(ranges) < len(scope):
        return 1, 0
    return sum(map(itemgetter(0), ranges)), sum(map(itemgetter(1), ranges))


def _narrow(domain, end):
    return domain if len(domain) <= 1 else (domain[end],)


def forward_check(csp, domains, assigned):
    state = {x: tuple(d) for x, d in domains.items()}
    for rule in csp.constraints:
        low, high = constraint_bounds(rule.scope, state)
        if rule.total < low or rule.total > high:
            return None
        end = 0 if rule.total == low else (-1 if rule.total == high else None)
        if end is not None:
            state.update((x, _narrow(state[x], end)) for x in rule.scope)
    return state


def select_variable(csp, domains, unassigned):
    def rank(x):
        return len(domains[x]), -len(csp.constraints_of[x]), x
    return sorted(unassigned, key=rank)[0]


def order_values(csp, var, domains):
    yield_order = (v for v in (0, 1) if v in domains[var])
    return list(yield_order)


def at_least_clauses(lits, k):
    if k > len(lits):
        return [[]]
    return [] if k <= 0 else list(map(list, choose(lits, len(lits) - k + 1)))


def at_most_clauses(lits, k):
    if k < 0:
        return [[]]
    negated = [-x for x in lits]
    return list(map(list, choose(negated, k + 1)))
