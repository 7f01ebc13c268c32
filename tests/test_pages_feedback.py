"""The feedback page of a class run (grades-feedback/NAME.html) in a real browser, and
Gradescope's per-test output: the same content, boards as grids, student text inert."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import markupsafe
import pytest
from browser import load
from conftest import ROOT, no_traceback, run_grader, self_contained
from playwright.sync_api import Page

from grader.scoring.case import Case
from grader.scoring.hookcases import describe_case, load_cases

#: What a hostile student puts in its file name and in what its code prints and raises.
HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1"></details><script>window.__pwned=1</script>'
HOSTILE_CODE = f"""
_BAD = {HOSTILE_TEXT!r}


def select_variable(csp, domains, assigned):
    print(_BAD)
    raise ValueError(_BAD)
"""


@pytest.fixture(scope="module")
def class_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A class of three graded by `python -m grader problems/ --submissions DIR --csv FILE`:
    full marks, points lost on hooks and boards, and a hostile one."""
    where = tmp_path_factory.mktemp("class")
    submissions = where / "submissions"
    submissions.mkdir()
    (submissions / "alice.py").write_text(self_contained("correct_reexport"), encoding="utf-8")
    (submissions / "bob.py").write_text(self_contained("flips_values"), encoding="utf-8")
    hostile = submissions / f"{HOSTILE_NAME}.py"
    hostile.write_text(self_contained("correct_reexport") + HOSTILE_CODE, encoding="utf-8")
    result = run_grader(ROOT / "problems", "--submissions", submissions, "--csv", where / "grades.csv", cwd=where)
    no_traceback(result)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    folder = where / "grades-feedback"
    [evil] = [page for page in folder.glob("*.html") if "pwned" in page.name]
    return {"where": where, "alice": folder / "alice.html", "bob": folder / "bob.html", "evil": evil, "hostile": hostile}


def opened(browser: Page, requested: list[str], page: Path, width: int = 1280, height: int = 900) -> list[str]:
    """Open `page` at `width` x `height`; the URLs it asked for."""
    before = len(requested)
    browser.set_viewport_size({"width": width, "height": height})
    load(browser, page)
    return requested[before:]


def bottom(browser: Page, selector: str) -> float:
    box = browser.evaluate(f"JSON.stringify(document.querySelector({json.dumps(selector)}).getBoundingClientRect())")
    return float(json.loads(box)["bottom"])


def test_the_first_screen_holds_the_score_the_next_step_and_the_lost_points(browser: Page, requested: list[str], class_run: dict) -> None:
    asked = opened(browser, requested, class_run["bob"])
    assert asked == [class_run["bob"].resolve().as_uri()]  # the file itself, nothing else
    text = browser.evaluate("document.querySelector('#score').innerText")
    with (class_run["where"] / "grades.csv").open(encoding="utf-8") as grades:  # the class's maximum, as the grader totals it
        bob = next(row for row in csv.DictReader(grades) if row["student"] == "bob")
    assert re.match(rf"\d+ / {float(bob['max_score']):g} points", text), text
    assert "Next step: fix forward_check" in browser.evaluate("document.querySelector('#next-step').innerText")
    lost = browser.evaluate("document.querySelector('#lost').innerText")
    assert "hooks/forward_check" in lost and "course/nctu-1" in lost
    for selector in ("#score", "#next-step", "#lost"):
        assert 0 < bottom(browser, selector) <= 900, selector


def test_a_section_per_item_open_only_where_points_were_lost(browser: Page, requested: list[str], class_run: dict) -> None:
    opened(browser, requested, class_run["bob"])
    rows = browser.evaluate("[...document.querySelectorAll('details')].map(d => [d.open, d.querySelector('summary').innerText])")
    assert len(rows) > 60
    for is_open, summary in rows:
        score, most = re.search(r"(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", summary).groups()  # type: ignore[union-attr]
        assert is_open == (float(score) < float(most)), summary
    assert any(is_open for is_open, _ in rows) and not all(is_open for is_open, _ in rows)
    opened(browser, requested, class_run["alice"])
    assert browser.evaluate("[...document.querySelectorAll('details')].every(d => !d.open)")
    assert browser.evaluate("document.querySelector('#next-step').innerText") == "Full marks."


