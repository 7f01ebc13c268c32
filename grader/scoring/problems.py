"""The problem items and the efficiency item: every solution of a board searched here, each
hook call asked of the solver (`problem_task`), each board scored (`score_problem`), and
the solver's nodes against the model answer's (`score_efficiency`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict

from grader.errors import ErrorKind
from grader.hooktable import CSP_HOOKS
from grader.inputs.config import Efficiency
from grader.inputs.problemset import Problem
from grader.reference import ReferenceUnavailable, count_solutions, has_solution, reference_strategies
from grader.reports.results import ItemResult, ItemStatus, measured
from grader.reports.words import plural
from grader.sandbox.host import Asker
from grader.sandbox.tasks import Outcome, Task
from grader.scoring.hookcalls import TASK_FAILURES, Hooks, board_request
from grader.scoring.layouts import layout_problem
from grader.scoring.modelnodes import shipped_nodes
from grader.scoring.searchcheck import CallFound, Divergence, HookCalls, SearchCall, Watcher
from grader.scoring.storedanswers import AnswerTable, Model
from solvers.csp import build_csp, layout_of
from solvers.engine import SearchStats, search

#: The hooks a search asks (forward_check calls constraint_bounds inside the student's code).
SEARCH_HOOKS = frozenset(spec.name for spec in CSP_HOOKS if spec.engine_calls)


@dataclass(frozen=True)
class SearchAnswer:
    """The answer of a search of one board (`problem_task`): every solution as a grid and
    the search's statistics, or why the search ended early (`failed`, in the hook
    `failed_in`, as `failed_as`); with the model answer, where the search first parted from its path
    (`divergence`) and every hook's calls. `found`: the call the search was asked to stop
    at, as a case (then nothing else is set)."""

    solutions: list[list[list[int]]] | None = None
    stats: SearchStats | None = None
    failed: str | None = None
    failed_in: str | None = None
    failed_as: ErrorKind | None = None
    divergence: Divergence | None = None
    calls: dict[str, HookCalls] = field(default_factory=dict)
    found: SearchCall | None = None


def problem_task(
    problem: Problem, limit: float, model: Model | AnswerTable | None = None, stop_at: tuple[str, int] | None = None
) -> Task[SearchAnswer]:
    """Search every solution of the problem here, each hook call answered by the solver;
    with the `model` answer, check every answer against it (see `Watcher`). The problems
    of one file form a chain. `stop_at` (hook, n): stop at that call and return it as a case.

    The worker runs the same search itself and replies to each call as it goes
    (`Asker.recorded`), so a call costs no round trip; only a search whose calls were all
    this search's, in order, is kept. Otherwise (the worker's went another way: only code
    that changes the kit's search in its process can make it) the item starts again in a
    fresh process, each call asked as this search makes it, in the time the item has left."""

    def searched(asker: Asker) -> SearchAnswer:
        board = problem.board
        hooks = Hooks(asker)
        csp = build_csp(board)
        watcher = None
        if model is not None:
            watcher = Watcher(hooks.strategy(), model, board, asker.uncharged, stop_at)
        try:
            result = search(csp, watcher.strategy() if watcher else hooks.strategy(), "all")
        except CallFound as found:
            return SearchAnswer(found=found.call)
        except TASK_FAILURES as error:  # the failure and its hook, where the search had parted, the calls up to it
            return SearchAnswer(failed=str(error), failed_in=error.hook, failed_as=error.kind, **_checked(watcher))
        grids = [layout_of(csp, values, board.rows, board.cols) for values in result.solutions]
        return SearchAnswer(solutions=grids, stats=result.stats, **_checked(watcher))

    def asking(asker: Asker) -> SearchAnswer:
        """The search, each call asked of the worker as it comes."""
        Hooks(asker).use_board(problem.board)
        return searched(asker)

    def run(asker: Asker) -> SearchAnswer:
        if stop_at is not None:  # a call to show: asked as it comes (the worker's own search would go on past it)
            return asking(asker)
        with asker.recorded(board_request(problem.board)) as recording:
            answer = searched(asker)
        if not recording.parted:
            return answer
        asker.take_output()  # the worker's search went another way: this item starts again, asking each call,
        asker.again()  # in the time it has left
        return asking(asker)

    return Task(run, limit, f"{Path(problem.file).stem}/{problem.id}", f"file {problem.file}", SEARCH_HOOKS, problem.hidden)


class Watched(TypedDict):
    """What a watcher saw of one search, as `SearchAnswer` fields."""

    divergence: Divergence | None
    calls: dict[str, HookCalls]


def _checked(watcher: Watcher | None) -> Watched:
    """What the watcher saw: the first divergence, and every hook's calls. (A search that
    ran out of time keeps neither: how far it got depends on the machine.)"""
    return Watched(divergence=watcher.first if watcher else None, calls=watcher.calls if watcher else {})


def expected_count(problem: Problem) -> int:
    """The number of solutions: the file's `expect`, else the oracle's count."""
    return problem.expect if problem.expect is not None else count_solutions(problem.board)


def score_problem(problem: Problem, outcome: Outcome[SearchAnswer], points: float | None = None) -> ItemResult:
    """Pass when every returned layout is valid, none repeats, and none is missing."""
    answer = outcome.answer or SearchAnswer()  # a search that did not run to its end: no answer
    nodes = answer.stats.popped if answer.stats is not None else None
    points = problem.points if points is None else points
    divergence = answer.divergence
    where = {
        "file": problem.file,
        "nodes": nodes,
        "visibility": problem.visibility,
        "calls_timed": outcome.calls_timed,
        "cause": divergence.describe(problem.id) if divergence is not None else "",
        "parted_in": divergence.hook if divergence is not None else "",
        "lost_to": _lost_to(outcome, divergence),
        **measured(outcome),
        "error_kind": outcome.error_kind or answer.failed_as,
    }
    failure = _run_failure(outcome) or _solutions_failure(problem, answer.solutions)
    if failure is not None:
        status, reason = failure
        return ItemResult("problem", problem.id, status, 0.0, points, reason, **where)
    found = len(answer.solutions or ())  # exactly the board's solutions: checked above
    message = {0: "no solution, as expected", 1: "the one solution found"}.get(found, f"all {found} solutions found")
    model = _model_nodes(problem)
    if model is not None and nodes is not None:  # for information: not scored unless the config says so
        message += f" in {plural(nodes, 'node')} (the model answer: {model})"
    return ItemResult("problem", problem.id, "pass", points, points, message, **where)


def _lost_to(outcome: Outcome[SearchAnswer], divergence: Divergence | None) -> str:
    """The hook a board is lost to, should it be lost: the one whose call raised, broke its
    contract or ran out of time; else the one where the search first parted from the model
    answer's ("" when neither is known: the student copy has no model answer)."""
    if outcome.status != "ok":
        return outcome.hook or ""
    return str(outcome.answered.failed_in or (divergence.hook if divergence is not None else ""))


