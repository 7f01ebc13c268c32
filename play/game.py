"""The rules of Minesweeper: a seeded game you open, flag and chord on.

A `Game` draws its mines when it is created, with `random.Random(seed)`: the same
level, rules and seed give the same game. The first `open` then enforces the rule set
(see `play.levels`): every mine in the protected zone (the clicked cell under `classic`,
the cell and its neighbours under `opening`) moves to a cell drawn uniformly among the
free cells outside the zone, one after the other. Either way the final layout is uniform
among the layouts that respect the rule, which is what the agent's probabilities assume.

Opening a 0 opens its neighbours, recursively (flood fill); flagged cells are never
opened by it. Chording a revealed number whose flagged neighbours are as many as the
number opens all its other hidden neighbours. The game is won when every safe cell is
revealed and lost when a mine is opened.
"""

from __future__ import annotations

import random
from typing import Literal

from solvers.board import Cell, cell_name, clues_for_layout

from .levels import Level, RuleSet, check_mines
from .view import ACTIONS, FLAGGED, HIDDEN, Move, View, neighbour_table

Status = Literal["ready", "playing", "won", "lost"]


class Game:
    """One game: the hidden layout and what has been revealed or flagged.

    `status` is "ready" before the first open, then "playing", then "won" or "lost".
    """

    def __init__(self, level: Level, rules: RuleSet = "classic", seed: int = 0) -> None:
        check_mines(level.cells, level.mines, rules)
        self.level, self.rules, self.seed = level, rules, seed
        self.rows, self.cols = level.rows, level.cols
        self._rng = random.Random(seed)
        self._around = [[r * self.cols + c for r, c in cells] for cells in neighbour_table(self.rows, self.cols)]
        self._mine = [False] * level.cells
        for index in self._rng.sample(range(level.cells), level.mines):
            self._mine[index] = True
        self._numbers: list[int] = []
        self._shown = [HIDDEN] * level.cells
        self.status: Status = "ready"
        self.revealed = 0
        self.flags = 0
        self.exploded: Cell | None = None
        self.moves = 0

    # --- reading the state ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.status in ("won", "lost")

    @property
    def safe_cells(self) -> int:
        return self.level.cells - self.level.mines

    @property
    def mines_left(self) -> int:
        """The mine counter: mines minus flags (negative when there are too many flags)."""
        return self.level.mines - self.flags

    def view(self) -> View:
        """What the player sees now."""
        shown, cols = self._shown, self.cols
        return View(self.rows, self.cols, self.level.mines, tuple(tuple(shown[i : i + cols]) for i in range(0, len(shown), cols)))

    def shown(self, cell: Cell) -> int:
        """The visible value of one cell (a number, HIDDEN or FLAGGED)."""
        return self._shown[self._index(cell)]

    def is_mine(self, cell: Cell) -> bool:
        """Whether a mine lies there (for the end screens and tests; the agent never asks)."""
        return self._mine[self._index(cell)]

    def mine_cells(self) -> list[Cell]:
        """Every mine, row-major."""
        return [divmod(i, self.cols) for i, mine in enumerate(self._mine) if mine]

    # --- acting -----------------------------------------------------------------------

    def open(self, cell: Cell) -> list[Cell]:
        """Open a hidden, unflagged cell (flood-filling from a 0); returns the cells revealed.

        Anything else (a revealed or flagged cell, a finished game) does nothing.
        """
        index = self._index(cell)
        if self.over or self._shown[index] != HIDDEN:
            return []
        if self.status == "ready":
            self._first_click(index)
        self.moves += 1
        if self._mine[index]:
            self.status, self.exploded = "lost", cell
            return []
        return self._reveal([index])

    def toggle_flag(self, cell: Cell) -> bool:
        """Put a flag on a hidden cell or take it off; returns whether the cell is now flagged."""
        index = self._index(cell)
        if self.over or self._shown[index] >= 0:
            return False
        flagged = self._shown[index] == HIDDEN
        self._shown[index] = FLAGGED if flagged else HIDDEN
        self.flags += 1 if flagged else -1
        self.moves += 1
        return flagged

    def chord(self, cell: Cell) -> list[Cell]:
        """On a revealed number with exactly that many flags around: open its other hidden neighbours."""
        index = self._index(cell)
        number = self._shown[index]
        if self.over or number <= 0:
            return []
        around = self._around[index]
        if sum(self._shown[i] == FLAGGED for i in around) != number:
            return []
        targets = [i for i in around if self._shown[i] == HIDDEN]
        self.moves += 1
        exploded = next((i for i in targets if self._mine[i]), None)
        if exploded is not None:
            self.status, self.exploded = "lost", divmod(exploded, self.cols)
            return []
        return self._reveal(targets)

    def illegal(self, move: Move) -> str | None:
        """Why an agent's move is not allowed (None when it is): the cell must be hidden and unflagged."""
        if not isinstance(move, Move) or move.action not in ACTIONS:
            return f"not a Move: {move!r}"
        cell = move.cell
        if not (isinstance(cell, tuple) and len(cell) == 2 and all(type(x) is int for x in cell)):
            return f"{move.action} of {cell!r}: a cell is a (row, col) pair of ints"
        if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
            return f"{move.action} of {cell_name(cell)}: outside the board, r1c1 to {cell_name((self.rows - 1, self.cols - 1))}"
        value = self.shown(cell)
        if value >= 0:
            return f"{move.action} of {cell_name(cell)}: the cell is already revealed"
        if value == FLAGGED:
            return f"{move.action} of {cell_name(cell)}: the cell is flagged"
        return None

    def apply(self, move: Move) -> None:
        """Play a legal agent move (see `illegal`): open it, or flag it."""
        if move.action == "open":
            self.open(move.cell)
        elif self.shown(move.cell) == HIDDEN:
            self.toggle_flag(move.cell)

    # --- internals --------------------------------------------------------------------

    def _index(self, cell: Cell) -> int:
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IndexError(f"cell {cell_name(cell)} is outside the {self.rows}x{self.cols} board")
        return r * self.cols + c

    def _first_click(self, index: int) -> None:
        """Move the mines out of the protected zone, then compute every cell's number."""
        zone = {index} | (set(self._around[index]) if self.rules == "opening" else set())
        for moved in sorted(i for i in zone if self._mine[i]):
            free = [i for i in range(self.level.cells) if not self._mine[i] and i not in zone]
            self._mine[moved] = False
            self._mine[self._rng.choice(free)] = True
        mines = [divmod(i, self.cols) for i, mine in enumerate(self._mine) if mine]
        self._numbers = [n for row in clues_for_layout(mines, self.rows, self.cols, "classic") for n in row]
        self.status = "playing"

    def _reveal(self, start: list[int]) -> list[Cell]:
        """Reveal safe cells, flood-filling through zeros; finish the game when all safe cells are out."""
        shown, numbers, around = self._shown, self._numbers, self._around
        revealed: list[int] = []
        stack = [i for i in start if shown[i] == HIDDEN]
        for i in stack:
            shown[i] = numbers[i]
        while stack:
            i = stack.pop()
            revealed.append(i)
            if numbers[i] == 0:
                for j in around[i]:
                    if shown[j] == HIDDEN:
                        shown[j] = numbers[j]
                        stack.append(j)
        self.revealed += len(revealed)
        if self.revealed == self.safe_cells:
            self.status = "won"
        return [divmod(i, self.cols) for i in revealed]
