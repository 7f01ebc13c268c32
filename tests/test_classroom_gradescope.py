"""Gradescope: results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/)
and the autograder zip, run the way Gradescope runs it (without setup.sh).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "PYTHONPATH")}
    env.update(COLUMNS="200", **extra)
    return env


def run_grader(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=cwd, env=clean_env(PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=180)


def check_spec(results: dict) -> None:
    """The shape Gradescope expects."""
    for key, kind in (("score", (int, float)), ("execution_time", (int, float)), ("output", str), ("tests", list)):
        assert isinstance(results.get(key), kind), (key, results.get(key))
    assert results["execution_time"] >= 0
    for test in results["tests"]:
        assert {"name", "number", "score", "max_score", "status", "output", "visibility"} <= set(test), test
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["number"], str)
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"], test
        assert test["status"] in ("passed", "failed"), test
        assert isinstance(test["output"], str)
        assert test["visibility"] in VISIBILITIES, test


def test_results_json_follows_the_spec(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    result = run_grader(COURSE, "--solver", FILES / "lazy_upper.py", "--format", "gradescope", "--output", output)
    assert result.returncode == 0, result.stdout + result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    check_spec(results)
    tests = results["tests"]
    search_items = ["hooks/constraint_bounds", "hooks/forward_check", "hooks/select_variable", "hooks/order_values",
                    "course/nctu-1", "course/nctu-1-as-printed", "course/nctu-2"]
    assert [t["name"] for t in tests if t["name"] in search_items] == search_items  # in this order, maybe among others
    assert len({t["name"] for t in tests}) == len({t["number"] for t in tests}) == len(tests)
    assert abs(results["score"] - sum(t["score"] for t in tests)) < 1e-6
    [fc] = [t for t in tests if t["name"] == "hooks/forward_check"]
    assert fc["status"] == "failed" and 0 < fc["score"] < fc["max_score"] and "expected" in fc["output"]
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests if t is not fc)
    assert all(t["visibility"] == "visible" for t in tests)
    assert f"{results['score']:g}/" in results["output"]


def test_results_json_is_written_when_the_solver_is_missing(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    missing = tmp_path / "nowhere" / "hooks.py"
    result = run_grader(COURSE, "--solver", missing, "--format", "gradescope", "--output", output)
    assert result.returncode == 0  # the student's own doing: graded, as zero, with what to submit
    assert "Traceback" not in result.stdout + result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    check_spec(results)
    assert results["score"] == 0
    assert "no Python file that defines the hooks" in results["output"] and "submit a .py file defining" in results["output"]
    assert "course staff" not in results["output"]


def test_results_json_is_written_when_the_problems_are_missing(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    result = run_grader(tmp_path / "no-such-problems", "--solver", FILES / "correct_reexport.py",
                        "--format", "gradescope", "--output", output)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    check_spec(results)
    # A broken assignment hands out no partial grade: 0, the reason, and a word to the staff.
    assert results["score"] == 0 and results["tests"] == []
    assert "no-such-problems" in results["output"] and "course staff" in results["output"]


def _run_autograder(root: Path, submission: Path) -> dict:
    """Unpack nothing, run `bash source/run_autograder` with a fresh submission; results.json."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    (root / "submission").mkdir()
    shutil.copyfile(submission, root / "submission" / "hooks.py")
    env = clean_env(AUTOGRADER_ROOT=str(root), AUTOGRADER_PYTHON=sys.executable)  # no PYTHONPATH: the kit alone
    run = subprocess.run(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env,
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    results_json = root / "results" / "results.json"
    assert results_json.is_file(), run.stdout + run.stderr
    results = json.loads(results_json.read_text(encoding="utf-8"))
    check_spec(results)
    return results


def test_bundle_runs_like_on_gradescope(tmp_path: Path) -> None:
    archive = tmp_path / "autograder.zip"
    built = run_grader("gradescope-bundle", archive)
    assert built.returncode == 0, built.stdout + built.stderr
    with zipfile.ZipFile(archive) as bundle:
        names = bundle.namelist()
        for script in ("setup.sh", "run_autograder"):
            assert script in names  # at the zip root
            mode = bundle.getinfo(script).external_attr >> 16
            assert mode & stat.S_IXUSR and mode & stat.S_IXOTH, oct(mode)
            assert bundle.read(script).startswith(b"#!/usr/bin/env bash")
        assert "kit/pyproject.toml" in names
        assert "kit/grader/sandbox/child.py" in names and "kit/solvers/strategies.py" in names
        assert not any("__pycache__" in name for name in names)
        root = tmp_path / "autograder"
        bundle.extractall(root / "source")

    reference = tmp_path / "reference.json"
    run_grader(ROOT / "problems", "--solver", FILES / "standalone_correct.py", "--json", reference)
    expected_max = json.loads(reference.read_text(encoding="utf-8"))["max_score"]

    good = _run_autograder(root, FILES / "standalone_correct.py")
    assert good["score"] == expected_max == sum(t["max_score"] for t in good["tests"]) > 0
    assert all(t["status"] == "passed" for t in good["tests"])
    assert len(good["tests"]) > 4 + 40  # the hook tests and every problem of problems/

    broken = _run_autograder(root, FILES / "syntax_error.py")
    assert broken["score"] == 0
    assert all(t["status"] == "failed" for t in broken["tests"])
    assert any("SyntaxError" in t["output"] for t in broken["tests"]) or "SyntaxError" in broken["output"]
