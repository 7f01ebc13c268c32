"""Showing grades: a rich table for people, JSON for programs."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from grader.inputs.problemset import ProblemError
from grader.reports.results import ItemResult, Report
from grader.scoring.hookcases import HOOKS
from grader.scoring.sathooks import SAT_HOOKS

#: Status words always carry a symbol, so meaning never rests on colour alone.
STATUS_STYLE = {
    "pass": ("✓ pass", "green"),
    "fail": ("✗ fail", "red"),
    "error": ("! error", "red"),
    "timeout": ("⏱ timeout", "yellow"),
    "ungraded": ("? not graded", "magenta"),
}
NOT_GRADED = ("this is a failure of the grader or of the machine, not of the code graded: nothing was scored; "
              "grade it again")


def _status(status: str) -> str:
    text, style = STATUS_STYLE.get(status, (status, "white"))
    return f"[{style}]{text}[/]"


def fail(console: Console, message: str) -> int:
    """Print one error line (user text is never read as markup); the exit code for it."""
    console.print(f"error: {message}", style="red", markup=False, highlight=False, soft_wrap=True)
    return 2


def show_errors(console: Console, errors: list[ProblemError]) -> None:
    """One line per problem-file mistake."""
    for error in errors:
        console.print(f"[red]error:[/] {escape(str(error))}", highlight=False, soft_wrap=True)


def label(item: ItemResult) -> str:
    """A short name for an item: hooks/NAME, SET/ID or efficiency."""
    if item.kind == "hook":
        return f"hooks/{item.name}"
    if item.kind == "problem":
        return f"{Path(item.file or '').stem}/{item.name}"
    return item.name


def student_view(item: ItemResult) -> ItemResult:
    """The item as a student may see it: a hidden problem keeps its status and points only
    (its time and nodes too are the student's code's doing, so they could carry the board)."""
    if not item.hidden:
        return item
    return replace(item, message=f"details hidden ({item.visibility})", output="", cause="", nodes=None, seconds=None)


def show_report(console: Console, report: Report, errors: list[ProblemError], show_hidden: bool = False) -> None:
    """The grade table (one row per item, the total last), why points were lost, what next.

    Hidden problems show only their status and points unless `show_hidden`.
    """
    items = report.items if show_hidden else [student_view(i) for i in report.items]
    table = Table(title=Text(f"Grading with solver: {report.solver} (isolation: {report.isolation})"), title_justify="left")
    table.add_column("item", overflow="fold")
    for column in ("status", "points", "nodes", "time"):
        table.add_column(column, justify="left" if column == "status" else "right", no_wrap=True)
    for item in items:
        table.add_row(
            Text(label(item)),
            _status(item.status),
            f"{item.score:g}/{item.max_score:g}",
            "" if item.nodes is None else str(item.nodes),
            "" if item.seconds is None else f"{item.seconds * 1000:.1f} ms",
        )
    table.add_section()
    table.add_row("[bold]total[/]", "", f"[bold]{report.score:g}/{report.max_score:g}[/]", "", "")
    console.print(table)
    show_reasons(console, items)
    show_causes(console, items)
    for item in items:
        if item.facts:  # what was measured, as a table (the agent's games)
            facts = Table(title=Text(label(item)), title_justify="left", show_header=False)
            facts.add_column(style="bold")
            facts.add_column()
            for name, value in item.facts:
                facts.add_row(Text(name), Text(value))
            console.print(facts)
    next_hook = report.next_hook_to_implement()
    fix = report.most_valuable_fix()
    if report.ungraded:
        console.print(Text(f"Not graded: {report.ungraded}; {NOT_GRADED}.", style="magenta"))
    elif next_hook:
        summaries = {spec.name: spec.summary for spec in HOOKS} | {spec.name: spec.summary for spec in SAT_HOOKS}
        summary = summaries[next_hook]
        console.print(f"Next step: implement [bold]{next_hook}[/] in assignment/hooks.py ({summary}); "
                      "its docstring gives the exact contract and an example.")
    elif fix is not None and not show_hidden_only_losses(items):
        console.print(f"Next step: fix [bold]{fix[0]}[/] in assignment/hooks.py: up to {fix[1]:g} points depend on it.")
    elif errors:
        console.print(f"[red]{len(errors)} error(s) in the problem files or config above; fix them for a full grade.[/]")
    elif report.score == report.max_score:
        console.print("[green]Full marks on the items graded (a partial run: --only).[/]" if report.partial
                      else "[green]Full marks.[/]")


def show_reasons(console: Console, items: list[ItemResult], listed: int = 3) -> None:
    """One line per reason for lost points; items sharing a reason share the line."""
    groups: dict[tuple[str, str], list[ItemResult]] = {}
    for item in items:
        if item.score < item.max_score:  # reasons that differ only in their numbers share a line
            groups.setdefault((item.status, re.sub(r"\d+", "#", item.message)), []).append(item)
    if groups:
        console.print("[bold]Where points were lost:[/]")
    for (status, _), members in groups.items():
        names = ", ".join(label(i) for i in members[:listed])
        if len(members) > listed:
            names += f" and {len(members) - listed} more"
        message = members[0].message + (" (for the first; the others alike)" if len({m.message for m in members}) > 1 else "")
        console.print(f"  {_status(status)} {escape(names)}: {escape(message)}", highlight=False)
        output = members[0].output.strip()
        if output:
            console.print(f"    printed: {escape(output.splitlines()[0][:120])}", highlight=False)


def show_causes(console: Console, items: list[ItemResult]) -> None:
    """Lost boards grouped by the hook where their search first parted from the model
    answer's, with the first example and the command that shows it."""
    groups: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.kind == "problem" and item.cause and item.score < item.max_score:
            groups.setdefault(item.cause.split(" ", 1)[0], []).append(item)
    if groups:
        console.print("[bold]Where the search first went wrong:[/]")
    for _hook, members in sorted(groups.items(), key=lambda group: -len(group[1])):
        first = members[0]
        boards = "1 board" if len(members) == 1 else f"{len(members)} boards"
        command = f"python -m grader {first.file} --trace {first.name} --against reference"
        console.print(Text(f"  {boards}: {first.cause}; see {command}"), highlight=False)


def show_hidden_only_losses(items: list[ItemResult]) -> bool:
    """True when every lost point is on a hidden item (nothing a student can act on)."""
    lost = [i for i in items if i.score < i.max_score]
    return bool(lost) and all(i.hidden for i in lost)


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def report_json(report: Report, errors: list[ProblemError], show_hidden: bool = False) -> dict[str, Any]:
    """The report as plain data: totals, then one entry per hook test and per problem."""
    items = report.items if show_hidden else [student_view(i) for i in report.items]
    data: dict[str, Any] = {
        "solver": report.solver,
        "isolation": report.isolation,
        "score": None if report.ungraded else report.score,
        "max_score": report.max_score,
        "hooks": [i.as_dict() for i in items if i.kind == "hook"],
        "problems": [i.as_dict() for i in items if i.kind == "problem"],
        "errors": [str(e) for e in errors],
    }
    extra = [i.as_dict() for i in items if i.kind not in ("hook", "problem")]
    if extra:
        data["other"] = extra
    if report.ungraded:
        data["ungraded"] = report.ungraded
    return data
