"""One-move lookahead for guesses: what opening a cell would show, and what it leads to.

For a candidate cell c and each number v it can show, the position "c is safe and
shows v" is counted exactly: the layouts consistent with the view in which c is safe
and has v mines around it. Their number over the view's layouts is the exact chance
of that outcome; in it, a hidden cell safe in every layout is a certain move
(*progress*), and otherwise the safest cell is the next guess.

Counting is restricted to what the new number touches, so that a what-if costs little:

- the variables are the hidden cells next to a revealed number or to a candidate, and
  the constraints the revealed numbers (flags are not trusted: flagged cells are
  variables like any hidden cell, as in `answerkey.agent.probability`). They are propagated and
  split into components once (`answerkey.components.split.decompose`), each counted by mine
  number (`answerkey.components.count.ComponentCounter`);
- a what-if adds "c is safe" and "c's hidden neighbours hold v mines" to the components
  they touch, which are split and counted again (the counter's cache is kept); every
  other component keeps its table, and only the product of their mine-number tables
  enters the new count;
- the F hidden cells in no constraint take the other mines: a layout of the
  constrained cells with m mines stands for C(F, M - m) layouts of the board.

The count of each outcome is exact. The next guess's risk (0: progress) is exact for
the cells the new number touches and the cells in no constraint; for the cells of
untouched components it is their probability before the guess (which the new number
changes only through the global mine count).
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from answerkey.agent.probability import neighbour_indices
from answerkey.components.count import ComponentCounter, Poly, Table, binomials, poly_mul
from answerkey.components.split import decompose
from play.view import View
from solvers.board import Cell
from solvers.csp import CSP, Constraint


@dataclass(frozen=True)
class Outcome:
    """Opening a cell and seeing `value`: `layouts` of the view's layouts give it; in them
    `progress` (some hidden cell is safe in all of them), the lowest mine chance of any
    other hidden cell, `next_risk`, and the second lowest, `second_risk`."""

    value: int
    layouts: int
    progress: bool
    next_risk: float
    second_risk: float


class Lookahead:
    """Exact what-if counts for the candidate cells of one view (see the module docstring).

    `risk`: every hidden cell's mine probability on the view (`answerkey.agent.probability`)."""

    def __init__(self, view: View, candidates: list[Cell], risk: dict[Cell, float]) -> None:
        self.view = view
        self.risk = risk
        cols = view.cols
        flat = [value for row in view.cells for value in row]
        table = neighbour_indices(view.rows, cols)
        clues = [i for i, value in enumerate(flat) if value > 0 and any(flat[j] < 0 for j in table[i])]
        touched = {j for i in clues for j in table[i] if flat[j] < 0}
        for r, c in candidates:
            touched.add(r * cols + c)
            touched.update(j for j in table[r * cols + c] if flat[j] < 0)
        order = sorted(touched)  # row-major
        self.cells = tuple(divmod(i, cols) for i in order)
        self.index = {cell: var for var, cell in enumerate(self.cells)}
        number = {i: var for var, i in enumerate(order)}
        self.outside = sum(1 for value in flat if value < 0) - len(order)
        base = CSP(self.cells, tuple(Constraint(tuple(number[j] for j in table[i] if flat[j] < 0), flat[i], divmod(i, cols)) for i in clues))
        self.counter = ComponentCounter(per_variable=True)
        dec = decompose(base)
        if dec is None:
            raise ValueError("the view has no consistent layout")
        self.decided = dec.decided
        self.known_safe = {var for var, x in dec.decided.items() if not x}
        self.parts = dec.components
        # Only the untouched components' tables enter a what-if, and only their ways.
        ways_only = ComponentCounter(per_variable=False)
        self.ways = [ways_only.component(part).ways for part in self.parts]
        self.part_of = {var: i for i, part in enumerate(self.parts) for var in part.origin}
        self.residual = [
            tuple(Constraint(tuple(part.origin[v] for v in c.scope), c.total, c.cell) for c in part.csp.constraints) for part in self.parts
        ]

    def value(self, cell: Cell, total: int, beat: float = 0.0) -> float:
        """Two-move survival of opening `cell`: the sum over its outcomes of layouts / `total`
        (the view's layouts) times 1 with progress, else 1 - next_risk. Stops early, with a
        value of at most `beat`, once the outcomes left cannot lift it above `beat`."""
        return self.survey(cell, total, beat)[0]

    def survey(self, cell: Cell, total: int, beat: float = 0.0) -> tuple[float, int, bool]:
        """(`value`, how many numbers `cell` was seen to be able to show, whether every one was
        counted). A cell counted in full that can show only one number is *dead*: opening it
        tells nothing but that it was safe."""
        left = 1.0 - self.risk[cell]
        value = 0.0
        seen = 0
        stopped = False

        def stop() -> bool:
            nonlocal stopped
            stopped = value + left <= beat
            return stopped

        for outcome in self.outcomes(cell, stop=stop):
            share = outcome.layouts / total
            left -= share
            seen += 1
            value += share * self.worth(outcome)
        return value, seen, not stopped

    def worth(self, outcome: Outcome) -> float:
        """What an outcome is worth to two-move survival: 1 with progress, else 1 - the next guess's risk."""
        return 1.0 if outcome.progress else 1.0 - outcome.next_risk

    def outcomes(self, cell: Cell, stop: Callable[[], bool] = lambda: False) -> Iterator[Outcome]:
        """Every number `cell` can show (when safe), with its exact count and what follows;
        no more once `stop()` says so (asked before each count)."""
        me = self.index[cell]
        around = [self.index[n] for n in self.view.neighbours(cell) if n in self.index]
        known = sum(self.decided.get(var, 0) for var in around)
        open_vars = [var for var in around if var not in self.decided]
        touched = sorted({self.part_of[var] for var in (me, *open_vars) if var in self.part_of})
        others: Poly = (1,)
        untouched_vars: list[int] = []
        for i, ways in enumerate(self.ways):
            if i not in touched:
                others = poly_mul(others, ways)
                untouched_vars.extend(self.parts[i].origin)
        constraints = tuple(c for i in touched for c in self.residual[i])
        untouched = set(untouched_vars)
        if self.decided.get(me) == 1:
            return  # a mine in every layout: it shows nothing
        safe = () if me in self.decided else (Constraint((me,), 0),)
        for value in range(known, known + len(open_vars) + 1):
            if stop():
                return
            extra = safe + ((Constraint(tuple(open_vars), value - known, cell),) if open_vars else ())
            outcome = self.what_if(me, value, constraints + extra, others, untouched)
            if outcome is not None:
                yield outcome

    def what_if(self, me: int, value: int, constraints: tuple[Constraint, ...], others: Poly, untouched: set[int]) -> Outcome | None:
        """The exact count with the touched components' `constraints` (new ones included)."""
        dec = decompose(CSP(self.cells, constraints))
        if dec is None:
            return None
        tables = [self.counter.component(part) for part in dec.components]
        fresh = {var: x for var, x in dec.decided.items() if var not in self.decided}
        free = sum(1 for var in dec.free if var not in untouched and var not in self.decided) + self.outside
        mines_left = self.view.mines - sum(self.decided.values()) - sum(fresh.values())
        if mines_left < 0:
            return None
        # outside[k]: the layouts of the untouched components and of the cells in no
        # constraint that complete a layout of the touched ones with k mines.
        size = sum(len(table.ways) - 1 for table in tables) + 1
        outside = completions(others, free, mines_left, size)
        joint = joint_ways(tables)
        total = dot(joint, outside)
        if total == 0:
            return None
        weights = table_weights([table.ways for table in tables], outside)
        counts = [dot(poly, weight) for table, weight in zip(tables, weights) for poly in table.mines or ()]
        if any(not x for var, x in fresh.items() if var != me) or self.known_safe - {me}:
            counts.append(0)
        if free:  # a cell in no constraint: the others hold the rest
            counts += [dot(joint, completions(others, free - 1, mines_left - 1, size))] * min(free, 2)
        risks = [count / total for count in heapq.nsmallest(2, counts)]
        # the untouched components' layouts are not recounted: their probability before the guess
        risks = heapq.nsmallest(2, risks + heapq.nsmallest(2, (self.risk[self.cells[var]] for var in untouched)))
        risks += [1.0] * (2 - len(risks))
        return Outcome(value, total, risks[0] == 0, risks[0], risks[1])


