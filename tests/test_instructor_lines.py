"""What an instructor reads on a terminal of 80 columns: `python -m grader check`'s
tables and summary, the gradebook's and insights' names beside ids."""

from __future__ import annotations

import re
from pathlib import Path

from browser import load
from playwright.sync_api import Page
from rich.console import Console

from answerkey.instructor.checking import CheckRow, show_check

WIDTH = 80


def shown(render: object) -> list[str]:
    """What `render(console)` prints on a console of WIDTH columns, line by line."""
    console = Console(width=WIDTH, record=True, color_system=None, force_terminal=False)
    render(console)  # type: ignore[operator]
    return [line.rstrip() for line in console.export_text().splitlines()]


def check_row(problem_id: str, solutions: int, expect: int | None, file: str = "problems/drafts.yaml", method: str = "components+sat") -> CheckRow:
    return CheckRow(file, problem_id, "7x7", "inclusive", 10, solutions, expect, 0.0, method)


def test_check_names_every_problem_whole_at_80_columns_and_the_wrong_expects() -> None:
    """Every line fits 80 columns; an id of up to 20 characters is on one line, whole,
    beside its count and verdict; the summary names each board whose expect is wrong with
    what it says and the count, and a board with no solution and no expect is warned of."""
    rows = [
        check_row("status-7x7-generated", 1, 1),
        check_row("nctu-1-as-printed", 1234567890123, 8),
        check_row("typo", 0, None),
        check_row("gen-01", 1, 2, file="problems/generated-6x6.yaml", method="engine"),
    ]
    lines = shown(lambda console: show_check(console, rows))
    assert max(len(line) for line in lines) <= WIDTH, "\n".join(lines)
    for row in rows:
        [line] = [line for line in lines if line.startswith(f"{row.id} ")]
        assert f" {row.solutions} " in line, line
    assert "drafts.yaml: 3 problem(s)" in lines and "generated-6x6.yaml: 1 problem(s)" in lines
    assert any(line.startswith("nctu-1-as-printed ") and line.rstrip().endswith("✗ expect 8") for line in lines)
    at = lines.index("4 problems checked, 2 with a wrong expect:")
    assert lines[at + 1 : at + 3] == [
        "  drafts/nctu-1-as-printed: expect 8, counted 1234567890123",
        "  generated-6x6/gen-01: expect 2, counted 1",
    ]
    assert any(line.startswith("warning: drafts/typo has no solution") for line in lines)


def test_check_says_none_is_wrong_when_every_expect_holds() -> None:
    lines = shown(lambda console: show_check(console, [check_row("a", 2, 2), check_row("b", 3, None)]))
    assert "2 problems checked, 0 with a wrong expect." in lines and not any("warning" in line for line in lines)


def test_a_long_or_hostile_problem_id_is_folded_never_cut_nor_run_as_a_control() -> None:
    """An id longer than its column is folded onto the next lines, every character kept;
    an escape sequence or control character in an id (a quoted YAML string can hold one)
    reaches neither the table nor the summary, and nothing goes past 80 columns."""
    long_id = "a-rather-long-problem-identifier-of-exactly-sixty-characters"
    hostile = "evil\x1b[2J\x07\r\nid"
    rows = [check_row(long_id, 1, 3), check_row(hostile, 1, 2)]
    lines = shown(lambda console: show_check(console, rows))
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= WIDTH, text
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    folded = "".join(line.split(" ")[0] for line in lines[lines.index(next(line for line in lines if line.startswith("a-rather"))) :][:4])
    assert folded.startswith(long_id), folded
    assert f"  drafts/{long_id}: expect 3,\ncounted 1" in text  # the summary wraps at a space
    assert "  drafts/evil id: expect 2, counted 1" in lines and "evil id " in text


def test_check_json_is_unchanged_by_the_table(tmp_path: Path) -> None:
    """The table is a view: the JSON rows keep their fields."""
    assert check_row("x", 1, 2).as_dict() == {
        "file": "problems/drafts.yaml",
        "id": "x",
        "solutions": 1,
        "expect": 2,
        "ok": False,
        "rule": "inclusive",
        "mines": 10,
        "size": "7x7",
        "counted_by": "components+sat",
    }


# --- gradescope-bundle --test: the runs' table -----------------------------------------------


def test_submissions_are_named_by_their_shortest_telling_part(tmp_path: Path, monkeypatch) -> None:
    """Absolute paths become the fewest last parts that tell them apart; under the working
    folder a path is relative to it; the same path given twice is named alike; a control
    character in a folder's name is not shown, and the name is then marked: it never shows
    as another submission's."""
    from grader.commands.bundletest import shown_names

    deep = tmp_path / "a" / "very" / "deep" / "folder" / "that" / "would" / "wrap"
    given = [deep / "reference" / "hooks.py", deep / "stub" / "hooks.py", deep / "alone.py", deep / "alone.py", deep / "evil\x1b[2J" / "x.py"]
    assert shown_names(given) == ["reference/hooks.py", "stub/hooks.py", "alone.py", "alone.py", "x.py"]
    assert shown_names([deep / "a" / "hooks.py", deep / "b" / "a" / "hooks.py"]) == ["wrap/a/hooks.py", "b/a/hooks.py"]
    evil, ok = shown_names([deep / "evil\x1b[2J\n" / "hooks.py", deep / "ok" / "hooks.py"])
    assert re.fullmatch(r"evil /hooks\.py #[0-9a-f]{16}", evil) and ok == "ok/hooks.py"
    lookalike, real = shown_names([deep / "ann\x1b[0m" / "hooks.py", deep / "ann" / "hooks.py"])  # shows as ann/hooks.py
    assert real == "ann/hooks.py" and lookalike != real and lookalike.startswith("ann/hooks.py #")
    monkeypatch.chdir(tmp_path)
    assert shown_names([tmp_path / "a" / "one.py", Path("a/two.py")]) == ["one.py", "two.py"]


