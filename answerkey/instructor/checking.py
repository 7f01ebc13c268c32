"""`python -m grader check`: is every problem valid, and how many solutions does it have?"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from answerkey.oracle import OracleDisagreement, count_method, count_solutions
from grader.inputs.config import load_config
from grader.inputs.names import shown_name
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


def _where(row: CheckRow) -> str:
    """A row's file (its stem) and problem id, `course/nctu-1`, on one line with no control character."""
    return f"{shown_name(Path(row.file).stem)}/{shown_name(row.id)}"


def _status(row: CheckRow) -> Text:
    """A row's verdict, in a few words: the `expect` a wrong one says beside the count."""
    if row.expect is None:
        return Text("! no solution" if row.solutions == 0 else "? no expect", style="yellow")
    if row.ok:
        return Text("✓ ok", style="green")
    return Text(f"✗ expect {row.expect}", style="red")


def _file_table(file: str, rows: list[CheckRow]) -> Table:
    """One problem file's rows: its ids whole (folded when longer than 20 characters), the
    board, the count and the verdict, narrow enough for 80 columns (who counted each board
    is in `--json`, and counted in the summary)."""
    table = Table(
        title=Text(f"{shown_name(Path(file).name)}: {len(rows)} problem(s)"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("problem", overflow="fold", min_width=min(20, max(len(shown_name(row.id)) for row in rows)))
    table.add_column("board", no_wrap=True)
    table.add_column("mines", justify="right", no_wrap=True)
    table.add_column("solutions", justify="right", no_wrap=True)
    table.add_column("status", overflow="fold", min_width=6)
    for row in rows:
        mines = "-" if row.mines is None else str(row.mines)
        table.add_row(Text(shown_name(row.id)), f"{row.size} {row.rule}", mines, str(row.solutions), _status(row))
    return table


def show_check(console: Console, rows: list[CheckRow]) -> None:
    """A table per problem file, then a line naming the boards whose `expect` is wrong
    (file, id, what it says and the count) and a warning for each board with no solution."""
    if not rows:
        console.print("No problem was checked.")
        return
    by_file: dict[str, list[CheckRow]] = {}
    for row in rows:
        by_file.setdefault(row.file, []).append(row)
    for file, held in by_file.items():
        console.print(_file_table(file, held))
    wrong = [row for row in rows if not row.ok]
    console.print(Text(f"{len(rows)} problems checked, {len(wrong)} with a wrong expect{':' if wrong else '.'}", style="red" if wrong else ""))
    for row in wrong:
        console.print(Text(f"  {_where(row)}: expect {row.expect}, counted {row.solutions}", style="red"))
    methods = Counter(row.method for row in rows)
    console.print(Text(f"Counted by {', '.join(f'{method} ({count})' for method, count in methods.items())}; --json FILE says each board's."))
    for row in rows:
        if row.solutions == 0 and row.expect is None:  # a draft's typo, most often; `expect: 0` says it is meant
            console.print(Text(f"warning: {_where(row)} has no solution; if that is meant, say `expect: 0` in its file", style="yellow"))


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
