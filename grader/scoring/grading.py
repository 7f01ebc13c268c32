"""Grading a solver: build the items (hook tests, then problem runs), run them in the
sandbox, and score each with a reason for every lost point.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from grader.hooktable import BY_NAME, CSP_HOOKS, SAT_ENCODING, SAT_HOOKS, HookSpec
from grader.inputs.config import AgentGrading, Efficiency, GradingConfig
from grader.inputs.problemset import Problem
from grader.inputs.searchanswers import Unusable, search_answers
from grader.inputs.submission import hooks_calling_hooks
from grader.reference import ReferenceUnavailable, count_solutions, has_solution, reference_hooks, reference_strategies
from grader.reports.results import ItemResult, ItemStatus, Report, failed_item, measured
from grader.sandbox.host import Asker, Limits, StudentRaised, start_worker, stop_worker
from grader.sandbox.isolation import Isolation, Sandbox, Scope
from grader.sandbox.tasks import Outcome, Task, TaskAnswer, run_tasks
from grader.scoring.case import Case
from grader.scoring.hookcalls import HookContractError, Hooks, LocalAsker
from grader.scoring.hookcases import (
    as_data,
    board_of,
    build_cases,
    describe_case,
    group_indices,
    load_cases,
    mistake_name,
)
from grader.scoring.layouts import layout_problem
from grader.scoring.modelnodes import shipped_nodes
from grader.scoring.rerun import case_hint, search_call_hint
from grader.scoring.sathooks import (
    SCOPES,
    merge_sat_parts,
    sat_problems_task,
    score_sat_hook,
    score_sat_problems,
)
from grader.scoring.searchcheck import (
    AnswerTable,
    CallFound,
    Divergence,
    HookCalls,
    Model,
    OffPath,
    Watcher,
    bounds_probes,
    probe_calls,
    unchecked_board,
)
from solvers.cliargs import instructor_only
from solvers.csp import build_csp, layout_of
from solvers.engine import search

SAT_SECONDS_PER_PROBLEM = 0.05  # added to the SAT item's limit for each problem it solves
#: What a task may raise that costs that task only.
TASK_FAILURES = (HookContractError, StudentRaised)
#: The hooks a search asks (forward_check calls constraint_bounds inside the student's code).
SEARCH_HOOKS = frozenset(spec.name for spec in CSP_HOOKS if spec.engine_calls)


def _answers(questions: list[Any], ask: Callable[[Any], Any]) -> TaskAnswer:
    """Each question's answer, {"value": data} or {"error": why}. A fatal failure (not
    implemented, an exit, out of memory) ends the task."""
    results: list[dict[str, Any]] = []
    for question in questions:
        try:
            results.append({"value": ask(question)})
        except StudentRaised as raised:
            if raised.fatal:
                raise
            results.append({"error": raised.message})
        except TypeError as wrong:  # as_data: not what the contract allows
            results.append({"error": str(wrong)})
    return {"results": results}


def hook_task(name: str, cases: list[Case], limit: float, hidden: bool = False, item: str = "") -> Task:
    """Ask hook `name` every case. Only the inputs go out: the expected outputs never
    leave the grader. `hidden`: cases from hidden boards (run apart, after the rest)."""
    def run(asker: Asker) -> TaskAnswer:
        hooks = Hooks(asker)

        def ask(case: Case) -> Any:
            if case.board is not None:
                hooks.use_board(board_of(case))
            return as_data(name, hooks.call(name, **BY_NAME[name].wire_arguments(case.args)))

        return _answers(cases, ask)

    return Task(run, limit, item or f"hooks/{name}", "hooks", frozenset({name}), hidden)


def sat_hook_task(name: str, limit: float) -> Task:
    """Ask for the clauses of every small scope (n literals 1..n, each k)."""
    def run(asker: Asker) -> TaskAnswer:
        hooks = Hooks(asker)
        return _answers(SCOPES, lambda scope: hooks.clauses(name, list(range(1, scope[0] + 1)), scope[1]))

    return Task(run, limit, f"hooks/{name}", "hooks", frozenset({name}))


def problem_task(problem: Problem, limit: float, model: Model | AnswerTable | None = None,
                 stop_at: tuple[str, int] | None = None) -> Task:
    """Search every solution of the problem here, each hook call asked of the solver; with
    the `model` answer, check every answer against it (see `Watcher`). The problems of one
    file form a chain. `stop_at` (hook, n): stop at that call and return it as a case."""
    def run(asker: Asker) -> TaskAnswer:
        board = problem.board
        hooks = Hooks(asker)
        hooks.use_board(board)
        csp = build_csp(board)
        watcher = None
        if model is not None:
            watcher = Watcher(hooks.strategy(), model, board, asker.uncharged, stop_at)
        try:
            result = search(csp, watcher.strategy() if watcher else hooks.strategy(), "all")
        except CallFound as found:
            return {"found": found.call}
        except TASK_FAILURES as error:  # the failure and its hook, where the search had parted, the calls up to it
            return {"failed": str(error), "failed_in": error.hook, **_checked(watcher)}
        grids = [layout_of(csp, values, board.rows, board.cols) for values in result.solutions]
        return {"solutions": grids, "stats": result.stats.as_dict(), **_checked(watcher)}

    return Task(run, limit, f"{Path(problem.file).stem}/{problem.id}", f"file {problem.file}", SEARCH_HOOKS, problem.hidden)


def _checked(watcher: Watcher | None) -> dict[str, Any]:
    """What the watcher saw: the first divergence, and every hook's calls. (A search that
    ran out of time keeps neither: how far it got depends on the machine.)"""
    return {"divergence": watcher.first if watcher else None, "calls": watcher.calls if watcher else {}}


class BoundsProbes:
    """constraint_bounds asked about the constraints of real searches (`bounds_probes`):
    one task for the visible boards, one for the hidden boards (run with the hidden part)."""

    def __init__(self, visible: list[Problem], hidden: list[Problem], model: Model | AnswerTable | None, limit: float):
        """No model answer: nothing is asked. A board whose probes the student copy does
        not carry (None) is a board it cannot check."""
        self.parts = {part: [(p, _probes(p, model)) for p in problems] if model is not None else []
                      for part, problems in ((False, visible), (True, hidden))}
        self.limit = limit
        self.calls: list[Searched] = []

    def tasks(self, hidden: bool) -> list[Task]:
        """The part's task (none when it has no board)."""
        cases = [case for _, probes in self.parts[hidden] for case in probes or ()]
        return [hook_task("constraint_bounds", cases, self.limit, hidden, "hooks/constraint_bounds in searches")] if cases else []

    def take(self, hidden: bool, outcomes: list[Outcome]) -> None:
        """Each board's calls from the part's outcome. A task that did not run to its end
        answered for none of its boards: each is kept with that outcome (`Searched.unfinished`)."""
        unknown = [Searched(problem, unchecked_board()) for problem, probes in self.parts[hidden] if probes is None]
        asked = [(problem, probes) for problem, probes in self.parts[hidden] if probes is not None]
        self.calls += unknown
        if not outcomes:
            return
        if not outcomes[0].ok:
            self.calls += [Searched(problem, HookCalls(), outcomes[0]) for problem, _ in asked]
            return
        results = iter(outcomes[0].answer["results"])
        for problem, probes in asked:
            self.calls.append(Searched(problem, probe_calls(probes, [next(results) for _ in probes])))


