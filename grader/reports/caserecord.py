"""A hook's case as a typed record (`CaseRecord`): what the grader asked, what the student's
hook did and what the model answer expected, as fields, and the reason's text drawn from them.

The grader makes one record per case a reason shows (`grader.scoring.hookcases.case_record`);
an item keeps them (`ItemResult.cases`), JSON and kept results carry them, and every page
draws its boards and answer tables from their fields, never from a reason's words.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

#: What each state symbol of a variable's cell means (the terminal's symbols).
STATE_MEANINGS = {"?": "undecided", "◇": "safe", "◆": "a mine", "✗": "no value left", "": ""}
#: Characters per cell of a drawn board (as `solvers.trace_view.board_grid(numbered=True)` draws it).
CELL_WIDTH = 8
LEGEND = "vN is variable N: ? undecided, ◇ safe, ◆ a mine, ✗ no value left; digits are clues"


@dataclass(frozen=True)
class Cell:
    """One cell of a case's board: its clue (None: no clue), its variable (None: not a
    variable), the variable's state symbol (`STATE_MEANINGS`), and whether the call is about it."""

    clue: int | None = None
    var: int | None = None
    state: str = ""
    focus: bool = False

    @property
    def mark(self) -> str:
        """The cell as the terminal writes it: "2", "v3?", "1 v4◇", "[v0✗]"."""
        parts = [str(self.clue) if self.clue is not None else "", f"v{self.var}{self.state}" if self.var is not None else ""]
        text = " ".join(part for part in parts if part)
        return f"[{text}]" if self.focus and self.var is not None else text


@dataclass(frozen=True)
class BoardRecord:
    """A case's board: its rule, its mine count (None: none given) and its cells, row by row."""

    rule: str
    mines: int | None
    rows: tuple[tuple[Cell, ...], ...]

    @property
    def caption(self) -> str:
        """ "classic, 4 mines" / "inclusive, no mine count"."""
        count = ", no mine count" if self.mines is None else f", {self.mines} mine{'' if self.mines == 1 else 's'}"
        return f"{self.rule}{count}"

    def cell_of(self) -> dict[int, tuple[int, int]]:
        """Each variable's (row, column)."""
        return {cell.var: (r, c) for r, row in enumerate(self.rows) for c, cell in enumerate(row) if cell.var is not None}


@dataclass(frozen=True)
class CaseRecord:
    """One case a reason shows. `title` names it ('case 3, "a name"', or a call of a search),
    `why` says what it tests; `inputs` are its arguments in the handout's notation; `error`
    is what the hook raised ("" when it returned); `returned` and `expected` its answer and
    the model answer's (`returned_domains`/`expected_domains` variable by variable when both
    are domains); `differing` the first variable that differs and `difference` in words;
    `mistake` the recognised misconception's name and `mistake_says` its advice; `rerun`
    the command that reruns it, word by word; `raised`: where the error was raised (the
    exception's type and its line in the student's file), when the worker said."""

    hook: str
    title: str
    why: str
    board: BoardRecord | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    error: str = ""
    returned: str = ""
    expected: str = ""
    returned_domains: tuple[tuple[int, str], ...] | None = None
    expected_domains: tuple[tuple[int, str], ...] | None = None
    differing: int | None = None
    difference: str = ""
    mistake: str = ""
    mistake_says: str = ""
    rerun: tuple[str, ...] = ()
    raised: tuple[str, int] | None = None


def case_text(record: CaseRecord) -> str:
    """The record as a reason's lines (the terminal, Markdown, the class CSV read these)."""
    lines = [f"{record.title}: {record.why}"]
    if record.board is not None:
        lines.append(f"  board ({record.board.caption}; {LEGEND}):")
        lines += ["    " + "".join(cell.mark.center(CELL_WIDTH) for cell in row).rstrip() for row in record.board.rows]
    lines += [f"  {name}: {value}" for name, value in record.inputs]
    if record.error:
        lines.append(f"  your hook: {record.error}")
        return "\n".join(lines)
    lines += [f"  returned: {record.returned}", f"  expected: {record.expected}"]
    lines += [f"  first difference: {record.difference}"] if record.difference else []
    lines += [f"  this looks like: {record.mistake} ({record.mistake_says})"] if record.mistake else []
    return "\n".join(lines)


def record_data(record: CaseRecord) -> dict[str, Any]:
    """The record as plain data (JSON, kept results)."""
    return asdict(record)


def record_from_data(data: dict[str, Any]) -> CaseRecord:
    """The record `record_data` wrote (ValueError/TypeError/KeyError for data it cannot hold)."""
    board = data.get("board")
    rows = None
    if board is not None:
        rows = BoardRecord(
            str(board["rule"]),
            None if board["mines"] is None else int(board["mines"]),
            tuple(tuple(_cell(cell) for cell in row) for row in board["rows"]),
        )
    return CaseRecord(
        str(data["hook"]),
        str(data["title"]),
        str(data["why"]),
        rows,
        tuple((str(name), str(value)) for name, value in data.get("inputs", ())),
        str(data.get("error", "")),
        str(data.get("returned", "")),
        str(data.get("expected", "")),
        _domains(data.get("returned_domains")),
        _domains(data.get("expected_domains")),
        None if data.get("differing") is None else int(data["differing"]),
        str(data.get("difference", "")),
        str(data.get("mistake", "")),
        str(data.get("mistake_says", "")),
        tuple(str(word) for word in data.get("rerun", ())),
        None if data.get("raised") is None else (str(data["raised"][0]), int(data["raised"][1])),
    )


def _cell(data: dict[str, Any]) -> Cell:
    clue, var, state = data.get("clue"), data.get("var"), str(data.get("state", ""))
    if state not in STATE_MEANINGS:
        raise ValueError(f"an unknown cell state {state!r}")
    return Cell(None if clue is None else int(clue), None if var is None else int(var), state, bool(data.get("focus", False)))


def _domains(data: Any) -> tuple[tuple[int, str], ...] | None:
    return None if data is None else tuple((int(var), str(text)) for var, text in data)
