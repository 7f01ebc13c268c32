"""What a player sees, and what a player does: the `View` and the `Move`.

A `View` is the visible board and nothing more (the mines stay hidden). `cells[r][c]` is

- 0..8: a revealed cell, showing how many of its 8 neighbours hold a mine;
- `HIDDEN` (-1): not revealed yet;
- `FLAGGED` (-2): not revealed, with a flag on it (a flag is the player's claim, it may be wrong).

`View.to_board()` turns it into a `solvers.board.Board` (classic rule, a clue for each
revealed cell, None for every hidden or flagged cell, the total mine count), so the
agent reasons with the solvers' CSP model rather than a second copy of it.

A `Move` is `Move("open", (row, col))` or `Move("flag", (row, col))`, rows and columns
counted from 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from solvers.board import Board, Cell, cell_name, neighbours

HIDDEN = -1
FLAGGED = -2

Action = Literal["open", "flag"]
ACTIONS: tuple[Action, ...] = ("open", "flag")


@dataclass(frozen=True)
class Move:
    """Open a cell, or put a flag on it. `cell` is (row, col), counted from 0."""

    action: Action
    cell: Cell

    def __str__(self) -> str:
        return f"{self.action} {cell_name(self.cell)}"


@lru_cache(maxsize=16)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[Cell, ...], ...]:
    """`neighbour_table(rows, cols)[r * cols + c]`: the neighbours of (r, c), from `solvers.board.neighbours`."""
    return tuple(neighbours((r, c), rows, cols) for r in range(rows) for c in range(cols))


@dataclass(frozen=True)
class View:
    """The visible board: `rows` x `cols` cells (see the module docstring), `mines` in total."""

    rows: int
    cols: int
    mines: int
    cells: tuple[tuple[int, ...], ...]

    def __getitem__(self, cell: Cell) -> int:
        return self.cells[cell[0]][cell[1]]

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The up to 8 cells touching `cell`."""
        return neighbour_table(self.rows, self.cols)[cell[0] * self.cols + cell[1]]

    def all_cells(self) -> Iterator[Cell]:
        """Every cell, row-major."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def hidden(self) -> list[Cell]:
        """Every cell not revealed yet, row-major: the flagged cells too (a flag is the
        player's note, not a revealed cell; `flags()` lists them apart)."""
        return [cell for cell in self.all_cells() if self[cell] < 0]

    def flags(self) -> list[Cell]:
        """Flagged cells, row-major."""
        return [cell for cell in self.all_cells() if self[cell] == FLAGGED]

    @property
    def started(self) -> bool:
        """True once some cell is revealed."""
        return any(value >= 0 for row in self.cells for value in row)

    def to_board(self) -> Board:
        """The solvers' Board: clue per revealed cell, None for hidden and flagged cells, all mines."""
        return Board(tuple(tuple(v if v >= 0 else None for v in row) for row in self.cells), "classic", self.mines)

    def text(self) -> str:
        """Rows of symbols: digits, '.' hidden, 'F' flagged (for messages and tests)."""
        symbol = {HIDDEN: ".", FLAGGED: "F"}
        return "\n".join(" ".join(symbol.get(v, str(v)) for v in row) for row in self.cells)


def view_from_text(text: str, mines: int) -> View:
    """A View from `View.text()`'s format: whitespace-separated digits, '.' and 'F'."""
    code = {".": HIDDEN, "F": FLAGGED}
    rows = [tuple(code[t] if t in code else int(t) for t in line.split()) for line in text.strip().splitlines()]
    return View(len(rows), len(rows[0]), mines, tuple(rows))
