"""The sandbox against real misbehaving students (tests/student_files/*.py).

Every student file is graded by the real CLI in a subprocess (`python -m grader ...`),
and the statuses and messages are read from its --json report. The hooks a file does not
misbehave in are the reference ones, re-exported from answerkey.strategies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import sleepers, student_copy

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
HOOK_IDS = ["constraint_bounds", "forward_check", "select_variable", "order_values"]
COURSE_IDS = ["nctu-1", "nctu-1-as-printed", "nctu-2"]
#: Paths that would betray grader internals in a message meant for a student.
INTERNALS = ("grader/", "grader\\", "worker.py", "sandbox.py", "engine.py", "solvers/", "statistics.py", "Traceback")


def grader_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="200", **extra)
    return env


def run_grader(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=ROOT, env=env or grader_env(),
                          capture_output=True, text=True, timeout=120)


def grade(tmp_path: Path, student: str, *extra: str | Path, env: dict[str, str] | None = None,
          problems: Path = COURSE) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Grade tests/student_files/STUDENT.py on `problems`; the process and its JSON report."""
    out = tmp_path / f"{student}.json"
    result = run_grader(problems, "--solver", FILES / f"{student}.py", "--json", out, "--timeout", "2", *extra, env=env)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert out.is_file(), f"no JSON report; the grader said:\n{result.stdout}\n{result.stderr}"
    return result, json.loads(out.read_text(encoding="utf-8"))


def by_id(report: dict) -> dict[str, dict]:
    """Every graded item by id: the four search hooks first, then the course problems.

    Items the grader may add (more hooks, a SAT item under "other") are included too.
    """
    assert [h["id"] for h in report["hooks"]][:4] == HOOK_IDS, report["hooks"]
    assert [p["id"] for p in report["problems"]] == COURSE_IDS, report["problems"]
    return {e["id"]: e for e in report["hooks"] + report["problems"] + report.get("other", [])}


def line_of(student: str, marker: str) -> int:
    lines = (FILES / f"{student}.py").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if marker in line)


def assert_all_pass_but(entries: dict[str, dict], broken: str) -> None:
    """Every item other than `broken` was graded normally and passed."""
    for name, entry in entries.items():
        if name != broken:
            assert entry["status"] == "pass", entry
            assert entry["score"] == entry["max_score"], entry


# --- exceptions, loops, exits, signals, memory -------------------------------------------

def test_exception_deep_in_a_helper_names_the_students_line(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "deep_helper")
    assert result.returncode == 1
    where = f"deep_helper.py, line {line_of('deep_helper', 'DEEP_LINE')}, in _average"
    entries = by_id(report)
    select = entries["select_variable"]
    assert select["status"] == "fail" and select["score"] == 0, select
    assert "StatisticsError" in select["message"] and where in select["message"], select
    for name in COURSE_IDS:
        problem = entries[name]
        assert problem["status"] == "error" and problem["score"] == 0, problem
        assert "StatisticsError" in problem["message"] and where in problem["message"], problem
    for entry in entries.values():
        for internal in INTERNALS:
            assert internal not in entry["message"], (internal, entry)
    assert where in result.stdout  # the terminal tells the student too
    assert "Traceback" not in result.stdout + result.stderr


def test_infinite_loop_times_out_and_the_next_items_are_graded(tmp_path: Path) -> None:
    started = time.monotonic()
    result, report = grade(tmp_path, "loop_bounds")
    elapsed = time.monotonic() - started
    assert elapsed < 20, f"the run took {elapsed:.1f} s with --timeout 2"
    assert result.returncode == 1
    entries = by_id(report)
    bounds = entries["constraint_bounds"]
    assert bounds["status"] == "timeout" and bounds["score"] == 0, bounds
    assert "2 s" in bounds["message"]
    assert_all_pass_but(entries, "constraint_bounds")


def test_sys_exit_is_an_error_that_names_sys_exit(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "sys_exit")
    assert result.returncode == 1
    entries = by_id(report)
    for name in ["select_variable", *COURSE_IDS]:
        assert entries[name]["status"] == "error" and entries[name]["score"] == 0, entries[name]
        assert "sys.exit(3)" in entries[name]["message"], entries[name]
    for name in ("constraint_bounds", "forward_check", "order_values"):
        assert entries[name]["status"] == "pass", entries[name]


