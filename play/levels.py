"""Board sizes and rule sets of the game.

The three standard levels follow Windows Minesweeper: Beginner 9x9 with 10 mines,
Intermediate 16x16 with 40, Expert 30 columns by 16 rows with 99. Any other size is a
custom level (`custom_level`).

Rule sets say what the first click is guaranteed:

- `classic`: the clicked cell is safe (a mine under it is moved to a free cell);
- `opening`: the clicked cell shows a 0 (no mine in it or its neighbours), so it opens
  an area.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RuleSet = Literal["classic", "opening"]
RULE_SETS: tuple[RuleSet, ...] = ("classic", "opening")

#: Cells a first click protects at most: under `opening`, the cell and its 8 neighbours.
PROTECTED = {"classic": 1, "opening": 9}

#: Largest custom side (rows or columns): keeps the terminal board and the agent usable.
MAX_SIDE = 60


@dataclass(frozen=True)
class Level:
    """A board size and mine count; `name` is a standard level's name or "custom"."""

    name: str
    rows: int
    cols: int
    mines: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def label(self) -> str:
        return f"{self.name} {self.cols}x{self.rows}, {self.mines} mine{'' if self.mines == 1 else 's'}"


BEGINNER = Level("beginner", 9, 9, 10)
INTERMEDIATE = Level("intermediate", 16, 16, 40)
EXPERT = Level("expert", 16, 30, 99)
LEVELS: dict[str, Level] = {level.name: level for level in (BEGINNER, INTERMEDIATE, EXPERT)}


def custom_level(rows: int, cols: int, mines: int, rules: RuleSet = "classic") -> Level:
    """A custom level, checked: a ValueError says what is wrong in one sentence."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"rows and columns must be between 1 and {MAX_SIDE} (got {cols}x{rows})")
    check_mines(rows * cols, mines, rules)
    return Level("custom", rows, cols, mines)


def check_mines(cells: int, mines: int, rules: RuleSet) -> None:
    """Raise ValueError unless `mines` leave room for the first click's protection."""
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rules {rules!r}: choose one of {', '.join(RULE_SETS)}")
    room = cells - PROTECTED[rules]
    if not 0 <= mines <= room:
        raise ValueError(f"{mines} mines do not fit: at most {max(room, 0)} on {cells} cells under '{rules}' rules")


def parse_level(text: str, rules: RuleSet = "classic") -> Level:
    """A level from a name (`beginner`, `intermediate`, `expert`) or `COLSxROWSxMINES` (e.g. 30x16x99),
    checked against the rule set (a ValueError says what is wrong)."""
    name = text.strip().lower()
    if name in LEVELS:
        check_mines(LEVELS[name].cells, LEVELS[name].mines, rules)
        return LEVELS[name]
    parts = name.split("x")
    if len(parts) == 3 and all(part.isdigit() for part in parts):
        cols, rows, mines = map(int, parts)
        return custom_level(rows, cols, mines, rules)
    raise ValueError(f"unknown level {text!r}: use beginner, intermediate, expert or COLSxROWSxMINES such as 30x16x99")
