"""Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Each graded item becomes a test with its own visibility; a hidden problem's test carries
the problem's visibility and, like everything else here, only what `shown_report` shows of
it ("hidden problem N", its status and points): an `after_due_date` test is read by the
student too, and a `hidden` one by whoever the course lets see it.
No `execution_time` is given: the student's code chooses how long it runs, hidden
problems included, so the time could carry what it saw of them.

Each test's output is HTML (`"output_format": "html"`, per test; the spec above lists
text, html, simple_format, md and ansi, simple_format the default): the reason as the feedback
page shows it (`reason_html`), boards as grids and case answers as tables. HTML and not
Markdown because a board is a table without a header row, which Markdown tables cannot
draw, and because what Gradescope's HTML sanitiser keeps (tables, `strong`, `pre`) is
what the fragment needs: it carries its meaning in text (symbols, marks), never in
classes alone: the page's stylesheet does not come along, so tables carry their borders
as attributes and inline styles (`reason_html(inline=True)`; where those are dropped the
marks in the text remain), and each line of a reason, a rerun command's above all, is a
paragraph of its own. Everything from student code is escaped (Jinja2, autoescape). The
submission-wide `output` stays plain text (the default format), as PrairieLearn's
message reuses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import Markup

from grader.inputs.problemset import ProblemError
from grader.reports.advice import label, next_step, reason_groups
from grader.reports.reason_html import environment, reason_html
from grader.reports.results import Report
from grader.reports.shown import shown_report
from grader.reports.words import plural

OUTPUT_LIMIT = 4000  # characters of a test's output


def gradescope_results(report: Report, errors: list[ProblemError]) -> dict[str, Any]:
    """The results.json object for one graded submission: a test per item (a hidden one
    as `shown_report` shows it, under its visibility), and on top the score, the next
    step and the causes of lost points, each cause once."""
    report = shown_report(report)
    tests = []
    for number, item in enumerate(report.items, start=1):
        reason = Markup(reason_html(cut(item.message), item.cases, item.reruns, inline=True))
        printed = cut(item.output) if item.output.strip() else ""
        output = environment().get_template("gradescope_test.html.j2").render(reason=reason, printed=printed)
        tests.append(
            {
                "name": label(item),
                "number": str(number),
                "score": item.score,
                "max_score": item.max_score,
                "status": "passed" if item.status == "pass" else "failed",
                "output": output,
                "output_format": "html",
                "visibility": item.visibility,
            }
        )
    graded = Path(report.solver).name  # the student's file, never a path on the grader's machine
    lines = [f"Score: {report.score:g}/{report.max_score:g} for {graded} (your code ran isolated: {report.isolated})."]
    step = next_step(report)
    if step is not None:
        lines.append(f"Next step: {step.text}")
        lines += [f"  {hook}: {plural(calls, 'call')}, {seconds:.2f} s" for hook, calls, seconds in step.times]
    groups = reason_groups([i for i in report.items if not i.hidden])  # the summary names visible tests only
    if groups:
        lines.append("Where points were lost (each test below says more):")
        lines += [f"  {group.who(len(report.items))}: {group.headline(200)}" for group in groups]
    if errors:
        lines.append(f"{len(errors)} problem(s) could not be loaded by the autograder; please tell the course staff.")
    return {
        "score": report.score,
        "output": cut("\n".join(lines)),
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def cut(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """`text` within `limit` characters, cut at a line's end and saying so."""
    if len(text) <= limit:
        return text
    mark = "\n... (cut short here)"
    kept = text[: limit - len(mark)]
    return kept[: kept.rfind("\n")] + mark if "\n" in kept else kept + mark


def student_failure(message: str) -> dict[str, Any]:
    """results.json for a submission that could not be graded through the student's own
    doing (nothing to grade): zero, and what to submit."""
    return {"score": 0.0, "output": message, "tests": []}
