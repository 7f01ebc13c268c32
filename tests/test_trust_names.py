"""Names map one to one, and no CSV cell reads as a formula (issue 48, item 5).

- A student's name in every output (`student_names`) and the file name made of it
  (`file_names`: feedback, kept results, `gradescope-test --keep`, the similarity check's
  copies) are one to one, whatever order the class sorts in: `alice smith.py` beside a
  classmate's `alice_smith.py` takes nothing of theirs, and no pair of names collapses.
- Every CSV the kit writes goes through `write_table`: a spreadsheet splitting on `,`, `;`
  or a tab sees no text cell that starts a formula, and a score column stays numbers.
"""

from __future__ import annotations

import ast
import csv
import itertools
import re
import unicodedata
from pathlib import Path

import pytest
from conftest import ROOT, Kit, python_tree, read_rows
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from grader.commands import batch, reexport
from grader.commands.bundletest import kept_names
from grader.commands.insights import write_tables
from grader.inputs.exports import Identity
from grader.inputs.intake import NAME_LIMIT
from grader.inputs.names import digest, file_names, plain_name, student_names
from grader.reports.csvfile import csv_text
from grader.reports.gradebook import CANVAS_HEADER, Gradebook, Student, write_gradebook
from grader.reports.insights import Table
from grader.reports.kept import KeptStudent, load_kept, write_kept

SAFE_FILE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
DANGER = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
FORMULA_NAMES = [
    "x;=1+1;=HYPERLINK(A1)",
    "=cmd|' /C calc'!A0",
    "+1",
    "-2",
    "@SUM(1+1)*cmd",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    "a,=1+1",
    "a\t=1+1",
    "a\n=1+1",
    'a;"=1+1',
    'a; "@x";-1',
    "\uff1dSUM(1)",
]
ORDINARY = ["ana", "bob", "alice_smith", "Smith.Alice", "s1234567", "jean-luc", "o_brien2"]
#: Names a class may hold that the naming of main (before this round) made one file name,
#: with the names they collapsed with: spaces, case, leading dots and dashes, accents,
#: look-alikes, length, reserved names.
HOSTILE = [
    "alice smith",
    "alice_smith",
    "alice_smith~",
    "Alice_Smith",
    "alice.smith.",
    "--alice_smith",
    "..alice_smith",
    "alice/smith",
    "alice\\smith",
    "a/../b",
    "..",
    ".",
    "\u0430lice_smith",  # Cyrillic a
    "ａｌｉｃｅ_smith",  # full width
    "alice_smith\u200b",  # a zero-width space
    "de\u0301ja",  # e and a combining accent
    "d\u00e9ja",  # the same letter precomposed
    "x" * 300 + "1",
    "x" * 300 + "2",
    "x" * 100,
    "run",
    "RUN",
    "con",
    "nul.txt",
    "alice_smith--" + digest("alice smith"),  # a name made to look like a classmate's mark
    "student",
    "",
]


def old_file_name(name: str) -> str:
    """How main named a file (case ignored, as its `used` set compared them), before numbering."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._-").casefold()


# --- file names ------------------------------------------------------------------------


def test_ordinary_names_keep_their_file_names() -> None:
    assert file_names(ORDINARY) == ORDINARY
    assert student_names([(name, name) for name in ORDINARY]) == ORDINARY


@pytest.mark.parametrize("attacker", ["alice smith", "alice_smith~", "--alice_smith", "\u0430lice_smith", "alice_smith\u200b"])
def test_the_classmates_file_name_is_theirs_whichever_sorts_first(attacker: str) -> None:
    """`alice_smith` keeps `alice_smith` in both orders; the attacker gets a marked name
    that is not the classmate's, and the same one in both orders."""
    forward = file_names([attacker, "alice_smith"])
    backward = file_names(["alice_smith", attacker])
    assert forward[1] == backward[0] == "alice_smith"
    assert forward[0] == backward[1] != "alice_smith"
    assert "--" in forward[0] and forward[0].casefold() != "alice_smith"


def test_names_alike_but_for_case_are_both_marked() -> None:
    """`Alice_Smith` and `alice_smith` are one file where case is ignored (macOS, Windows):
    neither keeps the name, in either order, and their marks differ but for case too."""
    forward = file_names(["Alice_Smith", "alice_smith"])
    assert file_names(["alice_smith", "Alice_Smith"]) == forward[::-1]
    assert "alice_smith" not in (name.casefold() for name in forward) and forward[0].casefold() != forward[1].casefold()


