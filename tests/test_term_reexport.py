"""A class run keeps its results beside the CSV (one file per student and run.json), the
CSV says how long each student took to grade, and `python -m grader reexport` writes the
CSV and gradebook again from the kept results, grading nothing: the same bytes when
nothing changed, a roster fixed since the run, roster students with no result blank or 0,
and a kept file that cannot be read one line, skipped."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import COURSE, isolation_unavailable, no_traceback, run_grader, self_contained

from grader.commands.batch import item_scores
from grader.reports.kept import IDENTITY, KeptStudent, load_kept, write_kept

ROSTER = "submission,id,name\nada,1001,Ada L\nbob,1002,Bob B\n"


def table(path: Path) -> dict[str, dict[str, str]]:
    """The rows of the CSV at `path` by their first column."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}


def said(result: subprocess.CompletedProcess[str]) -> str:
    return " ".join((result.stdout + result.stderr).split())


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of three graded once (ada and bob graded, carol with nothing to grade), with
    a roster and a Canvas gradebook: the folder of grades.csv."""
    if why := isolation_unavailable("bwrap") and isolation_unavailable("user"):
        pytest.skip(why)
    root = tmp_path_factory.mktemp("term")
    folder = root / "class"
    (folder / "carol").mkdir(parents=True)
    (folder / "ada.py").write_text(self_contained("correct"), encoding="utf-8")
    (folder / "bob.py").write_text(self_contained("off_by_one_bounds"), encoding="utf-8")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    out = root / "out"
    result = run_grader(
        COURSE,
        "--submissions",
        folder,
        "--csv",
        out / "grades.csv",
        "--only",
        "constraint_bounds",
        "--jobs",
        "2",
        "--roster",
        root / "roster.csv",
        "--gradebook",
        "canvas",
    )
    no_traceback(result)
    assert result.returncode == 1, said(result)  # carol, graded, is on no roster line
    assert "carol (graded 0/0) matches no roster line" in said(result)
    return out


def reexport(*args: str | Path) -> subprocess.CompletedProcess[str]:
    result = run_grader("reexport", *args)
    no_traceback(result)
    return result


def test_a_class_run_keeps_a_file_per_student_and_the_run(term: Path) -> None:
    """Every student of the CSV has a kept file with the same score, the run says its
    format and full marks, and no file is skipped."""
    kept = load_kept(term / "grades-results")
    rows = table(term / "grades.csv")
    assert kept.errors == []
    assert [s.student for s in kept.students] == list(rows) == ["ada", "bob", "carol"]
    assert kept.run["format"] == 1 and kept.run["max_score"] == float(rows["ada"]["max_score"])
    assert "graded_at" in kept.run and kept.run["config"]["hook_points"]
    for student in kept.students:
        raw = json.loads((term / "grades-results" / f"{student.student}.json").read_text(encoding="utf-8"))
        assert raw["format"] == 1 and set(raw["identity"]) == set(IDENTITY)
        assert student.identity == dict.fromkeys(IDENTITY, "")  # nobody said who they are
        score = student.report.score if student.report else 0.0
        assert score == float(rows[student.student]["score"])
        if student.report:
            assert {k: str(v) for k, v in item_scores(student.report).items()} == {
                k: v for k, v in rows[student.student].items() if k in item_scores(student.report)
            }
    assert {s.student: s.submission for s in kept.students} == {"ada": "ada.py", "bob": "bob.py", "carol": "carol"}
    assert kept.students[2].report is None and kept.students[2].problem.startswith("nothing to grade")


def test_the_csv_says_how_long_each_student_took(term: Path) -> None:
    """cpu_seconds and wall_seconds: positive for a student a grading process graded,
    blank for one nothing was run for."""
    rows = table(term / "grades.csv")
    for student in ("ada", "bob"):
        assert float(rows[student]["cpu_seconds"]) > 0 and float(rows[student]["wall_seconds"]) > 0, rows[student]
    assert rows["carol"]["cpu_seconds"] == rows["carol"]["wall_seconds"] == ""


def test_reexport_writes_the_same_csv_and_gradebook(term: Path, tmp_path: Path) -> None:
    """Nothing changed: the CSV and the gradebook come out byte for byte as the class run
    wrote them, and the exit status is the class run's (carol is on no roster line)."""
    out = tmp_path / "again.csv"
    result = reexport(term / "grades-results", "--csv", out, "--roster", term.parent / "roster.csv", "--gradebook", "canvas")
    assert result.returncode == 1 and "carol (graded 0/0) matches no roster line" in said(result), said(result)
    assert out.read_bytes() == (term / "grades.csv").read_bytes()
    assert (tmp_path / "again-canvas.csv").read_bytes() == (term / "grades-canvas.csv").read_bytes()
    assert "nothing graded again" in said(result)


