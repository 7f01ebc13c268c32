"""Reasons travel as typed records: every page draws a case's board, inputs and answers
from its `CaseRecord`, never from a reason's words; JSON and kept results carry them."""

from __future__ import annotations

import re

import pytest

from grader.reports import reason_html as reason_module
from grader.reports.caserecord import CaseRecord, case_text
from grader.reports.feedback_page import feedback_page
from grader.reports.gradescope import gradescope_results
from grader.reports.results import ItemResult, Report, report_data, report_from_data
from grader.scoring.hookcases import case_record, describe_case, load_cases

ARGV = ("python", "-m", "grader", "problems/", "--case", "forward_check:1")


def wrong_case() -> CaseRecord:
    """forward_check's first stored case, answered wrong (a domain emptied)."""
    case = load_cases()["forward_check"][0]
    answer = dict(case.expected)
    answer[2] = []
    return case_record("forward_check", 1, case, {"value": answer})


def reworded(record: CaseRecord) -> str:
    """The same record in other words: what a later edit of `case_text` could write."""
    return case_text(record).replace("board (", "grid of ").replace("returned:", "your answer:").replace("expected:", "the model's:")


def report_of(record: CaseRecord, words: str) -> Report:
    """A report whose hook item shows `record` in `words`, and two boards lost where their
    searches parted in forward_check, told in different words."""
    message = f"2/3 groups of cases right; the first wrong one is {words}\n  rerun just this case: python -m grader problems/ --case forward_check:1"
    hook = ItemResult("hook", "forward_check", "fail", 1, 3, message, cases=(record,), reruns=(ARGV,))
    boards = [
        ItemResult(
            "problem",
            f"b-{n}",
            "fail",
            0,
            1,
            "found 1 of the 2 solutions",
            file="problems/p.yaml",
            cause=cause,
            parted_in="forward_check",
            lost_to="forward_check",
        )
        for n, cause in enumerate(("forward_check narrowed too much at step 3 of b-0", "at step 9 of b-1 the search parted: forward_check"))
    ]
    return Report("hooks.py", [hook, *boards], "bwrap")


def drawn(page: str) -> tuple[list[str], list[str], list[str]]:
    """A page's boards, answer tables and "where the search went wrong" entries' counts."""
    boards = re.findall(r'<table class="board".*?</table>', page, re.S)
    answers = re.findall(r'<table class="answers".*?</table>', page, re.S)
    causes = re.findall(r"<li>(\d+ boards?):", page)
    return boards, answers, causes


def test_a_reasons_wording_changes_no_board_table_or_group(monkeypatch: pytest.MonkeyPatch) -> None:
    record = wrong_case()
    before = feedback_page("ann", report_of(record, case_text(record)), [])
    monkeypatch.setattr(reason_module, "case_text", reworded)
    after = feedback_page("ann", report_of(record, reworded(record)), [])
    assert drawn(before) == drawn(after)
    boards, answers, causes = drawn(after)
    assert len(boards) == 1 and len(answers) == 1 and causes == ["2 boards"]  # the boards grouped by where they parted, whatever the words
    assert "grid of" not in after.split('<table class="board"')[1].split("</table>")[0]


def test_text_that_looks_like_a_case_is_not_drawn_without_its_record() -> None:
    case = load_cases()["forward_check"][0]
    text = describe_case("forward_check", 1, case, {"value": case.expected})
    assert "board (" in text
    fragment = reason_module.reason_html(text)
    assert 'class="board"' not in fragment and 'class="answers"' not in fragment


def test_gradescope_keeps_borders_and_puts_a_rerun_on_its_own_line() -> None:
    record = wrong_case()
    [test, *_] = gradescope_results(report_of(record, case_text(record)), [])["tests"]
    output = test["output"]
    assert re.search(r'<table class="board" border="1"', output) and 'style="border: 1px solid' in output
    assert f'<p class="rerun"><code>{ARGV[0]} -m grader problems/ --case forward_check:1</code></p>' in output
    assert re.search(r'<tr class="differs" style="[^"]*font-weight: bold', output)


def test_json_and_kept_results_carry_the_records() -> None:
    record = wrong_case()
    report = report_of(record, case_text(record))
    data = report.items[0].as_dict()
    assert data["cases"][0]["board"]["rows"][0][0]["var"] == 0 and data["cases"][0]["differing"] == 2
    back = report_from_data(report_data(report))
    assert back.items[0].cases == (record,) and back.items[0].cases[0].rerun == ()


def test_a_kept_record_that_was_edited_is_refused() -> None:
    record = wrong_case()
    data = report_data(report_of(record, case_text(record)))
    data["items"][0]["cases"][0]["board"]["rows"][0][0]["state"] = "<script>"
    with pytest.raises(ValueError):
        report_from_data(data)
