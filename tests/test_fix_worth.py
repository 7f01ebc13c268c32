"""A stake says what a fix is worth: a fault of one hook that also fails the student's own
hooks calling it (the same error at the same line) counts their lost points too."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, STUDENT_FILES, no_traceback, run_grader

from grader.reports.advice import next_step
from grader.reports.caserecord import CaseRecord
from grader.reports.results import ItemResult, Report

EMPTY_MIN = ("ValueError", 8)  # min() of an empty domain, line 8 of the student's file


def hook(name: str, score: float, most: float, raised: tuple[str, int] | None) -> ItemResult:
    case = CaseRecord(name, "case 1", "why", error="ValueError: min() arg is an empty sequence", raised=raised)
    return ItemResult("hook", name, "fail", score, most, "lost", cases=(case,))


def report(fc_raised: tuple[str, int] | None, calls: tuple[tuple[str, str], ...] = (("forward_check", "constraint_bounds"),)) -> Report:
    items = [hook("constraint_bounds", 1.75, 2, EMPTY_MIN), hook("forward_check", 2.79, 3, fc_raised)]
    return Report("hooks.py", items, "bwrap", calls=calls)


def test_the_same_crash_in_a_caller_counts_in_the_fix() -> None:
    step = next_step(report(EMPTY_MIN))
    assert step is not None and step.text.startswith("fix constraint_bounds in assignment/hooks.py: up to 0.46 points depend on it")
    assert "0.21 in the tests of forward_check" in step.text


def test_another_error_or_no_call_is_not_counted() -> None:
    for fault in (report(("ValueError", 9)), report(("KeyError", 8)), report(None), report(EMPTY_MIN, calls=())):
        step = next_step(fault)
        assert step is not None and "up to 0.25 points depend on it." in step.text, step.text


def test_a_private_seed_that_fails_both_hooks(tmp_path: Path) -> None:
    config = tmp_path / "grading.yaml"
    config.write_text("hook_seed: 3\n", encoding="utf-8")
    out = tmp_path / "report.json"
    result = run_grader(
        ROOT / "problems",
        "--config",
        config,
        "--solver",
        STUDENT_FILES / "bounds_raises_in_fc.py",
        "--only",
        "constraint_bounds,forward_check",
        "--json",
        out,
    )
    no_traceback(result)
    items = {item["id"]: item for item in json.loads(out.read_text(encoding="utf-8"))["hooks"]}
    lost = {name: round(item["max_score"] - item["score"], 2) for name, item in items.items()}
    assert all(lost.values()), lost  # the crash fails both hooks under this seed
    assert items["constraint_bounds"]["cases"][0]["raised"] == items["forward_check"]["cases"][0]["raised"]
    total = round(sum(lost.values()), 2)
    assert f"up to {total:g} points depend on it" in " ".join(result.stdout.split()), result.stdout
