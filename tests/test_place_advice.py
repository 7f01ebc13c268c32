"""The Next step and the verdicts every place gives alike.

- A hook whose calls raise or break their contract costs the boards whose searches they
  ended: those boards carry the hook (`lost_to`, a typed field), the Next step's stake
  counts them, and the hook's share of boards counts the boards it broke.
- Next step's order: part 1 before part 2 before part 3; within a part a hook not written
  yet first (the handout's order), then the hook that loses the most points. No "Full
  marks." while a practice agent is still the stub.
- A file that does not load (a syntax error, an empty file, `x = 1`) is "not gradable" on
  PrairieLearn whatever sections grading.yaml has, and Gradescope and the command line
  name the same cause, in the same words, on one line.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import COURSE, ROOT, STUDENT_FILES, grade_json, isolation_unavailable, lone, needed, run_grader, self_contained
from rich.console import Console

from grader.errors import ErrorKind
from grader.hooktable import BY_NAME, HOOKS
from grader.reports.advice import next_step
from grader.reports.report import show_report
from grader.reports.results import ItemResult, Report

STAKE = re.compile(r"up to (\d+(?:\.\d+)?) points depend on (\w+)")


def items_of(report: dict) -> list[dict]:
    return report["hooks"] + report["problems"] + report.get("other", [])


def lost_to(report: dict, hook: str) -> float:
    """The points the report's items lost to `hook`: its own item's, and every item lost to it."""
    return round(
        sum(i["max_score"] - i["score"] for i in items_of(report) if i.get("lost_to") == hook or (i["kind"] == "hook" and i["id"] == hook)), 2
    )


def graded(tmp_path: Path, student: str) -> tuple[str, dict]:
    """tests/student_files/STUDENT.py graded on the course boards: what the terminal said
    (whitespace made single spaces) and the JSON report."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    run, report = grade_json(
        COURSE, lone(student), tmp_path / "report.json", "--isolation", "bwrap", "--timeout", "10", "--jobs", "1", columns=400
    )  # one worker: the advice does not depend on items graded side by side
    return " ".join(run.stdout.split()), report


def visible_boards(report: dict) -> list[dict]:
    return [p for p in report["problems"] if p.get("visibility", "visible") == "visible"]


@pytest.mark.slow  # grades through the CLI
def test_a_crashing_constraint_bounds_costs_what_its_boards_lost(tmp_path: Path) -> None:
    """constraint_bounds raises on the mine count's scope, inside the student's forward_check:
    every board errs, carries forward_check (the hook the grader called) as a typed field,
    the stake counts those boards, and forward_check's share counts them as broken."""
    text, report = graded(tmp_path, "advice_crashing_bounds")
    boards = visible_boards(report)
    broken = [p for p in boards if p["status"] == "error" and p.get("lost_to") == "forward_check"]
    assert broken and all("too large" in p["message"] for p in broken), boards
    step = text.split("Next step: ", 1)[1]
    assert step.startswith("fix constraint_bounds first: your forward_check calls it"), step
    stake = STAKE.search(step)
    assert stake is not None and stake.group(2) == "forward_check", step
    assert float(stake.group(1)) == lost_to(report, "forward_check") >= len(broken) + BY_NAME["forward_check"].points / 2
    forward_check = next(h for h in report["hooks"] if h["id"] == "forward_check")
    assert f"{len(boards) - len(broken)}/{len(boards)} visible boards right" in forward_check["message"]