def _probes(problem: Problem, model: Model | AnswerTable) -> list[Case] | None:
    """The board's probes, or None when the student copy does not carry them."""
    try:
        return bounds_probes(problem.board, model)
    except OffPath:
        return None


def run_solver_tasks(solver: str, tasks: list[Task], jobs: int, limits: Limits, sandbox: Sandbox | None,
                     scope: Scope = "siblings") -> list[Outcome]:
    """Run tasks with the reference (here) or a student's file (in sandboxed workers)."""
    if not tasks:
        return []
    if solver == "reference":
        functions = reference_hooks()
        return run_tasks(lambda limit: LocalAsker(functions), lambda asker: None, tasks, jobs, TASK_FAILURES)
    if sandbox is None:
        raise ValueError("student code is only ever run in a sandbox")
    hooks = sandbox.submission(Path(solver), scope)
    return run_tasks(start_worker(sandbox, hooks, limits), stop_worker, tasks, jobs, TASK_FAILURES)


def score_hook(spec_name: str, points: float, cases: list[Case], outcome: Outcome,
               searched: Sequence[Searched] = (), private: bool = False) -> ItemResult:
    """Credit by groups of cases: a group counts when every case in it is right (the groups
    are built so that no input-independent answer gets a group right). The hook's calls in
    the grader's searches (`searched`) are graded alike, a board a case: the hook earns the
    smaller of the two shares, so right answers on the named cases alone earn nothing.
    `private`: the cases come from the course's private seed (see `case_hint`)."""
    if not outcome.ok:
        return failed_item("hook", spec_name, points, outcome)
    ours = next((s for s in searched if s.unfinished is not None and s.unfinished.status == "ungraded"), None)
    if ours is not None:
        return _searches_ungraded(spec_name, points, ours)
    wrong = [(number, case, result) for number, (case, result) in enumerate(zip(cases, outcome.answer["results"]), start=1)
             if "error" in result or result["value"] != case.expected]
    groups = {number if case.group is None else case.group for number, case in enumerate(cases, start=1)}
    lost = {number if case.group is None else case.group for number, case, _ in wrong}
    passed = len(groups) - len(lost)
    in_searches = SearchShare(searched)
    cases_share = passed / len(groups)
    score = round(points * min(cases_share, in_searches.share), 2)
    unverified = round(score - round(points * min(cases_share, in_searches.lower), 2), 2)
    unchecked = round(round(points * min(cases_share, in_searches.upper), 2) - score, 2)
    counts = f"{passed}/{len(groups)} groups of cases right ({len(cases) - len(wrong)}/{len(cases)} cases)"
    counts += f"; {in_searches.summary()}" if in_searches.boards else ""
    lines = in_searches.first_wrong(spec_name) + in_searches.unfinished_lines()
    first: dict[str, Any] = {}
    if wrong:
        number, case, result = wrong[0]
        counts += f"; the first wrong one is {describe_case(spec_name, number, case, result)}"
        lines[0:0] = case_hint(spec_name, number, case, result, private)
        first = {"first_wrong": case.name, "mistake": mistake_name(spec_name, case, result)}
    message = "\n".join([counts, *lines, *in_searches.unchecked_lines(unverified, unchecked)])
    status: ItemStatus = "pass" if not wrong and in_searches.share == 1 else "fail"
    return ItemResult("hook", spec_name, status, score, points, message, unchecked=unchecked, unverified=unverified,
                      **first, **measured(outcome))