def test_reexport_without_csv_never_writes_over_the_class_runs(term: Path) -> None:
    before = (term / "grades.csv").read_bytes()
    result = reexport(term / "grades-results")
    assert result.returncode == 0, said(result)
    assert (term / "grades-reexport.csv").read_bytes() == before == (term / "grades.csv").read_bytes()


def test_a_roster_fixed_after_the_run_changes_the_gradebook_not_the_scores(term: Path, tmp_path: Path) -> None:
    """bob's line renamed (a new id) and carol's added: the gradebook follows the roster,
    every score stays what the class run gave."""
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,id,name\nada,1001,Ada L\nbob,2002,Bob Renamed\ncarol,1003,Carol C\n", encoding="utf-8")
    out = tmp_path / "fixed.csv"
    result = reexport(term / "grades-results", "--csv", out, "--roster", roster, "--gradebook", "canvas")
    assert result.returncode == 0, said(result)
    before, after = table(term / "grades-canvas.csv"), table(tmp_path / "fixed-canvas.csv")
    assert after != before
    original = table(term / "grades.csv")
    assert after["Bob Renamed"]["ID"] == "2002" and "Bob B" not in after
    assert float(after["Bob Renamed"]["Minesweeper CSP"]) == float(original["bob"]["score"])
    assert float(after["Carol C"]["Minesweeper CSP"]) == float(original["carol"]["score"])
    assert float(after["Ada L"]["Minesweeper CSP"]) == float(before["Ada L"]["Minesweeper CSP"])
    assert [r["score"] for r in table(out).values()] == [r["score"] for r in original.values()]


def test_roster_students_with_no_result_are_blank_or_zero(term: Path, tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER + "carol,1003,Carol C\ndan,1004,Dan D\n", encoding="utf-8")
    common = (term / "grades-results", "--roster", roster, "--gradebook", "generic")
    blank = reexport(*common, "--csv", tmp_path / "blank.csv")
    zero = reexport(*common, "--csv", tmp_path / "zero.csv", "--missing", "zero")
    assert blank.returncode == zero.returncode == 0, said(blank) + said(zero)
    assert "1004" not in table(tmp_path / "blank-generic.csv")
    assert "roster lines with no submission (1): Dan D (1004, dan)" in said(blank)
    zeroed = table(tmp_path / "zero-generic.csv")
    assert zeroed["1004"]["score"] == "0" and "(--missing zero)" in said(zero)
    assert {k: v for k, v in zeroed.items() if k != "1004"} == table(tmp_path / "blank-generic.csv")


def hostile(folder: Path, name: str, **changes: object) -> None:
    """A copy of ada's kept file as `name`, with `changes`."""
    data = json.loads((folder / "ada.json").read_text(encoding="utf-8"))
    (folder / name).write_text(json.dumps({**data, **changes}), encoding="utf-8")


