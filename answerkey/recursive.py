"""Cell-by-cell recursive backtracking: the original status-grid solvers' baseline, and its propagating form.

Variables are assigned in their order (row-major cells), one decision per level of
recursion. Each constraint keeps two counters, the mines it still needs and its
unassigned variables, so an assignment costs only the constraints of one cell, and is
refused as soon as a constraint needs fewer than 0 mines or more than it has cells left
(the original solvers' "is it safe to put a mine here" test, made exact for both values). A
constraint is thereby checked completely once all its cells are assigned.

- `recursive_solve(csp)`: the original solvers' baseline. Tries a mine first, then no mine, as
  they do; no propagation, no variable ordering.
- `recursive_solve(csp, values=SAFE_FIRST, propagate=True)`: after each assignment, the
  bound rule of `answerkey.strategies` applied through the counters: a constraint needing
  0 more mines makes its other cells safe, one needing as many mines as it has cells
  left makes them mines, until nothing changes. Undone from a trail on backtracking, so
  a node costs the constraints it touches, not the size of the CSP: this is what
  `answerkey.components.solve` runs on large components.

Statistics follow the engine's: a node is one call, expanded when it tries values, a
dead end for each refused value; `max_stack` is the deepest recursion.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from solvers.csp import CSP
from solvers.engine import Mode, SearchResult, SearchStats

#: The original solvers try a mine first.
MINE_FIRST: tuple[int, ...] = (1, 0)
#: Safe first, as the engine's reference value order.
SAFE_FIRST: tuple[int, ...] = (0, 1)

UNASSIGNED = -1


@contextmanager
def recursion_room(depth: int) -> Iterator[None]:
    """Allow at least `depth` more nested Python calls for the duration (Python 3.11+
    runs Python-to-Python calls without growing the C stack)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, depth + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


class _Stop(Exception):
    """Raised to unwind the recursion after the first solution."""


class _Counters:
    """Per-constraint counters and the assignment, with a trail to undo assignments.

    When propagating, each assigned variable also has a *reason*: a bit mask of the
    decision levels it follows from (its own level for a decision; for a forced value,
    the reasons of the cells that forced it). A conflict reports the reasons behind it,
    which is what the backjumping in `recursive_solve` needs.
    """

    def __init__(self, csp: CSP, propagate: bool):
        self.scopes = [c.scope for c in csp.constraints]
        self.need = [c.total for c in csp.constraints]  # mines each constraint still needs
        self.left = [len(c.scope) for c in csp.constraints]  # its unassigned variables
        self.touching = csp.constraints_of
        self.value = [UNASSIGNED] * len(csp.cells)
        self.reason = [0] * len(csp.cells)
        self.trail: list[int] = []
        self.propagate = propagate

    def feasible(self) -> bool:
        """True while no constraint is already impossible."""
        return all(0 <= need <= left for need, left in zip(self.need, self.left))

    def forced(self, constraint: int) -> int | None:
        """The value the bound rule forces on the constraint's unassigned cells, if any."""
        need, left = self.need[constraint], self.left[constraint]
        if left == 0 or 0 < need < left:
            return None
        return 0 if need == 0 else 1

    def blame(self, constraint: int, value: int) -> int:
        """The reasons of the constraint's cells assigned `value` (what fills or starves it)."""
        mask = 0
        for var in self.scopes[constraint]:
            if self.value[var] == value:
                mask |= self.reason[var]
        return mask

    def initial(self) -> list[tuple[int, int, int]]:
        """Values the bound rule forces before any decision (no reasons)."""
        pending = []
        for index, scope in enumerate(self.scopes):
            value = self.forced(index)
            if value is not None:
                pending += [(var, value, 0) for var in scope]
        return pending

    def assign(self, pending: list[tuple[int, int, int]]) -> int | None:
        """Make the (variable, value, reason) assignments and, when propagating, what they
        force. Returns None, or on a conflict the mask of decision levels behind it."""
        value, need, left, touching = self.value, self.need, self.left, self.touching
        while pending:
            var, x, why = pending.pop()
            if value[var] != UNASSIGNED:
                if value[var] != x:
                    return why | self.reason[var]
                continue
            value[var] = x
            self.reason[var] = why
            self.trail.append(var)
            for c in touching[var]:
                need[c] -= x
                left[c] -= 1
            for c in touching[var]:
                if need[c] < 0:
                    return self.blame(c, 1)
                if need[c] > left[c]:
                    return self.blame(c, 0)
                if self.propagate:
                    forced = self.forced(c)
                    if forced is not None:
                        because = self.blame(c, 1 - forced)
                        pending += [(other, forced, because) for other in self.scopes[c] if value[other] == UNASSIGNED]
        return None

    def undo(self, mark: int) -> None:
        """Unassign everything assigned since the trail had `mark` entries."""
        value, need, left, touching, trail = self.value, self.need, self.left, self.touching, self.trail
        while len(trail) > mark:
            var = trail.pop()
            x = value[var]
            value[var] = UNASSIGNED
            for c in touching[var]:
                need[c] += x
                left[c] += 1


#: A conflict mask naming every level: nothing may be jumped over.
EVERY_LEVEL = -1


def recursive_solve(csp: CSP, mode: Mode = "first", values: Sequence[int] = MINE_FIRST, propagate: bool = False) -> SearchResult:
    """Backtrack cell by cell on `csp` in `mode` ("first", "all" or "count").

    With `propagate`, the bound rule runs after every assignment and, in "first" mode, a
    dead end jumps straight back to the latest decision it depends on (conflict-directed
    backjumping): decisions in between, on unrelated parts of the board, are not retried.
    """
    stats = SearchStats()
    started = time.perf_counter()
    n = len(csp.cells)
    state = _Counters(csp, propagate)
    solutions: list[tuple[int, ...]] = []
    count = 0
    backjump = propagate and mode == "first"

    def visit(var: int, level: int) -> int:
        """Search below `level`; returns the conflict mask when every branch failed."""
        nonlocal count
        stats.popped += 1
        stats.max_depth = max(stats.max_depth, level)
        stats.max_stack = max(stats.max_stack, level + 1)
        while var < n and state.value[var] != UNASSIGNED:
            var += 1
        if var == n:
            count += 1
            if mode != "count":
                solutions.append(tuple(state.value))
            if mode == "first":
                raise _Stop
            return EVERY_LEVEL
        stats.expanded += 1
        bit = 1 << level
        conflicts = 0
        for x in values:
            mark = len(state.trail)
            conflict = state.assign([(var, x, bit)])
            if conflict is None:
                conflict = visit(var + 1, level + 1)
            else:
                stats.dead_ends += 1
            state.undo(mark)
            if backjump and not conflict & bit:
                return conflict  # this decision played no part: changing it cannot help
            conflicts |= conflict
        return conflicts & ~bit if backjump else EVERY_LEVEL

    if state.feasible() and state.assign(state.initial() if propagate else []) is None:
        try:
            with recursion_room(n):  # one level per decision
                visit(0, 0)
        except _Stop:
            pass
    else:
        stats.dead_ends += 1
    stats.seconds = time.perf_counter() - started
    return SearchResult(solutions, count, stats)
