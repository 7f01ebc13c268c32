"""Failure kinds no student can choose: "not graded" only for a failure the grader can prove
is its own (before the student's file was imported), "not gradable" only when the worker's
load report says the file did not load. Graded through the real CLI under `bwrap` and
`user`, as a course would run it (a single file, and PrairieLearn's results.json).

- a hook that sleeps in short steps and writes 64 KiB runs of whitespace to its reply
  descriptor between them is charged its sleep: the student's timeout, a recorded score;
- an exception whose class is named "cannot load hooks.py" is graded like any other;
- a file that does not parse is not gradable, whatever the config grades besides;
- the wall-clock backstop, once student code has run, is the student's timeout.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import STUDENT_FILES, Kit, attacker, isolation_unavailable, needed

from grader.sandbox import budget
from grader.sandbox.host import Limits, start_worker, stop_worker
from grader.sandbox.isolation import open_sandbox
from grader.sandbox.tasks import run_tasks
from grader.scoring.hookcalls import TASK_FAILURES
from grader.scoring.hookcases import load_cases
from grader.scoring.hookitems import hook_task

EFFICIENCY = "efficiency:\n  points: 4\n  thresholds: [[1.5, 1.0], [3.0, 0.5]]\n"
AGENT = "agent:\n  level: beginner\n  games: 2\n  points: 2\n"


def pl_results(kit: Kit, student: Path, out: Path, *extra: str | Path) -> dict:
    """PrairieLearn's results.json for `student` graded on the course (exit 0 and a results
    file: a graded or not gradable submission, never a failed job)."""
    result = kit.run(kit.course, "--solver", student, "--format", "prairielearn", "--output", out, "--timeout", "3", *extra)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert result.returncode == 0 and out.is_file(), result.stdout + result.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_hook_that_sleeps_while_writing_to_us_is_charged_and_graded(kit: Kit, tmp_path: Path) -> None:
    """Sleeping between 64 KiB writes to the reply descriptor is the student's time: the
    item runs out of its own time (asleep, said so), the submission is graded with a
    score (exit 1, a JSON report with a score), never "not graded" (exit 3)."""
    student = attacker(tmp_path / "s", "kinds_stall")
    out = tmp_path / "report.json"
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "1", "--only", "constraint_bounds", timeout=400)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["score"] == 0 and "ungraded" not in report, report
    bounds = next(h for h in report["hooks"] if h["id"] == "constraint_bounds")
    assert bounds["status"] == "timeout" and "ran out of time (1 s)" in bounds["message"], bounds
    assert "asleep or blocked" in bounds["message"], bounds


def test_an_exception_named_like_a_load_failure_is_graded(kit: Kit, tmp_path: Path) -> None:
    """Every hook raises an exception whose class is named "cannot load hooks.py": the
    file loaded, so PrairieLearn gets a graded result (gradable, a score of 0), and the
    CLI's next step is not about loading the file."""
    student = attacker(tmp_path / "s", "kinds_named_load")
    results = pl_results(kit, student, tmp_path / "results.json")
    assert results["gradable"] is True and results["score"] == 0.0, results
    assert all(t["points"] == 0 for t in results["tests"]) and "so that it loads" not in results["message"], results


@pytest.mark.parametrize("config", ["", EFFICIENCY, AGENT, EFFICIENCY + AGENT], ids=["plain", "efficiency", "agent", "efficiency and agent"])
def test_a_file_that_does_not_parse_is_not_gradable_whatever_the_config(kit: Kit, tmp_path: Path, config: str) -> None:
    """A syntax error: not gradable in PrairieLearn (no score, no attempt charged), with the
    parser's reason, with or without efficiency and agent sections in grading.yaml."""
    student = tmp_path / "s" / "hooks.py"
    student.parent.mkdir()
    shutil.copyfile(STUDENT_FILES / "syntax.py", student)
    grading = tmp_path / "grading.yaml"
    grading.write_text("timeout: 3\n" + config, encoding="utf-8")
    results = pl_results(kit, student, tmp_path / "results.json", "--config", grading)
    assert results["gradable"] is False and "score" not in results, results
    assert "cannot load hooks.py: SyntaxError" in results["format_errors"][0], results


@pytest.mark.slow
def test_the_backstop_after_student_code_ran_is_the_students_timeout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A hook that sleeps past the wall-clock backstop (brought down to 3 s in this
    process, the limit left at 30 s): the item's outcome is the student's timeout, not a
    failure of the grader's retried and then "ungraded"."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    monkeypatch.setattr(budget, "WALL_FACTOR", 0.0)
    monkeypatch.setattr(budget, "WALL_EXTRA", 3.0 - 30.0)  # max(30 x 0, 30 - 27) = 3 s on the wall clock
    student = tmp_path / "sleeper.py"
    student.write_text("import time\n\ndef constraint_bounds(scope, domains):\n    time.sleep(8)\n    return 0, 0\n", encoding="utf-8")
    sandbox = open_sandbox("bwrap", [], workers=1)
    try:
        task = hook_task("constraint_bounds", load_cases()["constraint_bounds"][:1], 30.0)
        start = start_worker(sandbox, sandbox.submission(student), Limits())
        (outcome,) = run_tasks(start, stop_worker, [task], 1, TASK_FAILURES)
    finally:
        sandbox.close()
    assert outcome.status == "timeout" and "of wall-clock time" in outcome.message, outcome
