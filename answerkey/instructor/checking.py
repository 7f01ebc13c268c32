"""`python -m grader check`: is every problem valid, and how many solutions does it have?"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from answerkey.oracle import OracleDisagreement, count_method, count_solutions
from grader.inputs.config import load_config
from grader.inputs.problemset import Problem, ProblemError


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
    method: str = "engine"

    @property
    def ok(self) -> bool:
        return self.expect is None or self.expect == self.solutions

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "id": self.id,
            "solutions": self.solutions,
            "expect": self.expect,
            "ok": self.ok,
            "rule": self.rule,
            "mines": self.mines,
            "size": self.size,
            "counted_by": self.method,
        }


def check_problems(problems: list[Problem]) -> list[CheckRow]:
    """Count every problem's solutions exactly (the component counter), with a second opinion on small counts."""
    rows = []
    for problem in problems:
        board = problem.board
        started = time.perf_counter()
        try:
            count = count_solutions(board)
        except OracleDisagreement as error:
            raise OracleDisagreement(f"{problem.file}: problem {problem.id!r}: {error}") from None
        rows.append(
            CheckRow(
                problem.file,
                problem.id,
                f"{board.rows}x{board.cols}",
                board.rule,
                board.mines,
                count,
                problem.expect,
                time.perf_counter() - started,
                count_method(board),
            )
        )
    return rows


def show_check(console: Console, rows: list[CheckRow]) -> None:
    if not rows:
        console.print("No problem was checked.")
        return
    table = Table(title="Problem check", title_justify="left")
    table.add_column("problem", overflow="fold")
    right = ("mines", "solutions", "expect")
    for column in ("size", "rule", "mines", "solutions", "by", "expect", "status"):
        table.add_column(column, justify="right" if column in right else "left", no_wrap=True)
    for row in rows:
        if row.expect is None:
            status = "[yellow]! no solution[/]" if row.solutions == 0 else "[yellow]? no expect[/]"
        elif row.ok:
            status = "[green]✓ ok[/]"
        else:
            status = f"[red]✗ expect says {row.expect}[/]"
        table.add_row(
            Text(f"{Path(row.file).stem}/{row.id}"),
            row.size,
            row.rule,
            "-" if row.mines is None else str(row.mines),
            str(row.solutions),
            row.method,
            "-" if row.expect is None else str(row.expect),
            status,
        )
    console.print(table)
    wrong = sum(not r.ok for r in rows)
    console.print(f"{len(rows)} problems checked, {wrong} with a wrong expect.")
    for row in rows:
        if row.solutions == 0 and row.expect is None:  # a draft's typo, most often; `expect: 0` says it is meant
            console.print(
                Text(f"warning: {Path(row.file).stem}/{row.id} has no solution; if that is meant, say `expect: 0` in its file", style="yellow")
            )


def config_errors(path: Path | None, problems: list[Problem]) -> list[ProblemError]:
    """The grading config's mistakes: what loading it finds, and problem sets it weighs
    that are not among the problem files."""
    if path is None:
        return []
    config, errors = load_config(path)
    files = {Path(p.file).name for p in problems}
    errors += [
        ProblemError(
            str(path),
            f"problem_sets names {name!r}, but no problem file has that name (there are: {', '.join(sorted(files)) or 'none'})",
            field="problem_sets",
        )
        for name in config.set_points
        if name not in files
    ]
    return errors
