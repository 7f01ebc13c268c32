"""Writing problem sets in the instructors' YAML format (see problems/README.md)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board


@dataclass(frozen=True)
class Entry:
    """One problem to write: its id, board and known number of solutions."""

    id: str
    board: Board
    expect: int | None = None
    notes: str | None = None
    points: float | None = None
    timeout: float | None = None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def problem_set_yaml(title: str, entries: list[Entry], source: str | None = None) -> str:
    """The YAML text of a problem set. Rule and mine count are written per problem."""
    lines = [f"title: {_quote(title)}"]
    if source:
        lines.append(f"source: {_quote(source)}")
    lines.append("problems:")
    for entry in entries:
        lines.append(f"  - id: {_quote(entry.id)}")
        if entry.notes:
            lines.append(f"    notes: {_quote(entry.notes)}")
        lines.append(f"    rule: {entry.board.rule}")
        if entry.board.mines is not None:
            lines.append(f"    mines: {entry.board.mines}")
        if entry.expect is not None:
            lines.append(f"    expect: {entry.expect}")
        if entry.points is not None:
            lines.append(f"    points: {entry.points:g}")
        if entry.timeout is not None:
            lines.append(f"    timeout: {entry.timeout:g}")
        lines.append("    board: |")
        lines += [f"      {row}" for row in entry.board.rows_text()]
    return "\n".join(lines) + "\n"