def test_no_pair_of_names_the_old_naming_collapsed_shares_a_file_name() -> None:
    collapsed = [(a, b) for a, b in itertools.combinations(HOSTILE, 2) if old_file_name(a) == old_file_name(b)]
    assert len(collapsed) >= 10, collapsed  # the corpus holds what main merged
    for a, b in collapsed:
        first, second = file_names([a, b])
        assert first.casefold() != second.casefold(), (a, b, first)
        assert file_names([b, a]) == [second, first], (a, b)
    every = file_names(HOSTILE)
    assert len({name.casefold() for name in every}) == len(HOSTILE)
    assert all(SAFE_FILE.fullmatch(name) and len(name) <= NAME_LIMIT for name in every), every
    assert "run" not in (name.casefold() for name in every)  # run.json is the kept run's


def test_a_name_made_to_look_like_a_mark_gets_a_mark_of_its_own() -> None:
    victim = file_names(["alice smith"])[0]  # alice_smith--<its digits>
    both = file_names(["alice smith", victim])
    assert both[0] == victim and both[1] not in (victim, "alice_smith") and both[1] == file_names([victim])[0]
    shown = student_names([("bob", "bob.py"), ("bob", "bob")])
    forged = student_names([("bob", "bob.py"), ("bob", "bob"), (shown[0], "forged.py")])
    assert forged[:2] == shown and forged[2] != shown[0] and len(set(forged)) == 3


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), unique=True, max_size=8))
def test_file_names_are_one_to_one_and_safe_for_any_names(names: list[str]) -> None:
    made = file_names(names)
    assert len({name.casefold() for name in made}) == len(names)
    assert all(SAFE_FILE.fullmatch(name) and "/" not in name for name in made)
    assert file_names(names[::-1]) == made[::-1]  # a name's file does not depend on the order


# --- names in every output -------------------------------------------------------------


def test_student_names_keep_every_submission_apart() -> None:
    """A file and a folder of one name, a name with a control character beside the clean
    one, two long names alike for their first hundred characters, paths, dots: each a
    plain name of its own; a name that needed no cleaning keeps it."""
    entries = [
        ("alice", "alice.py"),
        ("alice", "alice"),
        ("bob", "bob.py"),
        ("b\x01ob", "b\x01ob.py"),
        ("x" * 300 + "1", "long1.py"),
        ("x" * 300 + "2", "long2.py"),
        ("a/b", "a/b"),
        ("..", "dots"),
        ("\u0430na", "cyrillic.py"),
        ("ana", "ana.py"),
    ]
    names = student_names(entries)
    assert len(set(names)) == len(names) and all(plain_name(name) for name in names), names
    assert names[2] == "bob" and names[3] != "bob"  # the clean one keeps its name
    assert names[0] != "alice" and names[1] != "alice"  # two alike, untouched: neither takes it
    assert names[8:] == ["\u0430na", "ana"]  # look-alikes stay apart, as they are
    assert student_names(entries[::-1]) == names[::-1]


def test_every_marked_name_is_kept_and_read_back(tmp_path: Path) -> None:
    """Kept results of hostile names are all read back (none skipped), each its own student."""
    raw = [*HOSTILE[:-1], *ORDINARY]
    names = student_names([(name, f"{index}") for index, name in enumerate(raw)])
    write_kept(tmp_path, {}, [KeptStudent(name, {}, name, None, None, None, None, "nothing to grade") for name in names])
    kept = load_kept(tmp_path)
    assert kept.errors == [] and [s.student for s in kept.students] == names
    assert {p.name for p in tmp_path.iterdir()} == {"run.json", *(f"{n}.json" for n in file_names(names))}


def test_gradescope_test_keeps_each_submission_apart() -> None:
    forward = kept_names([Path("alice smith.py"), Path("alice_smith.py"), Path("bob"), Path("again/bob")])
    backward = kept_names([Path("again/bob"), Path("bob"), Path("alice_smith.py"), Path("alice smith.py")])
    assert forward == backward[::-1]
    assert forward[1:] == ["alice_smith.json", "bob.json", "again-bob.json"] and forward[0] != "alice_smith.json"


