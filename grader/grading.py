"""Grading a solver: build the items (hook tests, then problem runs), run them in the
sandbox, and score each with a reason for every lost point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solvers.csp import build_csp
from solvers.engine import search

from .checker import layout_problem
from .config import Efficiency, GradingConfig
from .hookcases import HOOKS, build_cases, load_cases
from .problemset import Problem
from .reference import reference_strategies
from .sandbox import Limits, run_items


@dataclass
class ItemResult:
    """The grade of one item: a hook test or a problem run."""

    kind: str  # "hook" or "problem"
    name: str
    status: str  # pass | fail | error | timeout
    score: float
    max_score: float
    message: str = ""
    file: str | None = None
    nodes: int | None = None
    seconds: float | None = None
    output: str = ""
    visibility: str = "visible"

    @property
    def hidden(self) -> bool:
        return self.visibility != "visible"

    def as_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind, "id": self.name, "status": self.status, "score": self.score,
                "max_score": self.max_score, "message": self.message, "nodes": self.nodes, "seconds": self.seconds}
        if self.file:
            data["file"] = self.file
        if self.hidden:
            data["visibility"] = self.visibility
        return data


@dataclass
class Report:
    """Every item's grade, in order: hook tests first, then problems."""

    solver: str
    items: list[ItemResult] = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(sum(i.score for i in self.items), 2)

    @property
    def max_score(self) -> float:
        return round(sum(i.max_score for i in self.items), 2)

    def next_hook_to_implement(self) -> str | None:
        """The first hook (in handout order) still raising NotImplementedError."""
        for item in self.items:
            if item.kind == "hook" and "is not implemented yet" in item.message:
                return item.name
        return None