@pytest.mark.slow  # grades through the CLI
def test_a_select_variable_that_breaks_its_contract_loses_its_boards_and_stays_first(tmp_path: Path) -> None:
    """select_variable returns an assigned variable late in the searches of full-size boards,
    right on every named case, and part 2 is not begun: its item loses the boards it broke,
    and the Next step names it (part 1) before the unwritten part-2 hooks, with the points
    lost to it as the stake."""
    text, report = graded(tmp_path, "advice_breaks_select")
    boards = visible_boards(report)
    broken = [p for p in boards if p["status"] == "error" and p.get("lost_to") == "select_variable"]
    assert broken and all("not an unassigned variable" in p["message"] for p in broken), boards
    select = next(h for h in report["hooks"] if h["id"] == "select_variable")
    assert f"{len(boards) - len(broken)}/{len(boards)} visible boards right" in select["message"]
    assert select["score"] < select["max_score"]
    unwritten = [h["id"] for h in report["hooks"] if "is not implemented yet" in h["message"]]
    assert unwritten and all(BY_NAME[name].part == "sat" for name in unwritten)
    step = text.split("Next step: ", 1)[1]
    stake = STAKE.search(step)
    assert step.startswith("fix select_variable") and stake is not None, step
    assert float(stake.group(1)) == lost_to(report, "select_variable") >= len(broken)


# --- the order of the steps, and full marks ------------------------------------------------------


def hook_item(name: str, lost: float, message: str = "some cases wrong", error_kind: ErrorKind | None = None) -> ItemResult:
    points = BY_NAME[name].points
    return ItemResult("hook", name, "pass" if lost == 0 else "fail", points - lost, points, message, error_kind=error_kind)


def all_right() -> list[ItemResult]:
    return [hook_item(spec.name, 0) for spec in HOOKS if spec.points]


def with_loss(items: list[ItemResult], *losses: ItemResult) -> list[ItemResult]:
    lost = {i.name: i for i in losses}
    return [lost.get(i.name, i) for i in items]


def test_part_one_comes_before_part_two_whatever_part_two_loses() -> None:
    """select_variable loses half a point, at_least_clauses all of its (more): part 1 first."""
    items = with_loss(all_right(), hook_item("select_variable", 0.5), hook_item("at_least_clauses", BY_NAME["at_least_clauses"].points))
    step = next_step(Report("hooks.py", items))
    assert step is not None and step.text.startswith("fix select_variable"), step


def test_part_one_comes_before_an_unwritten_part_two() -> None:
    """A part-2 hook not written yet waits until part 1 loses nothing."""
    todo = hook_item(
        "at_most_clauses",
        BY_NAME["at_most_clauses"].points,
        "at_most_clauses is not implemented yet (it raises NotImplementedError)",
        "not_implemented",
    )
    items = with_loss(all_right(), hook_item("order_values", 0.33), todo)
    step = next_step(Report("hooks.py", items))
    assert step is not None and step.text.startswith("fix order_values"), step
    done = with_loss(all_right(), todo)
    step = next_step(Report("hooks.py", done))
    assert step is not None and step.text.startswith("implement at_most_clauses"), step


def test_within_a_part_the_hook_that_loses_most_comes_first() -> None:
    """Boards lost to select_variable count toward it: more than forward_check's own loss."""
    boards = [
        ItemResult("problem", f"b{n}", "error", 0.0, 1.0, "select_variable returned 7", file="set.yaml", lost_to="select_variable") for n in range(3)
    ]
    items = with_loss(all_right(), hook_item("forward_check", 1.0), hook_item("select_variable", 0.5)) + boards
    step = next_step(Report("hooks.py", items))
    stake = sum(i.max_score - i.score for i in items if i.lost_to == "select_variable" or i.name == "select_variable")
    assert step is not None and step.text == f"fix select_variable in assignment/hooks.py: up to {stake:g} points depend on it."


def shown(report: Report) -> str:
    out = io.StringIO()
    show_report(Console(file=out, width=400), report, [])
    return " ".join(out.getvalue().split())


def test_no_full_marks_while_a_practice_agent_is_the_stub() -> None:
    """Every graded item right but the practice agent still the stub: the next step says so,
    with "practice" in the same line; "Full marks." only once the agent is written."""
    stub = Report("hooks.py", all_right(), agent_stub=True)
    text = shown(stub)
    assert "Full marks." not in text
    line = text.split("Next step: ", 1)[1]
    assert line.startswith("write your agent: choose_move") and "practice" in line and "no points" in line
    assert "Full marks." in shown(Report("hooks.py", all_right()))


