"""One file never stops a class: pathological submissions beside honest ones, graded by
the real CLI under `bwrap` and `user`.

The odd files are made here, in the test's own folder (one of them is 5 MB): a 600 KB
line `1+1+...`, 5,000 nested parentheses and lists, binary bytes, a NUL byte, UTF-16
with a BOM, Latin-1 with a coding cookie, a file of exactly the intake limit and one a
byte over it, and a folder named like a `.py` file. Every honest student (Latin-1 and
the 5 MB file included) keeps full marks; every other one gets its row and one line
saying why; the CSV is written.
"""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from conftest import COURSE, Kit, attacker, by_id, json_report, no_traceback, read_rows, run_grader, timings_aside
from rich.console import Console

from grader.commands import batch
from grader.hooktable import SOLVER_HOOK_NAMES as HOOK_NAMES
from grader.inputs import pyfacts
from grader.inputs.submission import WANTED
from grader.reports.results import ItemResult, Report
from grader.sandbox.isolation import SUBMISSION_BYTES

PLUS_LINE = "x = " + "+".join(["1"] * 300_000) + "\n"  # 600 KB on one line
PARENS = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
LISTS = "x = " + "[" * 5000 + "]" * 5000 + "\n"


def honest(folder: Path) -> bytes:
    """The text of a correct, self-contained submission (as UTF-8 bytes)."""
    return attacker(folder / "made", "correct").read_bytes()