def _hook_items(cases: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The hook tests as worker items: the inputs only, never the expected outputs."""
    return [
        {"kind": "hook", "hook": spec.name, "cases": [{k: v for k, v in case.items() if k != "expected"} for case in cases[spec.name]]}
        for spec in HOOKS
    ]


def _problem_item(problem: Problem) -> dict[str, Any]:
    board = problem.board
    return {"kind": "problem", "board": board.rows_text(), "rule": board.rule, "mines": board.mines}


def score_hook(spec_name: str, points: float, cases: list[dict[str, Any]], outcome: dict[str, Any]) -> ItemResult:
    """Partial credit: the share of cases whose output equals the reference's."""
    base = {"kind": "hook", "name": spec_name, "max_score": points, "seconds": outcome.get("seconds"), "output": outcome.get("output", "")}
    if outcome["status"] != "ok":
        return ItemResult(status=outcome["status"], score=0.0, message=outcome.get("message", ""), **base)
    wrong = []
    for number, (case, result) in enumerate(zip(cases, outcome["results"]), start=1):
        if "error" in result:
            wrong.append(f"case {number}: {result['error']}")
        elif _int_keys(result["value"]) != case["expected"]:
            wrong.append(f"case {number}: {_difference(_int_keys(result['value']), case['expected'])}")
    passed = len(cases) - len(wrong)
    score = round(points * passed / len(cases), 2)
    if not wrong:
        return ItemResult(status="pass", score=score, message=f"{passed}/{len(cases)} cases", **base)
    return ItemResult(status="fail", score=score, message=f"{passed}/{len(cases)} cases; {wrong[0]}", **base)


def _int_keys(value: Any) -> Any:
    """Undo JSON's string keys: domains are keyed by variable number."""
    if isinstance(value, dict):
        return {int(k): v for k, v in value.items()}
    return value


def _difference(got: Any, expected: Any, shown: int = 3) -> str:
    """What differs, readably: for domains, the first few variables that differ."""
    if isinstance(got, dict) and isinstance(expected, dict):
        differing = [v for v in sorted(set(got) | set(expected)) if got.get(v) != expected.get(v)]
        parts = [f"variable {v} got {got.get(v)}, expected {expected.get(v)}" for v in differing[:shown]]
        more = f" (+{len(differing) - shown} more)" if len(differing) > shown else ""
        return "; ".join(parts) + more
    return f"returned {_short(got)}, expected {_short(expected)}"


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def expected_count(problem: Problem) -> int:
    """The number of solutions: the file's `expect`, else the reference engine's count."""
    if problem.expect is not None:
        return problem.expect
    return search(build_csp(problem.board), reference_strategies().REFERENCE, "count").count


def score_problem(problem: Problem, outcome: dict[str, Any], points: float | None = None) -> ItemResult:
    """Pass when every returned layout is valid, none repeats, and none is missing."""
    stats = outcome.get("stats") or {}
    points = problem.points if points is None else points
    base = {"kind": "problem", "name": problem.id, "file": problem.file, "max_score": points,
            "seconds": outcome.get("seconds"), "nodes": stats.get("popped"), "output": outcome.get("output", ""),
            "visibility": problem.visibility}
    if outcome["status"] != "ok":
        return ItemResult(status=outcome["status"], score=0.0, message=outcome.get("message", ""), **base)
    solutions = outcome.get("solutions")
    if not isinstance(solutions, list):
        return ItemResult(status="fail", score=0.0, message="returned nothing", **base)
    seen: dict[str, int] = {}
    for number, grid in enumerate(solutions, start=1):
        reason = layout_problem(problem.board, grid)
        if reason:
            return ItemResult(status="fail", score=0.0, message=f"solution {number} {reason}", **base)
        key = repr(grid)
        if key in seen:
            return ItemResult(status="fail", score=0.0, message=f"solution {number} repeats solution {seen[key]}", **base)
        seen[key] = number
    expected = expected_count(problem)
    found = len(solutions)
    if found != expected:
        if found == 0:
            message = f"claims there is no solution, but the board has {expected}"
        elif expected == 0:
            message = f"found {found} solutions on a board that has none"
        else:
            message = f"found {found} of the {expected} solutions"
        return ItemResult(status="fail", score=0.0, message=message, **base)
    message = {0: "no solution, as expected", 1: "the one solution found"}.get(expected, f"all {expected} solutions found")
    return ItemResult(status="pass", score=points, message=message, **base)


def reference_nodes(problem: Problem) -> int:
    """Nodes the model answer of the hooks pops on this problem (all solutions)."""
    return search(build_csp(problem.board), reference_strategies().HANDOUT, "all").stats.popped


def score_efficiency(efficiency: Efficiency, problems: list[Problem], results: list[ItemResult]) -> ItemResult:
    """The solver's nodes against the reference's, over the problems it solved."""
    solved = [(p, r) for p, r in zip(problems, results) if r.status == "pass" and r.nodes is not None]
    base = {"kind": "efficiency", "name": "efficiency", "max_score": efficiency.points}
    if not solved:
        return ItemResult(status="fail", score=0.0, message="no problem solved, so no nodes to compare", **base)
    nodes = sum(r.nodes or 0 for _, r in solved)
    reference = sum(reference_nodes(p) for p, _ in solved)
    ratio = nodes / max(reference, 1)
    share = efficiency.share(ratio)
    score = round(efficiency.points * share, 2)
    message = f"{nodes} nodes against the reference's {reference} ({ratio:.2f}x) on {len(solved)} solved problems"
    return ItemResult(status="pass" if share == 1 else "fail", score=score, message=message, nodes=nodes, **base)


def grade(solver: str, problems: list[Problem], config: GradingConfig = GradingConfig(), jobs: int = 1,
          timeout: float | None = None) -> Report:
    """Grade `solver` ("reference" or a hooks file path) on the hook tests and `problems`.

    `timeout` (seconds per item) beats both the problems' own and the config's.
    """
    cases = build_cases(config.hook_seed) if config.hook_seed is not None else load_cases()
    hook_items = _hook_items(cases)
    items = hook_items + [_problem_item(p) for p in problems]
    timeouts = [timeout or config.timeout] * len(hook_items) + [timeout or p.timeout or config.timeout for p in problems]
    outcomes = run_items(solver, items, timeouts, jobs, Limits(memory_mb=config.memory_mb))
    report = Report(solver)
    for spec, outcome in zip(HOOKS, outcomes):
        report.items.append(score_hook(spec.name, config.hook_points[spec.name], cases[spec.name], outcome))
    problem_results = [
        score_problem(problem, outcome, config.points_for(problem.file, problem.points))
        for problem, outcome in zip(problems, outcomes[len(hook_items):])
    ]
    report.items += problem_results
    if config.efficiency is not None:
        report.items.append(score_efficiency(config.efficiency, problems, problem_results))
    return report
