"""Grading the SAT exercise: the clause generators students write.

No expected outputs exist here: the worker returns the student's clauses and the grader
checks them against the definition, for every assignment of every small scope. Then
every problem is solved through the student's clauses with Glucose 4.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from grader.hooktable import BY_NAME, SAT_ENCODING, SAT_HOOKS, HookSpec
from grader.inputs.problemset import Problem
from grader.reports.results import ItemResult, failed_item, measured
from grader.sandbox.host import Asker, StudentRaised, WorkerFailure
from grader.sandbox.tasks import Outcome, Task, WorkerLost
from grader.sandbox.wire import usable_clauses
from grader.scoring.hookcalls import HookContractError, Hooks
from grader.scoring.hookitems import HookAnswers, ask_each
from grader.scoring.layouts import layout_problem
from solvers.csp import CSP, build_csp, layout_of

MAX_SCOPE = 6


SCOPES = [(n, k) for n in range(MAX_SCOPE + 1) for k in range(-1, n + 2)]
SAT_SOLUTION_LIMIT = 2000  # more models than this means the clauses allow far too much


@dataclass(frozen=True)
class SatSolved:
    """One problem solved through the student's clauses: every solution as a grid, or why
    there are none to check (`error`)."""

    solutions: list[list[list[int]]] | None = None
    error: str | None = None


@dataclass(frozen=True)
class SatSolutions:
    """The answer of the SAT item's task (`sat_problems_task`): each problem's, in order."""

    results: list[SatSolved]


def _problem_cnf(hooks: Hooks, csp: CSP) -> list[list[int]]:
    """The clauses of one problem: the student's for each clue, PySAT's sequential
    counter for the mine count (the subset encoding of "10 of 20" alone would need
    335,920 clauses), every clue's asked as one batch. HookContractError when a clause
    strays from its literals.

    Plain lists, not PySAT's CNF objects: those share one class-wide variable pool that
    two grading threads would corrupt."""
    from pysat.card import CardEnc, EncType

    n = len(csp.cells)
    clues = [([var + 1 for var in c.scope], c.total) for c in csp.constraints if c.cell is not None]
    asked = [(spec.name, spec.wire_arguments({"lits": lits, "k": total}), None) for lits, total in clues for spec in SAT_HOOKS]
    replies = iter(hooks.call_all(asked, "failure"))  # one batch; it ends where the loop below stops
    clauses: list[list[int]] = []
    for constraint in csp.constraints:
        lits = [var + 1 for var in constraint.scope]
        if constraint.cell is None:  # the global mine count
            counter = CardEnc.equals(lits=lits, bound=constraint.total, top_id=n, encoding=EncType.seqcounter)
            clauses += counter.clauses
            continue
        for spec in SAT_HOOKS:
            usable, reason = usable_clauses(hooks.answered(next(replies)), lits)
            if reason:
                raise HookContractError(spec.name, f"{spec.name} {reason}")
            clauses += usable
    return clauses


def sat_hook_task(name: str, limit: float) -> Task[HookAnswers]:
    """Ask for the clauses of every small scope (n literals 1..n, each k), as one batch."""

    def run(asker: Asker) -> HookAnswers:
        hooks = Hooks(asker)
        wire = BY_NAME[name].wire_arguments
        replies = iter(hooks.call_all([(name, wire({"lits": list(range(1, n + 1)), "k": k}), None) for n, k in SCOPES], "fatal"))
        return ask_each(SCOPES, lambda scope: hooks.answered(next(replies)))

    return Task(run, limit, f"hooks/{name}", "hooks", frozenset({name}))


def sat_problems_task(problems: list[Problem], limit: float, hidden: bool = False) -> Task[SatSolutions]:
    """Solve `problems` here with Glucose 4.1 through the student's clauses: all
    solutions, as grids. The whole task has one time limit: a hook that hangs costs the
    problems not reached yet, and nothing more. Hidden problems get a task of their own."""

    def run(asker: Asker) -> SatSolutions | WorkerLost[SatSolutions]:
        hooks, results = Hooks(asker), list[SatSolved]()
        for number, problem in enumerate(problems):
            board = problem.board
            csp = build_csp(board)
            try:
                cnf = _problem_cnf(hooks, csp)
            except StudentRaised as raised:
                if raised.fatal:
                    raise
                results.append(SatSolved(error=raised.message))
                continue
            except HookContractError as error:
                results.append(SatSolved(error=str(error)))
                continue
            except WorkerFailure as failure:
                if failure.ours:
                    raise
                results += [SatSolved(error=failure.message)] * (len(problems) - number)
                return WorkerLost(SatSolutions(results))
            from solvers.glucose import solve_clauses

            found = solve_clauses(cnf, len(csp.cells), "all", limit=SAT_SOLUTION_LIMIT + 1)
            if found.count > SAT_SOLUTION_LIMIT:
                results.append(SatSolved(error=f"more than {SAT_SOLUTION_LIMIT} layouts satisfy your clauses"))
                continue
            results.append(SatSolved([layout_of(csp, values, board.rows, board.cols) for values in found.solutions]))
        return SatSolutions(results)

    return Task(
        run,
        limit,
        SAT_ENCODING + (" (hidden problems)" if hidden else ""),
        "hidden sat" if hidden else "sat",
        frozenset(spec.name for spec in SAT_HOOKS),
        hidden,
        len(problems),
    )


def merge_sat_parts(parts: list[tuple[list[Problem], Outcome[SatSolutions]]]) -> Outcome[SatSolutions]:
    """One outcome for the SAT item from its parts (the visible problems', the hidden
    ones'), each a task outcome: a part that failed fails each of its problems with its
    reason. Nothing of a hidden part (its reason, its output, its time) reaches the
    outcome but its problems' results, which the scorer masks."""

    def shown(problems: list[Problem], outcome: Outcome[SatSolutions]) -> str:
        hidden = any(p.hidden for p in problems)
        return "the hidden problems' part could not be graded" if hidden else outcome.message or outcome.status

    visible = [(problems, o) for problems, o in parts if not any(p.hidden for p in problems)]
    seconds = sum(o.seconds for _, o in visible)
    output = "".join(o.output for _, o in visible)
    broken = next(((problems, o) for problems, o in parts if o.status == "ungraded"), None)
    if broken is None and not any(o.ok for _, o in parts):  # nothing ran: the first part says why
        broken = parts[0]
    if broken is not None:
        reason = "" if any(p.hidden for p in broken[0]) else broken[1].load_reason
        return Outcome(broken[1].status, None, shown(*broken), output, seconds, error_kind=broken[1].error_kind, load_reason=reason)
    results: list[SatSolved] = []
    for problems, outcome in parts:
        if outcome.ok:
            results += outcome.answered.results
        else:
            results += [SatSolved(error=shown(problems, outcome))] * len(problems)
    return Outcome("ok", SatSolutions(results), output=output, seconds=seconds)


def equivalence_problem(spec: HookSpec, clauses: list[list[int]], n: int, k: int) -> str | None:
    """The first assignment of n literals where the clauses disagree with the definition."""
    for bits in product((False, True), repeat=n):
        satisfied = all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses)
        assert spec.holds is not None, f"{spec.name} is not a clause generator"
        if satisfied != spec.holds(sum(bits), k):
            true = [i + 1 for i, b in enumerate(bits) if b] or "none"
            verdict = "accept" if satisfied else "reject"
            return f"n={n}, k={k}: your clauses {verdict} the assignment with true literals {true}"
    return None


