"""A student's feedback as one self-contained HTML page (grades-feedback/NAME.html).

It opens with the score, the next step and where points were lost; below, a section per
item that opens (closed when the item passed, open when it lost points), its reason's
boards drawn as grids and its case inputs as tables (`reason_html`). No network, no
script but the one that opens every section to print; every string is escaped.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from grader.inputs.problemset import ProblemError
from grader.reports.advice import label, next_step, reason_groups
from grader.reports.reason_html import environment, reason_html
from grader.reports.report import NOT_GRADED, STATUS_STYLE, unchecked_lines
from grader.reports.results import ItemResult, Report
from grader.reports.shown import shown_report
from grader.reports.words import plural

STYLE = """
:root { color-scheme: light; --ok: #1a7f37; --bad: #b42318; --warn: #9a6700; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 60rem;
       padding: 1rem; color: #1f2328; overflow-wrap: anywhere; }
h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.score { font-size: 2.2rem; font-weight: 700; margin: 0; }
.score small { font-size: 1rem; font-weight: 400; color: #57606a; }
.next { border-left: 4px solid var(--warn); background: #fff8c5; padding: .5rem .75rem; margin: .75rem 0; }
.full { border-left-color: var(--ok); background: #dafbe1; }
.lost { padding-left: 1.2rem; margin: .25rem 0; }
.lost li { margin: .2rem 0; }
.note { color: var(--warn); font-size: .9rem; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0; padding: .25rem .6rem; }
details[open] { padding-bottom: .6rem; }
summary { cursor: pointer; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
summary .name { font-weight: 600; flex: 1 1 12rem; }
.pass { color: var(--ok); } .fail, .error { color: var(--bad); } .timeout, .not_run { color: var(--warn); }
.text { white-space: pre-wrap; margin: .5rem 0; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; border-radius: 4px; font-size: .85rem; }
.grid { overflow-x: auto; max-width: 100%; margin: .5rem 0; }
table { border-collapse: collapse; }
td, th { border: 1px solid var(--line); padding: .15rem .4rem; text-align: left; vertical-align: top; }
table.board td { min-width: 2.6rem; height: 2.2rem; text-align: center; font-size: .85rem; white-space: nowrap; }
table.case th { text-align: left; font-weight: 600; }
.caption { margin: .75rem 0 .25rem; }
td.clue { background: #eef1f4; font-size: 1rem; }
td.s { background: #dafbe1; } td.m { background: #ffd8d3; } td.x { background: #ffd8d3; outline: 2px solid var(--bad); }
td.here { outline: 3px solid #0969da; outline-offset: -3px; }
tr.differs { background: #fff1f0; font-weight: 600; }
.legend { margin: 0 0 .5rem; color: #57606a; }
@media (max-width: 40rem) { body { padding: .5rem; font-size: 15px; } .score { font-size: 1.8rem; } }
@media print {
  details { break-inside: avoid-page; }
  details::details-content { content-visibility: visible; display: contents; }
  .grid { overflow: visible; }
}
"""

#: Opens every section before printing (what is closed would not print otherwise).
PRINT_SCRIPT = "addEventListener('beforeprint', function () { document.querySelectorAll('details').forEach(function (d) { d.open = true; }); });"


def _render(student: str, **values: Any) -> str:
    """The page from its data (the template escapes every value)."""
    page = environment().get_template("feedback.html.j2")
    return page.render(student=student, style=STYLE, script=PRINT_SCRIPT, **({"note": None} | values)) + "\n"


def status_text(status: str) -> str:
    """The status word with its symbol, as the terminal shows it."""
    return STATUS_STYLE.get(status, (status, ""))[0]


def item_section(number: int, item: ItemResult) -> dict[str, Any]:
    """One item as a section that opens: status, points, then (when it has them) its
    reason (drawn from its records), what the code printed, its measured facts. `item`
    is as the student may see it."""
    measured = [] if item.nodes is None else [plural(item.nodes, "node")]
    measured += [] if item.seconds is None else [f"{item.seconds * 1000:.1f} ms"]
    return {
        "number": number,
        "open": item.score < item.max_score,
        "label": label(item),
        "status": item.status,
        "status_text": status_text(item.status),
        "points": f"{item.score:g}/{item.max_score:g}",
        "measured": ", ".join(measured),
        "reason": Markup(reason_html(item.message, item.cases, item.reruns)) if item.message else "",
        "output": item.output if item.output.strip() else "",
        "facts": item.facts,
    }


def _top(report: Report, items: list[ItemResult], errors: list[ProblemError]) -> dict[str, Any]:
    """The first screen: score, next step, where points were lost (each cause once)."""
    top: dict[str, Any] = {"score": f"{report.score:g}", "max_score": f"{report.max_score:g}", "times": [], "full": False, "step_strong": False}
    step = next_step(report)
    if report.ungraded:
        top["step_text"] = f"Not graded: {report.ungraded}; {NOT_GRADED}."
    elif step is not None:
        top.update(step_text=step.text, step_strong=True, times=step.times)
    elif errors:
        top["step_text"] = f"{len(errors)} error(s) in the problem files or config; fix them for a full grade."
    elif report.score == report.max_score and not report.unverified:
        top["step_text"] = "Full marks on the items graded (a partial run: --only)." if report.partial else "Full marks."
        top["full"] = True
    else:
        top["step_text"] = ""
    numbers = {id(item): number for number, item in enumerate(items, start=1)}
    top["lost"] = [
        {
            "first": numbers[id(group.members[0])],
            "who": group.who(len(items)),
            "status": group.status,
            "status_text": status_text(group.status),
            "headline": group.headline(240),
        }
        for group in reason_groups(items)
    ]
    top["causes"] = _causes(items)
    top["notes"] = unchecked_lines(report)
    return top


def _causes(items: list[ItemResult]) -> list[dict[str, str]]:
    """Lost boards grouped by the hook where their search first parted from the model
    answer's (the typed `parted_in`), with the command that shows the first (as the terminal lists them)."""
    groups: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.kind == "problem" and item.cause and item.score < item.max_score:
            groups.setdefault(item.parted_in, []).append(item)
    return [
        {
            "boards": plural(len(members), "board"),
            "cause": members[0].cause,
            "command": f"python -m grader {members[0].file} --trace {members[0].name}",
        }
        for members in sorted(groups.values(), key=lambda group: -len(group))
    ]


def feedback_page(student: str, report: Report, errors: list[ProblemError]) -> str:
    """The whole page for one graded student. `report` is away from the grader already
    (file names only); its items are shown as `shown_report` shows them."""
    report = shown_report(report)
    items = report.items
    sections = [item_section(number, item) for number, item in enumerate(items, start=1)]
    return _render(student, solver=report.solver, isolated=report.isolated, sections=sections, **_top(report, items, errors))


def note_page(student: str, text: str) -> str:
    """The page for a student with no report (not graded, or nothing to grade): why."""
    return _render(student, note=text)
