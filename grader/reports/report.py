"""Showing grades: a rich table for people, JSON for programs."""

from __future__ import annotations

import json
from copy import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from grader.inputs.problemset import ProblemError
from grader.reports.advice import label, next_step, reason_groups
from grader.reports.rerunhint import hint_text
from grader.reports.results import ItemResult, Report
from grader.reports.shown import shown_report
from solvers.cliargs import instructor_only, print_error

#: Status words always carry a symbol, so meaning never rests on colour alone.
STATUS_STYLE = {
    "pass": ("✓ pass", "green"),
    "fail": ("✗ fail", "red"),
    "error": ("! error", "red"),
    "timeout": ("⏱ timeout", "yellow"),
    "not_run": ("⏭ not run", "yellow"),
    "ungraded": ("? not graded", "magenta"),
}
NOT_GRADED = "this is a failure of the grader or of the machine, not of the code graded: nothing was scored; grade it again"


def _status(status: str) -> str:
    text, style = STATUS_STYLE.get(status, (status, "white"))
    return f"[{style}]{text}[/]"


def show_errors(console: Console, errors: list[ProblemError]) -> None:
    """One line per problem-file mistake."""
    for error in errors:
        print_error(str(error), console)


def away_from_grader(report: Report) -> Report:
    """The report as a student reads it away from the grader's machine (feedback files):
    their file by its name, and each problem file as the student copy holds it
    (`problems/NAME`), so that no path of the instructor's machine shows."""
    items = []
    for item in report.items:
        moved = copy(item)  # a copy, not `replace`: its text is made safe once, already
        if item.file:
            moved.file = f"problems/{Path(item.file).name}"
        items.append(moved)
    return replace(report, solver=Path(report.solver).name, items=items)


def show_report(console: Console, report: Report, errors: list[ProblemError], show_hidden: bool = False, for_student: bool = False) -> None:
    """The grade table (one row per item, the total last), why points were lost, what next.

    Hidden items show only their status and points unless `show_hidden` (`shown_report`).
    A report `for_student` (a feedback file) names only commands a student copy has.
    """
    report = shown_report(report, show_hidden)
    items = report.items
    table = Table(title=Text(f"Grading with solver: {report.solver} (isolation: {report.isolated})"), title_justify="left")
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
    for line in unchecked_lines(report):
        console.print(Text(line, style="yellow"), highlight=False, soft_wrap=True)
    show_reasons(console, items)
    show_causes(console, items, against=not for_student and instructor_only("--against reference") is None)
    for item in items:
        if item.facts:  # what was measured, as a table (the agent's games)
            facts = Table(title=Text(label(item)), title_justify="left", show_header=False)
            facts.add_column(style="bold")
            facts.add_column()
            for name, value in item.facts:
                facts.add_row(Text(name), Text(value))
            console.print(facts)
    step = next_step(report, show_hidden)
    if report.ungraded:
        console.print(Text(f"Not graded: {report.ungraded}; {NOT_GRADED}.", style="magenta"))
    elif step is not None:
        console.print(Text("Next step: ", style="bold") + Text(step.text))
        if step.times:
            show_call_times(console, step.times)
    elif errors:
        console.print(f"[red]{len(errors)} error(s) in the problem files or config above; fix them for a full grade.[/]")
    elif report.score == report.max_score and not report.unverified:
        console.print("[green]Full marks on the items graded (a partial run: --only).[/]" if report.partial else "[green]Full marks.[/]")


#: What a student copy's hook cases are to the course's.
PRIVATE_CASES = (
    "the course's grader asks its own private cases of the same kinds instead, so a hook wrong on some kind of case can get other points there"
)
#: Why a student copy counts as right the calls it cannot check after a first wrong one.
ALONG_THE_PATH = (
    "this copy knows the model answer's answers only along its own searches of the public boards, so it "
    "finds every board's first wrong call, and counts the calls your search made after that one as right"
)


