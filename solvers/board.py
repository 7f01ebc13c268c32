"""The Minesweeper board: a grid of clues and unknown cells under one counting rule.

This module is the only place that knows which cells a clue counts. Everything else
(the CSP, the checker, the generators, the game) asks it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Cell = tuple[int, int]
Rule = Literal["classic", "inclusive"]
RULES: tuple[Rule, ...] = ("classic", "inclusive")

#: Largest clue a rule allows: 8 neighbours, or the 3x3 block including the cell.
MAX_CLUE: dict[str, int] = {"classic": 8, "inclusive": 9}


def cell_name(cell: Cell) -> str:
    """A cell as every message writes it: r4c3 is row 4, column 3, counted from 1 at the
    top left, the cell (3, 2) of code, which counts from 0."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def neighbours(cell: Cell, rows: int, cols: int) -> tuple[Cell, ...]:
    """The up to 8 cells touching `cell` on a rows x cols grid, in row-major order."""
    r, c = cell
    return tuple((rr, cc) for rr in range(max(r - 1, 0), min(r + 2, rows)) for cc in range(max(c - 1, 0), min(c + 2, cols)) if (rr, cc) != cell)


@lru_cache(maxsize=1 << 16)
def counted_cells(cell: Cell, rows: int, cols: int, rule: Rule) -> tuple[Cell, ...]:
    """The cells a clue at `cell` counts: its neighbours, plus itself under `inclusive`.

    >>> counted_cells((0, 0), 3, 3, "inclusive")
    ((0, 0), (0, 1), (1, 0), (1, 1))
    """
    around = neighbours(cell, rows, cols)
    return tuple(sorted(around + (cell,))) if rule == "inclusive" else around


@dataclass(frozen=True)
class Board:
    """A rectangular board. `clues[r][c]` is a clue (an int) or None for an unknown cell.

    `rule` says what a clue counts (see `counted_cells`); `mines`, when given, is the
    total number of mines on the board (the global constraint).
    """

    clues: tuple[tuple[int | None, ...], ...]
    rule: Rule = "classic"
    mines: int | None = None

    @property
    def rows(self) -> int:
        return len(self.clues)

    @property
    def cols(self) -> int:
        return len(self.clues[0]) if self.clues else 0

    def cells(self) -> Iterable[Cell]:
        """Every cell, row-major."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def clue(self, cell: Cell) -> int | None:
        return self.clues[cell[0]][cell[1]]

    def clue_cells(self) -> list[Cell]:
        """Cells holding a clue, row-major."""
        return [cell for cell in self.cells() if self.clue(cell) is not None]

    def mine_candidates(self) -> list[Cell]:
        """Cells that may hold a mine, row-major: the CSP's variables.

        Under `classic` a clue cell is safe; under `inclusive` any cell may be a mine.
        """
        if self.rule == "inclusive":
            return list(self.cells())
        return [cell for cell in self.cells() if self.clue(cell) is None]

    def counted(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells the clue at `cell` counts under this board's rule."""
        return counted_cells(cell, self.rows, self.cols, self.rule)

    def rows_text(self) -> list[str]:
        """The board as rows of space-separated tokens ('.' for an unknown cell)."""
        return [" ".join("." if v is None else str(v) for v in row) for row in self.clues]


def board_from_rows(rows: Sequence[Sequence[int | None]], rule: Rule = "classic", mines: int | None = None) -> Board:
    """Build a Board from nested sequences, e.g. ``[[None, 1], [1, None]]``."""
    return Board(tuple(tuple(row) for row in rows), rule, mines)


def clues_for_layout(mines: Iterable[Cell], rows: int, cols: int, rule: Rule) -> list[list[int]]:
    """The clue every cell would show for this set of mine cells (a status grid)."""
    mine_set = set(mines)
    return [[sum(cell in mine_set for cell in counted_cells((r, c), rows, cols, rule)) for c in range(cols)] for r in range(rows)]
