"""Checking a claimed solution against the Board itself, without the CSP code.

Every clue is recounted from the mine layout, so a bug in the model or the engine cannot
make a wrong answer pass.
"""

from __future__ import annotations

from typing import Any

from solvers.board import Board, cell_name


def layout_problem(board: Board, grid: Any) -> str | None:
    """Why `grid` (rows of 0/1, 1 = mine) is not a solution of `board`, or None if it is."""
    if not isinstance(grid, list) or len(grid) != board.rows or any(not isinstance(row, list) or len(row) != board.cols for row in grid):
        return f"is not a {board.rows}x{board.cols} grid"
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value not in (0, 1) or isinstance(value, bool):
                return f"has {value!r} at {cell_name((r, c))}; cells must be 0 or 1"
            if value == 1 and board.rule == "classic" and board.clue((r, c)) is not None:
                return f"puts a mine on the clue at {cell_name((r, c))}"
    total = sum(map(sum, grid))
    if board.mines is not None and total != board.mines:
        return f"has {total} mines; the board has {board.mines}"
    for cell in board.clue_cells():
        counted = sum(grid[r][c] for r, c in board.counted(cell))
        if counted != board.clue(cell):
            return f"gives the clue {board.clue(cell)} at {cell_name(cell)} {counted} mines"
    return None