def test_os_exit_ends_the_worker_with_its_code_and_grading_goes_on(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "os_exit_bounds")
    assert result.returncode == 1
    entries = by_id(report)
    bounds = entries["constraint_bounds"]
    assert bounds["status"] == "error" and bounds["score"] == 0, bounds
    assert "process" in bounds["message"] and "ended" in bounds["message"], bounds
    assert "exit code 7" in bounds["message"], bounds
    assert_all_pass_but(entries, "constraint_bounds")  # later items: a fresh worker


def test_death_by_signal_is_named(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "segfault_bounds")
    assert result.returncode == 1
    entries = by_id(report)
    bounds = entries["constraint_bounds"]
    assert bounds["status"] == "error", bounds
    assert "killed by signal SIGSEGV" in bounds["message"], bounds
    assert_all_pass_but(entries, "constraint_bounds")


def test_huge_allocation_is_a_memory_error_and_the_grader_survives(tmp_path: Path) -> None:
    started = time.monotonic()
    result, report = grade(tmp_path, "huge_alloc")
    assert time.monotonic() - started < 30
    assert result.returncode == 1
    entries = by_id(report)
    bounds = entries["constraint_bounds"]
    assert bounds["status"] == "error" and bounds["score"] == 0, bounds
    assert "MemoryError" in bounds["message"], bounds
    assert_all_pass_but(entries, "constraint_bounds")
    assert "total" in result.stdout  # the table was printed to the end


def test_printing_megabytes_costs_only_the_flooding_items_and_output_stays_small(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "chatty")
    entries = by_id(report)
    # select_variable prints 6 MB a call: every item that calls it three times floods past the bound
    for name in ("select_variable", "nctu-1", "nctu-2"):
        assert entries[name]["status"] == "error" and "printed more than 16 MiB" in entries[name]["message"], entries[name]
    for name in ("constraint_bounds", "forward_check", "order_values", "at_least_clauses", "at_most_clauses"):
        assert entries[name]["status"] == "pass", entries[name]  # 10 MB printed at import is drained, not fatal
    # two nodes on the as-printed board stay under the bound, but with no board that has a
    # solution solved, its "no solution" earns nothing
    assert "earns nothing" in entries["nctu-1-as-printed"]["message"]
    assert len(result.stdout) < 200_000 and len(result.stderr) < 200_000
    assert (tmp_path / "chatty.json").stat().st_size < 200_000
    assert "x" * 5000 not in result.stdout
    # Gradescope shows what a test printed: cut, and said to be cut
    results_json = tmp_path / "results.json"
    gs = run_grader(COURSE, "--solver", FILES / "chatty.py", "--format", "gradescope", "--output", results_json)
    assert gs.returncode == 0 and len(gs.stdout) < 200_000, gs.stdout[-2000:]
    assert results_json.stat().st_size < 200_000
    results = json.loads(results_json.read_text(encoding="utf-8"))
    select = next(t for t in results["tests"] if t["name"] == "hooks/select_variable")
    assert select["status"] == "failed"
    assert len(select["output"]) <= 4000 and "more characters cut" in select["output"], select["output"][-200:]


# --- wrong return types ------------------------------------------------------------------

@pytest.mark.parametrize("student, hook, hook_words, problem_words", [
    ("returns_set", "select_variable", ["variable number (int)", "{"], ["select_variable returned {", "not an unassigned variable"]),
    ("returns_generator", "forward_check", ["dict of domains", "generator"], ["forward_check must return None or a dict"]),
])
def test_wrong_return_type_is_a_clear_error(tmp_path: Path, student: str, hook: str, hook_words: list[str],
                                            problem_words: list[str]) -> None:
    result, report = grade(tmp_path, student)
    assert result.returncode == 1
    entries = by_id(report)
    assert entries[hook]["status"] == "fail" and entries[hook]["score"] < entries[hook]["max_score"], entries[hook]
    for word in hook_words:
        assert word in entries[hook]["message"], entries[hook]
    for name in COURSE_IDS:
        assert entries[name]["status"] == "error" and entries[name]["score"] == 0, entries[name]
        for word in problem_words:
            assert word in entries[name]["message"], entries[name]
    for name in set(HOOK_IDS) - {hook}:
        assert entries[name]["status"] == "pass", entries[name]


