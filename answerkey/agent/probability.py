"""Layer (c) of the agent: the exact mine probability of every hidden cell.

The view becomes the CSP that `build_csp(view.to_board())` gives (one variable per
hidden cell, one constraint per revealed number, the global mine count last), built
straight from the view by `view_csp`, which is faster. `answerkey.components.count.solution_counts`
counts its solutions by independent components: enumeration with the engine,
off-frontier cells weighted with binomials under the global count. Every layout consistent with the view is equally likely (the
game draws layouts uniformly, see `play.game`), so mines / total is the exact
probability, kept as a Fraction.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from answerkey.components.count import SolutionCounts, solution_counts
from play.view import View, neighbour_table
from solvers.board import Cell
from solvers.csp import CSP, Constraint


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


def view_csp(view: View) -> CSP:
    """`build_csp(view.to_board())`, the same CSP (variables, constraints, order), built
    straight from the view's cells with the cached neighbour table (a few times faster)."""
    cols = view.cols
    flat = [value for row in view.cells for value in row]
    table = neighbour_indices(view.rows, cols)
    var = [-1] * len(flat)
    cells: list[Cell] = []
    for i, value in enumerate(flat):
        if value < 0:
            var[i] = len(cells)
            cells.append(divmod(i, cols))
    constraints = [Constraint(tuple(var[j] for j in table[i] if var[j] >= 0), value, divmod(i, cols)) for i, value in enumerate(flat) if value >= 0]
    constraints.append(Constraint(tuple(range(len(cells))), view.mines))
    return CSP(tuple(cells), tuple(constraints))


@lru_cache(maxsize=16)
def neighbour_indices(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every cell (row-major index), its neighbours' indices in `solvers.board.neighbours` order."""
    return tuple(tuple(r * cols + c for r, c in cells) for cells in neighbour_table(rows, cols))


def probabilities(view: View) -> Probabilities:
    """Exact mine probabilities of every hidden cell of `view` (flags are not trusted: hidden cells)."""
    return Probabilities.of(solution_counts(view_csp(view)))