def unchecked_lines(report: Report) -> list[str]:
    """The points of the total that this copy could not check, which and why (a line each
    for those counted and those not)."""

    def items(points: str) -> str:
        return ", ".join(f"{i.name} {getattr(i, points):g}" for i in report.items if getattr(i, points))

    lines = []
    if report.unverified:
        lines.append(
            f"Checked only by the course's grader: {report.unverified:g} points of the total above ({items('unverified')}): {ALONG_THE_PATH}."
        )
    if report.public_cases:
        lines.append(f"Hook cases here: {report.public_cases:g} points of the hooks are graded here on the public cases; {PRIVATE_CASES}.")
    if report.unchecked:
        lines.append(
            f"Not checked here: {report.unchecked:g} points ({items('unchecked')}) are checked only by the "
            f"course's grader, and are not in the total above: {report.unchecked_why}."
        )
    return lines


def show_call_times(console: Console, times: list[tuple[str, int, float]]) -> None:
    """Where the time of the items that ran out of it went, hook by hook."""
    total = sum(seconds for _, _, seconds in times) or 1.0
    table = Table(title="Hook calls in the items that ran out of time", title_justify="left")
    for column in ("hook", "calls", "seconds", "share"):
        table.add_column(column, justify="left" if column == "hook" else "right")
    for hook, calls, seconds in times:
        table.add_row(hook, str(calls), f"{seconds:.2f}", f"{seconds / total:.0%}")
    console.print(table)


def show_reasons(console: Console, items: list[ItemResult]) -> None:
    """One line per reason for lost points; items sharing a reason share the line."""
    groups = reason_groups(items)
    if groups:
        console.print("[bold]Where points were lost:[/]")
    for group in groups:
        hints = [hint_text(argv) for argv in group.members[0].reruns]
        reason = f"  {_status(group.status)} {escape(group.who(len(items)))}: {escape(group.message)}"
        for line in reason.split("\n"):  # a rerun command on one line, however wide: pasted, it runs as printed
            console.print(line, highlight=False, soft_wrap=any(escape(hint) in line for hint in hints))
        output = group.members[0].output.strip()
        if output:
            console.print(f"    printed: {escape(output.splitlines()[0][:120])}", highlight=False)


def show_causes(console: Console, items: list[ItemResult], against: bool) -> None:
    """Lost boards grouped by the hook where their search first parted from the model
    answer's, with the first example and the command that shows it (`against`: with the
    model answer's search beside it, which only the instructor's kit can show)."""
    groups: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.kind == "problem" and item.cause and item.score < item.max_score:
            groups.setdefault(item.parted_in, []).append(item)
    if groups:
        console.print("[bold]Where the search first went wrong:[/]")
    for _hook, members in sorted(groups.items(), key=lambda group: -len(group[1])):
        first = members[0]
        boards = "1 board" if len(members) == 1 else f"{len(members)} boards"
        command = f"python -m grader {first.file} --trace {first.name}" + (" --against reference" if against else "")
        console.print(Text(f"  {boards}: {first.cause}; see {command}"), highlight=False)


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def report_json(report: Report, errors: list[ProblemError], show_hidden: bool = False) -> dict[str, Any]:
    """The report as plain data: totals, then one entry per hook test and per problem
    (hidden items as `shown_report` shows them, unless `show_hidden`)."""
    report = shown_report(report, show_hidden)
    items = report.items
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
    if report.unbounded:  # what no control group kept for the workers
        data["unbounded"] = report.unbounded
    if report.ungraded:
        data["ungraded"] = report.ungraded
    if report.unchecked:
        data["unchecked"] = {"points": report.unchecked, "why": report.unchecked_why}
    if report.unverified:
        data["unverified"] = {"points": report.unverified, "why": ALONG_THE_PATH}
    if report.public_cases:
        data["public_cases"] = {"points": report.public_cases, "why": PRIVATE_CASES}
    return data
