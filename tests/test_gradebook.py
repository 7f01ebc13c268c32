"""`--submissions DIR --roster roster.csv --gradebook canvas|generic`: grades in a CSV the
course's gradebook imports as is, with every mismatch between the roster and the class
listed."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import COURSE, ROOT, isolation_unavailable, run_grader, self_contained
from rich.console import Console

from grader.reports.gradebook import Graded, Person, RosterError, Student, match, matched_roster, read_roster, show_gradebook, write_gradebook

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


# --- Canvas's own gradebook export as the roster, matched with an export's students ----------

CANVAS_EXPORT = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (311),Minesweeper CSP (4242),Current Score\n"
    "    Points Possible,,,,,10.00,,\n"
    '"Lovelace, Ada",70001,1001,alovelace,CS 101 A,8.00,,80\n'
    '"Babbage, Charles",70002,S-1002,cb@example.edu,CS 101 B,,,\n'
    '"Hopper, Grace",70003,1003,ghopper,CS 101 A,9.00,,90\n'
    '"Student, Test",79999,,,CS 101 A,,,\n'
    "\n"
)
PEOPLE = [Person("1001", "1001", "ada@example.edu"), Person("s1002", "s1002", "cb@example.edu"), Person("1005", "1005", "zed@example.edu")]


def test_canvas_s_own_export_is_a_roster_as_it_is(tmp_path: Path) -> None:
    """Canvas's gradebook export (a byte-order mark, its "Points Possible" line, other
    assignments' columns, its test student) is read with no submission column: each line
    is matched with the export's students by SIS User ID (against the sid) or SIS Login ID
    (against the email); the test student and a line naming no one stay roster lines with
    no submission, a student on no line stays unmatched; the Canvas form writes each
    line's own ID, SIS User ID and SIS Login ID."""
    (tmp_path / "canvas.csv").write_text(CANVAS_EXPORT, encoding="utf-8")
    students = read_roster(tmp_path / "canvas.csv")
    assert [(s.name, s.id, s.line) for s in students] == [
        ("Lovelace, Ada", "70001", 3),
        ("Babbage, Charles", "70002", 4),
        ("Hopper, Grace", "70003", 5),
        ("Student, Test", "79999", 6),
    ]
    roster, notes = matched_roster(tmp_path / "canvas.csv", students, PEOPLE)
    assert notes == [] and [s.submission for s in roster] == ["1001", "s1002", "", ""]
    book = match([Graded("1001", 19.0, 19.0, "Ada Lovelace"), Graded("s1002", 3.0, 19.0), Graded("1005", 7.0, 19.0, "Zed")], roster)
    write_gradebook(tmp_path / "out.csv", book, "canvas", "Minesweeper CSP (4242)")
    assert rows(tmp_path / "out.csv")[2:] == [
        ["Lovelace, Ada", "70001", "1001", "alovelace", "CS 101 A", "19"],
        ["Babbage, Charles", "70002", "S-1002", "cb@example.edu", "CS 101 B", "3"],
    ]
    assert [s.name for s in book.absent] == ["Hopper, Grace", "Student, Test"] and [g.submission for g in book.unmatched] == ["1005"]
    console = Console(record=True, width=300)
    show_gradebook(console, tmp_path / "out.csv", book)
    said = console.export_text()
    assert "not in out.csv: Zed (1005, graded 7/19) matches no roster line" in said  # the name beside the id
    assert "roster lines with no submission (2): Hopper, Grace (1003, line 5), Student, Test (79999, line 6)" in said


