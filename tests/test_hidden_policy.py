"""One policy for hidden items (`grader.reports.shown`): every writer shows a hidden item's
status and points, and nothing else of it.

A report holds hidden items carrying a marker in every field they have (their id, file,
reason, output, lost_to, first wrong case, mistake, facts, games, timed calls, numbers of
nodes and seconds); every writer in `WRITERS` is fed it and the marker is found nowhere.
`WRITERS` is checked against the grader's modules: a module that reads graded items and
calls the policy must have a writer here, and one that reads graded items without calling
the policy must say why in `NOT_WRITERS`. Last, a real hidden problem whose id is a marker
is graded once through the command line (`--json`, then Gradescope's results.json).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, python_tree, run_grader
from rich.console import Console

from grader.commands.batch import BatchRow
from grader.reports.caserecord import BoardRecord, CaseRecord, Cell
from grader.reports.results import ItemResult, Report
from grader.reports.shown import SHOWN_FIELDS, shown, shown_report

MARK = "qzmark"  # what no writer may show: in every text field of a hidden item
NODES, SECONDS = 7_613_929, 8.171_717  # a hidden item's measured numbers (as nodes, as ms: 8171.7)
NUMBERS = ("7613929", "8171.7", "8.17")
FILES = Path(__file__).resolve().parent / "student_files"


def marked(value_type: str, field: str) -> object:
    """A value of the field's type that carries the marker (or a marked number)."""
    if value_type in ("str", "str | None"):
        return f"{MARK}-{field}"
    if value_type == "int | None":
        return NODES
    if value_type == "float | None":
        return SECONDS
    if value_type == "tuple[tuple[str, str], ...]":
        return ((f"{MARK}-{field}", f"{MARK}-value"),)
    if value_type == "tuple[tuple[str, int, float], ...]":
        return ((f"{MARK}-{field}", 3, SECONDS),)
    if value_type == "tuple[tuple[str, int], ...]":
        return ((f"{MARK}-{field}", 4),)
    if value_type == "tuple[tuple[str, tuple[int, ...]], ...]":
        return ((f"{MARK}-{field}", (int(NUMBERS[0]),)),)
    if value_type == "tuple[tuple[str, ...], ...]":
        return (("python", "-m", "grader", f"{MARK}-{field}"),)
    if value_type == "tuple[CaseRecord, ...]":  # a case of a hidden board, its board's clues marked numbers too
        board = BoardRecord(f"{MARK}-rule", NODES, ((Cell(7, NODES, "?", True), Cell(6)),))
        words = {name.name: f"{MARK}-{name.name}" for name in dataclasses.fields(CaseRecord) if name.type == "str"}
        domains = ((NODES, f"{MARK}-domain"),)
        return (
            CaseRecord(
                **words
                | {
                    "board": board,
                    "inputs": ((f"{MARK}-input", f"{MARK}-value"),),
                    "returned_domains": domains,
                    "expected_domains": domains,
                    "differing": NODES,
                    "rerun": ("python", f"{MARK}-{field}"),
                }
            ),
        )  # type: ignore[arg-type]
    if value_type == "ErrorKind | None":  # a kind carries no text: that it is reset is checked apart
        return "contract"
    raise AssertionError(f"ItemResult.{field} ({value_type}): give it a marked value here, so the test sees whether a hidden item shows it")


def hidden_item(kind: str, status: str, visibility: str = "hidden", unloadable: bool = False) -> ItemResult:
    """A lost hidden item with the marker in every field it may not show."""
    values: dict[str, object] = {"kind": kind, "status": status, "score": 0.0, "max_score": 2.0, "visibility": visibility}
    if unloadable:
        values["error_kind"] = "unloadable"
    for spec in dataclasses.fields(ItemResult):
        if spec.name not in SHOWN_FIELDS and spec.name not in values:
            values[spec.name] = marked(str(spec.type), spec.name)
    values["file"] = f"problems/{MARK}.yaml"
    return ItemResult(**values)  # type: ignore[arg-type]  # the values match the fields' types by construction


