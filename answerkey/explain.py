"""Explaining a forward check with the bound rule: which constraint narrowed which cells, and why.

The rule is applied as `constraint_bounds` and the handout describe it, pass after pass over
the constraints in order until nothing changes. The domains are read as a step keeps them
(`solvers.trace`: one character per variable), since a trace page explains every one of its
steps (10,000 on a 16x16 board, whose mine count spans all 246 cells): each constraint's
bounds are counted once per step and then moved by each narrowing, not summed again every
pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.csp import BOOLEAN, CSP, Constraint
from solvers.trace import DOMAIN_CODES, differing

#: The characters of an undecided variable, a mine, a safe cell and a variable with no value left.
OPEN, MINE, SAFE, NONE = (DOMAIN_CODES[domain] for domain in (BOOLEAN, (1,), (0,), ()))


@dataclass(frozen=True)
class Reason:
    """One application of the bound rule: a constraint, its bounds, and what it did."""

    constraint: Constraint
    low: int
    high: int
    forced: tuple[int, ...] = ()  # variables narrowed
    value: int | None = None  # the value they were narrowed to
    violated: bool = False


def _bounds(scope: tuple[int, ...], working: list[str]) -> tuple[int, int]:
    """`constraint_bounds` of `scope`: its mines, and its mines and undecided variables;
    (1, 0) when a variable has no value left."""
    states = "".join(map(working.__getitem__, scope))
    if NONE in states:
        return 1, 0
    mines = states.count(MINE)
    return mines, mines + states.count(OPEN)


def _undecided(scope: tuple[int, ...], working: list[str]) -> list[int]:
    """The variables of `scope` with both values left."""
    states = "".join(map(working.__getitem__, scope))
    return [var for var, state in zip(scope, states) if state == OPEN]


def _move(bounds: list[tuple[int, int]], index: int, value: int) -> None:
    """Constraint `index` had a variable decided as `value` (a mine raises its lower bound,
    a safe cell lowers its upper one); (1, 0), no sum reachable, stays."""
    low, high = bounds[index]
    if low <= high:
        bounds[index] = (low + 1, high) if value else (low, high - 1)


def explain(csp: CSP, before: str, after: str | None) -> tuple[list[Reason], list[int]]:
    """Reasons that take `before` to `after` by the bound rule (to a violation when `after`
    is None), domains as a step keeps them.

    Returns the reasons in the order they apply and the variables that changed with no
    reason (a forward check that narrowed more than the rule allows).
    """
    working = list(before)
    bounds = [_bounds(constraint.scope, working) for constraint in csp.constraints]
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
                continue  # nothing undecided, or not tight
            undecided = _undecided(constraint.scope, working)
            forced = tuple(undecided if after is None else [v for v in undecided if after[v] != OPEN])
            if forced:
                value = 0 if low == constraint.total else 1
                for var in forced:
                    working[var] = MINE if value else SAFE
                    for other in csp.constraints_of[var]:
                        _move(bounds, other, value)
                reasons.append(Reason(constraint, low, high, forced, value))
                progress = True
    return reasons, [] if after is None else differing(after, "".join(working))