def _run_failure(outcome: Outcome[SearchAnswer]) -> tuple[ItemStatus, str] | None:
    """(status, reason) when the search did not run to its end; None when it did."""
    if outcome.status != "ok":
        return outcome.status, outcome.message
    if outcome.answered.failed is not None:
        return "error", outcome.answered.failed
    return None


def _solutions_failure(problem: Problem, solutions: Any) -> tuple[ItemStatus, str] | None:
    """("fail", reason) unless `solutions` are exactly the board's solutions, each once."""
    if not isinstance(solutions, list):
        return "fail", "returned nothing"
    reason = _bad_layout(problem, solutions) or _wrong_count(problem, len(solutions))
    return None if reason is None else ("fail", reason)


def _bad_layout(problem: Problem, solutions: list[Any]) -> str | None:
    """Why the first wrong or repeated layout is wrong; None when all are valid and distinct."""
    seen: dict[str, int] = {}
    for number, grid in enumerate(solutions, start=1):
        reason = layout_problem(problem.board, grid)
        if reason:
            return f"solution {number} {reason}"
        key = repr(grid)
        if key in seen:
            return f"solution {number} repeats solution {seen[key]}"
        seen[key] = number
    return None


def _wrong_count(problem: Problem, found: int) -> str | None:
    """Why `found` distinct valid layouts are not all of them; None when they are."""
    if found == 0 and problem.expect is None:  # a "no solution" claim: ask Glucose
        return "claims there is no solution, but Glucose 4.1 finds one" if has_solution(problem.board) else None
    expected = expected_count(problem)
    if found == expected:
        return None
    if found == 0:
        return f"claims there is no solution, but the board has {expected}"
    if expected == 0:
        return f"found {plural(found, 'solution')} on a board that has none"
    return f"found {found} of the {expected} solutions"