def marked_report() -> Report:
    """Visible items that lose points (so every writer has reasons and a next step to
    write) and hidden items of every kind a report can hide, each with the marker."""
    return Report(
        "/srv/class/ann/hooks.py",
        [
            ItemResult("hook", "forward_check", "fail", 1.0, 3.0, "returned [1] for case 2", first_wrong="case 2", mistake="off by one"),
            ItemResult("hook", "select_variable", "pass", 2.0, 2.0, "all right"),
            ItemResult(
                "problem",
                "open-1",
                "fail",
                0.0,
                1.0,
                "claims there is no solution",
                file="problems/set.yaml",
                nodes=12,
                seconds=0.01,
                lost_to="forward_check",
                cause="forward_check at node 3",
            ),
            hidden_item("problem", "fail"),
            hidden_item("problem", "timeout", visibility="after_due_date"),
            hidden_item("problem", "error", visibility=f"{MARK}-visibility"),
            hidden_item("sat", "fail", visibility="after_published"),
            hidden_item("agent", "fail"),
        ],
        "bwrap",
    )


# --- the writers ----------------------------------------------------------------------------------


def terminal(report: Report, tmp_path: Path) -> str:
    from grader.reports.report import show_report

    console = Console(record=True, width=240, file=io.StringIO())
    show_report(console, report, [])
    return console.export_text()


def terminal_json(report: Report, tmp_path: Path) -> str:
    from grader.reports.report import report_json

    return json.dumps(report_json(report, []))


def batch_rows(report: Report) -> list[BatchRow]:
    return [BatchRow("ann", report, submission="ann.py")]


def class_csv(report: Report, tmp_path: Path) -> str:
    from grader.commands.batch import write_csv

    write_csv(tmp_path / "grades.csv", batch_rows(report))
    return (tmp_path / "grades.csv").read_text(encoding="utf-8")


def feedback(report: Report, tmp_path: Path) -> str:
    """The feedback files of a class run: NAME.md (the terminal's text) and NAME.html."""
    from grader.commands.batch import write_feedback

    assert write_feedback(tmp_path / "feedback", batch_rows(report), []) == 1
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted((tmp_path / "feedback").iterdir()))


def feedback_html(report: Report, tmp_path: Path) -> str:
    from grader.reports.feedback_page import feedback_page

    return feedback_page("ann", report, [])


def gradescope(report: Report, tmp_path: Path) -> str:
    from grader.reports.gradescope import gradescope_results

    return json.dumps(gradescope_results(report, []))


def prairielearn(report: Report, tmp_path: Path) -> str:
    from grader.reports.prairielearn import prairielearn_results

    return json.dumps(prairielearn_results(report))


def advice(report: Report, tmp_path: Path) -> str:
    from grader.reports.advice import next_step

    step = next_step(report)
    assert step is not None
    return f"{step.text} {step.times}"


def kept(report: Report, tmp_path: Path) -> str:
    from grader.reports.kept import KeptStudent, write_kept

    write_kept(tmp_path / "kept", {}, [KeptStudent("ann", {}, "ann.py", report, None, 1.0, 2.0)])
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted((tmp_path / "kept").iterdir()))


def insights(report: Report, tmp_path: Path) -> str:
    """Every insights table, from a report as it is (kept results written before the policy
    hold hidden details) and through the command from kept results (terminal, page, CSVs)."""
    from grader.commands.insights import command
    from grader.reports.insights import StudentResult, all_tables
    from grader.reports.kept import KeptStudent, write_kept

    tables = all_tables([StudentResult("ann", report), StudentResult("bob", report)])
    text = json.dumps([[table.title, table.note, table.rows] for table in tables])
    write_kept(tmp_path / "kept", {}, [KeptStudent(name, {}, f"{name}.py", report, None, 1.0, 2.0) for name in ("ann", "bob")])
    console = Console(record=True, width=240, file=io.StringIO())
    command([str(tmp_path / "kept"), "--html", str(tmp_path / "page.html"), "--csv-dir", str(tmp_path / "tables")], console)
    pages = [(tmp_path / "page.html").read_text(encoding="utf-8")]
    pages += [path.read_text(encoding="utf-8") for path in sorted((tmp_path / "tables").iterdir())]
    return "\n".join([text, console.export_text(), *pages])


