"""Layer (c) of the agent: the exact mine probability of every hidden cell.

The view becomes a solvers Board (`View.to_board`), the Board the CSP of `build_csp`
(one variable per hidden cell, one constraint per revealed number, the global mine
count last), and `solvers.counting.solution_counts` counts its solutions by independent
components: enumeration with the engine, off-frontier cells weighted with binomials
under the global count. Every layout consistent with the view is equally likely (the
game draws layouts uniformly, see `play.game`), so mines / total is the exact
probability, kept as a Fraction.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solvers.board import Cell
from solvers.counting import SolutionCounts, solution_counts
from solvers.csp import CSP, build_csp

from .view import View


@dataclass(frozen=True)
class Probabilities:
    """Exact counts for a view: `total` layouts; `mines[cell]` of them have a mine in `cell`."""

    csp: CSP
    total: int
    mines: dict[Cell, int]

    @classmethod
    def of(cls, counts: SolutionCounts) -> Probabilities:
        return cls(counts.csp, counts.total, counts.by_cell())

    def __getitem__(self, cell: Cell) -> Fraction:
        """The probability that `cell` holds a mine (0 for a revealed cell)."""
        return Fraction(self.mines.get(cell, 0), self.total) if self.total else Fraction(0)

    def as_dict(self) -> dict[Cell, Fraction]:
        """Every hidden cell's probability."""
        return {cell: self[cell] for cell in self.mines}

    def safe(self) -> list[Cell]:
        """Hidden cells that are safe in every layout, row-major."""
        return [cell for cell, mines in self.mines.items() if mines == 0] if self.total else []

    def certain_mines(self) -> list[Cell]:
        """Hidden cells that are mines in every layout, row-major."""
        return [cell for cell, mines in self.mines.items() if mines == self.total] if self.total else []


def probabilities(view: View) -> Probabilities:
    """Exact mine probabilities of every hidden cell of `view` (flags are not trusted: hidden cells)."""
    return Probabilities.of(solution_counts(build_csp(view.to_board())))