def _model_nodes(problem: Problem) -> int | None:
    """Nodes the model answer pops on the problem, or None in the student copy."""
    try:
        return reference_nodes(problem)
    except ReferenceUnavailable:
        return None


def reference_nodes(problem: Problem) -> int:
    """Nodes the model answer of the hooks pops on this problem (all solutions): counted
    with the reference, or in the student copy as its release wrote them down
    (ReferenceUnavailable for a board it does not carry)."""
    try:
        strategy = reference_strategies().HANDOUT
    except ReferenceUnavailable:
        shipped = shipped_nodes(problem.board)
        if shipped is None:
            raise
        return shipped
    return search(build_csp(problem.board), strategy, "all").stats.popped


def score_efficiency(efficiency: Efficiency, problems: list[Problem], results: list[ItemResult]) -> ItemResult:
    """The solver's nodes against the model answer's, over every problem: earned only by a
    solver that solves them all (a wrong search can be as short as it likes)."""
    rule = efficiency.describe()

    def result(status: ItemStatus, score: float, message: str, nodes: int | None = None) -> ItemResult:
        return ItemResult("efficiency", "efficiency", status, score, efficiency.points, message, nodes=nodes)

    unsolved = [r for r in results if r.status != "pass" or r.nodes is None]
    if unsolved or not results:
        why = (
            f"{len(unsolved)} of the {plural(len(results), 'problem')} {'is' if len(unsolved) == 1 else 'are'} not solved"
            if results
            else "there is no problem"
        )
        return result("fail", 0.0, f"{why}, and only a search that solves every problem earns efficiency points ({rule})")
    nodes = sum(r.nodes or 0 for r in results)
    try:
        reference = sum(reference_nodes(p) for p in problems)
    except ReferenceUnavailable:
        return result(
            "fail",
            0.0,
            f"not graded here: the model answer's node counts come with the boards this copy shipped, and some board here is new or changed ({rule})",
        )
    share = efficiency.share(nodes / max(reference, 1))
    score = round(efficiency.points * share, 2)
    shown = [(r, p) for r, p in zip(results, problems) if not p.hidden]  # hidden boards' nodes are not shown
    mine, model = sum(r.nodes or 0 for r, _ in shown), sum(reference_nodes(p) for _, p in shown)
    message = (
        f"{plural(mine, 'node')} against the model answer's {model} ({mine / max(model, 1):.2f}x) on the {plural(len(shown), 'visible problem')}"
    )
    if len(shown) < len(results):
        message += f"; the points count the {plural(len(results) - len(shown), 'hidden problem')} too"
    return result("pass" if share == 1 else "fail", score, f"{message}; {rule}", mine)


NOTHING_FOUND = "no solution found on any board that has one, so a board without a solution earns nothing either"


def no_credit_for_answering_nothing(results: list[ItemResult], counts: list[int]) -> list[ItemResult]:
    """A "no solution" pass counts only for a solver that also found every solution of
    some board that has them: otherwise answering nothing everywhere would earn points."""
    if any(r.status == "pass" and count > 0 for r, count in zip(results, counts)):
        return results
    lost_to = next((r.lost_to for r, count in zip(results, counts) if count > 0 and r.lost_to), "")  # what lost those
    return [
        replace(r, status="fail", score=0.0, message=NOTHING_FOUND, lost_to=lost_to) if r.status == "pass" and count == 0 else r
        for r, count in zip(results, counts)
    ]