@pytest.mark.slow  # grades through the CLI
def test_a_stub_agent_beside_right_hooks_is_a_next_step_not_full_marks(tmp_path: Path) -> None:
    """Graded for real: the model answer's hooks beside assignment/agent.py as handed out,
    with no agent section in grading.yaml."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "hooks.py").write_text(self_contained("correct"), encoding="utf-8")
    shutil.copyfile(ROOT / "assignment" / "agent.py", folder / "agent.py")
    run = run_grader(COURSE, "--solver", folder / "hooks.py", "--isolation", "bwrap", "--jobs", "1", columns=400)
    text = " ".join(run.stdout.split())
    assert "Full marks." not in text and "Next step: write your agent: choose_move in assignment/agent.py" in text, text


# --- files that do not load, under every config ---------------------------------------------------

SECTIONS = {
    "none": "",
    "efficiency": "efficiency:\n  points: 4\n",
    "agent": "agent:\n  games: 2\n  points: 4\n",
    "both": "efficiency:\n  points: 4\nagent:\n  games: 2\n  points: 4\n",
}
UNLOADABLE = {"syntax error": (STUDENT_FILES / "syntax.py").read_text(encoding="utf-8"), "empty": "", "x = 1": "x = 1\n"}


@pytest.mark.slow  # grades, with sandboxed workers
@pytest.mark.parametrize("file", list(UNLOADABLE))
@pytest.mark.parametrize("section", list(SECTIONS))
def test_a_file_that_does_not_load_is_not_gradable_and_named_alike_everywhere(tmp_path: Path, section: str, file: str) -> None:
    """Graded in this process with the grader's own parts, as `--format prairielearn`
    grades a PrairieLearn job's /grade/student: not gradable, whatever the config grades;
    Gradescope's output and the terminal give the same cause on one line."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    from grader.inputs.config import load_config
    from grader.inputs.problemset import load_problems
    from grader.inputs.submission import resolve_agent, resolve_solver
    from grader.reports.gradescope import gradescope_results
    from grader.reports.prairielearn import prairielearn_results
    from grader.sandbox.isolation import open_sandbox
    from grader.scoring.grading import grade

    problems_folder = tmp_path / "problems"
    problems_folder.mkdir()
    shutil.copyfile(COURSE, problems_folder / "course.yaml")
    (problems_folder / "grading.yaml").write_text("timeout: 10\n" + SECTIONS[section], encoding="utf-8")
    student = tmp_path / "student"
    student.mkdir()
    (student / "hooks.py").write_text(UNLOADABLE[file], encoding="utf-8")
    problems, errors = load_problems(problems_folder / "course.yaml")
    config, config_errors = load_config(problems_folder / "grading.yaml")
    assert not errors and not config_errors
    solver = resolve_solver(str(student))
    assert solver is not None
    # one worker, items one at a time: whether a file loads does not depend on items graded side by side
    sandbox = open_sandbox("bwrap", [problems_folder / "course.yaml", problems_folder / "grading.yaml"], workers=1)
    try:
        report = grade(solver, problems, config, 1, None, resolve_agent(None, solver, student), sandbox, "folder")
    finally:
        sandbox.close()
    prairielearn = prairielearn_results(report)
    assert prairielearn["gradable"] is False and "score" not in prairielearn, prairielearn
    why = prairielearn["format_errors"][0]
    assert why.startswith("cannot load hooks.py: ")
    cause = why.removeprefix("cannot load hooks.py: ")
    gradescope = gradescope_results(report, [])["output"].splitlines()
    terminal = io.StringIO()
    show_report(Console(file=terminal, width=1000), report, [])
    for lines in (gradescope, terminal.getvalue().splitlines()):
        step = next(line for line in lines if line.startswith("Next step: "))
        assert step == f"Next step: fix hooks.py so that it loads ({cause}); until it does, nothing in it can be graded.", lines


