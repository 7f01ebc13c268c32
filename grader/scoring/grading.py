"""Grading a solver: build the items (hook tests, then problem runs), run them in the
sandbox, and score each with a reason for every lost point.

Each item is scored in a module of its own: the hooks in `hookitems` (their calls in
the grader's searches in `searchshare`), the problems and efficiency in `problems`, the
SAT item in `sathooks`, the agent in `agentplay`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.hooktable import CSP_HOOKS, SAT_ENCODING, SAT_HOOKS, HookSpec
from grader.inputs.config import Efficiency, GradingConfig
from grader.inputs.problemset import Problem
from grader.inputs.searchanswers import Unusable, search_answers
from grader.inputs.submission import hooks_calling_hooks
from grader.reference import ReferenceUnavailable, reference_hooks, reference_strategies
from grader.reports.rerunhint import RerunCommand
from grader.reports.results import ItemResult, Report
from grader.sandbox.host import Limits, start_worker, stop_worker
from grader.sandbox.isolation import Isolation, Sandbox, Scope
from grader.sandbox.tasks import Outcome, Task, Watch, run_tasks
from grader.scoring.agentplay import agent_games, agent_item, practice_stub
from grader.scoring.case import Cases
from grader.scoring.hookcalls import TASK_FAILURES, LocalAsker
from grader.scoring.hookcases import build_cases, load_cases
from grader.scoring.hookitems import HookAnswers, Probes, hook_task, score_hook
from grader.scoring.problems import (
    SearchAnswer,
    expected_count,
    no_credit_for_answering_nothing,
    problem_task,
    score_efficiency,
    score_problem,
)
from grader.scoring.sathooks import SatSolutions, merge_sat_parts, sat_hook_task, sat_problems_task, score_sat_hook, score_sat_problems
from grader.scoring.searchshare import Searched
from grader.scoring.storedanswers import PROBED, AnswerTable, Model

SAT_SECONDS_PER_PROBLEM = 0.05  # added to the SAT item's limit for each problem it solves


def run_solver_tasks(
    solver: str,
    tasks: list[Task[Any]],
    jobs: int,
    limits: Limits,
    sandbox: Sandbox | None,
    scope: Scope = "siblings",
    watch: Watch | None = None,
) -> list[Outcome[Any]]:
    """Run tasks with the reference (here) or a student's file (in sandboxed workers);
    `watch` follows them."""
    if not tasks:
        return []
    if solver == "reference":
        functions = reference_hooks()
        return run_tasks(lambda limit: LocalAsker(functions), lambda asker: None, tasks, jobs, TASK_FAILURES, watch)
    if sandbox is None:
        raise ValueError("student code is only ever run in a sandbox")
    hooks = sandbox.submission(Path(solver), scope)
    return run_tasks(start_worker(sandbox, hooks, limits), stop_worker, tasks, jobs, TASK_FAILURES, watch)


def grade(
    solver: str,
    problems: list[Problem],
    config: GradingConfig = GradingConfig(),
    jobs: int = 1,
    timeout: float | None = None,
    agent: str | None = None,
    sandbox: Sandbox | None = None,
    scope: Scope = "siblings",
    only: frozenset[str] | None = None,
    rerun: RerunCommand | None = None,
    watch: Watch | None = None,
) -> Report:
    """Grade `solver` ("reference" or a hooks file path) on the hook tests and `problems`.

    Student code runs in `sandbox` workers (`scope`: which of its files they see). The
    grader runs every search here and asks the worker one hook call at a time (or a batch
    of calls whose arguments do not depend on its answers).
    `timeout` (seconds per item) beats both the problems' own and the config's. With an
    `agent` config section, `agent` ("reference" or a file defining choose_move) is played too.
    `only`: the names of the items to grade (hooks, sat_encoding, efficiency, agent); the
    caller picks the problems. `rerun`: how the reasons' rerun commands start (None: as
    the student copy runs them, `RerunCommand.copy`). `watch` follows the items as they run.
    """

    def wants(name: str) -> bool:
        return only is None or name in only

    cases = _cases(config)
    item_timeout = timeout or config.timeout
    limits = Limits(memory_mb=config.memory_mb)
    visible = [p for p in problems if not p.hidden]
    hidden = [p for p in problems if p.hidden]
    model = model_answer()

    def run(groups: dict[str, list[Task[Any]]]) -> dict[str, list[Outcome[Any]]]:
        """Every group's tasks, run together (the chains and their order are the whole
        run's), and their outcomes by group."""
        outcomes = iter(run_solver_tasks(solver, [t for tasks in groups.values() for t in tasks], jobs, limits, sandbox, scope, watch))
        return {name: [next(outcomes) for _ in tasks] for name, tasks in groups.items()}

    # The hook tests and the visible problems, the agent's games, and the hidden problems
    # last, in workers of their own: nothing a student sees ever comes from a process
    # that saw a hidden board.
    hooks = [spec for spec in CSP_HOOKS if wants(spec.name)]
    sat_hooks = [spec for spec in SAT_HOOKS if wants(spec.name)]
    probes = {spec.name: Probes(spec.name, visible, hidden, model, item_timeout) for spec in hooks if spec.probe}
    seen = run(
        {
            "hooks": [hook_task(spec.name, cases[spec.name], item_timeout) for spec in hooks],
            "sat hooks": [sat_hook_task(spec.name, item_timeout) for spec in sat_hooks],
            **_part(visible, False, probes, model, config, timeout, wants(SAT_ENCODING)),
        }
    )
    _take(probes, False, seen["probes"])
    agent_grading, agent_outcome = agent_games(config, agent, limits, sandbox, scope) if wants("agent") else (None, None)
    unseen = run(_part(hidden, True, probes, model, config, timeout, wants(SAT_ENCODING)))
    _take(probes, True, unseen["probes"])
    by_problem = dict(zip(map(id, visible + hidden), seen["problems"] + unseen["problems"]))
    report = _new_report(solver, config, sandbox, only, model, hooks, wants("agent") and practice_stub(config, agent))
    command = rerun or RerunCommand.copy(only, timeout)
    report.items += _hook_items(config, cases, hooks, seen["hooks"], [(p, by_problem[id(p)]) for p in problems], probes, command)
    for sat_spec, outcome in zip(sat_hooks, seen["sat hooks"]):
        report.items.append(score_sat_hook(sat_spec, config.hook_points[sat_spec.name], outcome))
    problem_results = _problem_items(problems, by_problem, config, only)
    report.items += problem_results
    if wants(SAT_ENCODING):
        report.items.append(_sat_item(config, [(visible, seen["sat"]), (hidden, unseen["sat"])]))
    if wants("efficiency"):
        report.items += _efficiency_item(config.efficiency, problems, problem_results)
    if agent_grading is not None:
        report.items.append(agent_item(agent_grading, agent_outcome))
    return report


