"""Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Each graded item becomes a test with its own visibility; a hidden problem's test carries
the problem's visibility, and the submission-wide `output` never mentions hidden details.
No `execution_time` is given: the student's code chooses how long it runs, hidden
problems included, so the time could carry what it saw of them.
"""

from __future__ import annotations

from typing import Any

from grader.inputs.problemset import ProblemError
from grader.reports.report import label
from grader.reports.results import Report

OUTPUT_LIMIT = 4000  # characters of a test's output


def gradescope_results(report: Report, errors: list[ProblemError]) -> dict[str, Any]:
    """The results.json object for one graded submission."""
    tests = []
    for number, item in enumerate(report.items, start=1):
        output = item.message + (f"\nThe code printed:\n{item.output}" if item.output.strip() else "")
        tests.append({
            "name": label(item),
            "number": str(number),
            "score": item.score,
            "max_score": item.max_score,
            "status": "passed" if item.status == "pass" else "failed",
            "output": output[:OUTPUT_LIMIT],
            "visibility": item.visibility,
        })
    lines = [f"Score: {report.score:g}/{report.max_score:g} (your code ran isolated: {report.isolation})."]
    next_hook = report.next_hook_to_implement()
    if next_hook:
        lines.append(f"Next step: implement {next_hook} in assignment/hooks.py.")
    if errors:
        lines.append(f"{len(errors)} problem(s) could not be loaded by the autograder; please tell the course staff.")
    return {
        "score": report.score,
        "output": "\n".join(lines),
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def student_failure(message: str) -> dict[str, Any]:
    """results.json for a submission that could not be graded through the student's own
    doing (nothing to grade): zero, and what to submit."""
    return {"score": 0.0, "output": message, "tests": []}
