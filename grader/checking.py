"""`python -m grader check`: is every problem valid, and how many solutions does it have?"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from solvers.csp import build_csp
from solvers.engine import search

from .problemset import Problem
from .reference import reference_strategies


@dataclass(frozen=True)
class CheckRow:
    """One problem's solution count against its `expect`."""

    file: str
    id: str
    size: str
    rule: str
    mines: int | None
    solutions: int
    expect: int | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.expect is None or self.expect == self.solutions

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "id": self.id, "solutions": self.solutions, "expect": self.expect,
                "ok": self.ok, "rule": self.rule, "mines": self.mines, "size": self.size}


def check_problems(problems: list[Problem]) -> list[CheckRow]:
    """Count every problem's solutions with the reference engine."""
    rows = []
    for problem in problems:
        board = problem.board
        result = search(build_csp(board), reference_strategies().REFERENCE, "count")
        rows.append(CheckRow(problem.file, problem.id, f"{board.rows}x{board.cols}", board.rule, board.mines,
                             result.count, problem.expect, result.stats.seconds))
    return rows


def show_check(console: Console, rows: list[CheckRow]) -> None:
    if not rows:
        console.print("No problem was checked.")
        return
    table = Table(title="Problem check", title_justify="left")
    table.add_column("problem", overflow="fold")
    for column, justify in (("size", "left"), ("rule", "left"), ("mines", "right"),
                            ("solutions", "right"), ("expect", "right"), ("status", "left")):
        table.add_column(column, justify=justify, no_wrap=True)
    for row in rows:
        if row.expect is None:
            status = "[yellow]? no expect[/]"
        elif row.ok:
            status = "[green]✓ ok[/]"
        else:
            status = f"[red]✗ expect says {row.expect}[/]"
        table.add_row(Text(f"{Path(row.file).stem}/{row.id}"), row.size, row.rule, "-" if row.mines is None else str(row.mines),
                      str(row.solutions), "-" if row.expect is None else str(row.expect), status)
    console.print(table)
    wrong = sum(not r.ok for r in rows)
    console.print(f"{len(rows)} problems checked, {wrong} with a wrong expect.")