def bundle_test(report: Report, tmp_path: Path) -> str:
    """`gradescope-bundle --test`'s table and check of the results.json the report makes."""
    from grader.commands.bundletest import Run, Secrets, runs_table, spec_problems, student_text
    from grader.reports.gradescope import gradescope_results

    results = gradescope_results(report, [])
    problems = spec_problems(results) + Secrets((f"{MARK}-name",), ()).shown_in(student_text(results))
    assert problems == [], problems
    console = Console(record=True, width=240, file=io.StringIO())
    console.print(runs_table([Run("ann.py", 0, results, "", problems)], "autograder.zip"))
    return console.export_text() + student_text(results)


def traces(report: Report, tmp_path: Path) -> str:
    """`--trace` and `--compare` of a hidden problem whose id and board are marked: refused
    (the id is the one the user typed; nothing of the board is shown)."""
    from grader.commands.grade import grade_options
    from grader.commands.tracing import compare_command, trace_command
    from grader.inputs.problemset import load_problem_file

    folder = marked_problems(tmp_path)
    problems, errors = load_problem_file(folder / "hidden.yaml")
    assert not errors
    hidden = [p for p in problems if p.hidden]
    console = Console(record=True, width=240, file=io.StringIO())
    for problem in hidden:
        assert trace_command(grade_options([str(folder), "--trace", problem.id]), "reference", problems, console, None) != 0
    assert compare_command(grade_options([str(folder), "--compare"]), hidden, console) != 0
    said = console.export_text()
    rows = [" ".join(line.split()) for problem in hidden for line in problem_rows(folder, problem.id)]
    assert not [row for row in rows if row in " ".join(said.split())], "a hidden board's row is shown"
    return "\n".join(line for line in said.splitlines() if "is hidden; instructors can add --show-hidden" not in line)


def problem_rows(folder: Path, problem_id: str) -> list[str]:
    data = yaml.safe_load((folder / "hidden.yaml").read_text(encoding="utf-8"))
    return next(p["board"] for p in data["problems"] if p["id"] == problem_id).strip().splitlines()


#: Every writer: the module where it meets the policy (where it makes what it shows of a
#: report, or, for the bundle test, where the results.json it checks is made), and what it
#: writes for a report, as text.
WRITERS: dict[str, tuple[str, Callable[[Report, Path], str]]] = {
    "terminal": ("grader.reports.report", terminal),
    "json": ("grader.reports.report", terminal_json),
    "csv": ("grader.commands.batch", class_csv),
    "feedback markdown and page": ("grader.commands.batch", feedback),
    "feedback page": ("grader.reports.feedback_page", feedback_html),
    "gradescope": ("grader.reports.gradescope", gradescope),
    "prairielearn": ("grader.reports.prairielearn", prairielearn),
    "next step": ("grader.reports.advice", advice),
    "kept results": ("grader.reports.kept", kept),
    "insights": ("grader.reports.insights", insights),
    "bundle test": ("grader.reports.gradescope", bundle_test),
    "traces": ("grader.commands.tracing", traces),
}
#: Modules that read graded items but write nothing a person reads, and why.
NOT_WRITERS = {
    "grader.reports.results": "defines the items and the report",
    "grader.reports.shown": "the policy itself",
    "grader.scoring.grading": "grades: builds the items (a visible hook's reason counts hidden boards' calls only)",
    "grader.scoring.sathooks": "grades the SAT item: builds its reason from the visible part only",
    "grader.commands.gradejob": "carries a whole report from a grading process to the class run (report_data)",
    "grader.commands.grade": "hands reports to the writers (show_report, report_json) with --show-hidden",
    "grader.scoring.hookitems": "grades a hook: builds its item (a hidden board's calls are counted, never shown)",
    "grader.scoring.problems": "grades the problems and efficiency: builds their items (efficiency names visible boards only)",
    "grader.scoring.agentplay": "grades the agent: builds its item (games are never hidden)",
}
POLICY = {"shown", "shown_items", "shown_report", "details_shown"}


