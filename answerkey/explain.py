"""Explaining a forward check with the bound rule: which constraint narrowed which cells, and why."""

from __future__ import annotations

from dataclasses import dataclass

from answerkey.strategies import constraint_bounds
from solvers.csp import CSP, Constraint, Domains


@dataclass(frozen=True)
class Reason:
    """One application of the bound rule: a constraint, its bounds, and what it did."""

    constraint: Constraint
    low: int
    high: int
    forced: tuple[int, ...] = ()  # variables narrowed
    value: int | None = None  # the value they were narrowed to
    violated: bool = False


def explain(csp: CSP, before: Domains, after: Domains | None) -> tuple[list[Reason], list[int]]:
    """Reasons that take `before` to `after` by the bound rule (to a violation when `after` is None).

    Returns the reasons in the order they apply and the variables that changed with no
    reason (a forward check that narrowed more than the rule allows).
    """
    working = dict(before)
    reasons: list[Reason] = []
    progress = True
    while progress:
        progress = False
        for constraint in csp.constraints:
            low, high = constraint_bounds(constraint.scope, working)
            if low > constraint.total or high < constraint.total:
                reasons.append(Reason(constraint, low, high, violated=True))
                return reasons, []
            if low != constraint.total and high != constraint.total:
                continue
            pick = min if low == constraint.total else max
            forced = tuple(v for v in constraint.scope if len(working[v]) > 1 and (after is None or len(after.get(v, working[v])) < len(working[v])))
            if forced:
                value = pick(working[forced[0]])
                for var in forced:
                    working[var] = (pick(working[var]),)
                reasons.append(Reason(constraint, low, high, forced, value))
                progress = True
    unexplained = [] if after is None else [v for v in after if tuple(after[v]) != tuple(working[v])]
    return reasons, unexplained