def _searches_ungraded(spec_name: str, points: float, searched: Searched) -> ItemResult:
    """The hook's item when the grader's questions about a search failed by a failure of
    the grader's or the machine's (of a hidden board, only that)."""
    assert searched.unfinished is not None
    why = "on a hidden board" if searched.problem.hidden else searched.unfinished.message
    return ItemResult("hook", spec_name, "ungraded", 0.0, points,
                      f"its calls in the grader's searches could not be asked: {why}")


@dataclass(frozen=True)
class Searched:
    """One hook's calls in the search of one board. `unfinished`: the outcome of the task
    that was to ask them when it did not run to its end (no call of it was graded)."""

    problem: Problem
    calls: HookCalls
    unfinished: Outcome | None = None
    divergence: Divergence | None = None  # where the student's search of the board first parted from the model answer's


#: How a board stands for a hook: every call right; a call wrong (or a question left
#: unanswered); right as far as the student copy can check, the calls it cannot check
#: coming after the search had parted from the model answer's path ("after": counted as
#: right there); calls the copy has no answers for at all ("unknown": not counted).
Verdict = Literal["right", "wrong", "after", "unknown"]


def verdict(searched: Searched) -> Verdict:
    if searched.calls.wrong or searched.unfinished is not None:
        return "wrong"
    if not searched.calls.unchecked:
        return "right"
    return "after" if searched.divergence is not None else "unknown"


def _boards(boards: list[Searched]) -> str:
    """"K boards (ids)"."""
    ids = ", ".join(s.problem.id for s in boards[:4]) + (", ..." if len(boards) > 4 else "")
    return f"{len(boards)} board{'s' * (len(boards) != 1)} ({ids})"


def _calls_on(boards: list[Searched]) -> str:
    """"N calls on K boards (ids)"."""
    calls = sum(s.calls.unchecked for s in boards)
    return f"{calls} call{'s' * (calls != 1)} on {_boards(boards)}"