def padded(text: bytes, size: int) -> bytes:
    """`text` followed by comment lines, `size` bytes in all."""
    line = b"# " + b"-" * 97 + b"\n"
    body = text + line * ((size - len(text)) // len(line))
    return body + b"#" * (size - len(body) - 1) + b"\n"


def pathological_class(folder: Path) -> tuple[list[str], dict[str, str]]:
    """A class folder: the honest students (full marks expected), and the odd ones with
    what their file is."""
    folder.mkdir(parents=True)
    good = honest(folder.parent)
    files: dict[str, bytes] = {
        "aaa_honest.py": good,
        "latin1.py": b"# -*- coding: latin-1 -*-\n# caf\xe9, na\xefve, \xa7 3\n" + good,
        "big_under.py": padded(good, SUBMISSION_BYTES),
        "big_over.py": padded(good, SUBMISSION_BYTES + 1),
        "plus_line.py": good + PLUS_LINE.encode(),
        "nested_parens.py": good + PARENS.encode(),
        "nested_lists.py": good + LISTS.encode(),
        "binary.py": bytes(range(256)) * 64,
        "nul_byte.py": good + b"y = 1\0\n",
        "utf16.py": codecs.BOM_UTF16_LE + good.decode().encode("utf-16-le"),
        "zzz_honest.py": good,
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    # A folder named like a file, and an honest folder holding the odd files beside its hooks.
    (folder / "dir_named.py").mkdir()
    (folder / "dir_named.py" / "hooks.py").write_bytes(good)
    (folder / "folder_honest").mkdir()
    (folder / "folder_honest" / "hooks.py").write_bytes(good)
    for name in ("plus_line.py", "nested_lists.py", "binary.py", "nul_byte.py"):
        (folder / "folder_honest" / f"scratch_{name}").write_bytes(files[name])
    honest_students = ["aaa_honest", "latin1", "big_under", "dir_named", "folder_honest", "zzz_honest"]
    odd = {"big_over": "refused", **dict.fromkeys(["plus_line", "nested_parens", "nested_lists", "binary", "nul_byte", "utf16"], "cannot load")}
    return honest_students, odd


def test_one_file_never_stops_the_class(kit: Kit, tmp_path: Path) -> None:
    """Every honest student has full marks, every odd one its row (a zero for a file
    Python cannot load, a refusal for one over the limit) and one line in the note and
    the summary; the CSV and the feedback are written; exit 1 (a file was refused)."""
    honest_students, odd = pathological_class(tmp_path / "class")
    grades = tmp_path / "grades.csv"
    result = kit.run(kit.course, "--submissions", tmp_path / "class", "--csv", grades, "--jobs", "2", "--timeout", "3", timeout=900)
    no_traceback(result)
    assert grades.is_file(), result.stdout[-3000:] + result.stderr[-3000:]
    rows = read_rows(grades)
    assert sorted(rows) == sorted([*honest_students, *odd]), rows
    for student in honest_students:
        row = rows[student]
        assert row["score"] and float(row["score"]) == float(row["max_score"]) > 0, (student, row)
        assert row["note"] == "", (student, row)
    said = result.stdout.splitlines()
    for student in odd:
        row = rows[student]
        assert row["score"] in ("0", "0.0"), (student, row)  # the file's own fault: Python cannot load it, or it is refused
        # One line: the note (and the summary's line), or, for a file that ran out of time
        # or memory while Python compiled it on a loaded machine, the causes of the lost points.
        why = row["note"] or row["lost"]
        assert why and "\n" not in why, (student, row)
        summary = [line for line in said if line.startswith(f"! {student}:")]
        assert len(summary) == (1 if row["note"] else 0), (student, result.stdout[-3000:])
    assert "larger than" in rows["big_over"]["note"]
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    feedback = tmp_path / "grades-feedback"
    assert sorted(p.stem for p in feedback.glob("*.md")) == sorted([*honest_students, *odd])


@pytest.mark.parametrize("name", ["plus_line", "nested_lists", "binary", "utf16", "dir_named"])
def test_the_single_file_cli_says_one_line(tmp_path: Path, name: str) -> None:
    """`--solver FILE` on an odd file alone in its folder: a report and no traceback (a
    file Python cannot load scores nothing and says why in one line; a folder named like
    a file is graded)."""
    pathological_class(tmp_path / "class")
    alone = tmp_path / "alone" / f"{name}.py"
    alone.parent.mkdir()
    (tmp_path / "class" / f"{name}.py").rename(alone)
    out = tmp_path / "report.json"
    result = run_grader(COURSE, "--solver", alone, "--json", out, "--timeout", "3")
    no_traceback(result)
    report = json_report(out, result)
    reasons = {timings_aside(e["message"]) for e in by_id(report).values() if e["score"] < e["max_score"]}
    if name == "dir_named":
        assert reasons == set() and report["score"] == report["max_score"], report
    else:
        assert len(reasons) == 1 and report["score"] == 0, reasons


# --- each step in the student's guard, without grading ---------------------------------


def test_reading_a_file_costs_only_that_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The syntax-tree reading says why an odd file cannot be read instead of raising, and
    its memory and CPU are the kernel's to bound: a file over them is "too costly" (or
    Python's own MemoryError), and the files after it are still read."""
    folder = tmp_path / "files"
    pathological_class(folder)
    odd = ["plus_line.py", "nested_parens.py", "binary.py", "nul_byte.py", "utf16.py", "big_over.py"]
    read = pyfacts.facts([folder / name for name in odd], WANTED)
    assert all(read[folder / name].unread and not read[folder / name].names for name in odd), read
    latin1 = pyfacts.facts_of(folder / "latin1.py", WANTED)
    assert latin1.unread == "" and set(HOOK_NAMES) <= latin1.names
    costly = tmp_path / "costly.py"
    costly.write_text("x = " + "<".join(["1"] * 400_000) + "\n")  # some hundreds of MB and seconds to parse
    monkeypatch.setattr(pyfacts, "READ_MEMORY", 150 << 20)
    said = pyfacts.facts_of(costly, WANTED).unread
    assert "MemoryError" in said or said.startswith(pyfacts.TOO_COSTLY), said
    monkeypatch.setattr(pyfacts, "READ_MEMORY", 1 << 30)
    monkeypatch.setattr(pyfacts, "READ_SECONDS", 1)
    again = tmp_path / "again"
    again.mkdir()
    (again / "costly.py").write_text("x = " + "<".join(["1"] * 1_500_000) + "\n")
    (again / "hooks.py").write_bytes(honest(tmp_path))
    read = pyfacts.facts([again / "costly.py", again / "hooks.py"], WANTED)
    said = read[again / "costly.py"].unread
    assert said.startswith(pyfacts.TOO_COSTLY) or "MemoryError" in said, said
    assert set(HOOK_NAMES) <= read[again / "hooks.py"].names


def test_a_file_submission_has_no_classmates_agent(tmp_path: Path) -> None:
    """A single-file student's agent is its own file or none: a classmate named `agent`
    is not played for everyone."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "agent.py").write_text("def choose_move(view):\n    return view\n")
    (folder / "bob.py").write_bytes(honest(tmp_path))
    found = {s.student: s for s in batch.find_submissions(folder)}
    assert found["bob"].agent is None and found["agent"].agent == (folder / "agent.py").resolve()


def test_a_failure_of_ours_on_one_student_stops_no_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The grader failing on one student, in intake, grading, feedback or the CSV row, makes
    that student "not graded" (our fault, one line) and every other one is written."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ana", "bob", "cid", "dan"):
        (folder / f"{name}.py").write_bytes(honest(tmp_path))
    (folder / "eve").mkdir()
    (folder / "eve" / "hooks.py").write_bytes(honest(tmp_path))
    taking_in = batch.found_among

    def found_among(files: list[Path]) -> object:
        raise RecursionError("deep") if any("eve" in str(p) for p in files) else taking_in(files)

    monkeypatch.setattr(batch, "found_among", found_among)
    submissions = batch.find_submissions(folder)
    assert [s.student for s in submissions] == ["ana", "bob", "cid", "dan", "eve"]

    class Runner:
        def __init__(self, spared: frozenset[int]) -> None:
            self.stopping = False

        def grade(self, job: object) -> Report:
            if "bob" in str(job.solver):
                raise MemoryError
            return Report(str(job.solver), [ItemResult("hook", "constraint_bounds", "pass", 2.0, 2.0)])

    monkeypatch.setattr(batch, "Runner", Runner)
    monkeypatch.setattr(batch, "become_subreaper", lambda: None)
    run = batch.ClassRun([], None, "none", None)
    rows = batch.grade_batch(submissions, run, 2, Console(file=io.StringIO()))
    showing = batch.show_report

    def show_report(console: Console, report: Report, errors: list, **how: bool) -> None:
        if "cid" in report.solver:
            raise ValueError("odd")
        showing(console, report, errors, **how)

    monkeypatch.setattr(batch, "show_report", show_report)
    monkeypatch.setattr(batch, "lost_points", lambda row: 1 / 0 if row.student == "dan" and not row.ungraded else "")
    assert batch.write_feedback(tmp_path / "feedback", rows, []) == 5
    batch.write_csv(tmp_path / "grades.csv", rows)
    written = read_rows(tmp_path / "grades.csv")
    assert written["ana"]["score"] == "2.0" and written["ana"]["note"] == ""
    for student, step in (("eve", "taking in"), ("bob", "grading"), ("cid", "writing its feedback"), ("dan", "writing its CSV row")):
        note = written[student]["note"]
        assert note.startswith("not graded: the grader failed while " + step) and "not of the submission" in note, note
        assert written[student]["score"] == "", written[student]


def test_a_folder_whose_hooks_python_cannot_read_says_so(tmp_path: Path) -> None:
    """A folder whose only hooks file Python cannot parse: nothing to grade, and the note
    names that file and why (the reading did not stop the intake)."""
    folder = tmp_path / "class"
    (folder / "kim").mkdir(parents=True)
    (folder / "kim" / "hooks.py").write_bytes(honest(tmp_path) + PLUS_LINE.encode())
    (folder / "kim" / "helper.py").write_text("HELP = 1\n")
    [kim] = batch.find_submissions(folder)
    assert kim.hooks is None and kim.problem.startswith("nothing to grade (hooks.py is nested too deeply"), kim