def _cases(config: GradingConfig) -> Cases:
    """The hook cases graded: drawn from the config's private seed, else the public ones."""
    return build_cases(config.hook_seed) if config.hook_seed is not None else load_cases()


def _part(
    chosen: list[Problem],
    hidden: bool,
    probes: dict[str, Probes],
    model: Model | AnswerTable,
    config: GradingConfig,
    timeout: float | None,
    sat: bool,
) -> dict[str, list[Task[Any]]]:
    """The tasks about `chosen`: the probes of their searches, the searches, and with `sat`
    the SAT item's part (none without problems)."""
    return {
        "probes": [task for asked in probes.values() for task in asked.tasks(hidden)],
        "problems": [problem_task(p, timeout or p.timeout or config.timeout, model) for p in chosen],
        "sat": _sat_part(chosen, hidden, timeout or config.timeout) if sat else [],
    }


def _hook_items(
    config: GradingConfig,
    cases: Cases,
    hooks: list[HookSpec],
    outcomes: list[Outcome[HookAnswers]],
    searches: list[tuple[Problem, Outcome[SearchAnswer]]],
    probes: dict[str, Probes],
    command: RerunCommand,
) -> list[ItemResult]:
    """Each hook's item from its cases' outcome and its calls in the grader's searches."""
    items = []
    for spec, outcome in zip(hooks, outcomes):
        searched = _search_calls(spec, searches, probes)
        private = config.hook_seed is not None
        items.append(score_hook(spec.name, config.hook_points[spec.name], cases[spec.name], outcome, searched, private, command))
    return items