def score_sat_hook(spec: HookSpec, points: float, outcome: Outcome[HookAnswers]) -> ItemResult:
    """Partial credit: the share of (n, k) scopes where the clauses mean exactly the constraint."""
    if not outcome.ok:
        return failed_item("hook", spec.name, points, outcome)
    wrong = []
    for (n, k), result in zip(SCOPES, outcome.answered.results):
        if "error" in result:
            wrong.append(f"n={n}, k={k}: {result['error']}")
            continue
        clauses, reason = usable_clauses(result["value"], list(range(1, n + 1)))
        reason = reason or equivalence_problem(spec, clauses, n, k)
        if reason:
            wrong.append(reason)
    passed = len(SCOPES) - len(wrong)
    score = round(points * passed / len(SCOPES), 2)
    message = f"{passed}/{len(SCOPES)} scopes" + (f"; {wrong[0]}" if wrong else "")
    return ItemResult("hook", spec.name, "fail" if wrong else "pass", score, points, message, **measured(outcome))


def score_sat_problems(points: float, problems: list[Problem], counts: list[int], outcome: Outcome[SatSolutions]) -> ItemResult:
    """Every problem solved through the student's clauses: all solutions, each recounted on the board."""
    if not outcome.ok:
        return failed_item("sat", SAT_ENCODING, points, outcome)
    failures = []
    for problem, expected, result in zip(problems, counts, outcome.answered.results):
        reason = result.error
        if reason is None:
            grids = result.solutions or []
            reason = next((f"solution {i} {why}" for i, grid in enumerate(grids, 1) if (why := layout_problem(problem.board, grid))), None)
            if reason is None and len({repr(g) for g in grids}) != expected:
                reason = f"found {len({repr(g) for g in grids})} of the {expected} solutions"
        if reason:
            failures.append("a hidden problem failed" if problem.hidden else f"{problem.id}: {reason}")
    passed = len(problems) - len(failures)
    score = round(points * passed / max(len(problems), 1), 2)
    message = f"{passed}/{len(problems)} problems solved through your clauses" + (f"; {failures[0]}" if failures else "")
    return ItemResult("sat", SAT_ENCODING, "fail" if failures else "pass", score, points, message, **measured(outcome))
