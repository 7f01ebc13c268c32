"""Grading real (mis)behaving student hook files from tests/student_files/.

Each file is a complete hooks module; the parts that are not meant to be broken re-use the
reference hooks of answerkey/strategies.py. Statuses are read from the --json report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDENTS = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
HOOK_IDS = ["constraint_bounds", "forward_check", "select_variable", "order_values", "at_least_clauses", "at_most_clauses"]


def run_grader(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["COLUMNS"] = "80"
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def grade_student(tmp_path: Path, name: str, problems: Path = COURSE, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Grade tests/student_files/NAME.py; the process result and the JSON report."""
    out = tmp_path / f"{name}.json"
    result = run_grader(problems, "--solver", STUDENTS / f"{name}.py", "--json", out, *extra)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result, json.loads(out.read_text(encoding="utf-8"))


def hooks_of(report: dict) -> dict[str, dict]:
    return {h["id"]: h for h in report["hooks"]}


def line_of(name: str, marker: str) -> int:
    """The 1-based line of the student file holding `marker`."""
    lines = (STUDENTS / f"{name}.py").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if marker in line)


def test_correct_student_gets_full_marks(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "correct")
    assert result.returncode == 0, result.stdout
    assert report["score"] == report["max_score"] > 0
    assert [h["id"] for h in report["hooks"]] == HOOK_IDS
    assert len(report["problems"]) == 3
    for entry in report["hooks"] + report["problems"]:
        assert entry["status"] == "pass", entry
        assert entry["score"] == entry["max_score"]
    assert "Full marks." in result.stdout


def test_crashing_hook_is_reported_with_its_line(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "crash")
    assert result.returncode == 1
    where = f"crash.py, line {line_of('crash', 'CRASH_LINE')}"
    hooks = hooks_of(report)
    select = hooks["select_variable"]
    assert select["status"] in ("fail", "error")
    assert select["score"] < select["max_score"]
    assert "ZeroDivisionError" in select["message"] and where in select["message"]
    for name in ("constraint_bounds", "forward_check", "order_values"):
        assert hooks[name]["status"] == "pass", hooks[name]
    assert report["problems"]
    for problem in report["problems"]:
        assert problem["status"] == "error", problem
        assert problem["score"] == 0
        assert "ZeroDivisionError" in problem["message"] and where in problem["message"]
    assert report["score"] == sum(hooks[n]["max_score"] for n in ("constraint_bounds", "forward_check", "order_values"))


def test_wrong_return_types_fail_with_reasons(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "wrong_types")
    assert result.returncode == 1
    hooks = hooks_of(report)
    bounds = hooks["constraint_bounds"]
    assert bounds["status"] == "fail" and bounds["score"] == 0
    assert "pair of ints" in bounds["message"] and "'low and high'" in bounds["message"]
    order = hooks["order_values"]
    assert order["status"] == "fail" and order["score"] == 0
    assert "[7, 8]" in order["message"]
    assert hooks["forward_check"]["status"] == "pass"
    assert hooks["select_variable"]["status"] == "pass"
    for problem in report["problems"]:
        assert problem["status"] in ("fail", "error"), problem
        assert problem["score"] == 0
        assert "order_values returned [7, 8]" in problem["message"]


def test_endless_loop_times_out_and_grading_goes_on(tmp_path: Path) -> None:
    problems = tmp_path / "loops.yaml"
    problems.write_text(
        "problems:\n"
        "  - id: counted\n    mines: 2\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n"
        "  - id: uncounted\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n",
        encoding="utf-8",
    )
    started = time.monotonic()
    result, report = grade_student(tmp_path, "loops", problems, "--timeout", "2")
    elapsed = time.monotonic() - started
    assert elapsed < 30, f"grading took {elapsed:.1f} s"
    assert result.returncode == 1
    hooks = hooks_of(report)
    assert hooks["forward_check"]["status"] == "timeout"
    assert hooks["forward_check"]["score"] == 0
    assert "2 s" in hooks["forward_check"]["message"]
    # items before and after the endless loop are graded as usual
    for name in ("constraint_bounds", "select_variable", "order_values"):
        assert hooks[name]["status"] == "pass", hooks[name]
    statuses = {p["id"]: p["status"] for p in report["problems"]}
    assert statuses == {"counted": "timeout", "uncounted": "pass"}