def test_the_runs_table_fits_80_columns_whatever_the_paths(tmp_path: Path) -> None:
    """Submissions given by long absolute paths: every line of the table within 80 columns,
    each submission's name on one line, with its score and check on its row."""
    from grader.commands.bundletest import Run, runs_table, shown_names

    deep = tmp_path / ("a-long-folder-name-" * 4) / "and" / "deeper"
    given = [deep / "reference" / "hooks.py", deep / "stub" / "hooks.py", deep / "crash.py"]
    results = {
        "score": 3,
        "output": "isolated: bwrap",
        "tests": [
            {"name": "a", "score": 3, "max_score": 3, "status": "passed", "output": "", "visibility": "visible"},
            {"name": "b", "score": 0, "max_score": 1, "status": "failed", "output": "", "visibility": "hidden"},
        ],
    }
    runs = [Run(name, 0, results, "", [], 12.3) for name in shown_names(given[:2])]
    runs.append(Run(shown_names(given)[2], 3, None, "not graded", [], 4.0))
    lines = shown(lambda console: console.print(runs_table(runs, "autograder.zip: run_autograder on 3 submission(s)")))
    assert max(len(line) for line in lines) <= WIDTH, "\n".join(lines)
    for name, score, check in (("reference/hooks.py", "3/4", "✓"), ("stub/hooks.py", "3/4", "✓"), ("crash.py", "-", "✗ see below")):
        [row] = [line for line in lines if line.startswith(f"{name} ")]
        assert f" {score} " in row and f" {check} " in row, row
    assert str(tmp_path) not in "\n".join(lines) and "✓: results.json in Gradescope's format, no hidden data shown" in lines


# --- insights: names beside ids ---------------------------------------------------------------


def test_insights_name_each_student_beside_their_id() -> None:
    """A student an export named (their id is the sid) is shown as `sid (name)` in every
    table that names students; one whose name is their id, or who has none, by the id
    alone; a name with control characters is shown on one line without them."""
    from grader.reports.insights import StudentResult, all_tables, moved
    from grader.reports.results import ItemResult, Report

    def report(*items: ItemResult) -> Report:
        return Report("student", list(items))

    lost = ItemResult("hook", "forward_check", "error", 0.0, 3.0)
    students = [
        StudentResult("1001", report(lost), name="Ada Lovelace"),
        StudentResult("1002", report(lost), name="1002"),
        StudentResult("1003", report(lost)),
        StudentResult("1004", report(lost), name="Evil\x1b[2J\nName"),
    ]
    cells = [str(cell) for table in all_tables(students) for row in table.rows for cell in row]
    helped = [row[0] for table in all_tables(students) if table.key == "needs_help" for row in table.rows]
    assert helped == ["1001 (Ada Lovelace)", "1002", "1003", "1004 (Evil Name)"]
    assert any("1001 (Ada Lovelace), 1002, 1003, 1004 (Evil Name)" in cell for cell in cells)  # who, in first wrong cases
    assert not any("\x1b" in cell or "\n" in cell.strip() for cell in cells)
    added = [row for table in moved(students[:1], students) if table.key == "moved_students" for row in table.rows]
    assert added == [["1002", "added"], ["1003", "added"], ["1004 (Evil Name)", "added"]]


PHONE = 375  # CSS pixels: a small phone's width


def test_the_insights_page_fits_a_phone_s_width(tmp_path: Path, browser: Page) -> None:
    """The insights page of a class with long names, long reasons and the bar charts, on a
    phone 375 pixels wide: nothing is wider than the screen (no sideways scrolling), and
    every table and chart is still there."""
    from grader.reports.insights import StudentResult, all_tables
    from grader.reports.insights_page import insights_page
    from grader.reports.results import ItemResult, Report

    reason = "forward_check returned a domain with a value the constraint rules out " * 3
    students = [
        StudentResult(
            f"student-with-a-rather-long-identifier-{index:03d}@university.example.edu",
            Report(
                "x.py",
                [
                    ItemResult("hook", "forward_check", "fail", 0.0, 3.0, reason, first_wrong=f"case {index}"),
                    ItemResult("problem", "nctu-1", "fail", 0.0, 1.0, reason, file="course.yaml"),
                ],
            ),
            name=f"Student Number {index} With A Long Double-Barrelled Name",
            section="CS 101 A",
        )
        for index in range(12)
    ]
    page = tmp_path / "insights.html"
    page.write_text(insights_page("Insights: a class", "12 students", all_tables(students)), encoding="utf-8")
    phone = browser.context.browser
    assert phone is not None
    context = phone.new_context(viewport={"width": PHONE, "height": 800}, is_mobile=True, device_scale_factor=2, offline=True)
    try:  # a phone's browser lays a page out 980 pixels wide unless the page says otherwise
        shown = context.new_page()
        load(shown, page)
        assert shown.evaluate("document.documentElement.scrollWidth") <= PHONE
        widest = "Math.max(...[...document.querySelectorAll('table, td, svg, nav, p, h1, h2')].map(e => e.getBoundingClientRect().right))"
        assert shown.evaluate(widest) <= PHONE
        assert shown.evaluate("document.querySelectorAll('table').length") >= 4
        assert shown.evaluate("document.querySelectorAll('svg rect').length") > 0
    finally:
        context.close()
