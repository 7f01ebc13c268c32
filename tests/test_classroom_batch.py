"""Grading a whole class: `python -m grader PATH --submissions DIR --csv FILE`."""

from __future__ import annotations

import csv
import json
import os
import re
import socket
import stat
import statistics
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import lone, no_traceback, run_grader, self_contained
from markdown_it import MarkdownIt

from grader.commands import batch
from grader.hooktable import SAT_ENCODING, SOLVER_HOOK_NAMES
from grader.inputs.intake import MAX_DEPTH, inside, not_plain, scan_folder
from grader.inputs.names import digest
from grader.inputs.problemset import load_problem_file
from grader.reports.results import ItemResult, Report
from grader.sandbox.isolation import SUBMISSION_BYTES, SUBMISSION_FILES

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
COURSE = ROOT / "problems" / "course.yaml"
SEARCH_ITEMS = [
    "hooks/constraint_bounds",
    "hooks/forward_check",
    "hooks/select_variable",
    "hooks/order_values",
    "course/nctu-1",
    "course/nctu-1-as-printed",
    "course/nctu-2",
]


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


@pytest.fixture(scope="module")
def item_columns(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """One column per graded item, as the grader names them (from a --json run on the same
    problems: one run for the module, every test that needs the columns reads them)."""
    out = tmp_path_factory.mktemp("columns") / "columns.json"
    run_grader(COURSE, "--solver", lone("correct_reexport"), "--json", out)
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


def test_class_of_four_gives_one_row_each_and_a_summary(tmp_path: Path, item_columns: list[str]) -> None:
    folder = submit(
        tmp_path / "subs",
        {
            "ana.py": "correct_reexport",  # a file submission
            "bob/hooks.py": "lazy_upper",  # a folder with hooks.py
            "carol": None,  # an empty folder
            "dave.py": "import_raises",  # crashes at import
        },
    )
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    header, rows = read_csv(grades)
    items = item_columns
    assert header == ["student", "score", "max_score", *items, "note", "lost", "cpu_seconds", "wall_seconds"]
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
    assert (f"4 submissions: mean {statistics.mean(scores):.2f}, median {statistics.median(scores):.2f} out of {full:g}") in summary
    assert "carol: nothing to grade" in summary


def test_violent_students_never_stop_the_batch(tmp_path: Path) -> None:
    folder = submit(
        tmp_path / "subs",
        {
            "a_exit.py": "import_os_exit",
            "b_segv.py": "segfault_bounds",
            "c_memory/hooks.py": "huge_alloc",
            "d_correct.py": "correct_reexport",
            "e_syntax/assignment/hooks.py": "syntax",
        },
    )
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

    A student whose constraint_bounds loops forever costs one timeout, of 1 s here, not
    the default 10 s: its reason says which limit ended it.
    """
    folder = submit(tmp_path / "subs", {"looper.py": "loop_bounds", "ok.py": "correct_reexport"})
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    _, rows = read_csv(grades)
    full = float(rows["ok"]["max_score"])
    assert float(rows["ok"]["score"]) == full
    assert float(rows["looper"]["hooks/constraint_bounds"]) == 0
    assert float(rows["looper"]["score"]) == full - float(rows["ok"]["hooks/constraint_bounds"])
    assert "hooks/constraint_bounds: ran out of time (1 s)" in rows["looper"]["lost"], rows["looper"]
    assert re.search(r"\b2 submissions\b", result.stdout)


def test_a_class_graded_with_only_gets_the_grades_of_those_items(tmp_path: Path) -> None:
    """--only grades the same items of every submission of a class as of one submission:
    a correct student gets full marks on them (before, a class run graded every hook
    whatever --only said, and the SAT item on no board: 0 points a student), and the CSV
    has their columns alone."""
    folder = submit(tmp_path / "subs", {"ok.py": "correct_reexport", "lazy.py": "lazy_upper"})
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--only", "forward_check")
    assert result.returncode == 0, result.stdout + result.stderr
    header, rows = read_csv(grades)
    assert [column for column in header if "/" in column or column == SAT_ENCODING] == ["hooks/forward_check"], header
    assert float(rows["ok"]["score"]) == float(rows["ok"]["max_score"]) == float(rows["ok"]["hooks/forward_check"]) > 0, rows["ok"]
    assert float(rows["lazy"]["score"]) < float(rows["lazy"]["max_score"]), rows["lazy"]  # lazy_upper's forward_check is wrong
    assert rows["lazy"]["lost"].startswith("hooks/forward_check:"), rows["lazy"]


def test_same_student_name_twice_keeps_both_grades(tmp_path: Path) -> None:
    """A file `ana.py` and a folder `ana/` are two submissions: each row carries its own grade,
    under a name of its own (neither takes `ana`, whichever sorts first: `student_names`).

    (The broken one must never be shown with the correct one's full marks, nor the correct one with its zero.)
    """
    folder = submit(tmp_path / "subs", {"ana.py": "correct_reexport", "ana/hooks.py": "import_raises"})
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    with grades.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2
    assert sorted(row["student"] for row in rows) == sorted(f"ana #{digest(entry)}" for entry in ("ana.py", "ana")), rows
    assert " ".join(result.stdout.split()).count("named so in every output: 2 submissions are named ana") == 2, result.stdout
    full = float(rows[0]["max_score"])
    graded = sorted((float(row["score"]), row["note"]) for row in rows)
    assert [score for score, _ in graded] == [0.0, full], rows
    assert graded[0][1].startswith("cannot load hooks.py: KeyError") and graded[1][1] == "", rows


@pytest.fixture(scope="module")
def small_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """One class run shared by the tests that read its CSV and feedback: ana (correct, in a
    folder just within the intake's limits), bob (off by one in constraint_bounds), cal (a
    TabError), carol (an empty folder) and zoe (correct, with an agent); the folder of
    grades.csv, and the run."""
    where = tmp_path_factory.mktemp("small_class")
    folder = submit(where / "subs", {"bob.py": "off_by_one_bounds", "cal.py": "tab_error", "carol": None})
    submit(folder, {f"ana/{'/'.join(['d'] * MAX_DEPTH)}/hooks.py": "correct_reexport"})
    for number in range(SUBMISSION_FILES - MAX_DEPTH - 1):  # with the folders and hooks.py: the limit exactly
        (folder / "ana" / f"notes-{number}.txt").write_text("x\n", encoding="utf-8")
    (folder / "zoe.py").write_text(self_contained("correct_reexport") + "\n" + (FILES / "agent_naive.py").read_text(), encoding="utf-8")
    result = run_grader(COURSE, "--submissions", folder, "--csv", where / "grades.csv", "--jobs", "2", "--timeout", "5")
    return where, result


def test_each_student_gets_a_feedback_file_and_the_csv_says_what_was_lost(small_class: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    tmp_path, result = small_class  # ana, bob and cal are this test's; the class run is shared
    grades = tmp_path / "grades.csv"
    assert result.returncode == 0, result.stdout + result.stderr
    _, rows = read_csv(grades)
    assert rows["ana"]["lost"] == "" and rows["bob"]["lost"].startswith("hooks/forward_check: ")
    items = [*SOLVER_HOOK_NAMES, *(p.id for p in load_problem_file(COURSE)[0]), SAT_ENCODING]  # the table's, the course's
    assert rows["cal"]["lost"].startswith(f"all {len(items)} items: cannot load cal.py: TabError") and " | " not in rows["cal"]["lost"]
    assert "Next step: fix cal.py so that it loads (TabError" in " ".join((tmp_path / "grades-feedback" / "cal.md").read_text().split())
    feedback = tmp_path / "grades-feedback"
    bob = (feedback / "bob.md").read_text(encoding="utf-8")
    assert "Where the search first went wrong" in bob and "--case forward_check:" in bob
    assert "Full marks." in (feedback / "ana.md").read_text(encoding="utf-8")
    assert (feedback / "bob.html").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")


# --- intake: only plain submissions are graded ---------------------------------------------

DEEP_LEVELS = 1100  # deeper than Python's recursion limit


def deep_folder(folder: Path, levels: int) -> None:
    """`folder` with a hooks file `levels` folders down (d/d/d/...)."""
    bottom = folder
    for _ in range(levels + 1):  # one level at a time: mkdir(parents=True) recurses
        bottom.mkdir()
        bottom = bottom / "d"
    (bottom.parent / "hooks.py").write_text(self_contained("correct_reexport"), encoding="utf-8")


def remove_deep(folder: Path, levels: int) -> None:
    """Remove what deep_folder made, deepest first (pytest's clean-up recurses, and would not)."""
    for depth in range(levels, -1, -1):
        level = folder.joinpath(*["d"] * depth)
        for path in level.iterdir():
            if not path.is_dir():
                path.unlink()
        level.rmdir()


def hostile_class(folder: Path) -> dict[str, str]:
    """A class folder of one correct student beside entries that are not plain submissions;
    {student: words their note must hold}."""
    submit(folder, {"ana.py": "correct_reexport", "nested/a/b/c/hooks.py": "correct_reexport"})
    deep_folder(folder / "deep", DEEP_LEVELS)
    (folder / "key.py").symlink_to(ROOT / "answerkey" / "strategies.py")  # the answer key, as a top-level file
    (folder / "dirlink").symlink_to(folder / "nested")
    submit(folder, {"inner/hooks.py": "correct_reexport"})
    (folder / "inner" / "helpers.py").symlink_to(ROOT / "answerkey" / "strategies.py")
    os.mkfifo(folder / "pipe.py")
    (folder / "pipes").mkdir()
    os.mkfifo(folder / "pipes" / "hooks.py")
    with socket.socket(socket.AF_UNIX) as server:
        (folder / "sock").mkdir()
        server.bind(str(folder / "sock" / "hooks.py"))
    submit(folder, {"wide/hooks.py": "correct_reexport"})
    for number in range(SUBMISSION_FILES):
        (folder / "wide" / f"notes-{number}.txt").write_text("x\n", encoding="utf-8")
    submit(folder, {"big/hooks.py": "correct_reexport"})
    (folder / "big" / "data.bin").write_bytes(b"\0" * (SUBMISSION_BYTES + 1))
    (folder / "huge.py").write_text("#" * SUBMISSION_BYTES + "\n", encoding="utf-8")
    submit(folder, {"twin.py": "correct_reexport"})
    os.link(folder / "twin.py", folder / "twin2.py")
    return {
        "deep": f"is nested more than {MAX_DEPTH} folders deep",
        "key": "key.py is a symbolic link",
        "dirlink": "dirlink is a symbolic link",
        "inner": "inner/helpers.py is a symbolic link",
        "pipe": "pipe.py is a FIFO",
        "pipes": "pipes/hooks.py is a FIFO",
        "sock": "sock/hooks.py is a socket",
        "wide": f"more than {SUBMISSION_FILES} files and folders",
        "big": f"more than {SUBMISSION_BYTES >> 20} MB",
        "huge": f"larger than {SUBMISSION_BYTES >> 20} MB",
        "twin": "twin.py is a hard link",
        "twin2": "twin2.py is a hard link",
    }


def test_only_plain_submissions_are_graded_and_the_others_are_named(tmp_path: Path) -> None:
    """Links (to the answer key or anywhere), FIFOs, sockets, hard links, folders too deep,
    too wide or too large: each is refused in one line for that student alone, without
    being read, and the class is graded; the exit status says that some were refused."""
    folder = tmp_path / "subs"
    refused = hostile_class(folder)
    grades = tmp_path / "grades.csv"
    try:
        result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "5")
    finally:
        remove_deep(folder / "deep", DEEP_LEVELS)
    no_traceback(result)
    assert result.returncode == 1, result.stdout + result.stderr
    _, rows = read_csv(grades)
    assert sorted(rows) == sorted([*refused, "ana", "nested"])
    full = float(rows["ana"]["max_score"])
    assert float(rows["ana"]["score"]) == float(rows["nested"]["score"]) == full > 0
    summary = " ".join(result.stdout.split())
    for student, words in refused.items():
        assert float(rows[student]["score"]) == 0 and rows[student]["note"].startswith("not graded: "), rows[student]
        assert words in rows[student]["note"], (words, rows[student]["note"])
        assert f"{student}: {rows[student]['note']}" in summary


def test_a_submission_folder_just_within_the_limits_is_graded(small_class: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    where, result = small_class  # ana is this test's: a folder MAX_DEPTH deep of SUBMISSION_FILES entries
    grades = where / "grades.csv"
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    _, rows = read_csv(grades)
    assert float(rows["ana"]["score"]) == float(rows["ana"]["max_score"]) > 0 and rows["ana"]["note"] == ""


def test_a_huge_folder_is_refused_after_a_few_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan stops at the first limit crossed: a folder of 50 folders of 100 files each
    is refused after SUBMISSION_FILES + 1 entries, not read to the end."""
    for group in range(50):
        (tmp_path / "wide" / f"g{group}").mkdir(parents=True)
        for number in range(100):
            (tmp_path / "wide" / f"g{group}" / f"{number}.py").write_text("", encoding="utf-8")
    seen = []
    real_scandir = os.scandir

    @contextmanager
    def counting(path: Path) -> Iterator[Iterator[os.DirEntry[str]]]:
        with real_scandir(path) as listing:
            yield (seen.append(entry.path) or entry for entry in listing)

    monkeypatch.setattr(os, "scandir", counting)
    scan = scan_folder(tmp_path / "wide", tmp_path)
    assert scan.files == () and f"more than {SUBMISSION_FILES} files and folders" in scan.refusal
    assert len(seen) == SUBMISSION_FILES + 1


def test_every_kind_of_entry_that_is_not_plain_is_named() -> None:
    def info(mode: int, links: int = 1) -> os.stat_result:
        return os.stat_result((mode, 0, 0, links, 0, 0, 0, 0, 0, 0))

    assert not_plain(info(stat.S_IFREG | 0o644)) == "" and not_plain(info(stat.S_IFDIR | 0o755, 5)) == ""
    assert not_plain(info(stat.S_IFREG | 0o644, 2)).startswith("is a hard link")
    kinds = {
        stat.S_IFLNK: "is a symbolic link",
        stat.S_IFIFO: "is a FIFO",
        stat.S_IFSOCK: "is a socket",
        stat.S_IFCHR: "is a device",
        stat.S_IFBLK: "is a device",
    }
    assert {kind: not_plain(info(kind | 0o644)) for kind in kinds} == kinds


def test_a_path_through_a_link_is_not_inside_the_class_folder(tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "away").symlink_to(tmp_path)
    (tmp_path / "ana.py").write_text("", encoding="utf-8")
    root = (tmp_path / "class").resolve()
    assert inside(tmp_path / "class" / "x.py", root) and not inside(tmp_path / "class" / "away" / "ana.py", root)


# --- the CSV's columns, and student text in every output -----------------------------------


def test_rows_line_up_with_the_header_when_some_students_wrote_an_agent(
    small_class: tuple[Path, subprocess.CompletedProcess[str]], item_columns: list[str]
) -> None:
    """Without an agent section, a file that also defines choose_move gets a practice agent
    item (no points) that a hooks-only file does not: the CSV has a column for it, empty
    for the others, and every row's note and lost stay under their headers."""
    where, result = small_class  # bob, carol and zoe are this test's; the class run is shared
    grades = where / "grades.csv"
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    with grades.open(newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    header = table[0]
    assert {len(row) for row in table} == {len(header)}
    items = item_columns
    practice = "agent (practice, no points)"
    assert header == ["student", "score", "max_score", *items, practice, "note", "lost", "cpu_seconds", "wall_seconds"]
    _, rows = read_csv(grades)
    assert rows["bob"][practice] == "" and float(rows["zoe"][practice]) == 0 and float(rows["carol"][practice]) == 0
    assert rows["bob"]["lost"].startswith("hooks/forward_check: ") and rows["bob"]["note"] == ""
    assert rows["zoe"]["lost"] == "" and rows["zoe"]["note"] == "" and rows["carol"]["note"].startswith("nothing to grade")
    assert float(rows["zoe"]["score"]) == float(rows["zoe"]["max_score"]) == float(rows["bob"]["max_score"]) > 0
    for row in rows.values():
        assert abs(sum(float(row[item] or 0) for item in [*items, practice]) - float(row["score"])) < 1e-6, row


def test_columns_keep_every_rows_order_and_every_item() -> None:
    assert batch.item_columns([["a", "c"], ["a", "b", "c", "d"], ["e"]]) == ["e", "a", "b", "c", "d"]
    report = Report("s", [ItemResult("hook", "h", "pass", 1, 1), ItemResult("hook", "h", "fail", 0, 2)])
    assert batch.item_scores(report) == {"hooks/h": 1, "hooks/h (2)": 0}


HOSTILE_NAMES = {  # file name: what a reader must see of it, as text
    "<img src=x onerror=alert(1)>.py": "<img src=x onerror=alert(1)>",
    "```\n# pwned ``.py": "``` # pwned ``",
    "[bold red]boom.py": "[bold red]boom",
    "@SUM(1+1)*cmd.py": "@SUM(1+1)*cmd",
    "--help.py": "--help",
    "\x1b]8;;file:x\x07link\x1b]8;;\x07.py": "link",
}


def test_student_names_are_text_in_every_output(tmp_path: Path) -> None:
    """File names that are HTML, Markdown, Rich markup, a formula or escape sequences are
    shown as text in the terminal, the CSV, and the Markdown and HTML feedback; the
    feedback files' own names use safe characters only."""
    folder = tmp_path / "subs"
    folder.mkdir()
    for name in HOSTILE_NAMES:
        (folder / name).write_text((FILES / "syntax.py").read_text(), encoding="utf-8")  # cheap: cannot load
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--timeout", "5")
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "\x1b" not in result.stdout + result.stderr + grades.read_text(encoding="utf-8")
    _, rows = read_csv(grades)
    shown = set(HOSTILE_NAMES.values())
    assert set(rows) == {*shown - {"@SUM(1+1)*cmd", "--help"}, "'@SUM(1+1)*cmd", "'--help"}  # formula cells are quoted
    summary = " ".join(result.stdout.split())
    for name in shown:
        assert f"{name}: cannot load" in summary, name  # markup printed as it is, not read
    feedback = sorted((tmp_path / "grades-feedback").iterdir())
    assert len(feedback) == 2 * len(HOSTILE_NAMES)
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.(md|html)", path.name) for path in feedback)  # no option, no hidden file
    assert not any("\x1b" in path.read_text(encoding="utf-8") for path in feedback)
    markdown = MarkdownIt("commonmark")
    headings = set()
    for path in (p for p in feedback if p.suffix == ".md"):
        tokens = markdown.parse(path.read_text(encoding="utf-8"))
        assert [t.type for t in tokens if t.nesting >= 0] == ["heading_open", "inline", "fence"], path.name
        headings.add(tokens[1].children[-1].content)  # the code span: its text as a reader sees it
        assert "<img" not in markdown.render(path.read_text(encoding="utf-8"))
    assert headings == shown
    for path in (p for p in feedback if p.suffix == ".html"):
        assert "<img" not in path.read_text(encoding="utf-8")
