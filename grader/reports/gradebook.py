"""Grades for the course's gradebook: `--submissions DIR --roster roster.csv --gradebook canvas|generic`.

The roster is a CSV with a header line. It maps each submission's name (the `.py`
file's name without `.py`, or the folder's name, as the grades CSV shows it; a roster
cell `bob.py` means `bob`) to a student: the columns `submission` and `id` are required;
`name`, `section`, `sis_user_id` and `sis_login_id` are used by the Canvas form when
present (Canvas's own headers, `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`,
are read as these). Other columns are ignored.

Names match exactly, once both are in Unicode's NFC form (`submission_key`): no case
folding, which would pair `kim` with a `Kim` spelt with the Kelvin sign. Two
submissions that match one roster line are both left out, never one of them chosen.

Two forms are written, each a CSV an LMS imports as is:

- `canvas`: Canvas's gradebook import (Grades > Import): `Student, ID, SIS User ID,
  SIS Login ID, Section` and one column for the assignment (`--assignment`, as Canvas
  names it, e.g. `Minesweeper CSP (12345)`), then a "Points Possible" line;
- `generic`: `id,score`.

Only students with a score are written: a submission that matches no roster line or
shares its line with another, a roster line with no submission, and a student the
grader could not grade (no score, never a zero) are listed instead, for the instructor
to settle by hand; a graded student left out makes the batch's exit status 1.
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from grader.errors import UserError
from grader.reports.csvfile import Cell, number_cell, write_table
from grader.sandbox.wire import clean_text

FORMATS = ("canvas", "generic")
REQUIRED = ("submission", "id")
ALIASES = {"student": "name", "sis user id": "sis_user_id", "sis login id": "sis_login_id", "student id": "id"}
CANVAS_HEADER = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
LISTED = 20  # names listed per kind of mismatch


class RosterError(UserError):
    """The roster cannot be used (the message says why, in one line)."""


@dataclass(frozen=True)
class Student:
    """One roster line."""

    submission: str
    id: str
    name: str = ""
    section: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""


@dataclass(frozen=True)
class Graded:
    """One graded submission as the gradebook needs it: its name, its score (None when
    the grader could not grade it) and the maximum."""

    submission: str
    score: float | None
    max_score: float


@dataclass
class Gradebook:
    """What a gradebook file holds and what it leaves out."""

    rows: list[tuple[Student, float]]
    max_score: float
    unmatched: list[Graded]  # submissions that match no roster line
    absent: list[Student]  # roster lines with no submission
    ungraded: list[Student]  # students the grader could not grade
    shared: list[tuple[Student, list[Graded]]]  # roster lines that several submissions match: none is written

    def left_out(self) -> list[Graded]:
        """The graded submissions (with a score) this gradebook does not hold."""
        return [g for g in self.unmatched + [g for _, entries in self.shared for g in entries] if g.score is not None]


def submission_key(name: str) -> str:
    """What a submission's name is matched by: its NFC form, without a final `.py`. Nothing
    more is folded, so characters that only look alike stay apart; two spellings NFC makes
    one (the Kelvin sign and K) are one name, and two such submissions share a line."""
    return unicodedata.normalize("NFC", name).removesuffix(".py")


def _column(name: str) -> str:
    key = " ".join(name.strip().lower().replace("_", " ").split())
    return ALIASES.get(key, key.replace(" ", "_"))


def read_roster(path: Path) -> list[Student]:
    """The students of the roster at `path`; RosterError saying what is wrong."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            lines = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f"--roster {path}: cannot be read ({error})") from None
    if not lines:
        raise RosterError(f"--roster {path}: is empty; expected a header line with {', '.join(REQUIRED)}")
    header = [_column(name) for name in lines[0]]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise RosterError(f"--roster {path}: the header has no {' nor '.join(missing)} column (found: {', '.join(lines[0]) or 'nothing'})")
    fields = ("submission", "id", "name", "section", "sis_user_id", "sis_login_id")
    students: list[Student] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not any(cell.strip() for cell in line):
            continue
        values = {key: line[index].strip() for index, key in enumerate(header) if key in fields and index < len(line)}
        if not values.get("submission") or not values.get("id"):
            raise RosterError(f"--roster {path}: line {number} has no submission name or no id")
        key = submission_key(values["submission"])
        if key in seen:
            raise RosterError(f"--roster {path}: lines {seen[key]} and {number} both name the submission {values['submission']!r}")
        seen[key] = number
        students.append(Student(**values))
    return students