def drawn_rows(case: Case) -> list[list[str]]:
    """The cells of a forward_check case's board as its reason draws it, row by row."""
    lines = describe_case("forward_check", 1, case, {"value": case.expected}).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  board (")) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("    "))
    return [line.split() for line in lines[start:end]]


def test_boards_and_answers_are_drawn_as_grids_and_tables(browser: Page, requested: list[str], class_run: dict) -> None:
    opened(browser, requested, class_run["bob"])
    check = "[...document.querySelectorAll('details')].find(d => d.innerText.startsWith('hooks/forward_check'))"
    boards = browser.evaluate(
        f"[...{check}.querySelectorAll('table.board')].map(t => [...t.rows].map(r => [...r.cells].map(c => c.innerText.trim())))"
    )
    assert boards and boards[0] == drawn_rows(load_cases()["forward_check"][0])  # flips_values' first wrong case: case 1
    differs = browser.evaluate(f"[...{check}.querySelectorAll('table.answers tr.differs')].map(r => r.innerText)")
    assert any("r1c6" in row for row in differs), differs  # variable 3's cell on nctu-1, yours against expected
    assert "<pre" not in browser.evaluate(f"{check}.innerHTML")  # no board as monospaced text


def test_no_path_of_the_instructors_machine(class_run: dict) -> None:
    for page in ("alice", "bob", "evil"):
        text = class_run[page].read_text(encoding="utf-8")
        assert str(class_run["where"]) not in text and str(ROOT) not in text and "/tmp/" not in text, page
        assert "Graded file: " in text


def test_readable_at_400_pixels_and_printable(browser: Page, requested: list[str], class_run: dict) -> None:
    for page in ("bob", "evil"):
        opened(browser, requested, class_run[page], width=400)
        assert browser.evaluate("document.documentElement.scrollWidth") <= 400, page
        assert 0 < bottom(browser, "#next-step") <= 900
    opened(browser, requested, class_run["bob"])
    inside = "document.querySelector('details:not([open]) p, details:not([open]) table').checkVisibility()"
    assert browser.evaluate(inside) is False  # a closed section on the screen
    browser.emulate_media(media="print")
    try:  # the print style shows what a closed section holds
        assert browser.evaluate(inside) is True
    finally:
        browser.emulate_media(media="null")


def test_a_hostile_name_and_output_stay_text(browser: Page, requested: list[str], class_run: dict) -> None:
    asked = opened(browser, requested, class_run["evil"])
    assert asked == [class_run["evil"].resolve().as_uri()]
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('img').length") == 0
    assert browser.evaluate("document.scripts.length") == 1  # the page's own (open every section to print)
    assert browser.evaluate("document.title") == f"Grading report: {HOSTILE_NAME}"
    assert HOSTILE_TEXT in browser.evaluate("document.body.innerText")
    details = browser.evaluate("document.querySelectorAll('details').length")
    assert details == browser.evaluate("document.querySelectorAll('summary').length")  # no section closed early


def test_gradescope_shows_the_same_content_as_html_with_student_text_escaped(
    browser: Page, requested: list[str], class_run: dict, tmp_path: Path
) -> None:
    out = tmp_path / "results.json"
    result = run_grader(ROOT / "problems" / "course.yaml", "--solver", class_run["hostile"], "--format", "gradescope", "--output", out)
    no_traceback(result)
    tests = json.loads(out.read_text(encoding="utf-8"))["tests"]
    assert tests and all(test["output_format"] == "html" for test in tests)
    outputs = "".join(test["output"] for test in tests)
    assert "<script>" not in outputs and "<img" not in outputs and str(markupsafe.escape(HOSTILE_TEXT)) in outputs
    assert '<table class="board"' in outputs  # the case's board as a grid
    page = tmp_path / "tests.html"  # what a page showing them all would run
    page.write_text("<!DOCTYPE html><meta charset=utf-8>" + outputs, encoding="utf-8")
    opened(browser, requested, page)
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert HOSTILE_TEXT in browser.evaluate("document.body.innerText")


def test_a_hidden_item_shows_only_its_status_and_points() -> None:
    from grader.reports.feedback_page import feedback_page
    from grader.reports.results import ItemResult, Report

    secret = "board (classic, 3 mines; the secret layout):\n    v0?  1  v1?"
    report = Report(
        "hooks.py",
        [
            ItemResult("hook", "forward_check", "pass", 3, 3, "all right"),
            ItemResult(
                "problem",
                "exam-1",
                "fail",
                0,
                1,
                secret,
                file="problems/exam.yaml",
                nodes=77,
                seconds=1.5,
                output="the secret board",
                visibility="hidden",
            ),
        ],
        "bwrap",
    )
    page = feedback_page("ann", report, [])
    assert "secret" not in page and "77 nodes" not in page and "1500.0 ms" not in page
    assert "details hidden (hidden)" in page and "0/1" in page and '<details id="item-2" open>' in page


def test_a_reason_that_is_not_a_board_stays_text() -> None:
    from grader.reports.reason_html import reason_html

    crooked = "board (x):\n    v0? <b>2</b>\n  returned: {0: (1,)} <script>\nplain"
    fragment = reason_html(crooked)
    assert 'class="board"' not in fragment and "<b>" not in fragment and "<script>" not in fragment
    assert "&lt;b&gt;2&lt;/b&gt;" in fragment and "&lt;script&gt;" in fragment and 'class="answers"' not in fragment


def test_a_student_with_no_report_gets_a_page_that_says_why(tmp_path: Path) -> None:
    from grader.commands.batch import BatchRow, write_feedback

    rows = [BatchRow(HOSTILE_NAME, None, problem=f"no hooks found in {HOSTILE_TEXT}"), BatchRow("cal", None, not_graded="the run was interrupted")]
    assert write_feedback(tmp_path, rows, []) == 2
    pages = sorted(tmp_path.glob("*.html"))
    texts = [page.read_text(encoding="utf-8") for page in pages]
    assert any("not graded: the run was interrupted" in text for text in texts)
    assert all('id="next-step"' in text and "<script>window" not in text and "<img" not in text for text in texts)


def test_every_stored_case_board_is_drawn_as_a_grid() -> None:
    """The page draws boards from a case's record (`case_record`), in the reason its text
    (`describe_case`) stands in: every public case with a board comes out as a grid holding
    each variable once, with its clues (the inclusive rule's cells hold both)."""
    from grader.reports.reason_html import reason_html
    from grader.scoring.hookcases import case_record

    drawn = 0
    for hook, cases in load_cases().items():
        for number, case in enumerate(cases, start=1):
            if case.board is not None:
                answer = {"value": case.expected}
                fragment = reason_html(describe_case(hook, number, case, answer), [case_record(hook, number, case, answer)])
                variables = sorted(int(v) for v in re.findall(r'title="variable (\d+)', fragment))
                assert variables == list(range(len(variables))) and variables, (hook, number)
                clues = sum(token.isdigit() for row in case.board for token in str(row).split())
                assert len(re.findall(r"<strong>\d</strong>|>\d v\d+", fragment)) == clues, (hook, number)
                drawn += 1
    assert drawn > 20
