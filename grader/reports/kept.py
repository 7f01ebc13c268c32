"""A class run's kept results: one JSON file per student and a `run.json`, beside the grades CSV.

`PATH/grades.csv` keeps `PATH/grades-results/`: `STUDENT.json` (STUDENT as
`grader.inputs.names.file_names` makes it a file name, one to one) holds `{"format": 1, "student", "identity": {"name", "sid", "email",
"section"}, "submission", "report" (report_data, or null), "not_graded" (or null),
"cpu_seconds", "wall_seconds" (or null), "problem"}` and `run.json` holds `{"format": 1,
"config", "problems", "max_score", "graded_at", "students"}` (`students`: the students'
file names in the CSV's order). Reading them never changes a grade; a file that cannot be
read is one line in `Kept.errors`, skipped.
"""

from __future__ import annotations

import json
import math
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.inputs.intake import NAME_LIMIT
from grader.inputs.names import file_names, plain_name
from grader.reports.results import Report, report_data, report_from_data
from grader.reports.shown import shown_report
from grader.sandbox.wire import clean_text

FORMAT = 1
RUN_FILE = "run.json"
IDENTITY = ("name", "sid", "email", "section")
FILE_LIMIT = 32 * 1024 * 1024  # bytes of one kept file read at most


@dataclass
class KeptStudent:
    """One student's kept result; `problem` is the note of a student graded 0 with nothing to grade."""

    student: str
    identity: dict[str, str]
    submission: str
    report: Report | None
    not_graded: str | None
    cpu_seconds: float | None
    wall_seconds: float | None
    problem: str = ""


@dataclass
class Kept:
    """A kept run: its `run.json`, its students in the CSV's order, and one line per file skipped."""

    run: dict[str, Any]
    students: list[KeptStudent]
    errors: list[str] = field(default_factory=list)


def results_folder(csv_path: Path) -> Path:
    """Where the results of a run whose CSV is `csv_path` are kept: `STEM-results` beside it."""
    return csv_path.with_name(f"{csv_path.stem}-results")


def identity_of(raw: object) -> dict[str, str]:
    """The four identity fields of `raw` (a dict), each a string, empty when unknown."""
    values = raw if isinstance(raw, dict) else {}
    return {key: value if isinstance(value := values.get(key), str) else "" for key in IDENTITY}


def student_data(kept: KeptStudent) -> dict[str, Any]:
    """One student's kept file as plain data (the report as `shown_report` shows it)."""
    report = report_data(shown_report(kept.report)) if kept.report else None
    return {
        "format": FORMAT,
        "student": kept.student,
        "identity": identity_of(kept.identity),
        "submission": kept.submission,
        "report": report,
        "not_graded": kept.not_graded,
        "cpu_seconds": kept.cpu_seconds,
        "wall_seconds": kept.wall_seconds,
        "problem": kept.problem,
    }


def write_kept(folder: Path, run_info: dict[str, Any], students: list[KeptStudent]) -> None:
    """Keep `students` (in the CSV's order) and `run_info` in `folder`, replacing the
    JSON files an earlier run kept there."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        if old.is_file() and not old.is_symlink():
            old.unlink()
    names = [f"{name}.json" for name in file_names([kept.student for kept in students])]  # none is the run's
    for kept, name in zip(students, names):
        _write(folder / name, student_data(kept))
    _write(folder / RUN_FILE, {**run_info, "format": FORMAT, "students": names})


def _write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


class Unreadable(Exception):
    """A kept file that cannot be used (the message says why)."""


def load_kept(folder: Path) -> Kept:
    """The results kept in `folder`: students in the order `run.json` lists them (the
    others after, by file name); each file that cannot be read is one line in `errors`."""
    if not folder.is_dir():
        return Kept({}, [], [f"{_shown(folder)}: not a folder of kept results"])
    errors: list[str] = []
    try:
        run = _run(_read(folder / RUN_FILE))
    except Unreadable as why:
        run = {}
        errors.append(f"{_shown(folder / RUN_FILE)}: {why}")
    listed = [name for name in run.get("students", []) if isinstance(name, str)]
    try:
        files = sorted(path.name for path in folder.iterdir() if path.suffix == ".json" and path.name != RUN_FILE)
    except OSError as error:
        return Kept(run, [], [*errors, f"{_shown(folder)}: cannot be read ({error.strerror})"])
    order = [name for name in listed if name in files] + [name for name in files if name not in listed]
    errors += [f"{_shown(folder / name)}: missing (run.json lists it)" for name in listed if name not in files]
    students: list[KeptStudent] = []
    seen: set[str] = set()
    for name in dict.fromkeys(order):
        path = folder / name
        try:
            kept = _student(_read(path))
            if kept.student in seen:
                raise Unreadable(f"a second file for the student {_shown_text(kept.student)}")
        except Unreadable as why:
            errors.append(f"{_shown(path)}: skipped: {why}")
            continue
        seen.add(kept.student)
        students.append(kept)
    return Kept(run, students, errors)


def _read(path: Path) -> dict[str, Any]:
    """The JSON object in the plain file `path`, of the kept format."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not a plain file")
        if info.st_size > FILE_LIMIT:
            raise Unreadable(f"larger than {FILE_LIMIT // 2**20} MB")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Unreadable(f"not JSON ({clean_text(str(error), 120)})") from None
    if not isinstance(data, dict):
        raise Unreadable("not a JSON object")
    if data.get("format") != FORMAT:
        raise Unreadable(f"format {_shown_text(str(data.get('format')))} is not {FORMAT}")
    return data


def _run(data: dict[str, Any]) -> dict[str, Any]:
    students = data.get("students", [])
    if not isinstance(students, list):
        raise Unreadable("its students are not a list")
    return data


def _student(data: dict[str, Any]) -> KeptStudent:
    """One student's result, checked field by field."""
    student = data.get("student")
    if not isinstance(student, str) or not plain_name(student):
        raise Unreadable("its student is no name a class folder holds")
    text = {key: _text(data, key) for key in ("submission", "not_graded", "problem")}
    report = data.get("report")
    if report is not None:
        try:
            report = report_from_data(report)
        except Exception as error:  # any shape report_from_data cannot read
            raise Unreadable(f"its report cannot be read ({type(error).__name__})") from None
    return KeptStudent(
        student,
        identity_of(data.get("identity")),
        text["submission"] or "",
        report,
        text["not_graded"],
        _seconds(data, "cpu_seconds"),
        _seconds(data, "wall_seconds"),
        text["problem"] or "",
    )


def _text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise Unreadable(f"its {key} is not text")
    return value


def _seconds(data: dict[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise Unreadable(f"its {key} is not a number of seconds")
    return float(value)


def _shown(path: Path) -> str:
    return _shown_text(str(path))


def _shown_text(text: str) -> str:
    return clean_text(text, NAME_LIMIT * 2).replace("\n", " ")
