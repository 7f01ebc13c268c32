"""`--submissions DIR --roster roster.csv --gradebook canvas|generic`: grades in a CSV the
course's gradebook imports as is, with every mismatch between the roster and the class
listed."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import COURSE, ROOT, isolation_unavailable, run_grader, self_contained

from grader.reports.gradebook import Graded, RosterError, Student, match, read_roster, write_gradebook

ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,submission,notes
"Lovelace, Ada",1001,S-1001,alovelace,CS 101 A,ada,
"Babbage, Charles",1002,S-1002,cbabbage,CS 101 B,charles.py,his file's name as the folder shows it
"Hopper, Grace",1003,S-1003,ghopper,CS 101 A,grace,no submission
"""


def rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_a_class_with_a_missing_and_an_extra_student_goes_to_canvas(tmp_path: Path) -> None:
    why = isolation_unavailable("bwrap") and isolation_unavailable("user")
    if why:
        pytest.skip(why)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(self_contained("correct"), encoding="utf-8")
    shutil.copyfile(ROOT / "assignment" / "hooks.py", folder / "charles.py")
    (folder / "zed.py").write_text(self_contained("correct"), encoding="utf-8")  # on no roster line
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    result = run_grader(
        COURSE,
        "--submissions",
        folder,
        "--csv",
        tmp_path / "grades.csv",
        "--roster",
        tmp_path / "roster.csv",
        "--gradebook",
        "canvas",
        "--assignment",
        "Minesweeper CSP (4242)",
        timeout=600,
    )
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    book = rows(tmp_path / "grades-canvas.csv")
    top = book[1][5]
    assert book == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Minesweeper CSP (4242)"],
        ["    Points Possible", "", "", "", "", top],
        ["Lovelace, Ada", "1001", "S-1001", "alovelace", "CS 101 A", top],
        ["Babbage, Charles", "1002", "S-1002", "cbabbage", "CS 101 B", "0"],
    ]
    assert float(top) > 0
    said = " ".join(result.stdout.split())
    assert "wrote " in said and "grades-canvas.csv: 2 students" in said
    assert f"not in grades-canvas.csv: zed (graded {top}/{top}) matches no roster line" in said
    assert "not in grades-canvas.csv: roster lines with no submission (1): Hopper, Grace (1003, grace)" in said


def test_the_generic_form_is_id_and_score_and_the_ungraded_are_listed_not_zeroed(tmp_path: Path) -> None:
    (tmp_path / "roster.csv").write_text("submission,id,name\nada,1001,Ada\nbob,1002,Bob\ncy,1003,Cy\n", encoding="utf-8")
    book = match([Graded("ada", 19.0, 19.0), Graded("bob", None, 19.0), Graded("dan", 3.0, 19.0)], read_roster(tmp_path / "roster.csv"))
    assert [s.id for s, _ in book.rows] == ["1001"] and [g.submission for g in book.unmatched] == ["dan"]
    assert [s.id for s in book.ungraded] == ["1002"] and [s.id for s in book.absent] == ["1003"]
    write_gradebook(tmp_path / "out.csv", book, "generic", "ignored")
    assert rows(tmp_path / "out.csv") == [["id", "score"], ["1001", "19"]]


def test_roster_cells_cannot_become_formulas(tmp_path: Path) -> None:
    book = match([Graded("x", 1.5, 2.0)], [Student("x", "=1+1", name="@SUM(A1)")])
    write_gradebook(tmp_path / "out.csv", book, "canvas", "-danger")
    assert rows(tmp_path / "out.csv")[0][5] == "'-danger" and rows(tmp_path / "out.csv")[2][:2] == ["'@SUM(A1)", "'=1+1"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "is empty"),
        ("name,id\nAda,1\n", "no submission column"),
        ("submission,id\nada,1\nada.py,2\n", "both name the submission"),
        ("submission,id\nada,\n", "line 2 has no submission name or no id"),
    ],
)
def test_a_bad_roster_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
    with pytest.raises(RosterError, match=words):
        read_roster(tmp_path / "roster.csv")


def test_a_bad_roster_stops_the_run_before_anyone_is_graded(tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ada.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "roster.csv").write_text("name,id\n", encoding="utf-8")
    result = run_grader(
        COURSE, "--submissions", tmp_path / "class", "--csv", tmp_path / "grades.csv", "--roster", tmp_path / "roster.csv", "--gradebook", "generic"
    )
    assert result.returncode == 2 and "no submission column" in result.stdout and not (tmp_path / "grades.csv").exists()
    alone = run_grader(COURSE, "--submissions", tmp_path / "class", "--gradebook", "generic")
    assert alone.returncode == 2 and "--gradebook: give --roster" in alone.stdout  # a folder names no one