def match(graded: list[Graded], students: list[Student]) -> Gradebook:
    """Pair the graded submissions with the roster's students (`submission_key`)."""
    by_key = {submission_key(student.submission): student for student in students}
    claims: dict[str, list[Graded]] = {}
    unmatched = []
    for entry in graded:
        key = submission_key(entry.submission)
        if key in by_key:
            claims.setdefault(key, []).append(entry)
        else:
            unmatched.append(entry)
    rows, ungraded, shared = [], [], []
    for key, entries in claims.items():
        student = by_key[key]
        if len(entries) > 1:
            shared.append((student, entries))
        elif entries[0].score is None:
            ungraded.append(student)
        else:
            rows.append((student, entries[0].score))
    absent = [student for key, student in by_key.items() if key not in claims]
    return Gradebook(rows, max((g.max_score for g in graded), default=0.0), unmatched, absent, ungraded, shared)


def _number(value: float) -> str:
    return f"{value:g}"


def write_gradebook(path: Path, book: Gradebook, form: str, assignment: str) -> None:
    """Write `book` in the form `form` (canvas or generic) to `path` (`write_table`: text
    quoted and never a formula, scores as numbers)."""
    rows: list[list[Cell]]
    if form == "canvas":
        rows = [[*CANVAS_HEADER, assignment], ["    Points Possible", "", "", "", "", number_cell(book.max_score, "g")]]
        for student, score in book.rows:
            rows.append([student.name, student.id, student.sis_user_id, student.sis_login_id, student.section, number_cell(score, "g")])
    else:
        rows = [["id", "score"]]
        rows += [[student.id, number_cell(score, "g")] for student, score in book.rows]
    write_table(path, rows)


def _who(student: Student) -> str:
    return f"{student.name} ({student.id}, {student.submission})" if student.name else f"{student.id} ({student.submission})"


def _named(name: str) -> str:
    """A submission's name, safe to show, with its characters beyond ASCII spelt out (two
    names that print alike are told apart)."""
    shown = clean_text(name, 100).replace("\n", " ")
    return shown if shown.isascii() else f"{shown} ({shown.encode('ascii', 'backslashreplace').decode()})"


def _scored(entry: Graded) -> str:
    return "not graded" if entry.score is None else f"graded {_number(entry.score)}/{_number(entry.max_score)}"


def show_gradebook(console: Console, path: Path, book: Gradebook) -> None:
    """Say what was written, and list what was left out: each submission left out on a
    line of its own, then the roster lines with no submission and the students not graded."""
    console.print(Text(f"wrote {path}: {len(book.rows)} students, to import as is"))
    warn = ("! ", "yellow")
    for entry in book.unmatched:
        console.print(Text.assemble(warn, f"not in {path.name}: {_named(entry.submission)} ({_scored(entry)}) matches no roster line"))
    for student, entries in book.shared:
        both = " and ".join(f"{_named(e.submission)} ({_scored(e)})" for e in entries)
        line = clean_text(_who(student), 200).replace("\n", " ")
        console.print(
            Text.assemble(
                warn, f"not in {path.name}: {both} match the same roster line, {line}: none is written (keep one of them, then grade again)"
            )
        )
    for kind, names in (
        ("roster lines with no submission", [_who(s) for s in book.absent]),
        ("students not graded (grade them again)", [_who(s) for s in book.ungraded]),
    ):
        if names:
            shown = ", ".join(clean_text(name, 100).replace("\n", " ") for name in names[:LISTED])
            more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
            console.print(Text.assemble(warn, f"not in {path.name}: {kind} ({len(names)}): {shown}{more}"))
