"""Gradescope: results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/)
from the grader itself (the autograder zip is tested in test_gradescope_bundle.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import check_gradescope_spec, lone, run_grader

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"


def test_results_json_follows_the_spec(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    result = run_grader(COURSE, "--solver", lone("reversed_values"), "--format", "gradescope", "--output", output)
    assert result.returncode == 0, result.stdout + result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    check_gradescope_spec(results)
    assert "execution_time" not in results  # the student's code chooses it, hidden problems included
    tests = results["tests"]
    search_items = [
        "hooks/constraint_bounds",
        "hooks/forward_check",
        "hooks/select_variable",
        "hooks/order_values",
        "course/nctu-1",
        "course/nctu-1-as-printed",
        "course/nctu-2",
    ]
    assert [t["name"] for t in tests if t["name"] in search_items] == search_items  # in this order, maybe among others
    assert len({t["name"] for t in tests}) == len({t["number"] for t in tests}) == len(tests)
    assert abs(results["score"] - sum(t["score"] for t in tests)) < 1e-6
    [values] = [t for t in tests if t["name"] == "hooks/order_values"]
    assert values["status"] == "failed" and 0 < values["score"] < values["max_score"] and "expected" in values["output"]
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests if t is not values)
    assert all(t["visibility"] == "visible" and t["output_format"] == "html" for t in tests)
    assert "<th>returned</th>" in values["output"] and "<th>expected</th>" in values["output"]  # a case as a table
    top = results["output"].splitlines()  # the score, the next step, then each cause once
    assert f"{results['score']:g}/" in top[0] and top[1].startswith("Next step: fix order_values")
    assert top[3].startswith("  hooks/order_values: ")


def test_results_json_is_written_when_the_solver_is_missing(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    missing = tmp_path / "nowhere" / "hooks.py"
    result = run_grader(COURSE, "--solver", missing, "--format", "gradescope", "--output", output)
    assert result.returncode == 0  # the student's own doing: graded, as zero, with what to submit
    assert "Traceback" not in result.stdout + result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    check_gradescope_spec(results)
    assert "execution_time" not in results  # the student's code chooses it, hidden problems included
    assert results["score"] == 0
    assert "no Python file that defines the hooks" in results["output"] and "submit a .py file defining" in results["output"]
    assert "course staff" not in results["output"]


def test_a_broken_assignment_grades_nobody_and_leaves_no_zero(tmp_path: Path) -> None:
    """Missing problems are the course's failure, not the student's: no results.json at
    all (Gradescope then records no score), the reason for the staff, exit status 3."""
    output = tmp_path / "results.json"
    output.write_text('{"score": 0}', encoding="utf-8")  # an earlier run's file is not left to stand
    result = run_grader(tmp_path / "no-such-problems", "--solver", lone("correct_reexport"), "--format", "gradescope", "--output", output)
    assert result.returncode == 3
    assert "Traceback" not in result.stdout + result.stderr
    assert not output.exists()
    said = " ".join(result.stdout.split())
    assert said.startswith("not graded: ") and "no-such-problems" in said and "records no score" in said
