"""The grading worker: runs a solver's hooks on graded items, in its own process.

Started by `grader.sandbox` as `python -m grader.worker`. It reads a job (JSON) on
standard input: {"solver": "reference" or a path to a hooks file, "items": [...]}, and
writes one JSON line per item to the file descriptor named by GRADER_RESULT_FD. The
student's code is imported here only, never in the grader's own process.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import resource
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from solvers.csp import CSP, Domains, build_csp, layout_of
from solvers.engine import Strategy, search
from solvers.trace import Recorder, TraceLimit

from .hookcases import HOOK_NAMES, arguments, as_data, board_of, reference_hooks

OUTPUT_LIMIT = 2000  # characters of a student's printed output kept per item
MEMORY_ENV = "GRADER_MEMORY_MB"


class HookContractError(Exception):
    """A hook returned something its contract does not allow."""


def load_hooks(solver: str) -> dict[str, Callable[..., Any]]:
    """The hook functions of a solver: the reference, or those defined in a Python file."""
    if solver == "reference":
        return reference_hooks()
    module = import_file(Path(solver))
    names = (*HOOK_NAMES, "at_least_clauses", "at_most_clauses")
    return {name: getattr(module, name) for name in names if callable(getattr(module, name, None))}


def import_file(path: Path, name: str = "student_hooks") -> ModuleType:
    """Load a Python file as module `name` (only ever in a worker process)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class BoundedOutput(io.TextIOBase):
    """A stand-in for stdout/stderr that keeps the first `limit` characters and counts the rest."""

    def __init__(self, limit: int = OUTPUT_LIMIT):
        self.kept: list[str] = []
        self.size = 0
        self.limit = limit

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self.limit - sum(map(len, self.kept))
        if room > 0:
            self.kept.append(text[:room])
        self.size += len(text)
        return len(text)

    def text(self) -> str:
        kept = "".join(self.kept)
        return kept if self.size <= self.limit else kept + f"\n[... {self.size - self.limit} more characters cut]"


class _NoGrader:
    """A meta path finder that refuses imports of the grader from student code."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "grader" or name.startswith("grader."):
            raise ImportError("student code may not import the grader")
        return None


def isolate_from_grader() -> None:
    """Hide the grader's modules from code loaded after this call."""
    for name in [n for n in sys.modules if n == "grader" or n.startswith("grader.")]:
        del sys.modules[name]
    sys.meta_path.insert(0, _NoGrader())


def limit_memory() -> None:
    """Cap the address space (megabytes from GRADER_MEMORY_MB), so a huge allocation fails here."""
    megabytes = int(os.environ.get(MEMORY_ENV, "0") or 0)
    if megabytes > 0:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def describe_exception(error: BaseException, solver: str) -> str:
    """One line: the exception and the deepest frame in the student's file."""
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    if isinstance(error, MemoryError):
        return "ran out of memory (MemoryError)"
    if isinstance(error, NotImplementedError):
        hook = error.args[0] if error.args and isinstance(error.args[0], str) else "a hook"
        return f"{hook} is not implemented yet (it raises NotImplementedError)"
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if solver != "reference" and Path(f.filename).resolve() == Path(solver).resolve()]
    where = f" ({Path(own[-1].filename).name}, line {own[-1].lineno}, in {own[-1].name})" if own else ""
    text = f"{type(error).__name__}: {error}".strip().splitlines()
    return (text[0] if text else type(error).__name__)[:300] + where


