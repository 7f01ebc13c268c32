"""Exact endgame search: the move that wins the most layouts, when few layouts remain.

When the view admits only a few layouts, every one of them is listed (the engine's
`search` on the view's CSP, mode "all") and the game is solved exactly as a game against
chance: every layout is equally likely, opening a cell either hits a mine (in the
layouts where it is one) or shows a number, which splits the remaining layouts.

`wins(S)`, for a set S of layouts, is how many of them an optimal player wins:

- one layout left: the player knows every mine, 1;
- a cell safe in every layout of S costs nothing to open: when the numbers such cells
  show split S, wins(S) is the sum over the parts (free information never hurts);
- otherwise the best cell c to open: the sum, over the numbers v that c can show, of
  wins(layouts where c is safe and shows v).

A set of layouts is a bit mask (bit i: layout i), and each cell keeps one mask per
number it can show, so splitting a set is one AND per number and a cell's safe count
one popcount. Counting wins as integers keeps the search exact (win probability =
wins / |S|). A cell that is safe in at most `best` layouts cannot beat `best`, which
prunes the search; a node budget bounds it, and when it runs out the agent falls back
to its heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass

from answerkey.fastsearch import search
from answerkey.strategies import REFERENCE
from play.view import View
from solvers.board import Cell
from solvers.csp import CSP


class OutOfBudget(Exception):
    """The search visited more nodes than it was allowed."""


@dataclass(frozen=True)
class EndgamePlan:
    """The best cell to open: it wins `wins` of the `layouts` remaining layouts."""

    cell: Cell
    wins: int
    layouts: int
    safe: int


class Endgame:
    """The exact game tree over an explicit list of layouts (sets of layouts are bit masks)."""

    def __init__(self, view: View, csp: CSP, layouts: list[tuple[int, ...]], budget: int) -> None:
        self.cells = csp.cells
        index = {cell: var for var, cell in enumerate(csp.cells)}
        around = [[index[n] for n in view.neighbours(cell) if n in index] for cell in csp.cells]
        # shows[var][layout]: the number var shows in that layout, -1 where it is a mine.
        self.shows = [tuple(-1 if layout[var] else sum(layout[n] for n in around[var]) for layout in layouts) for var in range(len(csp.cells))]
        # numbers[var]: for each number var can show, the mask of layouts where it shows it;
        # safe[var]: the layouts where var is safe.
        self.numbers: list[tuple[int, ...]] = []
        self.safe: list[int] = []
        for shows in self.shows:
            masks: dict[int, int] = {}
            for layout, value in enumerate(shows):
                if value >= 0:
                    masks[value] = masks.get(value, 0) | (1 << layout)
            self.numbers.append(tuple(masks.values()))
            self.safe.append(sum(masks.values()))
        # Cells that split every set of layouts alike are one move: the first of each kind
        # stands for the others (most endgame cells have a twin; the search and its choice
        # are the same, since the lowest-numbered cell wins every tie).
        kinds: dict[tuple[int, ...], int] = {}
        for var, numbers in enumerate(self.numbers):
            kinds.setdefault(tuple(sorted(numbers)), var)
        self.moves = sorted(kinds.values())
        self.everything = (1 << len(layouts)) - 1
        self.budget = budget
        self.memo: dict[int, int] = {}

    def split(self, var: int, layouts: int) -> list[int]:
        """The layouts where `var` is safe, grouped by the number it shows."""
        return [part for mask in self.numbers[var] if (part := layouts & mask)]

    def wins(self, layouts: int) -> int:
        """How many of `layouts` (a mask) an optimal player wins from here."""
        if layouts & (layouts - 1) == 0:
            return layouts.bit_count()
        known = self.memo.get(layouts)
        if known is not None:
            return known
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget
        free, risky = self.classify(layouts)
        for var in free:
            parts = self.split(var, layouts)
            if len(parts) > 1:
                result = sum(self.wins(part) for part in parts)
                break
        else:
            result = self.best(layouts, risky)[1]
        self.memo[layouts] = result
        return result

    def classify(self, layouts: int) -> tuple[list[int], list[tuple[int, int]]]:
        """(cells safe in every layout, (safe count, cell) of the others that are sometimes safe)."""
        free, risky = [], []
        for var in self.moves:
            both = layouts & self.safe[var]
            if both == layouts:
                free.append(var)
            elif both:
                risky.append((both.bit_count(), var))
        risky.sort(key=lambda pair: -pair[0])
        return free, risky

    def best(self, layouts: int, risky: list[tuple[int, int]]) -> tuple[int, int]:
        """(cell, wins) of the best risky cell, safest first; a cell safe in <= best layouts is skipped."""
        best_var, best_wins = risky[0][1], -1
        for safe, var in risky:
            if safe <= best_wins:
                break
            won = sum(self.wins(part) for part in self.split(var, layouts))
            if won > best_wins:
                best_var, best_wins = var, won
        return best_var, best_wins

    def plan(self) -> EndgamePlan | None:
        """The best first move, or None when every layout is already decided or a cell is free."""
        layouts = self.everything
        if layouts.bit_count() < 2:
            return None
        free, risky = self.classify(layouts)
        if free or not risky:
            return None
        var, won = self.best(layouts, risky)
        safe = next(s for s, v in risky if v == var)
        return EndgamePlan(self.cells[var], won, layouts.bit_count(), safe)


def endgame_plan(view: View, csp: CSP, budget: int) -> EndgamePlan | None:
    """Solve the endgame of `view` exactly; None when it runs out of `budget` nodes."""
    layouts = search(csp, REFERENCE, "all").solutions
    try:
        return Endgame(view, csp, layouts, budget).plan()
    except OutOfBudget:
        return None