# --- students who tamper with what they are given, or with the engine --------------------

def test_mutating_the_given_domains_does_not_change_a_correct_grade(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "mutates_domains")
    assert result.returncode == 0, result.stdout
    assert report["score"] == report["max_score"]
    assert_all_pass_but(by_id(report), "")


def test_replacing_the_engine_in_its_own_process_changes_nothing(tmp_path: Path) -> None:
    """The search runs in the grader: a fake engine in the student's process is never used."""
    _, honest = grade(tmp_path, "correct")
    result, report = grade(tmp_path, "fake_search")
    assert result.returncode == 0 and report["score"] == report["max_score"]
    assert [p["nodes"] for p in report["problems"]] == [p["nodes"] for p in honest["problems"]]


def test_emptying_its_own_csp_only_changes_its_own_answers(tmp_path: Path) -> None:
    """forward_check wipes the CSP it was given and fixes every cell safe: the grader's CSP
    is untouched, so its goal test rejects those layouts and the boards with mines fail."""
    result, report = grade(tmp_path, "mutates_csp")
    assert result.returncode == 1
    entries = by_id(report)
    for name in ("nctu-1", "nctu-2"):
        assert entries[name]["status"] == "fail" and "claims there is no solution" in entries[name]["message"], entries[name]


def test_importing_the_grader_is_refused(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "imports_grader")
    assert result.returncode == 1
    assert report["score"] == 0
    where = f"imports_grader.py, line {line_of('imports_grader', 'IMPORT_LINE')}"
    for entry in by_id(report).values():
        assert entry["status"] == "error", entry
        assert "may not import the grader" in entry["message"] and where in entry["message"], entry


# --- misbehaving at import time ----------------------------------------------------------

@pytest.mark.parametrize("student, words", [
    ("import_raises", ["cannot load import_raises.py", "KeyError", "'weight'", "line {IMPORT_RAISE_LINE}, in _build_table"]),
    ("import_loops", ["did not finish loading"]),
    ("import_os_exit", ["process ended while loading", "exit code 9"]),
])
def test_misbehaving_at_import_errors_every_item(tmp_path: Path, student: str, words: list[str]) -> None:
    if student == "import_raises":
        words = [w.replace("{IMPORT_RAISE_LINE}", str(line_of(student, "IMPORT_RAISE_LINE"))) for w in words]
    started = time.monotonic()
    result, report = grade(tmp_path, student)
    assert time.monotonic() - started < 30
    assert result.returncode != 0
    assert report["score"] == 0
    for entry in by_id(report).values():
        assert entry["status"] in ("error", "timeout"), entry
        for word in words:
            assert word in entry["message"], entry
    assert words[0] in " ".join(result.stdout.split())  # the reason reaches the terminal
    assert "Traceback" not in result.stdout + result.stderr


# --- child processes ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["loop", "return"])
def test_child_processes_do_not_outlive_the_run(tmp_path: Path, mode: str) -> None:
    tag = f"1000.{uuid.uuid4().int % 10**9:09d}"  # `sleep 1000.xxxxxxxxx`: unique to this run
    student = student_copy(tmp_path / "student", "spawns_sleeper", SLEEP=tag, MODE=mode)
    try:
        out = tmp_path / "report.json"
        result = run_grader(COURSE, "--solver", student, "--json", out, "--timeout", "2")
        assert "Traceback" not in result.stdout + result.stderr, result.stdout
        deadline = time.monotonic() + 3
        while sleepers(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sleepers(tag) == [], "a child of the student still runs after the grader finished"
        bounds = by_id(json.loads(out.read_text(encoding="utf-8")))["constraint_bounds"]
        assert bounds["status"] == ("timeout" if mode == "loop" else "pass"), bounds
    finally:  # never leave a sleeper behind, even when the test fails
        for pid in sleepers(tag):
            os.kill(pid, 9)