class SearchShare:
    """A hook's calls in the grader's searches, graded a board a case: a board is right
    when every call on it was; boards are grouped so that no input-independent answer
    gets a group right (`group_indices`). In the student copy, a board whose calls after
    the search parted from the model answer's path cannot be checked counts as right, and
    a board it has no answers for as wrong: `lower` and `upper` bound the course's share."""

    def __init__(self, searched: Sequence[Searched]):
        """A board whose questions did not all get an answer (`unfinished`) is wrong: an
        unanswered call never earns what a right one does."""
        self.boards = [s for s in searched if s.calls.calls or s.unfinished is not None]
        verdicts = [verdict(s) for s in self.boards]
        groups = group_indices([s.calls.trivial for s in self.boards])

        def passing(counted: set[str]) -> int:
            return sum(all(verdicts[i] in counted for i in group) for group in groups)

        self.groups, self.passed = len(groups), passing({"right", "after"})
        self.passed_lower, self.passed_upper = passing({"right"}), passing({"right", "after", "unknown"})
        self.wrong = [s for s in self.boards if s.calls.wrong]
        self.unfinished = [s for s in self.boards if s.unfinished is not None]
        self.after = [s for s, v in zip(self.boards, verdicts) if v == "after"]
        self.unknown = [s for s, v in zip(self.boards, verdicts) if v == "unknown"]

    def _share(self, passed: int) -> float:
        return passed / self.groups if self.groups else 1.0

    @property
    def share(self) -> float:
        return self._share(self.passed)

    @property
    def lower(self) -> float:
        """The share if every call the student copy could not check were wrong."""
        return self._share(self.passed_lower)

    @property
    def upper(self) -> float:
        """The share if every call the student copy could not check were right."""
        return self._share(self.passed_upper)

    def summary(self) -> str:
        """Counts of the visible boards only (how many calls a hidden search made, or how
        many were wrong, could carry what the student's code saw of a hidden board); the
        groups count every board, as the points do."""
        shown = [s for s in self.boards if not s.problem.hidden]
        wrong = [s for s in shown if s.calls.wrong]
        right = sum(verdict(s) in ("right", "after") for s in shown)
        text = (f"in the grader's searches, {right}/{len(shown)} visible boards right" if shown
                else "in the grader's searches (of hidden boards only)")
        if self.after:
            text += f" ({len(self.after)} of them as far as this copy can check)"
        if self.unknown:
            text += f", {len(self.unknown)} not checked here"
        if wrong:
            unchecked = sum(s.calls.unchecked for s in wrong)
            text += (f" ({sum(s.calls.wrong for s in wrong)} of its {sum(s.calls.calls for s in shown)} calls on them "
                     "answered otherwise than the rule" + (f", {unchecked} more not checked here)" if unchecked else ")"))
        if self.wrong or self.unfinished:
            hidden = " (hidden boards included)" if len(shown) < len(self.boards) else ""
            text += f"; {self.passed}/{self.groups} groups of boards right{hidden}"
        return text

    def first_wrong(self, hook: str) -> list[str]:
        """The first wrong call on a visible board, as a case with a command that reruns it
        (of a hidden board, only that there was one)."""
        shown = next((s for s in self.wrong if not s.problem.hidden), None)
        if shown is None:  # a hidden board left unanswered reads as one answered wrong: nothing tells them apart
            hidden = any(s.problem.hidden for s in self.wrong + self.unfinished)
            return ["  the wrong calls in searches were on hidden boards (details hidden)"] if hidden else []
        call = shown.calls.first_wrong
        assert call is not None
        where = f"{Path(shown.problem.file).stem}/{shown.problem.id}"
        case = replace(call.case, name=f"call {call.call} of {hook} in the search of {where}")
        return [f"  the first wrong call in a search is {describe_case(hook, None, case, call.returned)}",
                search_call_hint(hook, shown.problem.id, call.call)]

    def unchecked_lines(self, unverified: float, unchecked: float) -> list[str]:
        """What the student copy could not check, and the points that rest on it: counted
        (`unverified`, calls after the search parted from the model answer's path) or not
        (`unchecked`, boards it has no answers for)."""
        lines = []
        if self.after:
            first = next(s for s in self.after if s.divergence is not None)
            assert first.divergence is not None
            lines.append(f"  checked only by the course's grader: {_calls_on(self.after)} came after the search had "
                         f"parted from the model answer's path ({first.divergence.describe(first.problem.id)}); this "
                         "copy knows the model answer's answers only along that path and counts them as right"
                         + (f": {unverified:g} points rest on them" if unverified else ""))
        if self.unknown:
            lines.append(f"  not checked here: {_boards(self.unknown)}: this copy has no model answer's answers for "
                         "their calls" + (f"; these {unchecked:g} points are not counted here" if unchecked else ""))
        return lines

    def unfinished_lines(self) -> list[str]:
        """Why visible boards counted as wrong without a wrong answer: the questions about
        them did not run to their end (hidden boards are told of as wrong, in `first_wrong`)."""
        shown = [s for s in self.unfinished if not s.problem.hidden]
        if not shown:
            return []
        outcome = shown[0].unfinished
        assert outcome is not None
        boards = f"{len(shown)} visible board{'s' * (len(shown) != 1)}"
        why = outcome.message if outcome.status == "not_run" else f"{outcome.status}: {outcome.message}"
        return [f"  asked about the searches of {boards}, it did not finish ({why}): "
                "each of them counts as a wrong board"]


