"""Explaining a forward check with the bound rule: which constraint narrowed which cells, and why.

The rule is applied as `constraint_bounds` and the handout describe it, pass after pass over
the constraints in order until nothing changes. A trace page explains every one of its
steps (10,000 on a 16x16 board, whose mine count spans all 246 cells), so each
constraint's bounds are summed once per step, from each sorted domain's ends, and then
moved by each narrowing, not summed again every pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from solvers.csp import CSP, Constraint, Domain, Domains

#: A sorted domain's smallest and largest values.
_LOWEST, _HIGHEST = itemgetter(0), itemgetter(-1)


@dataclass(frozen=True)
class Reason:
    """One application of the bound rule: a constraint, its bounds, and what it did."""

    constraint: Constraint
    low: int
    high: int
    forced: tuple[int, ...] = ()  # variables narrowed
    value: int | None = None  # the value they were narrowed to
    violated: bool = False


def _scope_bounds(scope: tuple[int, ...], domains: Domains) -> tuple[int, int]:
    """`constraint_bounds` for sorted domains (as steps hold them), summed in C: (1, 0)
    when a domain is empty."""
    ends = list(map(domains.__getitem__, scope))
    try:
        return sum(map(_LOWEST, ends)), sum(map(_HIGHEST, ends))
    except IndexError:  # an empty domain: no sum is reachable
        return 1, 0


def _narrow(csp: CSP, bounds: list[tuple[int, int]], var: int, domain: Domain, value: int) -> None:
    """Move the bounds of `var`'s constraints as its `domain` becomes (`value`,); a
    constraint with an empty domain keeps (1, 0)."""
    for index in csp.constraints_of[var]:
        low, high = bounds[index]
        if low <= high:
            bounds[index] = (low + value - domain[0], high + value - domain[-1])


def explain(csp: CSP, before: Domains, after: Domains | None) -> tuple[list[Reason], list[int]]:
    """Reasons that take `before` to `after` by the bound rule (to a violation when `after` is None).

    Returns the reasons in the order they apply and the variables that changed with no
    reason (a forward check that narrowed more than the rule allows). Domains are sorted
    tuples, as the engine builds them and steps hold them.
    """
    working = dict(before)
    bounds = [_scope_bounds(constraint.scope, working) for constraint in csp.constraints]
    reasons: list[Reason] = []
    progress = True
    while progress:
        progress = False
        for index, constraint in enumerate(csp.constraints):
            low, high = bounds[index]
            if low > constraint.total or high < constraint.total:
                reasons.append(Reason(constraint, low, high, violated=True))
                return reasons, []
            if low == high or (low != constraint.total and high != constraint.total):
                continue  # every variable decided (sorted domains' ends differ when undecided), or not tight
            end = _LOWEST if low == constraint.total else _HIGHEST
            forced = tuple(v for v in constraint.scope if len(working[v]) > 1 and (after is None or len(after.get(v, working[v])) < len(working[v])))
            if forced:
                value = end(working[forced[0]])
                for var in forced:
                    domain = working[var]
                    working[var] = (end(domain),)
                    _narrow(csp, bounds, var, domain, end(domain))
                reasons.append(Reason(constraint, low, high, forced, value))
                progress = True
    if after is None or after == working:
        return reasons, []
    return reasons, [v for v in after if tuple(after[v]) != tuple(working[v])]
