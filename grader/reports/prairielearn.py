"""PrairieLearn's results.json for an externally graded question.

PrairieLearn reads `/grade/results/results.json` when the grading container ends: `score`
between 0 and 1, `gradable`, a `message`, and `tests`, each with `name`, `points`,
`max_points`, `message` and `output` (its external-grading documentation has the details).

The tests are the graded items the Gradescope writer reports (`gradescope.py`), with the
same names, in the same order, and the same summary as the message. PrairieLearn shows
every test to the student at once (it has no "after the due date"), so a hidden problem
is shown as "hidden problem N" with its points only: no id, no reason, no output.

A submission the grader cannot grade through the student's own doing (no file defining
the hooks, or a file that cannot be loaded at all, a syntax error say) is marked not
gradable, with the reason as a format error: PrairieLearn then charges no attempt.
Whether the file loaded is the typed fact of the worker's load (`Report.unloadable`),
whatever else the config grades; nothing a student's code raises or prints after it
loaded makes a submission not gradable. A failure of the grader's own writes no
results.json (see `python -m grader --format`): PrairieLearn records a failed grading
job, never a zero.
"""

from __future__ import annotations

import json
from typing import Any

from grader.reports.gradescope import gradescope_results
from grader.reports.results import Report
from grader.reports.shown import shown_report

OUTPUT_LIMIT = 4000  # characters of a test's output
SIZE_LIMIT = 900_000  # bytes of results.json: PrairieLearn refuses more than 1 MB
HIDDEN_LOAD = "Your file cannot be loaded: run it on your machine to see why."  # when only hidden items said why


def prairielearn_results(report: Report) -> dict[str, Any]:
    """The results.json object for one graded submission (its items as `shown_report`
    shows them: a hidden one is "hidden problem N" with its points)."""
    report = shown_report(report)
    unloadable = report.unloadable()
    if unloadable is not None:
        return not_gradable(unloadable.message if not unloadable.hidden else HIDDEN_LOAD)
    gradescope = gradescope_results(report, [])
    tests = [
        {"name": graded["name"], "points": item.score, "max_points": item.max_score, "message": item.message, "output": item.output[:OUTPUT_LIMIT]}
        for item, graded in zip(report.items, gradescope["tests"])
    ]
    score = min(1.0, max(0.0, report.score / report.max_score)) if report.max_score > 0 else 0.0
    results = {"gradable": True, "score": round(score, 6), "message": gradescope["output"], "tests": tests}
    if len(json.dumps(results)) > SIZE_LIMIT:  # many long outputs: keep their beginnings
        for test in tests:
            test["output"] = test["output"][:200]
    return results


def not_gradable(message: str) -> dict[str, Any]:
    """results.json for a submission that cannot be graded through the student's own doing:
    no score, no attempt charged, and what to fix."""
    return {"gradable": False, "format_errors": [message], "message": message}