def test_a_roster_read_from_an_export_puts_the_sid_where_canvas_matches_it(tmp_path: Path) -> None:
    """With no --roster, the export is the roster: Canvas's ID column (its own user id, which
    no export knows) stays empty and the sid goes in SIS User ID; the generic form keeps
    the sid as the id."""
    student = Student("1001", "1001", "Ada Lovelace", "A", sis_user_id="1001", email="ada@example.edu", from_export=True)
    book = match([Graded("1001", 19.0, 19.0)], [student])
    write_gradebook(tmp_path / "canvas.csv", book, "canvas", "A (1)")
    write_gradebook(tmp_path / "generic.csv", book, "generic", "")
    assert rows(tmp_path / "canvas.csv")[2] == ["Ada Lovelace", "", "1001", "", "A", "19"]
    assert rows(tmp_path / "generic.csv")[1] == ["1001", "19"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("Student,ID,SIS User ID\nA,1,1001\nB,2,1001\n", "lines 2 and 3 both have the sis user id '1001'"),
        ("Student,ID,SIS Login ID\nA,1,Ann@x.edu\nB,2,ann@X.edu\n", "lines 2 and 3 both have the sis login id 'ann@X.edu'"),
        ("name,e-mail\nA,a@x.edu\nB,a@x.edu\n", "lines 2 and 3 both have the email 'a@x.edu'"),
        ("Student,ID,Section\nA,1,B\n", "no submission column, nor SIS User ID, SIS Login ID or email"),
    ],
)
def test_a_roster_matched_by_sis_ids_refuses_what_it_could_not_tell_apart(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
    with pytest.raises(RosterError, match=words):
        read_roster(tmp_path / "roster.csv")


def test_odd_columns_and_cells_of_a_canvas_roster(tmp_path: Path) -> None:
    """Headers in another case or with spaces, an `E-mail` column, lines shorter than the
    header, a cell that reads as a formula and a name with control characters: read as
    text, matched, and written neither as a formula nor with the control characters."""
    text = '  sis USER id ,E-mail,Student\n1001\n,bo@x.edu,"=HYPERLINK(""x"")"\n,,\n,cy@x.edu,"Cy\x1b[2J\rEvil"\n'
    (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
    students = read_roster(tmp_path / "roster.csv")
    people = [Person("1001", "1001"), Person("bo", "b", "BO@x.edu"), Person("cy", "c", "cy@x.edu")]
    roster, notes = matched_roster(tmp_path / "roster.csv", students, people)
    assert notes == [] and [s.submission for s in roster] == ["1001", "bo", "cy"]
    book = match([Graded("1001", 1.0, 2.0), Graded("bo", 2.0, 2.0)], roster)
    write_gradebook(tmp_path / "out.csv", book, "canvas", "A")
    assert rows(tmp_path / "out.csv")[3][0] == '\'=HYPERLINK("x")'
    console = Console(record=True, width=300)
    show_gradebook(console, tmp_path / "out.csv", book)
    assert "\x1b" not in console.export_text() and "Cy[2J" not in console.export_text()


def test_a_line_naming_two_students_or_a_student_two_lines_name_matches_no_one(tmp_path: Path) -> None:
    """One line's SIS User ID is one student's sid and its SIS Login ID another's email; two
    lines name a third (one by SIS User ID, one by email): none of these lines is matched,
    each said in one line, never one of them chosen."""
    text = "Student,SIS User ID,SIS Login ID,email\nA,1001,b@x.edu,\nC1,1003,,\nC2,,,c@x.edu\nD,1004,,\n"
    (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
    people = [Person("a", "1001"), Person("b", "2", "b@x.edu"), Person("c", "1003", "c@x.edu"), Person("d", "1004")]
    roster, notes = matched_roster(tmp_path / "roster.csv", read_roster(tmp_path / "roster.csv"), people)
    assert [s.submission for s in roster] == ["", "", "", "d"]
    assert notes == ["roster line 2 (A (1001, line 2)) names a and b: none is matched", "roster lines 3 and 4 all name c: none is matched"]


def test_a_roster_with_no_submission_column_needs_an_export(tmp_path: Path) -> None:
    (tmp_path / "canvas.csv").write_text(CANVAS_EXPORT, encoding="utf-8")
    with pytest.raises(RosterError, match="no submission column, and the submissions are no export naming the students"):
        matched_roster(tmp_path / "canvas.csv", read_roster(tmp_path / "canvas.csv"), [])


def gradescope_export(folder: Path, people: dict[str, tuple[str, str, str, str]]) -> Path:
    """An unpacked Gradescope export: {folder: (name, sid, email, student file)}."""
    metadata = {}
    for key, (name, sid, email, student) in people.items():
        (folder / key).mkdir(parents=True)
        (folder / key / "hooks.py").write_text(self_contained(student), encoding="utf-8")
        metadata[key] = {":submitters": [{":name": name, ":sid": sid, ":email": email}], ":created_at": "2026-11-01 10:00:00 +0000"}
    (folder / "submission_metadata.yml").write_text(yaml.safe_dump(metadata), encoding="utf-8")
    return folder


def test_a_gradescope_export_goes_to_canvas_by_sis_user_id_and_canvas_s_export_is_its_roster(tmp_path: Path) -> None:
    """A class graded from a Gradescope export: with no roster, the Canvas gradebook puts
    each sid under SIS User ID and leaves Canvas's ID empty; re-exported with Canvas's own
    gradebook export as the roster (no submission column added), each line gets its
    student's score by SIS User ID or SIS Login ID, and the student on no line is named
    with their name beside their sid."""
    export = gradescope_export(
        tmp_path / "export",
        {
            "submission_1": ("Ada Lovelace", "1001", "ada@example.edu", "correct_reexport"),
            "submission_2": ("Charles Babbage", "s1002", "cb@example.edu", "lazy_upper"),
            "submission_3": ("Zed Zee", "1005", "zed@example.edu", "correct_reexport"),
        },
    )
    grades = tmp_path / "grades.csv"
    ran = run_grader(
        COURSE, "--only", "forward_check", "--timeout", "5", "--submissions", export, "--csv", grades, "--gradebook", "canvas", timeout=600
    )
    assert ran.returncode == 0 and "Traceback" not in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    book = rows(tmp_path / "grades-canvas.csv")
    assert [row[:5] for row in book[2:]] == [
        ["Ada Lovelace", "", "1001", "", ""],
        ["Zed Zee", "", "1005", "", ""],
        ["Charles Babbage", "", "s1002", "", ""],
    ]
    (tmp_path / "canvas.csv").write_text(CANVAS_EXPORT, encoding="utf-8")
    again = run_grader(
        "reexport", tmp_path / "grades-results", "--roster", tmp_path / "canvas.csv", "--gradebook", "canvas", "--assignment", "M (4242)"
    )
    assert again.returncode == 1 and "Traceback" not in again.stdout + again.stderr, again.stdout + again.stderr  # Zed is left out
    matched = rows(tmp_path / "grades-reexport-canvas.csv")
    scores = {row[0]: row[5] for row in book[2:]}
    assert matched[2:] == [
        ["Lovelace, Ada", "70001", "1001", "alovelace", "CS 101 A", scores["Ada Lovelace"]],
        ["Babbage, Charles", "70002", "S-1002", "cb@example.edu", "CS 101 B", scores["Charles Babbage"]],
    ]
    said = " ".join(again.stdout.split())
    assert f"Zed Zee (1005, graded {scores['Zed Zee']}/" in said and "matches no roster line" in said