def expected_count(problem: Problem) -> int:
    """The number of solutions: the file's `expect`, else the oracle's count."""
    return problem.expect if problem.expect is not None else count_solutions(problem.board)


def score_problem(problem: Problem, outcome: Outcome, points: float | None = None) -> ItemResult:
    """Pass when every returned layout is valid, none repeats, and none is missing."""
    answer = outcome.answer
    nodes = (answer.get("stats") or {}).get("popped")
    points = problem.points if points is None else points
    divergence = answer.get("divergence")
    where = {"file": problem.file, "nodes": nodes, "visibility": problem.visibility, "calls_timed": outcome.calls_timed,
             "cause": divergence.describe(problem.id) if divergence is not None else "",
             "lost_to": _lost_to(outcome, divergence), **measured(outcome)}
    failure = _run_failure(outcome) or _solutions_failure(problem, answer.get("solutions"))
    if failure is not None:
        status, reason = failure
        return ItemResult("problem", problem.id, status, 0.0, points, reason, **where)
    found = len(answer["solutions"])  # exactly the board's solutions: checked above
    message = {0: "no solution, as expected", 1: "the one solution found"}.get(found, f"all {found} solutions found")
    model = _model_nodes(problem)
    if model is not None and nodes is not None:  # for information: not scored unless the config says so
        message += f" in {nodes} nodes (the model answer: {model})"
    return ItemResult("problem", problem.id, "pass", points, points, message, **where)


def _lost_to(outcome: Outcome, divergence: Divergence | None) -> str:
    """The hook a board is lost to, should it be lost: the one whose call raised, broke its
    contract or ran out of time; else the one where the search first parted from the model
    answer's ("" when neither is known: the student copy has no model answer)."""
    if outcome.status != "ok":
        return outcome.hook or ""
    return str(outcome.answer.get("failed_in") or (divergence.hook if divergence is not None else ""))


def _run_failure(outcome: Outcome) -> tuple[ItemStatus, str] | None:
    """(status, reason) when the search did not run to its end; None when it did."""
    if outcome.status != "ok":
        return outcome.status, outcome.message
    if "failed" in outcome.answer:
        return "error", outcome.answer["failed"]
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
        return f"found {found} solutions on a board that has none"
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
        why = f"{len(unsolved)} of the {len(results)} problems are not solved" if results else "there is no problem"
        return result("fail", 0.0, f"{why}, and only a search that solves every problem earns efficiency points ({rule})")
    nodes = sum(r.nodes or 0 for r in results)
    try:
        reference = sum(reference_nodes(p) for p in problems)
    except ReferenceUnavailable:
        return result("fail", 0.0, "not graded here: the model answer's node counts come with the boards this copy "
                      f"shipped, and some board here is new or changed ({rule})")
    share = efficiency.share(nodes / max(reference, 1))
    score = round(efficiency.points * share, 2)
    shown = [(r, p) for r, p in zip(results, problems) if not p.hidden]  # hidden boards' nodes are not shown
    mine, model = sum(r.nodes or 0 for r, _ in shown), sum(reference_nodes(p) for _, p in shown)
    message = f"{mine} nodes against the model answer's {model} ({mine / max(model, 1):.2f}x) on the {len(shown)} visible problems"
    if len(shown) < len(results):
        message += f"; the points count the {len(results) - len(shown)} hidden problems too"
    return result("pass" if share == 1 else "fail", score, f"{message}; {rule}", mine)


NOTHING_FOUND = "no solution found on any board that has one, so a board without a solution earns nothing either"


def no_credit_for_answering_nothing(results: list[ItemResult], counts: list[int]) -> list[ItemResult]:
    """A "no solution" pass counts only for a solver that also found every solution of
    some board that has them: otherwise answering nothing everywhere would earn points."""
    if any(r.status == "pass" and count > 0 for r, count in zip(results, counts)):
        return results
    lost_to = next((r.lost_to for r, count in zip(results, counts) if count > 0 and r.lost_to), "")  # what lost those
    return [replace(r, status="fail", score=0.0, message=NOTHING_FOUND, lost_to=lost_to) if r.status == "pass" and count == 0
            else r for r, count in zip(results, counts)]


