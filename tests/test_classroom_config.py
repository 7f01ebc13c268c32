"""grading.yaml: weights, the time limit, the efficiency item, and mistakes in the config."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import grade_json, lone, run_grader

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
CONFIG = """\
hooks:
  constraint_bounds: 5
  forward_check: 4
problem_sets:
  course.yaml: 4
efficiency:
  points: 6
  thresholds:
    - [1.5, 1.0]
    - [3.0, 0.5]
"""
THRESHOLDS = [(1.5, 1.0), (3.0, 0.5)]


def course_with(tmp_path: Path, config: str) -> Path:
    """A folder holding problems/course.yaml and this grading.yaml."""
    folder = tmp_path / "problems"
    folder.mkdir()
    shutil.copyfile(COURSE, folder / "course.yaml")
    (folder / "grading.yaml").write_text(config, encoding="utf-8")
    return folder


def grade(folder: Path, student: str, out: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    return grade_json(folder, lone(student), out, *extra)


def efficiency_of(report: dict) -> dict:
    [item] = [e for e in report.get("other", []) if e["kind"] == "efficiency"]
    return item


def test_weights_change_the_max_scores(tmp_path: Path) -> None:
    folder = course_with(tmp_path, CONFIG)
    result, report = grade(folder, "correct_reexport", tmp_path / "r.json")
    assert result.returncode == 0, result.stdout
    hooks = {h["id"]: h["max_score"] for h in report["hooks"]}
    assert {name: hooks[name] for name in ("constraint_bounds", "forward_check")} == {"constraint_bounds": 5, "forward_check": 4}
    assert [p["max_score"] for p in report["problems"]] == [4, 4, 4]
    assert efficiency_of(report)["max_score"] == 6
    assert report["score"] == report["max_score"]
    # the same student without the config: the default weights (constraint_bounds 2, forward_check 3,
    # 1 point per course problem, no efficiency item)
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copyfile(COURSE, plain / "course.yaml")
    _, default = grade(plain, "correct_reexport", tmp_path / "d.json")
    default_hooks = {h["id"]: h["max_score"] for h in default["hooks"]}
    assert default_hooks["constraint_bounds"] == 2 and default_hooks["forward_check"] == 3
    assert [p["max_score"] for p in default["problems"]] == [1, 1, 1]
    assert not [o for o in default.get("other", []) if o["kind"] == "efficiency"]
    assert report["max_score"] - default["max_score"] == (5 - 2) + (4 - 3) + 3 * (4 - 1) + 6


def test_timeout_from_the_config_applies(tmp_path: Path) -> None:
    folder = course_with(tmp_path, "timeout: 1.5\n")
    result, report = grade(folder, "loop_bounds", tmp_path / "r.json")
    bounds = report["hooks"][0]
    assert bounds["id"] == "constraint_bounds" and bounds["status"] == "timeout", bounds
    assert bounds["message"].startswith("ran out of time (1.5 s)"), bounds
    assert all(h["status"] == "pass" for h in report["hooks"][1:])
    assert all(p["status"] == "pass" for p in report["problems"])


def test_efficiency_full_for_the_model_answer_partial_for_a_lazy_one(tmp_path: Path) -> None:
    folder = course_with(tmp_path, CONFIG)
    _, correct = grade(folder, "standalone_correct", tmp_path / "c.json")
    item = efficiency_of(correct)
    assert item["status"] == "pass" and item["score"] == item["max_score"] == 6, item
    assert "(1.00x)" in item["message"]

    first = efficiency_of(grade(folder, "lazy_upper", tmp_path / "l1.json")[1])
    second = efficiency_of(grade(folder, "lazy_upper", tmp_path / "l2.json")[1])
    assert first == {**second, "seconds": first["seconds"]}  # deterministic
    ratio = float(re.search(r"\(([\d.]+)x\)", first["message"]).group(1))
    assert ratio > 1.5
    share = next((s for largest, s in THRESHOLDS if ratio <= largest), 0.0)
    assert 0 < share < 1
    assert first["score"] == pytest.approx(6 * share) and first["status"] == "fail"
    assert first["nodes"] > item["nodes"]


@pytest.mark.parametrize(
    "config, words",
    [
        ("colour: red\n", ["colour", "unknown setting"]),
        ("hooks:\n  forward_check: -3\n", ["hooks.forward_check", "-3"]),
        ("problem_sets:\n  course.yaml: -1\n", ["problem_sets.course.yaml", "-1"]),
        ("timeout: [1, 2\n", ["not valid YAML"]),
        ("hooks: 5\n", ["hooks"]),  # a section that is not a mapping
        ("problem_sets: [course.yaml]\n", ["problem_sets"]),
        ("efficiency:\n  points: 4\n  treshold: [[9, 1.0]]\n", ["treshold"]),  # a misspelt key inside a section
    ],
    ids=[
        "unknown-key",
        "negative-hook-points",
        "negative-set-points",
        "malformed-yaml",
        "hooks-not-a-mapping",
        "problem-sets-not-a-mapping",
        "unknown-efficiency-key",
    ],
)
def test_bad_config_gives_one_clear_line(tmp_path: Path, config: str, words: list[str]) -> None:
    folder = course_with(tmp_path, config)
    config_path = str(folder / "grading.yaml")
    result = run_grader(folder, "--solver", lone("correct_reexport"), "--only", "constraint_bounds")  # the config's line is the point
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode != 0, output
    naming = [line for line in output.splitlines() if config_path in line]
    assert len(naming) == 1, output
    assert naming[0].startswith("error:"), naming
    for word in words:
        assert word in naming[0], naming


@pytest.mark.parametrize(
    "config, words",
    [
        ("colour: red\n", "colour: unknown setting"),
        ("problem_sets:\n  cours.yaml: 2\n", "problem_sets names 'cours.yaml', but no problem file has that name"),
    ],
)
def test_check_validates_the_grading_config_too(tmp_path: Path, config: str, words: str) -> None:
    folder = course_with(tmp_path, config)
    result = run_grader("check", folder, columns=300)
    assert result.returncode == 1 and words in result.stdout and "Traceback" not in result.stderr, result.stdout
