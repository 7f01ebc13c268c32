"""Class insights: `python -m grader insights RESULTS_DIR` from a class run's kept results."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from browser import load
from conftest import isolation_unavailable, no_traceback, run_grader, self_contained
from playwright.sync_api import Page

from grader.commands.gradejob import Job, Runner
from grader.reports.insights import (
    ALMOST_ALL,
    StudentResult,
    agent_tables,
    boards_table,
    first_wrong_table,
    help_table,
    items_table,
)
from grader.reports.kept import KeptStudent, write_kept
from grader.reports.results import ItemResult, Report
from grader.scoring.agentplay import PRACTICE

COURSE = Path(__file__).resolve().parents[1] / "problems" / "course.yaml"
HOSTILE = "<img src=x onerror=window.__pwned=1>"
#: Students of tests/student_files graded on the hook tests alone, and the first wrong
#: case and mistake each one's forward_check is known to show (None: it lost nothing there).
CLASS = {
    "fixpoint_loop": ("one pass, not a fixpoint", "more than one pass"),
    "bounds_skip_decided": ("one pass, not a fixpoint", ""),
    "lazy_upper": ("assigned is given", "less than one pass"),
    "docs_swapped_bounds": None,
}
CRASHING_AGENT = "lazy_upper"


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real class run's kept results: the students of CLASS, each graded in a
    grading process of its own, one student not graded, one with a hostile name."""
    mode = "bwrap" if not isolation_unavailable("bwrap") else "none"
    folder = tmp_path_factory.mktemp("class")
    runner, students = Runner(), []
    for name in CLASS:
        source = folder / name / "hooks.py"
        source.parent.mkdir()
        source.write_text(self_contained(name), encoding="utf-8")
        agent = None
        if name == CRASHING_AGENT:  # its agent plays the practice games, and loses every one to an exception
            agent = source.with_name("agent.py")
            agent.write_text(self_contained("agent_crash"), encoding="utf-8")
        report = runner.grade(Job([], None, mode, 10.0, str(source), "folder", str(agent) if agent else None, str(folder / f"{name}.json")))
        assert isinstance(report, Report), report
        students.append(KeptStudent(name, {"section": "A" if "bounds" in name else "B"}, f"{name}.py", report, None, 1.0, 2.0))
    students.append(KeptStudent("nobody_graded", {}, "x.py", None, "the grading process failed", None, None))
    copy = students[0].report
    assert copy is not None
    students.append(KeptStudent(HOSTILE, {}, "h.py", copy, None, 1.0, 1.0))
    results = folder / "grades-results"
    write_kept(results, {"config": {}, "problems": [], "max_score": copy.max_score}, students)
    return results