def _new_report(
    solver: str,
    config: GradingConfig,
    sandbox: Sandbox | None,
    only: frozenset[str] | None,
    model: Model | AnswerTable,
    hooks: list[HookSpec],
    agent_stub: bool,
) -> Report:
    """The report before any item: how the solver ran, and what the run could not check."""
    return Report(
        solver,
        isolation="in-process (reference)" if solver == "reference" else _mode(sandbox),
        partial=only is not None,
        calls=() if solver == "reference" else hooks_calling_hooks(Path(solver)),
        unbounded=sandbox.unbounded if sandbox is not None and solver != "reference" else "",
        agent_stub=agent_stub,
        unchecked_why=_unchecked_why(model),
        public_cases=sum(config.hook_points[spec.name] for spec in hooks) if isinstance(model, AnswerTable) else 0.0,
    )


def _problem_items(
    problems: list[Problem], by_problem: dict[int, Outcome[SearchAnswer]], config: GradingConfig, only: frozenset[str] | None
) -> list[ItemResult]:
    """Each problem's item from its search's outcome (`by_problem`, by the problem's id())."""
    problem_results = [score_problem(problem, by_problem[id(problem)], config.points_for(problem.file, problem.points)) for problem in problems]
    counts = [expected_count(p) for p in problems]
    if only is None:  # a partial run (--only) grades boards alone
        problem_results = no_credit_for_answering_nothing(problem_results, counts)
    return problem_results


def _efficiency_item(efficiency: Efficiency | None, problems: list[Problem], results: list[ItemResult]) -> list[ItemResult]:
    """The efficiency item, when the config has one."""
    return [] if efficiency is None else [score_efficiency(efficiency, problems, results)]


def _sat_item(config: GradingConfig, parts: list[tuple[list[Problem], list[Outcome[SatSolutions]]]]) -> ItemResult:
    """The SAT item from its parts' outcomes: the visible problems, then the hidden."""
    sat_problems = [p for chosen, _ in parts for p in chosen]
    ran = [(chosen, part[0]) for chosen, part in parts if part]
    sat_outcome = merge_sat_parts(ran) if ran else Outcome("ok", SatSolutions([]))
    return score_sat_problems(config.hook_points[SAT_ENCODING], sat_problems, [expected_count(p) for p in sat_problems], sat_outcome)


def _sat_part(chosen: list[Problem], hidden: bool, item_timeout: float) -> list[Task[SatSolutions]]:
    """The SAT item's task for `chosen` (none without problems): one limit for the part,
    not the sum of its problems' limits."""
    return [sat_problems_task(chosen, item_timeout + SAT_SECONDS_PER_PROBLEM * len(chosen), hidden)] if chosen else []


def _take(probes: dict[str, Probes], hidden: bool, outcomes: list[Outcome[HookAnswers]]) -> None:
    """Hand each probed hook the outcome of its part's task (a hook with no board has none)."""
    answered = iter(outcomes)
    for asked in probes.values():
        asked.take(hidden, [next(answered) for _ in asked.tasks(hidden)])


def _search_calls(hook: HookSpec, searches: list[tuple[Problem, Outcome[SearchAnswer]]], probes: dict[str, Probes]) -> list[Searched]:
    """The hook's calls in the grader's searches, board by board, as its table entry says
    (`HookSpec.in_searches`): its calls there, its probes' answers, or none at all."""
    if hook.in_searches == "probes":
        return probes[hook.name].calls
    if hook.in_searches == "":
        return []
    return [
        Searched(problem, outcome.answer.calls[hook.name], divergence=outcome.answer.divergence)
        for problem, outcome in searches
        if outcome.answer is not None and hook.name in outcome.answer.calls
    ]


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
    hooks = reference_hooks()
    return Model(strategies.HANDOUT, {hook: hooks[hook] for hook in PROBED})


def _mode(sandbox: Sandbox | None) -> str:
    return sandbox.mode if sandbox is not None else Isolation.NONE