# --- CSV cells -------------------------------------------------------------------------


def seen_cells(path: Path) -> dict[str, list[str]]:
    """Every cell of the CSV at `path` as a reader splitting on `,`, `;` or a tab sees it."""
    seen = {}
    for delimiter in ",;\t":
        with path.open(newline="", encoding="utf-8") as handle:
            seen[delimiter] = [cell for row in csv.reader(handle, delimiter=delimiter) for cell in row]
    return seen


def formulas(path: Path) -> list[tuple[str, str]]:
    """(delimiter, cell) for each cell that starts a formula, whatever it splits on (a number is no formula)."""
    found = []
    for delimiter, cells in seen_cells(path).items():
        for cell in cells:
            if cell.lstrip(" ")[:1] in DANGER and not _number(cell):
                found.append((delimiter, cell))
    return found


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _rows(names: list[str] = FORMULA_NAMES + ORDINARY) -> list[batch.BatchRow]:
    rows = [batch.BatchRow(name, None, f"cannot load {name}.py", submission=f"{name}.py") for name in names]
    for row, name in zip(rows, FORMULA_NAMES[::-1] + ORDINARY):
        row.identity = Identity(name=name, sid="1", email=f"{name}@x")
    return rows


def test_the_grades_csv_has_no_formula_whatever_it_is_split_on(tmp_path: Path) -> None:
    batch.write_csv(tmp_path / "grades.csv", _rows())
    assert formulas(tmp_path / "grades.csv") == []
    rows = read_rows(tmp_path / "grades.csv")
    assert set(ORDINARY) <= set(rows) and all(rows[name]["name"] == name for name in ORDINARY)  # ordinary cells as they are
    assert rows["'-2"]["note"] == "cannot load -2.py"  # no reader starts a cell at its `-`
    assert rows["x;'=1+1;'=HYPERLINK(A1)"]["note"] == "cannot load x;'=1+1;'=HYPERLINK(A1).py"
    text = (tmp_path / "grades.csv").read_bytes().decode("utf-8")
    assert text.count(",0.0,19.0,") == 0 and text.count('",0.0,0.0,"') == len(rows)  # score, max_score: numbers, unquoted


def test_the_gradebooks_have_no_formula_and_import_as_before(tmp_path: Path) -> None:
    students = [Student(name, f"id{index}", name, name, name, name) for index, name in enumerate(FORMULA_NAMES + ORDINARY)]
    book = Gradebook([(student, 7.5) for student in students], 10.0, [], [], [], [])
    write_gradebook(tmp_path / "canvas.csv", book, "canvas", "=Minesweeper (12)")
    write_gradebook(tmp_path / "generic.csv", Gradebook([(Student("x", "-1"), 3.0), (Student("y", "s42"), 4.5)], 10.0, [], [], [], []), "generic", "")
    for path in (tmp_path / "canvas.csv", tmp_path / "generic.csv"):
        assert formulas(path) == [], path.name
    with (tmp_path / "canvas.csv").open(newline="", encoding="utf-8") as handle:
        lines = list(csv.reader(handle))
    assert lines[0] == [*CANVAS_HEADER, "'=Minesweeper (12)"] and lines[1] == ["    Points Possible", "", "", "", "", "10"]
    assert [line[1] for line in lines[2:]] == [student.id for student in students]  # ids keep their text
    assert [line[0] for line in lines[2 + len(FORMULA_NAMES) :]] == ORDINARY
    assert sum(float(line[5]) for line in lines[2:]) == 7.5 * len(students)
    raw = (tmp_path / "canvas.csv").read_bytes().decode("utf-8")
    assert raw.count(",7.5\r\n") == len(students) and ',"",10\r\n' in raw  # numbers unquoted
    assert (tmp_path / "generic.csv").read_text(encoding="utf-8").splitlines() == ['"id","score"', '"\'-1",3', '"s42",4.5']


def test_the_insights_tables_have_no_formula(tmp_path: Path) -> None:
    table = Table("moved_scores", "Scores that moved", ["student", "before", "after", "change"])
    table.rows = [[name, 1.0, 0.5, -0.5] for name in FORMULA_NAMES] + [[name, 1, 2, 1.0] for name in ORDINARY]
    write_tables(tmp_path, [table])
    assert formulas(tmp_path / "moved_scores.csv") == []
    with (tmp_path / "moved_scores.csv").open(newline="", encoding="utf-8") as handle:
        lines = list(csv.reader(handle))
    assert [line[0] for line in lines[1 + len(FORMULA_NAMES) :]] == ORDINARY and sum(float(line[3]) for line in lines[1:]) == -0.5 * len(
        FORMULA_NAMES
    ) + len(ORDINARY)