def test_a_bad_or_hostile_kept_file_is_one_line_and_skipped(term: Path, tmp_path: Path) -> None:
    """Bad JSON, a path or escape sequences as the student, a report of the wrong shape,
    seconds that are no seconds, a link: one line each naming the file, the others
    exported, exit status 1. A name holding HTML a folder can be named is a name, kept as
    text; one with a slash in it is no folder's name."""
    folder = tmp_path / "grades-results"
    shutil.copytree(term / "grades-results", folder)
    (folder / "broken.json").write_text('{"format": 1, "student": ', encoding="utf-8")
    hostile(folder, "path.json", student="../../etc/x")
    hostile(folder, "escape.json", student="eve\x1b[2J")
    hostile(folder, "shape.json", student="fay", report={"items": "none"})
    hostile(folder, "seconds.json", student="gus", cpu_seconds=-1)
    hostile(folder, "html.json", student="<b>hal</b>")
    hostile(folder, "tag.json", student="<i onclick=x>ida", identity={"name": "<script>alert(1)</script>"})
    (folder / "link.json").symlink_to(folder / "ada.json")
    out = tmp_path / "out.csv"
    result = reexport(folder, "--csv", out)
    assert result.returncode == 1, said(result)
    lines = [line for line in result.stdout.splitlines() if line.startswith("! ")]
    for name in ("broken", "path", "escape", "shape", "seconds", "html", "link"):
        assert sum(f"{name}.json: skipped" in line for line in lines) == 1, (name, lines)
    assert "\x1b" not in result.stdout
    rows = table(out)
    assert list(rows) == ["ada", "bob", "carol", "<i onclick=x>ida"]
    assert rows["<i onclick=x>ida"]["score"] == rows["ada"]["score"]
    assert load_kept(folder).students[-1].identity["name"] == "<script>alert(1)</script>"
    assert not (tmp_path / "etc").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["grades-results", "out.csv"]


def test_bad_calls_are_one_line_with_exit_status_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty-results"
    empty.mkdir()
    for args, words in (
        ((tmp_path / "nowhere",), "not a folder of kept results"),
        ((empty,), "no kept results to export"),
        ((empty, "--missing", "zero"), "--missing goes with --gradebook"),
        ((empty, "--gradebook", "canvas"), "--roster and --gradebook go together"),
    ):
        result = reexport(*args)
        assert result.returncode == 2 and words in said(result), (args, said(result))


def test_keeping_again_replaces_what_an_earlier_run_kept(tmp_path: Path) -> None:
    """A student gone from the class since the last run is gone from the kept results too."""
    folder = tmp_path / "grades-results"
    write_kept(folder, {}, [KeptStudent("old", {}, "old.py", None, "x", None, None)])
    write_kept(folder, {"max_score": 1.0}, [KeptStudent("new", {"name": "N"}, "new.py", None, None, 1.0, 2.0)])
    kept = load_kept(folder)
    assert [s.student for s in kept.students] == ["new"] and kept.errors == []
    assert kept.students[0].identity["name"] == "N" and kept.students[0].cpu_seconds == 1.0


def test_a_kept_file_gone_or_twice_is_one_line(tmp_path: Path) -> None:
    """A file run.json lists that is gone, and a second file for one student: one line
    each; the first file of the student is the one read."""
    folder = tmp_path / "grades-results"
    write_kept(folder, {}, [KeptStudent(name, {}, f"{name}.py", None, None, 1.0, 1.0) for name in ("ana", "ben", "run")])
    (folder / "ben.json").unlink()
    (folder / "zz.json").write_text((folder / "ana.json").read_text(encoding="utf-8"), encoding="utf-8")
    kept = load_kept(folder)
    assert [s.student for s in kept.students] == ["ana", "run"]  # "run" is a student, not the run
    assert [line.split(": ", 1)[1] for line in kept.errors] == ["missing (run.json lists it)", "skipped: a second file for the student ana"]
    assert kept.errors[0].startswith(str(folder / "ben.json")) and kept.errors[1].startswith(str(folder / "zz.json"))


def test_results_that_cannot_be_kept_are_one_line_and_the_csv_is_written(tmp_path: Path) -> None:
    """A file where the kept folder goes: the CSV is written, one line says why nothing was
    kept, exit status 1."""
    if why := isolation_unavailable("bwrap") and isolation_unavailable("user"):
        pytest.skip(why)
    (tmp_path / "class").mkdir()
    (tmp_path / "grades-results").write_text("in the way", encoding="utf-8")
    result = run_grader(COURSE, "--submissions", tmp_path / "class", "--csv", tmp_path / "grades.csv", "--only", "constraint_bounds")
    no_traceback(result)
    assert result.returncode == 1 and "the results could not be kept beside it" in said(result), said(result)
    assert (tmp_path / "grades.csv").is_file() and (tmp_path / "grades-results").read_text(encoding="utf-8") == "in the way"