def _checked(hooks: dict[str, Callable[..., Any]]) -> Strategy:
    """A strategy from the solver's hooks, each wrapped to reject results its contract forbids."""

    def forward_check(csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
        result = hooks["forward_check"](csp, dict(domains), assigned)
        if result is None:
            return None
        if not isinstance(result, dict) or set(result) != set(domains):
            raise HookContractError("forward_check must return None or a dict with the domain of every variable")
        narrowed = {}
        for var, values in result.items():
            kept = tuple(sorted(values)) if isinstance(values, (tuple, list, set, frozenset)) else None
            if kept is None or not set(kept) <= set(domains[var]):
                raise HookContractError(f"forward_check gave variable {var} the domain {values!r}, which is not a subset of {domains[var]}")
            narrowed[var] = kept
        return narrowed

    def select_variable(csp: CSP, domains: Domains, unassigned: list[int]) -> int:
        var = hooks["select_variable"](csp, dict(domains), list(unassigned))
        if var not in unassigned:
            raise HookContractError(f"select_variable returned {var!r}, which is not an unassigned variable")
        return var

    def order_values(csp: CSP, var: int, domains: Domains) -> list[int]:
        values = hooks["order_values"](csp, var, dict(domains))
        if not isinstance(values, (list, tuple)) or sorted(values) != sorted(domains[var]):
            raise HookContractError(f"order_values returned {values!r} for variable {var}; it must order exactly the values {domains[var]}")
        return list(values)

    return Strategy("student", select_variable, order_values, forward_check=forward_check)


def _run_cases(hooks: dict[str, Callable[..., Any]], name: str, cases: list[dict[str, Any]], solver: str,
               call: Callable[[Callable[..., Any], dict[str, Any]], Any]) -> dict[str, Any]:
    """Call hook `name` on every case; each case gives {"value": ...} or {"error": ...}.

    A hook that is not implemented, exits or runs out of memory ends the item.
    """
    if name not in hooks:
        return {"status": "error", "message": f"no function named {name} in the hooks file"}
    results = []
    for case in cases:
        try:
            results.append({"value": call(hooks[name], case)})
        except (NotImplementedError, SystemExit, MemoryError) as error:
            return {"status": "error", "message": describe_exception(error, solver)}
        except Exception as error:  # a student's bug is a result, not a crash
            results.append({"error": describe_exception(error, solver)})
    return {"status": "ok", "results": results}


def run_hook_item(hooks: dict[str, Callable[..., Any]], item: dict[str, Any], solver: str) -> dict[str, Any]:
    """Run one search hook on every case of its test."""
    name = item["hook"]
    return _run_cases(hooks, name, item["cases"], solver, lambda hook, case: as_data(name, hook(*arguments(name, case))))


def _missing_search_hook(hooks: dict[str, Callable[..., Any]]) -> str | None:
    """Why the engine cannot run with these hooks, or None."""
    for name in ("forward_check", "select_variable", "order_values"):
        if name not in hooks:
            return f"no function named {name} in the hooks file"
    return None


def run_problem_item(hooks: dict[str, Callable[..., Any]], item: dict[str, Any], solver: str) -> dict[str, Any]:
    """Solve one board with the solver's hooks (all solutions) and return them as grids."""
    missing = _missing_search_hook(hooks)
    if missing:
        return {"status": "error", "message": missing}
    board = board_of(item)
    csp = build_csp(board)
    try:
        result = search(csp, _checked(hooks), "all")
    except HookContractError as error:
        return {"status": "error", "message": str(error)}
    except (Exception, SystemExit) as error:
        return {"status": "error", "message": describe_exception(error, solver)}
    grids = [layout_of(csp, tuple(_plain(v) for v in values), board.rows, board.cols) for values in result.solutions]
    return {"status": "ok", "solutions": grids, "stats": result.stats.as_dict()}


def run_trace_item(hooks: dict[str, Callable[..., Any]], item: dict[str, Any], solver: str) -> dict[str, Any]:
    """Record the search of one board with the solver's hooks, step by step (up to max_steps)."""
    missing = _missing_search_hook(hooks)
    if missing:
        return {"status": "error", "message": missing, "steps": []}
    recorder = Recorder(item.get("max_steps"))
    csp = build_csp(board_of(item))
    complete = True
    try:
        search(csp, _checked(hooks), "all", recorder)
    except TraceLimit:
        complete = False
    except HookContractError as error:
        return {"status": "error", "message": str(error), "steps": recorder.steps}
    except (Exception, SystemExit) as error:
        return {"status": "error", "message": describe_exception(error, solver), "steps": recorder.steps}
    return {"status": "ok", "steps": recorder.steps, "complete": complete}


SAT_SOLUTION_LIMIT = 2000  # more models than this means the clauses allow far too much


def run_sat_hook_item(hooks: dict[str, Callable[..., Any]], item: dict[str, Any], solver: str) -> dict[str, Any]:
    """The student's clauses for each (n, k) scope, over the literals 1..n."""
    def call(hook: Callable[..., Any], case: dict[str, Any]) -> list[list[Any]]:
        return [[_plain(lit) for lit in clause] for clause in hook(list(range(1, case["n"] + 1)), case["k"])]

    return _run_cases(hooks, item["hook"], item["cases"], solver, call)


def run_sat_problems_item(hooks: dict[str, Callable[..., Any]], item: dict[str, Any], solver: str) -> dict[str, Any]:
    """Solve every problem with Glucose 4.1: the student's clauses for each clue, PySAT's
    sequential counter for the mine count (the subset encoding of "10 of 20" alone would
    need 335,920 clauses). All solutions, as grids.
    """
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF

    from solvers.glucose import solve_cnf

    missing = [name for name in ("at_least_clauses", "at_most_clauses") if name not in hooks]
    if missing:
        return {"status": "error", "message": f"no function named {missing[0]} in the hooks file"}
    results = []
    for problem in item["problems"]:
        board = board_of(problem)
        csp = build_csp(board)
        n = len(csp.cells)
        cnf = CNF()
        try:
            for constraint in csp.constraints:
                lits = [var + 1 for var in constraint.scope]
                if constraint.cell is None:  # the global mine count
                    counter = CardEnc.equals(lits=lits, bound=constraint.total, top_id=max(cnf.nv, n), encoding=EncType.seqcounter)
                    cnf.extend(counter.clauses)
                    continue
                for name in ("at_least_clauses", "at_most_clauses"):
                    clauses = [[int(lit) for lit in clause] for clause in hooks[name](lits, constraint.total)]
                    if any(-lit not in lits and lit not in lits for clause in clauses for lit in clause):
                        raise HookContractError(f"{name} used a literal that is not one of the literals it was given")
                    cnf.extend(clauses)
        except (NotImplementedError, SystemExit, MemoryError) as error:
            return {"status": "error", "message": describe_exception(error, solver)}
        except HookContractError as error:
            results.append({"error": str(error)})
            continue
        except Exception as error:
            results.append({"error": describe_exception(error, solver)})
            continue
        try:
            found = solve_cnf(cnf, n, "all", limit=SAT_SOLUTION_LIMIT + 1)
        except (Exception, MemoryError) as error:
            results.append({"error": f"Glucose could not solve your clauses ({type(error).__name__})"})
            continue
        if found.count > SAT_SOLUTION_LIMIT:
            results.append({"error": f"more than {SAT_SOLUTION_LIMIT} layouts satisfy your clauses"})
            continue
        results.append({"solutions": [layout_of(csp, values, board.rows, board.cols) for values in found.solutions]})
    return {"status": "ok", "results": results}


def _plain(value: Any) -> Any:
    """A value as JSON can carry it (ints stay ints; anything else becomes its repr)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else repr(value)


Report = Callable[[dict[str, Any]], None]


def start(source_key: str, load: Callable[[str, dict[str, Any]], Any]) -> tuple[dict[str, Any], Report, Any] | None:
    """The common start of every worker: read the job, cap memory, hide the grader, then
    load the student's code quietly and say whether it loaded.

    `source_key` names the job's file field; `load(source, job)` loads it. Returns the job,
    the report function (each report carries the run's token) and what `load` returned, or
    None when loading failed (already reported).
    """
    send = os.fdopen(int(os.environ.pop("GRADER_RESULT_FD")), "w", buffering=1)
    job = json.loads(sys.stdin.readline())
    token, source = job.pop("token"), job[source_key]

    def report(data: dict[str, Any]) -> None:
        send.write(json.dumps({**data, "token": token}) + "\n")

    limit_memory()
    isolate_from_grader()
    try:
        with contextlib.redirect_stdout(BoundedOutput()), contextlib.redirect_stderr(BoundedOutput()):
            loaded = load(source, job)
    except BaseException as error:  # a broken file must not stop the grader
        report({"ready": False, "message": f"cannot load {Path(source).name}: {describe_exception(error, source)}"})
        return None
    report({"ready": True})
    return job, report, loaded


def main() -> None:
    started_worker = start("solver", lambda source, job: load_hooks(source))
    if started_worker is None:
        return
    job, report, hooks = started_worker
    solver = job["solver"]
    runners = {"hook": run_hook_item, "problem": run_problem_item, "trace": run_trace_item,
               "sat-hook": run_sat_hook_item, "sat-problems": run_sat_problems_item}
    for item in job["items"]:
        printed = BoundedOutput()
        started = time.perf_counter()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            outcome = runners[item["kind"]](hooks, item, solver)
        outcome["seconds"] = time.perf_counter() - started
        outcome["output"] = printed.text()
        report(outcome)


if __name__ == "__main__":
    main()
