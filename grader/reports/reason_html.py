"""A reason for lost points as HTML: its boards drawn as grids, its case inputs and
answers as tables, every other line as text. Read alike by the feedback page and by
Gradescope's per-test output, so that both show the same content.

A reason is text the grader wrote (`describe_case` in grader/scoring/hookcases.py) with
values of the student's code quoted in it; everything taken from it is escaped here, and
what is not recognised stays a block of text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from solvers.board import cell_name

#: A board's first line in a reason: "board (classic, 4 mines; vN is variable N: ...):".
BOARD_HEAD = re.compile(r"^\s*board \(([^;)]*)[^:]*:.*$")
#: A line "  name: value" of a case (domains, assigned, returned, expected...).
FIELD = re.compile(r"^ {2}([a-z][a-z ]{0,30}): (.*)$")
#: One cell of a drawn board: a clue, vN with its state, or both (under the inclusive rule a
#: clue counts its own cell), in brackets when the call is about it.
CELL = re.compile(r"^(\[)?(?:(\d)(?: |$|(?=\])))?(?:v(\d+)([?◇◆✗]?))?(\])?$")
#: A domain in the handout's notation, in an answer: "3: (0, 1)".
DOMAIN = re.compile(r"(\d+): \(([\d, ]*)\)")
#: Characters per cell of a board drawn with its variables' numbers (`board_grid(numbered=True)`).
CELL_WIDTH = 8
#: What each state of a cell means (the terminal's symbols, kept: meaning never rests on colour).
STATES = {"?": ("undecided", "u"), "◇": ("safe", "s"), "◆": ("a mine", "m"), "✗": ("no value left", "x"), "": ("", "u")}


@dataclass
class Board:
    """A drawn board: its caption and rows of cells, each (clue, variable, state symbol, highlighted)."""

    caption: str
    rows: list[list[tuple[str, str, str, bool]]] = field(default_factory=list)


def _cell(token: str) -> tuple[str, str, str, bool] | None:
    if not token:
        return "", "", "", False  # a cell that is neither a clue nor a variable
    match = CELL.match(token)
    if match is None or bool(match.group(1)) != bool(match.group(5)) or not (match.group(2) or match.group(3)):
        return None
    return match.group(2) or "", match.group(3) or "", match.group(4) or "", bool(match.group(1))


def _board_rows(lines: list[str], start: int) -> tuple[list[list[tuple[str, str, str, bool]]], int]:
    """The rows of a board drawn from `start` (lines indented four spaces, a cell every
    `CELL_WIDTH` characters), and the index after them; no rows when they are not a board."""
    drawn = []
    index = start
    while index < len(lines) and lines[index].startswith("    ") and lines[index].strip():
        drawn.append(lines[index][4:])
        index += 1
    width = max((len(line) for line in drawn), default=0)
    rows = []
    for line in drawn:
        cells = [_cell(line[at : at + CELL_WIDTH].strip()) for at in range(0, width, CELL_WIDTH)]
        if any(cell is None for cell in cells):
            return [], start
        rows.append([cell for cell in cells if cell is not None])
    return rows, index


def board_html(board: Board) -> str:
    """A board as a table of cells: clues as digits, variables by number and state."""
    head = f'<p class="caption"><strong>board ({escape(board.caption)})</strong></p>'
    body = []
    for row in board.rows:
        cells = []
        for clue, var, state, mark in row:
            if clue and not var:
                cells.append(f'<td class="clue" title="clue {clue}"><strong>{clue}</strong></td>')
                continue
            if not var:
                cells.append("<td></td>")
                continue
            meaning, css = STATES.get(state, ("", "u"))
            text = (f"{clue} " if clue else "") + f"v{var}{state}"
            shown = f"<strong>[{text}]</strong>" if mark else text
            tip = f"variable {var}: {meaning}" + (" (the call is about it)" if mark else "")
            cells.append(f'<td class="{css}{" here" if mark else ""}" title="{escape(tip)}">{shown}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    legend = (
        '<p class="legend"><small>vN is variable N: ? undecided, ◇ safe, ◆ a mine, ✗ no value left; '
        "digits are clues; [vN] the variable the call is about</small></p>"
    )
    return f'{head}<div class="grid"><table class="board">{"".join(body)}</table></div>{legend}'


def _domains(text: str) -> dict[int, str] | None:
    """`{0: (0, 1), 3: (1,)}` as {variable: domain}, or None when the text is not only that."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    found = {int(var): f"({values})" for var, values in DOMAIN.findall(text)}
    rebuilt = "{" + ", ".join(f"{var}: {found[var]}" for var in found) + "}"
    return found if rebuilt == text and found else None


def _cells(boards: list[Board]) -> dict[int, str]:
    """Each variable's cell (r1c1 is the top left) on the last board drawn."""
    if not boards:
        return {}
    return {int(var): cell_name((r, c)) for r, row in enumerate(boards[-1].rows) for c, (_, var, _, _) in enumerate(row) if var}


def answers_html(returned: dict[int, str], expected: dict[int, str], cells: dict[int, str]) -> str:
    """The hook's answer beside the expected one, a row per variable, the differing ones marked."""
    rows = []
    for var in sorted(set(returned) | set(expected)):
        yours, right = returned.get(var, "(missing)"), expected.get(var, "(missing)")
        differs = yours != right
        mark, css = ("✗ ", ' class="differs"') if differs else ("", "")
        rows.append(f"<tr{css}><td>{mark}{var}</td><td>{escape(cells.get(var, ''))}</td><td>{escape(yours)}</td><td>{escape(right)}</td></tr>")
    return (
        '<div class="grid"><table class="answers"><thead><tr><th>variable</th><th>cell</th><th>returned</th>'
        f"<th>expected</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def reason_html(text: str) -> str:
    """`text` (a reason, as the grader wrote it) as an HTML fragment, everything escaped."""
    lines = text.splitlines()
    parts: list[str] = []
    fields: list[tuple[str, str]] = []
    prose: list[str] = []
    boards: list[Board] = []

    def flush() -> None:
        if prose:
            parts.append(f'<p class="text">{escape(chr(10).join(prose).strip())}</p>')
            prose.clear()
        if fields:
            parts.append(_fields_html(fields, boards))
            fields.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        head = BOARD_HEAD.match(line)
        if head:
            rows, after = _board_rows(lines, index + 1)
            if rows:
                flush()
                board = Board(head.group(1).strip(), rows)
                boards.append(board)
                parts.append(board_html(board))
                index = after
                continue
        found = FIELD.match(line)
        if found:
            if prose:
                flush()
            fields.append((found.group(1), found.group(2)))
        else:
            if fields:
                flush()
            prose.append(line)
        index += 1
    flush()
    return "\n".join(parts)


def _fields_html(fields: list[tuple[str, str]], boards: list[Board]) -> str:
    """A case's inputs and answers as a two-column table; returned and expected domains
    also side by side, variable by variable."""
    rows = "".join(f"<tr><th>{escape(name)}</th><td>{escape(value)}</td></tr>" for name, value in fields)
    table = f'<div class="grid"><table class="case">{rows}</table></div>'
    named = dict(fields)
    returned, expected = _domains(named.get("returned", "")), _domains(named.get("expected", ""))
    if returned is not None and expected is not None:
        table += answers_html(returned, expected, _cells(boards))
    return table