NO_AGENT = ("no agent found: none of your files defines choose_move; write it in assignment/agent.py and hand that "
            "file in with your hooks (part 3 of the handout)")
PUBLIC_GAMES = "the public default games, which anyone can replay: set a private agent.seed in grading.yaml to grade"
#: How many of the configured games a student copy plays: a practice set, seconds to play
#: locally, while the course's autograder plays every configured game.
COPY_GAMES = 500


def in_student_copy() -> bool:
    """Whether this kit is a student copy (no answer key, and so none of the course's seeds)."""
    return instructor_only("the course's seeds") is not None


def public_games(played: int, configured: int) -> str:
    """What graded games without a private seed are: the instructor is told to add one;
    a student copy (no answer key, and no seed by design) says what the course plays."""
    if not in_student_copy():
        return PUBLIC_GAMES
    games = f"the public default games (seeds 0-{played - 1})"
    if played < configured:
        games = f"a practice set, the first {played} public default games (seeds 0-{played - 1})"
    return f"{games}: the course's autograder plays other games of the same kind, {configured} of them, drawn from its private seed"


def score_agent(grading: AgentGrading, outcome: Outcome) -> ItemResult:
    """Points by the win rate (`AgentGrading.share`); the reason gives wins, the interval,
    how the points were computed and any errors."""
    name = "agent" if grading.points else "agent (practice, no points)"
    if not outcome.ok:
        return failed_item("agent", name, grading.points, outcome)
    result = outcome.answer["result"]
    share = grading.share(result["win_rate"])
    score = round(grading.points * share, 2)
    low, high = result["ci95"]
    computed = grading.explain(result["win_rate"]) + (f" = {score:g} of {grading.points:g}" if grading.points else "")
    public = grading.seed is None
    losses = result.get("losses", [])
    if len(losses) == 1 and losses[0]["games"] == result["games"] and result["errors"] == result["games"]:
        # every game lost to the same error at the same move (the stub, say): that is the reason
        message = (f"won 0/{result['games']} {grading.level} games: all lost at move {losses[0]['moves'] + 1}: "
                   f"{losses[0]['reason']}" + (f"; 0 of {grading.points:g} points" if grading.points else ""))
    else:
        message = (f"won {result['wins']}/{result['games']} {grading.level} games ({result['win_rate']:.1%}, "
                   f"95% CI {low:.1%}-{high:.1%}); {computed}")
        if losses:
            message += f"\n  {result['lost']}; first: " + "; ".join(f"game {loss['game'] + 1} {loss['at']}" for loss in losses)
    if public and grading.points:
        message += f"\n  {public_games(result['games'], grading.games)}"
    status: ItemStatus = "pass" if share == 1 or not grading.points else "fail"  # practice games are for information
    games = f"{result['games']} {grading.level}, {grading.rules} rules"
    if public:  # practice games are public on purpose: a student can replay them with evaluate_agent
        games += f", {public_games(result['games'], grading.games)}" if grading.points else ", the public default games"
    facts = (("games", games), ("wins", str(result["wins"])),
             ("win rate", f"{result['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%})"),
             ("grading", grading.describe().removeprefix("grading: ")), ("points", computed),
             *((("losses", result["lost"]),) if losses else ()),
             *((f"lost game {loss['game'] + 1}", loss["at"]) for loss in losses))
    outcomes = tuple((str(way), int(count)) for way, count in result.get("outcomes", ()))
    return ItemResult("agent", name, status, score, grading.points, message, facts=facts, game_outcomes=outcomes,
                      **measured(outcome))


#: With no agent section in the config, a student's written agent plays these games for
#: information: how it would be graded, for no points.
PRACTICE = AgentGrading(level="beginner", games=20, points=0.0, timeout=120.0)


def agent_is_written(source: str) -> bool:
    """False for the stub (choose_move only raises NotImplementedError); True for a file
    that does not parse (its grading then says why)."""
    if source == "reference":
        return True
    from grader.inputs.submission import solved_hooks

    try:
        found = solved_hooks(Path(source).parent, Path(source).name)
    except SyntaxError:
        return True
    return any(name.endswith(": choose_move") for name in found)


