"""Grading the SAT exercise (seed 002): the clause generators students write.

No expected outputs exist here: the worker returns the student's clauses and the grader
checks them against the definition, for every assignment of every small scope. Then
every problem is solved through the student's clauses with Glucose 4.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from .checker import layout_problem
from .results import ItemResult
from .problemset import Problem

MAX_SCOPE = 6


@dataclass(frozen=True)
class SatHookSpec:
    name: str
    points: float
    summary: str

    def holds(self, true_count: int, k: int) -> bool:
        return true_count >= k if self.name == "at_least_clauses" else true_count <= k


SAT_HOOKS: tuple[SatHookSpec, ...] = (
    SatHookSpec("at_least_clauses", 2, "clauses for 'at least k of these are true'"),
    SatHookSpec("at_most_clauses", 2, "clauses for 'at most k of these are true'"),
)
SAT_ENCODING = "sat_encoding"  # the item solving every problem through the student's clauses
SAT_ENCODING_POINTS = 4.0
SCOPES = [(n, k) for n in range(MAX_SCOPE + 1) for k in range(-1, n + 2)]


def sat_hook_items() -> list[dict[str, Any]]:
    return [{"kind": "sat-hook", "hook": spec.name, "cases": [{"n": n, "k": k} for n, k in SCOPES]} for spec in SAT_HOOKS]


def sat_problems_item(problems: list[Problem]) -> dict[str, Any]:
    boards = [{"board": p.board.rows_text(), "rule": p.board.rule, "mines": p.board.mines} for p in problems]
    return {"kind": "sat-problems", "problems": boards}


def clause_problem(clauses: Any, n: int) -> str | None:
    """Why `clauses` is not a list of clauses over literals ±1..±n, or None."""
    if not isinstance(clauses, list) or not all(isinstance(c, list) for c in clauses):
        return f"must return a list of clauses (lists of ints), got {str(clauses)[:60]}"
    for clause in clauses:
        for lit in clause:
            if isinstance(lit, bool) or not isinstance(lit, int) or lit == 0 or abs(lit) > n:
                return f"uses the literal {lit!r}; only ±1..±{n} are given"
    return None


def equivalence_problem(spec: SatHookSpec, clauses: list[list[int]], n: int, k: int) -> str | None:
    """The first assignment of n literals where the clauses disagree with the definition."""
    for bits in product((False, True), repeat=n):
        satisfied = all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses)
        if satisfied != spec.holds(sum(bits), k):
            true = [i + 1 for i, b in enumerate(bits) if b] or "none"
            verdict = "accept" if satisfied else "reject"
            return f"n={n}, k={k}: your clauses {verdict} the assignment with true literals {true}"
    return None


def score_sat_hook(spec: SatHookSpec, points: float, outcome: dict[str, Any]) -> ItemResult:
    """Partial credit: the share of (n, k) scopes where the clauses mean exactly the constraint."""
    base = {"kind": "hook", "name": spec.name, "max_score": points, "seconds": outcome.get("seconds"),
            "output": outcome.get("output", "")}
    if outcome["status"] != "ok":
        return ItemResult(status=outcome["status"], score=0.0, message=outcome.get("message", ""), **base)
    wrong = []
    for (n, k), result in zip(SCOPES, outcome["results"]):
        if "error" in result:
            wrong.append(f"n={n}, k={k}: {result['error']}")
            continue
        reason = clause_problem(result["value"], n) or equivalence_problem(spec, result["value"], n, k)
        if reason:
            wrong.append(reason)
    passed = len(SCOPES) - len(wrong)
    score = round(points * passed / len(SCOPES), 2)
    message = f"{passed}/{len(SCOPES)} scopes" + (f"; {wrong[0]}" if wrong else "")
    return ItemResult(status="fail" if wrong else "pass", score=score, message=message, **base)


def score_sat_problems(points: float, problems: list[Problem], counts: list[int], outcome: dict[str, Any]) -> ItemResult:
    """Every problem solved through the student's clauses: all solutions, each recounted on the board."""
    base = {"kind": "sat", "name": SAT_ENCODING, "max_score": points, "seconds": outcome.get("seconds"),
            "output": outcome.get("output", "")}
    if outcome["status"] != "ok":
        return ItemResult(status=outcome["status"], score=0.0, message=outcome.get("message", ""), **base)
    failures = []
    for problem, expected, result in zip(problems, counts, outcome["results"]):
        reason = result.get("error")
        if reason is None:
            grids = result["solutions"]
            reason = next((f"solution {i} {why}" for i, grid in enumerate(grids, 1) if (why := layout_problem(problem.board, grid))), None)
            if reason is None and len({repr(g) for g in grids}) != expected:
                reason = f"found {len({repr(g) for g in grids})} of the {expected} solutions"
        if reason:
            failures.append("a hidden problem failed" if problem.hidden else f"{problem.id}: {reason}")
    passed = len(problems) - len(failures)
    score = round(points * passed / max(len(problems), 1), 2)
    message = f"{passed}/{len(problems)} problems solved through your clauses" + (f"; {failures[0]}" if failures else "")
    return ItemResult(status="fail" if failures else "pass", score=score, message=message, **base)
