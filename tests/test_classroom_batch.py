"""Grading a whole class: `python -m grader PATH --submissions DIR --csv FILE`."""

from __future__ import annotations

import csv
import json
import re
import statistics
import time
from pathlib import Path

from conftest import run_grader, self_contained

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
SEARCH_ITEMS = ["hooks/constraint_bounds", "hooks/forward_check", "hooks/select_variable", "hooks/order_values",
                "course/nctu-1", "course/nctu-1-as-printed", "course/nctu-2"]


def submit(folder: Path, layout: dict[str, str | None]) -> Path:
    """Build a submissions folder: {relative path: student file name, or None for an empty folder}."""
    for relative, student in layout.items():
        target = folder / relative
        if student is None:
            target.mkdir(parents=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self_contained(student), encoding="utf-8")
    return folder


def item_columns(tmp_path: Path) -> list[str]:
    """One column per graded item, as the grader names them (from a --json run on the same problems)."""
    out = tmp_path / "columns.json"
    run_grader(COURSE, "--solver", FILES / "correct_reexport.py", "--json", out)
    report = json.loads(out.read_text(encoding="utf-8"))
    columns = [f"hooks/{h['id']}" for h in report["hooks"]]
    columns += [f"{Path(p['file']).stem}/{p['id']}" for p in report["problems"]]
    columns += [o["id"] for o in report.get("other", [])]
    assert [c for c in columns if c in SEARCH_ITEMS] == SEARCH_ITEMS
    return columns


def read_csv(path: Path) -> tuple[list[str], dict[str, dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    return header, {row[0]: dict(zip(header, row)) for row in body}


def test_class_of_four_gives_one_row_each_and_a_summary(tmp_path: Path) -> None:
    folder = submit(tmp_path / "subs", {
        "ana.py": "correct_reexport",        # a file submission
        "bob/hooks.py": "lazy_upper",        # a folder with hooks.py
        "carol": None,                       # an empty folder
        "dave.py": "import_raises",          # crashes at import
    })
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    header, rows = read_csv(grades)
    items = item_columns(tmp_path)
    assert header == ["student", "score", "max_score", *items, "note", "lost"]
    assert list(rows) == ["ana", "bob", "carol", "dave"]
    full = float(rows["ana"]["max_score"])
    assert full > 0 and {row["max_score"] for row in rows.values()} == {rows["ana"]["max_score"]}
    assert float(rows["ana"]["score"]) == full
    assert all(float(rows["ana"][item]) > 0 for item in SEARCH_ITEMS)
    assert 0 < float(rows["bob"]["score"]) < full
    assert float(rows["bob"]["hooks/forward_check"]) < float(rows["ana"]["hooks/forward_check"])
    assert float(rows["bob"]["course/nctu-1"]) == float(rows["ana"]["course/nctu-1"]) > 0
    assert float(rows["carol"]["score"]) == 0 and "nothing to grade: submit a .py file defining" in rows["carol"]["note"]
    assert float(rows["dave"]["score"]) == 0
    for row in rows.values():  # the item columns add up to the score
        assert abs(sum(float(row[item]) for item in items) - float(row["score"])) < 1e-6, row
    scores = [float(row["score"]) for row in rows.values()]
    summary = " ".join(result.stdout.split())
    assert (f"4 submissions: mean {statistics.mean(scores):.2f}, median {statistics.median(scores):.2f} "
            f"out of {full:g}") in summary
    assert "carol: nothing to grade" in summary


def test_violent_students_never_stop_the_batch(tmp_path: Path) -> None:
    folder = submit(tmp_path / "subs", {
        "a_exit.py": "import_os_exit",
        "b_segv.py": "segfault_bounds",
        "c_memory/hooks.py": "huge_alloc",
        "d_correct.py": "correct_reexport",
        "e_syntax/assignment/hooks.py": "syntax",
    })
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    _, rows = read_csv(grades)
    assert list(rows) == ["a_exit", "b_segv", "c_memory", "d_correct", "e_syntax"]
    scores = {name: float(row["score"]) for name, row in rows.items()}
    full = float(rows["d_correct"]["max_score"])
    bounds = float(rows["d_correct"]["hooks/constraint_bounds"])  # what the two dying hooks lose
    assert full > 0 and bounds > 0
    assert scores == {"a_exit": 0, "b_segv": full - bounds, "c_memory": full - bounds, "d_correct": full, "e_syntax": 0}
    assert "5 submissions" in result.stdout


def test_batch_honours_timeout(tmp_path: Path) -> None:
    """--timeout applies to every submission of a batch, as it does to one submission.

    A student whose constraint_bounds loops forever costs one timeout: about 2 s here,
    not the default 10 s.
    """
    folder = submit(tmp_path / "subs", {"looper.py": "loop_bounds", "ok.py": "correct_reexport"})
    grades = tmp_path / "grades.csv"
    started = time.monotonic()
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "2")
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    _, rows = read_csv(grades)
    full = float(rows["ok"]["max_score"])
    assert float(rows["ok"]["score"]) == full
    assert float(rows["looper"]["hooks/constraint_bounds"]) == 0
    assert float(rows["looper"]["score"]) == full - float(rows["ok"]["hooks/constraint_bounds"])
    assert elapsed < 8, f"the batch took {elapsed:.1f} s: --timeout 2 was not applied"
    assert re.search(r"\b2 submissions\b", result.stdout)


def test_same_student_name_twice_keeps_both_grades(tmp_path: Path) -> None:
    """A file `ana.py` and a folder `ana/` are two submissions: each row carries its own grade.

    (The broken one must never be shown with the correct one's full marks, nor the correct one with its zero.)
    """
    folder = submit(tmp_path / "subs", {"ana.py": "correct_reexport", "ana/hooks.py": "import_raises"})
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    with grades.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2
    assert [row["student"] for row in rows] == ["ana", "ana"], rows  # both under the name, neither flagged
    full = float(rows[0]["max_score"])
    graded = sorted((float(row["score"]), row["note"]) for row in rows)
    assert [score for score, _ in graded] == [0.0, full], rows
    assert graded[0][1].startswith("cannot load hooks.py: KeyError") and graded[1][1] == "", rows


def test_each_student_gets_a_feedback_file_and_the_csv_says_what_was_lost(tmp_path: Path) -> None:
    folder = submit(tmp_path / "subs", {"ana.py": "correct", "bob.py": "off_by_one_bounds"})
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--timeout", "5")
    assert result.returncode == 0, result.stdout + result.stderr
    _, rows = read_csv(grades)
    assert rows["ana"]["lost"] == "" and rows["bob"]["lost"].startswith("hooks/forward_check: ")
    feedback = tmp_path / "grades-feedback"
    bob = (feedback / "bob.md").read_text(encoding="utf-8")
    assert "Where the search first went wrong" in bob and "--case forward_check:" in bob
    assert "Full marks." in (feedback / "ana.md").read_text(encoding="utf-8")
    assert (feedback / "bob.html").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")
