"""A student's feedback as one self-contained HTML page (grades-feedback/NAME.html).

It opens with the score, the next step and where points were lost; below, a section per
item that opens (closed when the item passed, open when it lost points), its reason's
boards drawn as grids and its case inputs as tables (`reason_html`). No network, no
script but the one that opens every section to print; every string is escaped.
"""

from __future__ import annotations

from html import escape

from grader.inputs.problemset import ProblemError
from grader.reports.advice import label, next_step, reason_groups
from grader.reports.reason_html import reason_html
from grader.reports.report import NOT_GRADED, STATUS_STYLE, unchecked_lines
from grader.reports.results import ItemResult, Report
from grader.reports.shown import shown_report

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


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n"
        f"<body>\n{body}\n<script>{PRINT_SCRIPT}</script></body></html>\n"
    )


def status_text(status: str) -> str:
    """The status word with its symbol, as the terminal shows it."""
    return STATUS_STYLE.get(status, (status, ""))[0]


def item_section(number: int, item: ItemResult) -> str:
    """One item as a section that opens: status, points, then (when it has them) its
    reason, what the code printed, its measured facts. `item` is as the student may see it."""
    lost = item.score < item.max_score
    measured = [] if item.nodes is None else [f"{item.nodes} nodes"]
    measured += [] if item.seconds is None else [f"{item.seconds * 1000:.1f} ms"]
    summary = (
        f'<summary><span class="name">{escape(label(item))}</span>'
        f'<span class="{escape(item.status)}">{escape(status_text(item.status))}</span>'
        f"<span>{item.score:g}/{item.max_score:g}</span>"
        f'<span class="measured">{escape(", ".join(measured))}</span></summary>'
    )
    body = [reason_html(item.message)] if item.message else []
    if item.output.strip():
        body.append(f"<p>The code printed:</p><pre>{escape(item.output)}</pre>")
    if item.facts:
        rows = "".join(f"<tr><th>{escape(name)}</th><td>{escape(value)}</td></tr>" for name, value in item.facts)
        body.append(f'<div class="grid"><table class="case">{rows}</table></div>')
    opened = " open" if lost else ""
    return f'<details id="item-{number}"{opened}>{summary}{"".join(body)}</details>'


def _top(report: Report, items: list[ItemResult], errors: list[ProblemError]) -> str:
    """The first screen: score, next step, where points were lost (each cause once)."""
    parts = [f'<p class="score" id="score">{report.score:g}<small> / {report.max_score:g} points</small></p>']
    step = next_step(report)
    if report.ungraded:
        parts.append(f'<p class="next" id="next-step">Not graded: {escape(report.ungraded)}; {escape(NOT_GRADED)}.</p>')
    elif step is not None:
        parts.append(f'<p class="next" id="next-step"><strong>Next step:</strong> {escape(step.text)}</p>')
        if step.times:
            rows = "".join(f"<tr><td>{escape(hook)}</td><td>{calls}</td><td>{seconds:.2f}</td></tr>" for hook, calls, seconds in step.times)
            parts.append(
                f'<div class="grid"><table><thead><tr><th>hook</th><th>calls</th><th>seconds</th></tr></thead><tbody>{rows}</tbody></table></div>'
            )
    elif errors:
        parts.append(f'<p class="next" id="next-step">{len(errors)} error(s) in the problem files or config; fix them for a full grade.</p>')
    elif report.score == report.max_score and not report.unverified:
        full = "Full marks on the items graded (a partial run: --only)." if report.partial else "Full marks."
        parts.append(f'<p class="next full" id="next-step">{full}</p>')
    groups = reason_groups(items)
    numbers = {id(item): number for number, item in enumerate(items, start=1)}
    if groups:
        entries = []
        for group in groups:
            first = numbers[id(group.members[0])]
            entries.append(
                f'<li><a href="#item-{first}">{escape(group.who(len(items)))}</a> '
                f'<span class="{escape(group.status)}">{escape(status_text(group.status))}</span>: '
                f"{escape(group.headline(240))}</li>"
            )
        parts.append(f'<h2>Where points were lost</h2><ul class="lost" id="lost">{"".join(entries)}</ul>')
    parts.append(_causes(items))
    parts += [f'<p class="note">{escape(line)}</p>' for line in unchecked_lines(report)]
    return "\n".join(parts)


def _causes(items: list[ItemResult]) -> str:
    """Lost boards grouped by the hook where their search first parted from the model
    answer's, with the command that shows the first (as the terminal lists them)."""
    groups: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.kind == "problem" and item.cause and item.score < item.max_score:
            groups.setdefault(item.parted_in, []).append(item)
    entries = []
    for members in sorted(groups.values(), key=lambda group: -len(group)):
        first = members[0]
        boards = "1 board" if len(members) == 1 else f"{len(members)} boards"
        command = f"python -m grader {first.file} --trace {first.name}"
        entries.append(f"<li>{boards}: {escape(first.cause)}; see <code>{escape(command)}</code></li>")
    return f'<h2>Where the search first went wrong</h2><ul class="lost">{"".join(entries)}</ul>' if entries else ""


def feedback_page(student: str, report: Report, errors: list[ProblemError]) -> str:
    """The whole page for one graded student. `report` is away from the grader already
    (file names only); its items are shown as `shown_report` shows them."""
    report = shown_report(report)
    items = report.items
    sections = "\n".join(item_section(number, item) for number, item in enumerate(items, start=1))
    body = (
        f"<header><h1>Grading report: {escape(student)}</h1>"
        f"<p><small>Graded file: {escape(report.solver)} · isolation: {escape(report.isolated)}</small></p>"
        f"{_top(report, items, errors)}</header>\n"
        f"<main><h2>Every item</h2>\n{sections}</main>"
    )
    return _page(f"Grading report: {student}", body)


def note_page(student: str, text: str) -> str:
    """The page for a student with no report (not graded, or nothing to grade): why."""
    return _page(
        f"Grading report: {student}", f'<header><h1>Grading report: {escape(student)}</h1><p class="next" id="next-step">{escape(text)}</p></header>'
    )
