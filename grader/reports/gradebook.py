"""Grades for the course's gradebook: `--submissions DIR --roster roster.csv --gradebook canvas|generic`.

The roster is a CSV with a header line, in one of two forms:

- a roster that names each line's submission: the columns `submission` and `id` are
  required; `submission` is the submission's name (the `.py` file's name without `.py`,
  or the folder's name, as the grades CSV shows it; a cell `bob.py` means `bob`);
- Canvas's gradebook export as it is (Grades > Export: `Student, ID, SIS User ID, SIS
  Login ID, Section`, the assignments, a "Points Possible" line), or any roster with no
  `submission` column but a `sis_user_id`, `sis_login_id` or `email` column: each line is
  matched with the student an export names (Gradescope's sid and email, PrairieLearn's
  uid) by its SIS User ID (against the sid), its SIS Login ID (against the sid or the
  email) or its email (`resolve_roster`). Lines with none of these (Canvas's "Points
  Possible" and its like) are skipped, a line with an ID alone (Canvas's test student)
  matches no one; two lines with one SIS User ID, SIS Login ID or email are refused.

`name`, `section`, `sis_user_id`, `sis_login_id` and `email` are used when present
(Canvas's own headers, `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`, are read
as these). Other columns are ignored.

Names match exactly, once both are in Unicode's NFC form (`submission_key`): no case
folding, which would pair `kim` with a `Kim` spelt with the Kelvin sign. Two
submissions that match one roster line are both left out, never one of them chosen.

Two forms are written, each a CSV an LMS imports as is:

- `canvas`: Canvas's gradebook import (Grades > Import): `Student, ID, SIS User ID,
  SIS Login ID, Section` and one column for the assignment (`--assignment`, as Canvas
  names it, e.g. `Minesweeper CSP (12345)`), then a "Points Possible" line. Canvas finds
  each student by any of ID (its own user id), SIS User ID and SIS Login ID: `ID` holds the
  roster's `id`; a roster read from an export (no `--roster`) leaves it empty and puts the
  export's sid in SIS User ID, where Canvas matches it (Canvas's ID is its own number,
  which no export knows);
- `generic`: `id,score`.

Only students with a score are written: a submission that matches no roster line or
shares its line with another, a roster line with no submission, and a student the
grader could not grade (no score, never a zero) are listed instead, for the instructor
to settle by hand; a graded student left out makes the batch's exit status 1.
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console
from rich.text import Text

from grader.errors import UserError
from grader.reports.csvfile import Cell, number_cell, write_table
from grader.sandbox.wire import clean_text

FORMATS = ("canvas", "generic")
REQUIRED = ("submission", "id")
MATCHED_BY = ("sis_user_id", "sis_login_id", "email")  # what a roster with no submission column is matched by
FIELDS = ("submission", "id", "name", "section", "sis_user_id", "sis_login_id", "email")
ALIASES = {
    "student": "name",
    "sis user id": "sis_user_id",
    "sis login id": "sis_login_id",
    "student id": "id",
    "e-mail": "email",
    "email address": "email",
}
CANVAS_HEADER = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
LISTED = 20  # names listed per kind of mismatch


class RosterError(UserError):
    """The roster cannot be used (the message says why, in one line)."""


@dataclass(frozen=True)
class Student:
    """One roster line; `submission` empty until `resolve_roster` finds it (a roster
    matched with an export's students); `canvas_id`: what Canvas's ID column gets."""

    submission: str
    id: str
    name: str = ""
    section: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    email: str = ""
    line: int = 0  # its line in the roster file (0: not read from one)
    from_export: bool = False  # made from an export's students: Canvas's ID is unknown

    @property
    def canvas_id(self) -> str:
        return "" if self.from_export else self.id


@dataclass(frozen=True)
class Graded:
    """One graded submission as the gradebook needs it: its name, its score (None when
    the grader could not grade it), the maximum, and the student's name when an export
    gave one."""

    submission: str
    score: float | None
    max_score: float
    name: str = ""


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
    """The students of the roster at `path`; RosterError saying what is wrong. A roster with
    no `submission` column gives students with no submission, for `resolve_roster`."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            lines = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f"--roster {path}: cannot be read ({error})") from None
    if not lines:
        raise RosterError(f"--roster {path}: is empty; expected a header line with {', '.join(REQUIRED)}")
    header = [_column(name) for name in lines[0]]
    named = "submission" in header
    if not named and not any(key in header for key in MATCHED_BY):
        found = ", ".join(clean_text(name, 40).replace("\n", " ") for name in lines[0]) or "nothing"
        raise RosterError(
            f"--roster {path}: the header has no submission column, nor SIS User ID, SIS Login ID or email "
            f"to match an export's students by (found: {found})"
        )
    if named and "id" not in header:
        raise RosterError(f"--roster {path}: the header has no id column (found: {', '.join(lines[0]) or 'nothing'})")
    students = [_student(path, number, header, line, named) for number, line in enumerate(lines[1:], start=2)]
    kept = [student for student in students if student is not None]
    _refuse_twice(path, kept, ("submission",) if named else MATCHED_BY)
    return kept


def _student(path: Path, number: int, header: list[str], line: list[str], named: bool) -> Student | None:
    """Line `number` of the roster as a student; None for a blank line, or, in a roster
    matched by SIS ids, a line with no id at all (Canvas's "Points Possible" and its like;
    a line with an ID alone, as Canvas's test student has, is kept: it matches no one)."""
    if not any(cell.strip() for cell in line):
        return None
    values = {key: line[index].strip() for index, key in enumerate(header) if key in FIELDS and index < len(line)}
    if named and (not values.get("submission") or not values.get("id")):
        raise RosterError(f"--roster {path}: line {number} has no submission name or no id")
    if not named and not any(values.get(key) for key in ("id", *MATCHED_BY)):
        return None  # Canvas's "Points Possible" line and its like: no one
    get = values.get
    return Student(
        get("submission", ""),
        get("id", ""),
        get("name", ""),
        get("section", ""),
        get("sis_user_id", ""),
        get("sis_login_id", ""),
        get("email", ""),
        number,
    )


def _refuse_twice(path: Path, students: list[Student], keys: tuple[str, ...]) -> None:
    """RosterError when two lines share a submission (or, matched by SIS ids, a SIS User
    ID, a SIS Login ID or an email): which line is whose could not be told."""
    for key in keys:
        seen: dict[str, Student] = {}
        for student in students:
            value = getattr(student, key)
            found = submission_key(value) if key == "submission" else value.casefold()
            if not found:
                continue
            if found in seen:
                what = "name the submission" if key == "submission" else f"have the {key.replace('_', ' ')}"
                shown = clean_text(value, 80).replace("\n", " ")
                raise RosterError(f"--roster {path}: lines {seen[found].line} and {student.line} both {what} {shown!r}")
            seen[found] = student


@dataclass(frozen=True)
class Person:
    """A student an export names: the submission's name in the class (what a grade is
    matched by), their sid (Gradescope's, or PrairieLearn's uid) and email."""

    submission: str
    sid: str = ""
    email: str = ""


def needs_export(students: list[Student]) -> bool:
    """Whether the roster has no submission column, and so must be matched with an export."""
    return any(not student.submission for student in students)


def matched_roster(path: Path, students: list[Student], people: list[Person]) -> tuple[list[Student], list[str]]:
    """The roster read from `path`, each line matched with `people` when it has no
    submission column (`resolve_roster`), and the lines to say; RosterError when it must
    be matched and no export names anyone."""
    if not needs_export(students):
        return students, []
    if not people:
        raise RosterError(
            f"--roster {path}: no submission column, and the submissions are no export naming the students "
            "(Gradescope's or PrairieLearn's): add a submission column, or grade the export"
        )
    return resolve_roster(students, people)


def resolve_roster(students: list[Student], people: list[Person]) -> tuple[list[Student], list[str]]:
    """Each roster line with no submission given the one of `people` it names: its SIS User
    ID is their sid, or its SIS Login ID their sid or email, or its email their email (case
    aside). A line that names no one keeps no submission (a roster line with no
    submission); a line that names two people, or a person two lines name, is left
    without one, with a line saying so (the second of the returned)."""
    claims = {index: [p for p in people if _names(student, p)] for index, student in enumerate(students) if not student.submission}
    named_by: dict[str, list[int]] = {}
    for index, found in claims.items():
        for person in found:
            named_by.setdefault(person.submission, []).append(index)
    resolved, notes = list(students), []
    for index, found in claims.items():
        student = students[index]
        if len(found) > 1:
            notes.append(f"roster line {student.line} ({_who(student)}) names {' and '.join(_shown(p.submission) for p in found)}: none is matched")
        elif found and len(named_by[found[0].submission]) == 1:
            resolved[index] = replace(student, submission=found[0].submission)
    for submission, lines in named_by.items():
        if len(lines) > 1:
            notes.append(f"roster lines {' and '.join(str(students[i].line) for i in lines)} all name {_shown(submission)}: none is matched")
    return resolved, notes


def _names(student: Student, person: Person) -> bool:
    """Whether the roster line `student` names `person` (see `resolve_roster`)."""
    sid, email = person.sid.casefold(), person.email.casefold()
    user, login, mail = student.sis_user_id.casefold(), student.sis_login_id.casefold(), student.email.casefold()
    return bool((user and user == sid) or (login and login in (sid, email)) or (mail and mail == email))


def _shown(name: str) -> str:
    return clean_text(name, 100).replace("\n", " ")


def match(graded: list[Graded], students: list[Student]) -> Gradebook:
    """Pair the graded submissions with the roster's students (`submission_key`)."""
    by_key = {submission_key(student.submission): student for student in students if student.submission}
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
    absent = [student for key, student in by_key.items() if key not in claims] + [s for s in students if not s.submission]
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
            rows.append([student.name, student.canvas_id, student.sis_user_id, student.sis_login_id, student.section, number_cell(score, "g")])
    else:
        rows = [["id", "score"]]
        rows += [[student.id, number_cell(score, "g")] for student, score in book.rows]
    write_table(path, rows)


def _who(student: Student) -> str:
    """A roster line for a listing: its name, its id and its submission (a line matched by
    SIS ids: the first it has, and its line)."""
    if student.submission:
        return f"{student.name} ({student.id}, {student.submission})" if student.name else f"{student.id} ({student.submission})"
    known = next((value for value in (student.sis_user_id, student.sis_login_id, student.email, student.id) if value), "")
    return f"{student.name} ({known}, line {student.line})" if student.name else f"{known} (line {student.line})"


def _named(name: str) -> str:
    """A submission's name, safe to show, with its characters beyond ASCII spelt out (two
    names that print alike are told apart)."""
    shown = clean_text(name, 100).replace("\n", " ")
    return shown if shown.isascii() else f"{shown} ({shown.encode('ascii', 'backslashreplace').decode()})"


def _graded_who(entry: Graded) -> str:
    """A graded submission for a listing: its name and score, the student's name first
    when an export gave one (`Ada Lovelace (1001, graded 3/19)`)."""
    shown, name = _named(entry.submission), clean_text(entry.name, 100).replace("\n", " ")
    return f"{name} ({shown}, {_scored(entry)})" if name and name != shown else f"{shown} ({_scored(entry)})"


def _scored(entry: Graded) -> str:
    return "not graded" if entry.score is None else f"graded {_number(entry.score)}/{_number(entry.max_score)}"


def show_gradebook(console: Console, path: Path, book: Gradebook) -> None:
    """Say what was written, and list what was left out: each submission left out on a
    line of its own, then the roster lines with no submission and the students not graded."""
    console.print(Text(f"wrote {path}: {len(book.rows)} students, to import as is"))
    warn = ("! ", "yellow")
    for entry in book.unmatched:
        console.print(Text.assemble(warn, f"not in {path.name}: {_graded_who(entry)} matches no roster line"))
    for student, entries in book.shared:
        both = " and ".join(_graded_who(e) for e in entries)
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