def test_first_wrong_cases_are_counted_and_who_is_stuck_is_named(kept: Path, tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    result = run_grader("insights", kept, "--csv-dir", tables)
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = read(tables / "first_wrong.csv")
    forward = [r for r in rows if r["hook"] == "forward_check"]
    expected: dict[tuple[str, str], set[str]] = {}
    for name, known in {**CLASS, HOSTILE: CLASS["fixpoint_loop"]}.items():
        if known:
            expected.setdefault(known, set()).add(name)
    assert {(r["first wrong case"], r["looks like"]): int(r["students"]) for r in forward} == {key: len(who) for key, who in expected.items()}
    assert int(rows[0]["students"]) == max(len(who) for who in expected.values())  # the commonest first
    assert int(forward[0]["students"]) == 2 and forward[0]["looks like"] == "more than one pass"
    helped = {r["student"]: r["why"] for r in read(tables / "needs_help.csv")}
    assert helped["nobody_graded"] == "not graded: the grading process failed"
    assert 'stuck at forward_check\'s case "one pass, not a fixpoint", looking like more than one pass (as 1 other)' in helped["fixpoint_loop"]
    assert "lazy_upper" not in helped or "stuck at forward_check" not in helped["lazy_upper"]
    sections = {r["section"]: int(r["students"]) for r in read(tables / "sections.csv")}
    assert sections == {"A": 2, "B": 2}
    assert sum(int(r["students"]) for r in read(tables / "scores.csv")) == len(CLASS) + 1  # the graded ones
    assert "First wrong cases" in result.stdout
    # hand-counted: forward_check is lost in part by every student of CLASS but one (the hostile copy too)
    items = {r["item"]: r for r in read(tables / "items.csv")}
    forward = items["hooks/forward_check"]
    graded = len(CLASS) + 1
    full = sum(known is None for known in CLASS.values())
    assert (forward["students"], forward["full"], forward["partial"], forward["none"]) == (
        str(graded),
        f"{full / graded:.0%}",
        f"{(graded - full) / graded:.0%}",
        "0%",
    )
    assert forward["lost the most"].startswith("bounds_skip_decided (")  # the fewest groups right
    assert read(tables / "agent_losses.csv") == [{"how": "to an exception", "games": str(PRACTICE.games), "students": "1"}]
    assert [(r["students"], r["who"]) for r in read(tables / "agent_win_rates.csv")][0] == ("1", CRASHING_AGENT)


def report(*items: ItemResult) -> Report:
    return Report("x.py", list(items))


def board(name: str, score: float, lost_to: str = "") -> ItemResult:
    return ItemResult("problem", name, "pass" if score else "fail", score, 1.0, "lost it" if not score else "", file="set.yaml", lost_to=lost_to)


def test_boards_almost_everyone_fails_and_nobody_fails_are_flagged() -> None:
    count = 10
    failing = round(count * ALMOST_ALL)  # just at the mark
    students = [
        StudentResult(
            f"s{i}", report(board("hard", 0.0 if i < failing else 1.0, "forward_check"), board("easy", 1.0), board("some", 0.0 if i < 3 else 1.0))
        )
        for i in range(count)
    ]
    rows = {r[0]: r for r in boards_table(students).rows}
    assert rows["set/hard"][1:3] == [failing, count] and "almost everyone" in str(rows["set/hard"][6])
    assert rows["set/hard"][5] == f"lost to forward_check ({failing})"
    assert rows["set/easy"][1] == 0 and "nobody fails" in str(rows["set/easy"][6])
    assert rows["set/some"][1] == 3 and rows["set/some"][6] == ""
    items = {r[0]: r for r in items_table(students).rows}
    assert items["set/some"][2:5] == ["70%", "0%", "30%"] and items["set/some"][5] == 0.7


def test_the_agent_games_are_counted_by_outcome_and_win_rate() -> None:
    def agent(won: int, mines: int, crashed: int) -> ItemResult:
        outcomes = (("won", won), ("opened a mine", mines), ("to an exception", crashed))
        return ItemResult("agent", "agent", "fail", 0.0, 1.0, game_outcomes=tuple(p for p in outcomes if p[1]))

    students = [StudentResult("a", report(agent(18, 2, 0))), StudentResult("b", report(agent(1, 10, 9))), StudentResult("c", report(agent(0, 0, 20)))]
    rates, causes = agent_tables(students)
    assert [r[1] for r in rates.rows] == [2, 0, 0, 0, 1]
    assert causes.rows == [["to an exception", 29, 2], ["opened a mine", 12, 2]]


def test_who_needs_help_names_zero_and_timeouts() -> None:
    students = [
        StudentResult("zero", report(ItemResult("hook", "forward_check", "error", 0.0, 3.0))),
        StudentResult("slow", report(ItemResult("hook", "forward_check", "timeout", 0.0, 3.0), ItemResult("hook", "order_values", "pass", 1.0, 1.0))),
        StudentResult("fine", report(ItemResult("hook", "order_values", "pass", 1.0, 1.0))),
    ]
    students.append(StudentResult("unloadable", report(ItemResult("hook", "forward_check", "error", 0.0, 3.0, error_kind="unloadable"))))
    helped = dict(help_table(students).rows)
    assert helped["zero"] == "scored 0" and helped["unloadable"] == "scored 0"
    assert first_wrong_table(students).rows == [["forward_check", "(error)", "", 1, "zero"], ["forward_check", "(timeout)", "", 1, "slow"]]
    assert helped["slow"] == "ran out of time: hooks/forward_check"
    assert "fine" not in helped


def test_the_page_is_offline_and_a_hostile_name_is_text(kept: Path, tmp_path: Path, browser: Page, requested: list[str]) -> None:
    page = tmp_path / "insights.html"
    result = run_grader("insights", kept, "--html", page)
    assert result.returncode == 0, result.stdout + result.stderr
    load(browser, page)
    assert browser.evaluate("window.__pwned === undefined")
    assert browser.evaluate("document.images.length") == 0
    assert HOSTILE in browser.evaluate("document.body.innerText")
    assert browser.evaluate("document.querySelectorAll('svg rect').length") > 0
    assert requested == [page.resolve().as_uri()]


def test_against_shows_a_changed_score(kept: Path, tmp_path: Path) -> None:
    before = tmp_path / "before"
    shutil.copytree(kept, before)
    path = before / "docs_swapped_bounds.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    item = next(i for i in data["report"]["items"] if i["name"] == "constraint_bounds")
    item["score"] = 0.0
    path.write_text(json.dumps(data), encoding="utf-8")
    (before / "nobody_graded.json").unlink()  # and out of run.json's list: a student the earlier run did not have
    run = json.loads((before / "run.json").read_text(encoding="utf-8"))
    run["students"].remove("nobody_graded.json")
    (before / "run.json").write_text(json.dumps(run), encoding="utf-8")
    tables = tmp_path / "tables"
    result = run_grader("insights", kept, "--against", before, "--csv-dir", tables)
    assert result.returncode == 0, result.stdout + result.stderr
    moved = {r["student"]: r for r in read(tables / "moved_scores.csv")}
    assert list(moved) == ["docs_swapped_bounds"]
    row = moved["docs_swapped_bounds"]
    assert float(row["change"]) == pytest.approx(float(row["after"]) - float(row["before"]))
    assert float(row["change"]) > 0
    assert {r["student"]: r["change"] for r in read(tables / "moved_students.csv")} == {"nobody_graded": "added"}
    assert "hooks/constraint_bounds" in {r["item"] for r in read(tables / "moved_items.csv")}


def test_a_malformed_results_folder_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "grades-results"
    folder.mkdir()
    (folder / "run.json").write_text("{not json", encoding="utf-8")
    result = run_grader("insights", folder)
    no_traceback(result)
    assert result.returncode != 0
    lines = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "run.json" in lines[0], result.stdout
    missing = run_grader("insights", tmp_path / "nowhere")
    assert missing.returncode != 0 and len(missing.stdout.strip().splitlines()) == 1, missing.stdout


def test_a_class_run_ends_with_the_insights_in_short(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    for name in ("lazy_fc", "lazy_upper"):  # both lose forward_check on the same case, the same way
        (folder / f"{name}.py").write_text(self_contained(name), encoding="utf-8")
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", grades, "--only", "forward_check", "--timeout", "5")
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    text = " ".join(result.stdout.split())
    assert "First wrong cases" in text and "Who needs help" in text
    assert f'stuck at forward_check\'s case "{CLASS["lazy_upper"][0]}", looking like {CLASS["lazy_upper"][1]} (as 1 other)' in text


def test_the_short_insights_failing_changes_no_grade(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from grader.commands import batch, insights

    def broken(*_: object) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(insights, "show_short", broken)
    rows = [batch.BatchRow("ana", report(ItemResult("hook", "order_values", "pass", 1.0, 1.0)))]
    console = Console(record=True, width=200)
    batch.show_summary(console, rows)
    said = console.export_text()
    assert "the grader failed while summing up the class's insights (RuntimeError: broken)" in said
    assert rows[0].score == 1.0 and not rows[0].ungraded


def test_outputs_that_cannot_be_written_are_one_line(kept: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    for option, path in (("--html", tmp_path), ("--csv-dir", tmp_path / "file")):
        result = run_grader("insights", kept, option, path)
        no_traceback(result)
        assert result.returncode == 2 and result.stdout.startswith("error:") and option in result.stdout, result.stdout