#: The first game's seed when the config has no private `agent.seed`: the public default
#: games are seeds 0, 1, 2, ..., the games `evaluate_agent(choose_move, level, games, seed=0)`
#: and `python -m play bench` play.
PUBLIC_FIRST_SEED = 0


def agent_seed(grading: AgentGrading) -> int:
    """The first game's seed: derived from the config's private seed, so that no seed the
    student could know or guess is played; without one, the public default games."""
    if grading.seed is None:
        return PUBLIC_FIRST_SEED
    return int.from_bytes(hashlib.sha256(f"agent games {grading.seed}".encode()).digest()[:8], "big")


def grade(solver: str, problems: list[Problem], config: GradingConfig = GradingConfig(), jobs: int = 1,
          timeout: float | None = None, agent: str | None = None, sandbox: Sandbox | None = None,
          scope: Scope = "siblings", only: frozenset[str] | None = None) -> Report:
    """Grade `solver` ("reference" or a hooks file path) on the hook tests and `problems`.

    Student code runs in `sandbox` workers (`scope`: which of its files they see). The
    grader runs every search here and asks the worker one hook call at a time.
    `timeout` (seconds per item) beats both the problems' own and the config's. With an
    `agent` config section, `agent` ("reference" or a file defining choose_move) is played too.
    `only`: the names of the items to grade (hooks, sat_encoding, efficiency, agent); the
    caller picks the problems.
    """
    def wants(name: str) -> bool:
        return only is None or name in only

    cases = build_cases(config.hook_seed) if config.hook_seed is not None else load_cases()
    item_timeout = timeout or config.timeout
    limits = Limits(memory_mb=config.memory_mb)
    visible = [p for p in problems if not p.hidden]
    hidden = [p for p in problems if p.hidden]
    model = model_answer()

    def run(groups: dict[str, list[Task]]) -> dict[str, list[Outcome]]:
        """Every group's tasks, run together (the chains and their order are the whole
        run's), and their outcomes by group."""
        outcomes = iter(run_solver_tasks(solver, [t for tasks in groups.values() for t in tasks], jobs, limits, sandbox, scope))
        return {name: [next(outcomes) for _ in tasks] for name, tasks in groups.items()}

    def searches(chosen: list[Problem]) -> list[Task]:
        return [problem_task(p, timeout or p.timeout or config.timeout, model) for p in chosen]

    def sat(chosen: list[Problem], hidden_part: bool) -> list[Task]:
        """The SAT item's part for `chosen` (none without problems)."""
        return _sat_part(chosen, hidden_part, item_timeout) if wants(SAT_ENCODING) else []

    # The hook tests and the visible problems, the agent's games, and the hidden problems
    # last, in workers of their own: nothing a student sees ever comes from a process
    # that saw a hidden board.
    hooks = [spec for spec in CSP_HOOKS if wants(spec.name)]
    sat_hooks = [spec for spec in SAT_HOOKS if wants(spec.name)]
    probes = BoundsProbes(visible, hidden, model if wants("constraint_bounds") else None, item_timeout)
    seen = run({"hooks": [hook_task(spec.name, cases[spec.name], item_timeout) for spec in hooks],
                "sat hooks": [sat_hook_task(spec.name, item_timeout) for spec in sat_hooks],
                "probes": probes.tasks(False), "problems": searches(visible), "sat": sat(visible, False)})
    probes.take(False, seen["probes"])
    agent_grading, agent_outcome = _agent_games(config, agent, limits, sandbox, scope) if wants("agent") else (None, None)
    unseen = run({"probes": probes.tasks(True), "problems": searches(hidden), "sat": sat(hidden, True)})
    probes.take(True, unseen["probes"])
    sat_outcome, sat_problems = None, visible + hidden  # the SAT item's parts: the visible problems, then the hidden
    if wants(SAT_ENCODING):
        parts = [(chosen, part[0]) for chosen, part in ((visible, seen["sat"]), (hidden, unseen["sat"])) if part]
        sat_outcome = merge_sat_parts(parts) if parts else Outcome("ok", {"results": []})
    by_problem = dict(zip(map(id, visible + hidden), seen["problems"] + unseen["problems"]))
    report = Report(solver, isolation="in-process (reference)" if solver == "reference" else _mode(sandbox),
                    partial=only is not None, calls=() if solver == "reference" else hooks_calling_hooks(Path(solver)),
                    unbounded=sandbox.unbounded if sandbox is not None and solver != "reference" else "",
                    agent_stub=wants("agent") and _practice_stub(config, agent),
                    unchecked_why=_unchecked_why(model),
                    public_cases=sum(config.hook_points[spec.name] for spec in hooks) if isinstance(model, AnswerTable) else 0.0)
    for spec, outcome in zip(hooks, seen["hooks"]):
        searched = _search_calls(spec, [(p, by_problem[id(p)]) for p in problems], probes)
        report.items.append(score_hook(spec.name, config.hook_points[spec.name], cases[spec.name], outcome, searched,
                                       private=config.hook_seed is not None))
    for sat_spec, outcome in zip(sat_hooks, seen["sat hooks"]):
        report.items.append(score_sat_hook(sat_spec, config.hook_points[sat_spec.name], outcome))
    problem_results = [
        score_problem(problem, by_problem[id(problem)], config.points_for(problem.file, problem.points))
        for problem in problems
    ]
    counts = [expected_count(p) for p in problems]
    if only is None:  # a partial run (--only) grades boards alone
        problem_results = no_credit_for_answering_nothing(problem_results, counts)
    report.items += problem_results
    if sat_outcome is not None:
        report.items.append(score_sat_problems(config.hook_points[SAT_ENCODING], sat_problems,
                                               [expected_count(p) for p in sat_problems], sat_outcome))
    if config.efficiency is not None and wants("efficiency"):
        report.items.append(score_efficiency(config.efficiency, problems, problem_results))
    if agent_grading is not None:
        report.items.append(score_agent(agent_grading, agent_outcome) if agent_outcome is not None else
                            ItemResult("agent", "agent", "error", 0.0, agent_grading.points, NO_AGENT))
    return report


