"""Each kind of grading task answers with a record of its own, read by attribute: the hooks'
answers (`HookAnswers`), a search's (`SearchAnswer`), the SAT item's (`SatSolutions`); a
task that did not run to its end has no answer at all. Asked in this process of the model
answer's hooks, and of hooks that raise or return what no contract allows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from conftest import ROOT

from grader.hooktable import CSP_HOOKS
from grader.inputs.problemset import load_problems
from grader.reference import reference_hooks
from grader.sandbox.tasks import Outcome, Task, run_tasks
from grader.scoring.grading import model_answer
from grader.scoring.hookcalls import TASK_FAILURES, LocalAsker
from grader.scoring.hookcases import load_cases
from grader.scoring.hookitems import HookAnswers, hook_task, score_hook
from grader.scoring.problems import SEARCH_HOOKS, SearchAnswer, expected_count, problem_task, score_problem
from grader.scoring.sathooks import SatSolutions, SatSolved, merge_sat_parts, sat_problems_task, score_sat_problems

PROBLEMS, _ = load_problems(ROOT / "problems" / "course.yaml")
BOARD = next(p for p in PROBLEMS if p.expect)  # a board with solutions


def asked(functions: dict[str, Callable[..., Any]], tasks: list[Task[Any]]) -> list[Outcome[Any]]:
    """The tasks' outcomes with these hook functions, asked in this process."""
    return run_tasks(lambda limit: LocalAsker(functions), lambda asker: None, tasks, 1, TASK_FAILURES)


def test_the_model_answer_answers_every_case_of_every_hook_as_a_record() -> None:
    """Every CSP hook of the table: one value per case, in order, and full marks."""
    cases = load_cases()
    for spec in CSP_HOOKS:
        (outcome,) = asked(reference_hooks(), [hook_task(spec.name, cases[spec.name], 30.0)])
        assert isinstance(outcome.answered, HookAnswers), spec.name
        assert [set(reply) for reply in outcome.answered.results] == [{"value"}] * len(cases[spec.name]), spec.name
        assert score_hook(spec.name, 1.0, cases[spec.name], outcome).status == "pass", spec.name


class Unserialisable:
    """What no hook's contract allows as an answer."""


@pytest.mark.parametrize("behaviour", ["raises", "returns an object"])
def test_a_hostile_hook_gets_an_error_reply_per_case_and_no_credit(behaviour: str) -> None:
    """A hook that raises, or returns what no contract allows, answers each case with an
    error reply (never a value), and its item scores nothing."""
    spec = CSP_HOOKS[0]
    cases = load_cases()[spec.name]

    def hostile(*args: Any) -> Any:
        if behaviour == "raises":
            raise ValueError("no")
        return Unserialisable()

    (outcome,) = asked({spec.name: hostile}, [hook_task(spec.name, cases, 30.0)])
    error = {"error", "where"} if behaviour == "raises" else {"error"}  # an exception also says where, as data
    assert outcome.ok and [set(reply) for reply in outcome.answered.results] == [error] * len(cases)
    if behaviour == "raises":
        assert {reply["where"][0] for reply in outcome.answered.results} == {"ValueError"}
    item = score_hook(spec.name, 1.0, cases, outcome)
    assert item.status == "fail" and item.score == 0.0


def test_a_search_answers_its_solutions_statistics_and_every_hooks_calls() -> None:
    """The model answer's search of a board: every solution, its nodes, no divergence, and
    the calls of every hook the engine asks; scored as a pass with those nodes."""
    (outcome,) = asked(reference_hooks(), [problem_task(BOARD, 30.0, model_answer())])
    answer = outcome.answered
    assert isinstance(answer, SearchAnswer) and answer.failed is None and answer.divergence is None
    assert answer.solutions is not None and len(answer.solutions) == expected_count(BOARD)
    assert answer.stats is not None and set(answer.calls) >= SEARCH_HOOKS
    assert all(answer.calls[hook].calls for hook in SEARCH_HOOKS)
    item = score_problem(BOARD, outcome)
    assert item.status == "pass" and item.nodes == answer.stats.popped


def test_a_search_stopped_by_a_raising_hook_answers_the_failure_and_its_hook() -> None:
    """A hook the search asks that raises: the search's answer says why and in which hook,
    and the board is lost to that hook."""
    hook = sorted(SEARCH_HOOKS)[0]
    functions = {**reference_hooks(), hook: lambda *args: 1 // 0}
    (outcome,) = asked(functions, [problem_task(BOARD, 30.0, model_answer())])
    assert outcome.ok and outcome.answered.failed is not None and outcome.answered.failed_in == hook
    assert outcome.answered.solutions is None
    item = score_problem(BOARD, outcome)
    assert item.status == "error" and item.lost_to == hook and "ZeroDivisionError" in item.message


def test_a_task_that_did_not_end_has_no_answer() -> None:
    """An outcome of a task that ran out of time carries no answer to read by mistake:
    reading one raises, and the board's item says what became of the task."""
    hook = sorted(SEARCH_HOOKS)[0]
    stopped: Outcome[SearchAnswer] = Outcome("timeout", None, "ran out of time", hook=hook)
    with pytest.raises(ValueError):
        _ = stopped.answered
    item = score_problem(BOARD, stopped)
    assert (item.status, item.message, item.nodes, item.lost_to) == ("timeout", "ran out of time", None, hook)


def test_the_sat_item_answers_each_problem_and_a_failed_hidden_part_keeps_its_reason_home() -> None:
    """The SAT task answers one record per problem; merged with a hidden part that failed,
    each hidden problem gets an error that names nothing of that part."""
    sat_problems, _ = load_problems(ROOT / "problems" / "sat-examples.yaml")
    shown = [p for p in sat_problems if not p.hidden][:2]
    (outcome,) = asked(reference_hooks(), [sat_problems_task(shown, 60.0)])
    assert isinstance(outcome.answered, SatSolutions) and len(outcome.answered.results) == len(shown)
    assert all(result.error is None and result.solutions is not None for result in outcome.answered.results)
    hidden = [replace(p, visibility="hidden") for p in shown[:1]]
    secret: Outcome[SatSolutions] = Outcome("error", None, "SECRET of the hidden part")
    merged = merge_sat_parts([(shown, outcome), (hidden, secret)])
    assert merged.answered.results[-1] == SatSolved(error="the hidden problems' part could not be graded")
    item = score_sat_problems(1.0, shown + hidden, [expected_count(p) for p in shown + hidden], merged)
    assert "SECRET" not in item.message and item.score < item.max_score