# --- the tests --------------------------------------------------------------------------------------


def marked_problems(tmp_path: Path) -> Path:
    """The classroom's hidden set with its hidden boards' ids made markers."""
    folder = tmp_path / "marked-problems"
    if not folder.exists():
        folder.mkdir()
        data = yaml.safe_load((FILES / "hidden_set" / "hidden.yaml").read_text(encoding="utf-8"))
        for problem in data["problems"]:
            if problem.get("visibility", "visible") != "visible":
                problem["id"] = f"{MARK}-{problem['id']}"
        (folder / "hidden.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return folder


def assert_unmarked(text: str, where: str) -> None:
    found = [m.start() for m in re.finditer(MARK, text, re.IGNORECASE)]
    assert not found, f"{where} shows a hidden item's {text[max(0, found[0] - 60) : found[0] + 60]!r}"
    shown_numbers = [number for number in NUMBERS if number in text]
    assert not shown_numbers, f"{where} shows a hidden item's measured {shown_numbers}"


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_no_writer_shows_more_than_a_hidden_items_status_and_points(writer: str, tmp_path: Path) -> None:
    """Fed a report whose hidden items carry a marker in every field, the writer shows the
    marker nowhere, nor their nodes or time; the visible items still show theirs."""
    text = WRITERS[writer][1](marked_report(), tmp_path)
    assert_unmarked(text, writer)
    if writer != "traces":
        assert "forward_check" in text, f"{writer} shows the visible items"


def test_a_hidden_item_is_shown_as_its_status_and_points_only() -> None:
    """What the policy keeps of a hidden item: its kind, status, points and visibility; its
    name is "hidden problem N" in order; a visible item is shown as it is."""
    report = marked_report()
    items = shown_report(report).items
    assert items[:3] == report.items[:3]
    hidden = items[3:]
    assert [i.name for i in hidden] == [f"hidden problem {n}" for n in range(1, 6)]
    assert [i.visibility for i in hidden] == ["hidden", "after_due_date", "hidden", "after_published", "hidden"]
    assert [(i.status, i.score, i.max_score) for i in hidden] == [(i.status, 0.0, 2.0) for i in report.items[3:]]
    assert hidden[0].message == "details hidden (hidden)" and hidden[0].file is None and hidden[0].nodes is None
    assert shown_report(report, show_hidden=True).items == report.items


def test_a_field_added_later_is_hidden_until_allowed() -> None:
    """The policy is an allow-list: a field an item gains later shows its default on a
    hidden item until it is added to SHOWN_FIELDS."""

    @dataclasses.dataclass
    class Later(ItemResult):
        hook_kind: str = ""

    item = Later("problem", "b1", "fail", 0.0, 1.0, "why", visibility="hidden", hook_kind=MARK)
    assert shown(item, 1).hook_kind == "" and Later("problem", "b1", "pass", 1.0, 1.0, hook_kind=MARK).hook_kind == MARK
    assert shown(Later("problem", "b1", "pass", 1.0, 1.0, hook_kind=MARK), 1).hook_kind == MARK  # visible: as it is


def test_a_file_that_loads_for_hidden_items_only_is_noted_without_their_reasons(tmp_path: Path) -> None:
    """A class run's note for a file that did not load, when only hidden items asked its
    hooks (a config of hidden boards alone), says so without their reasons."""
    from grader.commands.batch import load_note, write_csv

    report = Report("ann/hooks.py", [hidden_item("problem", "error", unloadable=True), hidden_item("sat", "error", unloadable=True)], "bwrap")
    note = load_note(report)
    assert note == "details hidden (hidden)"
    write_csv(tmp_path / "grades.csv", [BatchRow("ann", report, note)])
    assert_unmarked((tmp_path / "grades.csv").read_text(encoding="utf-8"), "the class CSV")


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _reads_items(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "grader.reports.results" for node in ast.walk(tree))


def _calls_policy(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and node.module == "grader.reports.shown" and POLICY & {alias.name for alias in node.names}
        for node in ast.walk(tree)
    )


def test_every_writer_of_graded_items_is_tested_and_calls_the_policy() -> None:
    """A module that reads graded items either calls the policy and has a writer above, or
    says in NOT_WRITERS why it writes nothing a person reads: a writer added later without
    the policy, or without a writer in this test, fails here."""
    covered = {module for module, _ in WRITERS.values()}
    readers, callers = set(), set()
    for path in sorted((ROOT / "grader").rglob("*.py")):
        tree = python_tree(path)
        if _reads_items(tree):
            readers.add(_module(path))
        if _calls_policy(tree):
            callers.add(_module(path))
    assert not readers - callers - set(NOT_WRITERS), "these read graded items without the policy"
    assert callers == covered, "a module calls the policy without a writer in this test, or a writer has no policy"
    assert set(NOT_WRITERS) <= readers | {"grader.reports.results", "grader.reports.shown"}, "a stale entry"


def test_the_policy_check_sees_a_writer_without_the_policy() -> None:
    """The check above can fail: a module reading items and calling no policy is seen."""
    tree = ast.parse("from grader.reports.results import Report\n\ndef write(report: Report) -> str:\n    return report.items[0].message\n")
    assert _reads_items(tree) and not _calls_policy(tree)


@pytest.mark.slow
def test_a_real_hidden_problem_with_a_marked_id_shows_nowhere(tmp_path: Path) -> None:
    """A student who fails the hidden boards (ids marked) and prints their clues, graded
    through the command line: the terminal, --json and Gradescope's results.json show the
    hidden boards as "hidden problem N" with their status and points, and nothing else."""
    folder = marked_problems(tmp_path)
    peek = FILES / "hidden_peek.py"
    out = tmp_path / "report.json"
    graded = run_grader(folder, "--solver", peek, "--json", out)
    assert graded.returncode == 1 and "Traceback" not in graded.stdout + graded.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    problems = {p["id"]: p for p in report["problems"]}
    assert problems["hidden problem 1"] == {
        "kind": "problem",
        "id": "hidden problem 1",
        "status": "fail",
        "score": 0.0,
        "max_score": 1.0,
        "message": "details hidden (hidden)",
        "nodes": None,
        "seconds": None,
        "visibility": "hidden",
    }
    assert problems["hidden problem 2"]["visibility"] == "after_due_date"
    results_file = tmp_path / "results.json"
    platform = run_grader(folder, "--solver", peek, "--format", "gradescope", "--output", results_file)
    assert platform.returncode == 0, platform.stdout + platform.stderr
    results = json.loads(results_file.read_text(encoding="utf-8"))
    hidden = [t for t in results["tests"] if t["visibility"] != "visible"]
    assert [(t["name"], t["score"], t["max_score"]) for t in hidden] == [("hidden problem 1", 0.0, 1.0), ("hidden problem 2", 0.0, 1.0)]
    for where, text in (
        ("terminal", graded.stdout + graded.stderr),
        ("json", out.read_text(encoding="utf-8")),
        ("gradescope", results_file.read_text(encoding="utf-8")),
        ("gradescope run", platform.stdout + platform.stderr),
    ):
        assert MARK not in text and "PEEK" not in text, where
        assert "claims there is no solution" not in text, where
    shutil.rmtree(folder)