def _sat_part(chosen: list[Problem], hidden: bool, item_timeout: float) -> list[Task]:
    """The SAT item's task for `chosen` (none without problems): one limit for the part,
    not the sum of its problems' limits."""
    return [sat_problems_task(chosen, item_timeout + SAT_SECONDS_PER_PROBLEM * len(chosen), hidden)] if chosen else []


def _search_calls(hook: HookSpec, searches: list[tuple[Problem, Outcome]], probes: BoundsProbes) -> list[Searched]:
    """The hook's calls in the grader's searches, board by board (the hook the engine does
    not call is asked apart: the probes)."""
    if not hook.engine_calls:
        return probes.calls
    return [Searched(problem, outcome.answer["calls"][hook.name], divergence=outcome.answer.get("divergence"))
            for problem, outcome in searches if hook.name in outcome.answer.get("calls", {})]


def _practice_stub(config: GradingConfig, agent: str | None) -> bool:
    """Whether the agent plays for practice only (no points) and is still the stub."""
    return agent is not None and not (config.agent is not None and config.agent.points) and not agent_is_written(agent)


def _agent_games(config: GradingConfig, agent: str | None, limits: Limits, sandbox: Sandbox | None,
                 scope: Scope) -> tuple[AgentGrading | None, Outcome | None]:
    """How the agent is graded (None: it is not), and its games' outcome (None: no agent file)."""
    grading = config.agent or (PRACTICE if agent is not None and agent_is_written(agent) else None)
    if grading is None or agent is None:
        return grading, None
    from grader.scoring.agentplay import play_agent_games  # needs the game package

    played = replace(grading, games=min(grading.games, COPY_GAMES)) if in_student_copy() else grading
    return grading, play_agent_games(agent, played, agent_seed(grading), limits, sandbox, scope)


NOT_CARRIED = "this copy has no model answer's answers for boards changed or added since it was made"


def _unchecked_why(model: Model | AnswerTable) -> str:
    """Why the checks of some boards could not run here, should some not: said once, under the total."""
    if not isinstance(model, AnswerTable):
        return ""
    return model.missing + "; reinstall the student copy to check them here" if model.missing else NOT_CARRIED


def model_answer() -> Model | AnswerTable:
    """The model answer of the hooks, to check every answer of a search against; in the
    student copy, its answers along its own searches of the public boards, as the release
    wrote them (none, with the reason, when they are missing or damaged)."""
    try:
        strategies = reference_strategies()
    except ReferenceUnavailable:
        answers = search_answers()
        return AnswerTable({}, answers.why) if isinstance(answers, Unusable) else AnswerTable(answers)
    return Model(strategies.HANDOUT, strategies.constraint_bounds)


def _mode(sandbox: Sandbox | None) -> str:
    return sandbox.mode if sandbox is not None else Isolation.NONE
