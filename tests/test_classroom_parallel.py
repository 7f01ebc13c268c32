"""`--jobs 1` and `--jobs 3` give the same report, timing aside, on every problem set.

The buggy student (tests/student_files/parallel_buggy.py) passes some boards, fails,
raises on, loops on and kills its worker on others, so the 3-job run splits the items
into chunks whose workers are restarted mid-chunk.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import grade_json, lone, timings_aside

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
PROBLEMS = ROOT / "problems"
#: What must not depend on the number of jobs (everything but "seconds").
COMPARED = ("kind", "id", "file", "status", "score", "max_score", "message", "nodes", "visibility")


def report_for(tmp_path: Path, student: str, jobs: int) -> dict:
    out = tmp_path / f"{student}-{jobs}.json"
    _, report = grade_json(PROBLEMS, lone(student), out, "--jobs", str(jobs), "--timeout", "2")
    return report


def comparable(report: dict) -> dict:
    entries = report["hooks"] + report["problems"] + report.get("other", [])
    return {
        "score": report["score"],
        "max_score": report["max_score"],
        "errors": report["errors"],
        "entries": [{key: timings_aside(entry.get(key)) for key in COMPARED} for entry in entries],
    }


@pytest.mark.parametrize("student", ["standalone_correct", "parallel_buggy"])
def test_jobs_do_not_change_the_report(tmp_path: Path, student: str) -> None:
    one = report_for(tmp_path, student, 1)
    three = report_for(tmp_path, student, 3)
    assert len(one["problems"]) >= 40  # the whole problems/ folder was graded
    statuses = Counter(entry["status"] for entry in one["hooks"] + one["problems"])
    if student == "standalone_correct":
        assert one["score"] == one["max_score"] and set(statuses) == {"pass"}, statuses
    else:  # every kind of outcome, so the 3 chunks see crashes, restarts and timeouts
        assert set(statuses) == {"pass", "fail", "error", "timeout"}, statuses
        messages = " ".join(e["message"] for e in one["hooks"] + one["problems"])
        assert "exit code 4" in messages and "ValueError" in messages and "ran out of time (2 s)" in messages
        assert any(e["nodes"] for e in one["problems"])
    a, b = comparable(one), comparable(three)
    assert a["score"] == b["score"] and a["max_score"] == b["max_score"] and a["errors"] == b["errors"]
    assert len(a["entries"]) == len(b["entries"])
    for left, right in zip(a["entries"], b["entries"]):
        assert left == right