def test_process_exit_in_a_hook_is_an_error_and_grading_goes_on(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "exits")
    assert result.returncode == 1
    hooks = hooks_of(report)
    select = hooks["select_variable"]
    assert select["status"] == "error" and select["score"] == 0
    assert "process" in select["message"] and "ended" in select["message"]
    assert "exit code 3" in select["message"]
    for name in ("constraint_bounds", "forward_check", "order_values"):
        assert hooks[name]["status"] == "pass", hooks[name]
    assert len(report["problems"]) == 3
    for problem in report["problems"]:
        assert problem["status"] == "error" and "ended" in problem["message"], problem


@pytest.mark.parametrize("name, marker, words", [
    ("syntax", "def constraint_bounds(scope, domains)", ["SyntaxError"]),
    ("at_import", "raise RuntimeError", ["RuntimeError", "setup went wrong"]),
])
def test_file_that_cannot_load_errors_every_item(tmp_path: Path, name: str, marker: str, words: list[str]) -> None:
    words = [f"cannot load {name}.py", *words, f"line {line_of(name, marker)}"]
    result, report = grade_student(tmp_path, name)
    assert result.returncode != 0
    assert report["score"] == 0
    entries = report["hooks"] + report["problems"] + report["other"]
    assert len(entries) == len(HOOK_IDS) + 3 + 1  # hooks, the course problems, the SAT encoding
    for entry in entries:
        assert entry["status"] == "error", entry
        for word in words:
            assert word in entry["message"], entry
    assert f"cannot load {name}.py" in " ".join(result.stdout.split())


def test_lazy_forward_check_loses_hook_points_but_solves_everything(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "lazy_fc")
    assert result.returncode == 1
    hooks = hooks_of(report)
    fc = hooks["forward_check"]
    assert fc["status"] == "fail"
    assert 0 < fc["score"] < fc["max_score"] == 3
    assert "expected" in fc["message"]
    for name in ("constraint_bounds", "select_variable", "order_values"):
        assert hooks[name]["status"] == "pass", hooks[name]
    for problem in report["problems"]:
        assert problem["status"] == "pass", problem
    assert report["score"] == report["max_score"] - (fc["max_score"] - fc["score"])


def test_missing_hooks_are_named(tmp_path: Path) -> None:
    result, report = grade_student(tmp_path, "missing")
    assert result.returncode == 1
    hooks = hooks_of(report)
    assert hooks["constraint_bounds"]["status"] == "pass"
    for name in ("forward_check", "select_variable", "order_values"):
        assert hooks[name]["status"] == "error", hooks[name]
        assert f"no function named {name}" in hooks[name]["message"]
    for problem in report["problems"]:
        assert problem["status"] == "error"
        assert "no function named forward_check" in problem["message"]


def test_outcomes_do_not_depend_on_jobs(tmp_path: Path) -> None:
    def statuses(jobs: str) -> list[tuple[str, str, float]]:
        _, report = grade_student(tmp_path, "exits", COURSE, "--jobs", jobs)
        return [(e["id"], e["status"], e["score"]) for e in report["hooks"] + report["problems"]]

    assert statuses("1") == statuses("3")


def test_expected_answers_never_reach_student_code(tmp_path: Path) -> None:
    """The worker gets the hook cases' inputs only: peeking at the grader's frames finds nothing."""
    _, peeking = grade_student(tmp_path, "peeks")
    _, guessing = grade_student(tmp_path, "guesses")  # the same stand-ins, no peeking
    scores = {name: entry["score"] for name, entry in hooks_of(peeking).items()}
    assert scores == {name: entry["score"] for name, entry in hooks_of(guessing).items()}
    assert not any(entry["status"] == "pass" for entry in hooks_of(peeking).values())
