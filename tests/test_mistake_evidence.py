"""A mistake is named only with evidence: the answers seen must fit it on every case, the
right ones included (where the mistake would have been wrong, a right answer rules it out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, lone, no_traceback, run_grader

from grader.scoring.hookcases import case_record, load_cases


def answers(reverse_where: set[int]) -> list[tuple[object, dict[str, object]]]:
    """order_values' stored cases answered right but reversed on the cases numbered in `reverse_where`."""
    return [
        (case, {"value": list(case.expected)[::-1] if number in reverse_where else list(case.expected)})
        for number, case in enumerate(load_cases()["order_values"], start=1)
    ]


def test_a_mistake_borne_out_by_every_case_is_named() -> None:
    cases = load_cases()["order_values"]
    reverses = {n for n, case in enumerate(cases, start=1) if len(case.expected) > 1}
    seen = answers(reverses)
    first = min(reverses)
    record = case_record("order_values", first, cases[first - 1], seen[first - 1][1], seen)  # type: ignore[arg-type]
    assert record.mistake == "the order reversed"


def test_one_reversed_answer_among_right_ones_names_no_mistake() -> None:
    cases = load_cases()["order_values"]
    reverses = [n for n, case in enumerate(cases, start=1) if len(case.expected) > 1]
    assert len(reverses) > 1
    seen = answers({reverses[0]})  # right where reversing would have been wrong: not "reversed"
    record = case_record("order_values", reverses[0], cases[reverses[0] - 1], seen[reverses[0] - 1][1], seen)  # type: ignore[arg-type]
    assert record.mistake == "" and record.returned != record.expected
    alone = case_record("order_values", reverses[0], cases[reverses[0] - 1], seen[reverses[0] - 1][1])  # type: ignore[arg-type]
    assert alone.mistake == "the order reversed"  # the one case alone fits it: the evidence is what tells


@pytest.mark.parametrize("student", ["shuffles_values", "lcv_values"])
def test_a_shuffle_and_least_constraining_value_are_not_told_reversed(student: str, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = run_grader(ROOT / "problems", "--solver", lone(student), "--only", "order_values", "--json", out)
    no_traceback(result)
    [item] = [i for i in json.loads(out.read_text(encoding="utf-8"))["hooks"] if i["id"] == "order_values"]
    assert item["status"] == "fail" and item["cases"], item
    assert "this looks like" not in item["message"] and all(case["mistake"] == "" for case in item["cases"])
    assert "returned: [1, 0]" in item["message"] and "expected: [0, 1]" in item["message"]  # what differs, said
