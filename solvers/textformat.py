"""Reading boards written as text: rows of tokens, '.' or '?' for an unknown cell.

Rows are whitespace- or comma-separated tokens (`. 3 . 1`), or, when no row has a
separator, one character per cell (`1100111`, as status grids are written).
"""

from __future__ import annotations

import re

from .board import MAX_CLUE, Board, Rule, board_from_rows, cell_name

UNKNOWN_TOKENS = frozenset({".", "?"})
_SEPARATORS = re.compile(r"[\s,]+")


class BoardFormatError(ValueError):
    """A board text that cannot be read. `row`/`column` count from 1 when known."""

    def __init__(self, message: str, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.row = row
        self.column = column

    def __str__(self) -> str:
        if self.row is not None and self.column is not None:
            return f"{cell_name((self.row - 1, self.column - 1))}: {self.message}"
        where = f"row {self.row}" if self.row is not None else f"column {self.column}" if self.column is not None else ""
        return f"{where}: {self.message}" if where else self.message


def split_rows(lines: list[str]) -> list[list[str]]:
    """Tokens of each row: separated by spaces/commas, or one per character when no row has a separator."""
    separated = any(_SEPARATORS.search(line) for line in lines)
    if separated:
        return [[tok for tok in _SEPARATORS.split(line) if tok] for line in lines]
    return [list(line) for line in lines]


def parse_token(token: str, rule: Rule, row: int, column: int) -> int | None:
    """A clue (int) or None for an unknown cell; BoardFormatError for anything else."""
    if token in UNKNOWN_TOKENS:
        return None
    if not (token.isascii() and token.isdigit()):
        raise BoardFormatError(f"{token!r} is not a clue or '.'/'?'", row, column)
    value = int(token)
    if value > MAX_CLUE[rule]:
        raise BoardFormatError(f"clue {value} is out of range 0-{MAX_CLUE[rule]} for the {rule} rule", row, column)
    return value


def parse_rows(lines: list[str], rule: Rule = "classic", mines: int | None = None) -> Board:
    """A Board from its non-blank text rows; every row must have the same number of cells."""
    if not lines:
        raise BoardFormatError("the board has no rows")
    rows = split_rows([line.strip() for line in lines])
    width = len(rows[0])
    grid = []
    for r, tokens in enumerate(rows, start=1):
        if len(tokens) != width:
            raise BoardFormatError(f"has {len(tokens)} cells, expected {width} like row 1", r)
        grid.append([parse_token(tok, rule, r, c) for c, tok in enumerate(tokens, start=1)])
    board = board_from_rows(grid, rule, mines)
    if mines is not None:
        check_mine_count(board)
    return board


def check_mine_count(board: Board) -> None:
    """BoardFormatError when the mine count is negative or exceeds the cells that can hold a mine."""
    room = len(board.mine_candidates())
    if board.mines is not None and not 0 <= board.mines <= room:
        raise BoardFormatError(f"{board.mines} mines do not fit: {room} cells can hold a mine")


def parse_board(text: str, rule: Rule = "classic", mines: int | None = None) -> Board:
    """A Board from a block of text (blank lines are ignored)."""
    return parse_rows([line for line in text.splitlines() if line.strip()], rule, mines)