@pytest.mark.slow  # grades through the CLI
def test_the_command_line_writes_not_gradable_for_a_file_defining_nothing(tmp_path: Path) -> None:
    """The real `--format prairielearn` run of a job's folder (both sections graded): the
    results.json on disk says not gradable."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    problems_folder = tmp_path / "problems"
    problems_folder.mkdir()
    shutil.copyfile(COURSE, problems_folder / "course.yaml")
    (problems_folder / "grading.yaml").write_text("timeout: 10\n" + SECTIONS["both"], encoding="utf-8")
    student = tmp_path / "student"
    student.mkdir()
    (student / "hooks.py").write_text("x = 1\n", encoding="utf-8")
    run = run_grader(problems_folder, "--solver", student, "--format", "prairielearn", "--output", tmp_path / "results.json", "--isolation", "bwrap")
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert run.returncode == 0 and results["gradable"] is False, run.stdout
    assert "defines none of the functions the assignment asks for" in results["format_errors"][0]


@pytest.mark.slow  # grades through the CLI
def test_a_file_with_only_an_agent_is_told_to_implement_the_first_hook(tmp_path: Path) -> None:
    """A file that defines choose_move and no hook: every hook is not written yet (the
    worker's typed kind for a function the file lacks, as for a stub), so the Next step is
    to implement constraint_bounds, the handout's first, not to fix the hook whose boards
    lose the most points."""
    text, report = graded(tmp_path, "agent_naive")
    assert all(h["status"] == "error" and "no function named" in h["message"] for h in report["hooks"]), report["hooks"]
    step = text.split("Next step: ", 1)[1]
    assert step.startswith("implement constraint_bounds in assignment/hooks.py ("), step
    assert "points depend on" not in step


def test_the_load_fix_quotes_the_typed_load_reason_never_the_message() -> None:
    """The Next step for a file that did not load quotes the item's `load_reason`, the
    error alone: a reason that itself reads like the loader's words ("cannot load ...",
    "(it printed: ...)") is quoted whole, and the message's printed output is not."""
    forged = "RuntimeError: cannot load other.py: nothing (it printed: forged), line 3"
    message = f"cannot load hooks.py: {forged} (it printed: what it really printed)"
    items = [hook_item(spec.name, spec.points, message, "unloadable") for spec in HOOKS if spec.part == "csp"]
    for item in items:
        item.load_reason = forged
    step = next_step(Report("student/hooks.py", items, "bwrap"))
    assert step is not None
    assert step.text == f"fix hooks.py so that it loads ({forged}); until it does, nothing in it can be graded."
    for item in items:  # results kept before the field existed: the step names no reason rather than guess one
        item.load_reason = ""
    step = next_step(Report("student/hooks.py", items, "bwrap"))
    assert step is not None and step.text == "fix hooks.py so that it loads; until it does, nothing in it can be graded."


@pytest.mark.slow  # grades through the CLI
def test_a_load_error_that_forges_the_loaders_words_is_quoted_whole(tmp_path: Path) -> None:
    """A file that prints, then raises an error worded like the loader's own reason: the
    JSON item's `load_reason` holds the error whole and nothing it printed, the message adds
    what it printed, and the Next step quotes `load_reason`."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    student = tmp_path / "hooks.py"
    student.write_text('print("really printed")\nraise RuntimeError("cannot load x.py: nothing (it printed: forged)")\n', encoding="utf-8")
    run, report = grade_json(COURSE, student, tmp_path / "report.json", "--isolation", "bwrap", "--timeout", "10", "--jobs", "1", columns=1000)
    hooks = report["hooks"]
    assert hooks and all(item["status"] == "error" for item in hooks), hooks
    reason = hooks[0]["load_reason"]
    assert "(it printed: forged)" in reason and "really printed" not in reason, reason
    assert "really printed" in hooks[0]["message"] and reason in hooks[0]["message"], hooks[0]
    terminal = " ".join(run.stdout.split())
    assert f"Next step: fix hooks.py so that it loads ({' '.join(reason.split())}); until it does" in terminal, terminal