def dot(poly: Poly, weight: Poly) -> int:
    """Sum of poly[k] * weight[k]: layouts counted by mine number, each with its weight."""
    return sum(map(operator.mul, poly, weight))


def joint_ways(tables: list[Table]) -> Poly:
    """The layouts of several independent tables together, by number of mines."""
    ways: Poly = (1,)
    for table in tables:
        ways = poly_mul(ways, table.ways)
    return ways


def completions(others: Poly, free: int, mines: int, size: int) -> Poly:
    """For k < `size`: the ways to place the other `mines` - k mines on layouts counted by
    `others` (by mine number) and `free` cells in no constraint."""
    row = binomials(free)
    out = []
    for k in range(size):
        left = mines - k
        out.append(0 if left < 0 else sum(x * row[left - j] for j, x in enumerate(others[: left + 1]) if x and left - j <= free))
    return tuple(out)


def table_weights(ways: list[Poly], outside: Poly) -> list[Poly]:
    """For each independent table (its `ways`): what one of its layouts with a mines is
    worth, summed over the other tables' layouts (b mines together) of outside[a + b]."""
    weights = []
    for i, own in enumerate(ways):
        rest: Poly = (1,)
        for j, other in enumerate(ways):
            if j != i:
                rest = poly_mul(rest, other)
        weights.append(tuple(sum(r * outside[a + b] for b, r in enumerate(rest) if a + b < len(outside)) for a in range(len(own))))
    return weights
