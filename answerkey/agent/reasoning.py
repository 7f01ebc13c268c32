"""Layers (a) and (b) of the agent: certain moves read off one clue, or a pair of clues.

Both work on the *residual* clues of a view: a revealed number, its hidden neighbours
that are not yet known mines (the clue's *unknowns*), and how many mines they still hold
(the number minus the known mines around it, its *need*).

- (a) single clue: need 0 makes every unknown safe; need equal to the number of unknowns
  makes every unknown a mine.
- (b) subset: when the unknowns of clue A are all unknowns of clue B, the cells B has
  and A has not hold need_B - need_A mines: 0 makes them all safe, their number makes
  them all mines.

`deduce` applies both to closure: every mine found feeds the next round, so one call
returns every cell these two rules can settle, in the order they were found, each with
the rule and the clue(s) behind it. Sets of cells are bit masks over the row-major cell
index (bit r * cols + c), which keeps the subset tests cheap.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from play.view import FLAGGED, View, neighbour_table
from solvers.board import Cell

DeductionRule = Literal["single", "subset"]  # rule (a) or (b) of the handout; a board's counting rule is solvers.board.Rule


@dataclass(frozen=True)
class Deduction:
    """A cell settled by rule (a) or (b): `mine` or safe, and the clue cells that show it."""

    cell: Cell
    mine: bool
    rule: DeductionRule
    clues: tuple[Cell, ...]


@lru_cache(maxsize=16)
def neighbour_masks(rows: int, cols: int) -> tuple[int, ...]:
    """For every cell (row-major), the bit mask of its neighbours."""
    return tuple(sum(1 << (r * cols + c) for r, c in cells) for cells in neighbour_table(rows, cols))


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass
class Clue:
    """A revealed number's residual constraint: `unknowns` (a mask) hold `need` mines."""

    index: int
    unknowns: int
    need: int


def hidden_masks(view: View) -> tuple[int, int]:
    """(hidden cells, flagged cells) of a view, as bit masks; hidden includes flagged."""
    hidden = flagged = 0
    bit = 1
    for row in view.cells:
        for value in row:
            if value < 0:
                hidden |= bit
                if value == FLAGGED:
                    flagged |= bit
            bit <<= 1
    return hidden, flagged


def residual_clues(view: View, hidden: int, known_mines: int) -> list[Clue]:
    """The revealed numbers with unknown neighbours, reduced by `known_mines` (masks, as `hidden`)."""
    masks = neighbour_masks(view.rows, view.cols)
    unknown = hidden & ~known_mines
    clues = []
    index = 0
    for row in view.cells:
        for value in row:
            if value > 0:
                around = masks[index] & unknown
                if around:
                    clues.append(Clue(index, around, value - (masks[index] & known_mines).bit_count()))
            index += 1
    return clues


class Deducer:
    """Rules (a) and (b) to closure over the residual clues of one view (with `trust_flags`,
    flagged cells are known mines)."""

    def __init__(self, view: View, trust_flags: bool = True) -> None:
        hidden, flagged = hidden_masks(view)
        known_mines = flagged if trust_flags else 0
        self.cols = view.cols
        self.clues = residual_clues(view, hidden, known_mines)
        self.mines = known_mines
        self.safe = 0
        self.found: list[Deduction] = []

    def cell(self, index: int) -> Cell:
        return divmod(index, self.cols)

    def settle(self, mask: int, mine: bool, rule: DeductionRule, clues: tuple[int, ...]) -> None:
        """Record every cell of `mask` not settled yet as a mine or safe."""
        fresh = mask & ~(self.mines | self.safe)
        if not fresh:
            return
        if mine:
            self.mines |= fresh
        else:
            self.safe |= fresh
        sources = tuple(self.cell(i) for i in clues)
        self.found.extend(Deduction(self.cell(i), mine, rule, sources) for i in bits(fresh))

    def reduce(self) -> None:
        """Take settled cells out of every clue; drop clues with nothing left."""
        settled, mines = self.mines | self.safe, self.mines
        kept = []
        for clue in self.clues:
            if clue.unknowns & settled:
                clue.need -= (clue.unknowns & mines).bit_count()
                clue.unknowns &= ~settled
            if clue.unknowns:
                kept.append(clue)
        self.clues = kept

    def single(self) -> bool:
        """Rule (a) on every clue; True when it settled something."""
        before = len(self.found)
        for clue in self.clues:
            if clue.need == 0:
                self.settle(clue.unknowns, False, "single", (clue.index,))
            elif clue.need == clue.unknowns.bit_count():
                self.settle(clue.unknowns, True, "single", (clue.index,))
        return len(self.found) > before

    def subset(self) -> bool:
        """Rule (b) on every pair of clues sharing a cell; True when it settled something."""
        before = len(self.found)
        touching: dict[int, list[Clue]] = {}
        for clue in self.clues:
            for i in bits(clue.unknowns):
                touching.setdefault(i, []).append(clue)
        for a in self.clues:
            seen: set[int] = set()
            for i in bits(a.unknowns):
                for b in touching[i]:
                    if b is a or b.index in seen:
                        continue
                    seen.add(b.index)
                    if a.unknowns & ~b.unknowns:
                        continue
                    rest = b.unknowns & ~a.unknowns
                    if not rest:
                        continue
                    extra = b.need - a.need
                    if extra == 0:
                        self.settle(rest, False, "subset", (a.index, b.index))
                    elif extra == rest.bit_count():
                        self.settle(rest, True, "subset", (a.index, b.index))
        return len(self.found) > before

    def run(self) -> list[Deduction]:
        """Apply (a), then (b) when (a) is stuck, until neither settles anything new."""
        while self.clues:
            if not self.single() and not self.subset():
                break
            self.reduce()
        return self.found


def deduce(view: View, trust_flags: bool = True) -> list[Deduction]:
    """Every cell rules (a) and (b) settle on `view`, in the order they were found.

    With `trust_flags`, flagged cells count as known mines (right for an agent that only
    flags what it proved); without, flags are ignored and every mine is proved again.
    """
    return Deducer(view, trust_flags).run()