def test_a_reexport_has_no_formula(tmp_path: Path) -> None:
    names = student_names([(name, name) for name in FORMULA_NAMES + ORDINARY])  # as a class run names them
    rows = _rows(names)
    batch.keep_results(tmp_path / "grades.csv", rows, {})
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,id,name\n" + "".join(f'"{n}",{i},"{n}"\n' for i, n in enumerate(ORDINARY)), encoding="utf-8")
    status = reexport.command(
        [str(tmp_path / "grades-results"), "--csv", str(tmp_path / "again.csv"), "--roster", str(roster), "--gradebook", "generic"],
        Console(width=200, quiet=True),
    )
    assert status == 1  # the formula names are in no roster line: left out of the gradebook, and said
    assert formulas(tmp_path / "again.csv") == [] and formulas(tmp_path / "again-generic.csv") == []
    assert set(read_rows(tmp_path / "again.csv")) == {csv_text(name) for name in names}


def test_a_text_cell_is_changed_only_where_a_cell_could_start() -> None:
    assert [csv_text(name) for name in ORDINARY] == ORDINARY
    assert csv_text("x;=1+1;=HYPERLINK(A1)") == "x;'=1+1;'=HYPERLINK(A1)"
    assert csv_text("a-b+c=d@e") == "a-b+c=d@e"
    assert unicodedata.normalize("NFC", csv_text("d\u00e9j\u00e0 vu, -1")) == "d\u00e9j\u00e0 vu, '-1"


def test_every_csv_the_grader_writes_goes_through_the_one_writer() -> None:
    """No module of the grader but reports/csvfile.py makes a csv.writer or DictWriter."""
    writers = []
    for path in sorted((ROOT / "grader").rglob("*.py")):
        for node in ast.walk(python_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr in ("writer", "DictWriter") and getattr(node.value, "id", "") == "csv":
                writers.append(str(path.relative_to(ROOT)))
    assert writers == ["grader/reports/csvfile.py"], writers


# --- through the real command line -----------------------------------------------------


@pytest.mark.parametrize("attacker", ["alice smith", "alice_smith~"], ids=["attacker-first", "attacker-last"])
def test_a_class_run_gives_each_alice_her_own_files(kit: Kit, tmp_path: Path, attacker: str) -> None:
    """Graded through the real CLI: the classmate's feedback and kept result are
    `alice_smith.*` and say what her file got; the attacker's are marked; the formula name's
    row reads as text whatever the CSV is split on. Both orders, every mode."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice_smith.py").write_text("def select_variable(:\n", encoding="utf-8")  # the classmate: a SyntaxError
    (folder / f"{attacker}.py").write_text("def f():\n\tif 1:\n        pass\n", encoding="utf-8")  # the attacker: a TabError
    (folder / "x;=1+1;=HYPERLINK(A1).py").write_text("def f(:\n", encoding="utf-8")
    grades = tmp_path / "grades.csv"
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "3", timeout=600)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    feedback = {p.name for p in (tmp_path / "grades-feedback").iterdir()}
    marked = file_names([attacker])[0]
    assert feedback == {f"{name}.{suffix}" for name in ("alice_smith", marked, file_names(["x;=1+1;=HYPERLINK(A1)"])[0]) for suffix in ("md", "html")}
    mine = (tmp_path / "grades-feedback" / "alice_smith.md").read_text(encoding="utf-8")
    assert "cannot load alice_smith.py" in " ".join(mine.split()) and "TabError" not in mine
    assert "TabError" in (tmp_path / "grades-feedback" / f"{marked}.md").read_text(encoding="utf-8")
    kept = load_kept(tmp_path / "grades-results")
    assert kept.errors == [] and {s.student: s.submission for s in kept.students}["alice_smith"] == "alice_smith.py"
    assert set(read_rows(grades)) == {"alice_smith", attacker, "x;'=1+1;'=HYPERLINK(A1)"}
    assert formulas(grades) == []
