"""Hook tests as data: crafted inputs for each student hook and the reference's outputs.

The cases live in `hook_cases.yaml` beside this module. `python -m grader goldens`
rebuilds that file from a fixed seed, taking every expected output from the reference
hooks; a test keeps the stored file equal to a fresh rebuild.

A case is plain data (JSON/YAML): boards as rows of text, domains as {variable: [values]}.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import yaml

from solvers.board import Board
from solvers.csp import CSP, Domains, build_csp
from solvers.textformat import parse_rows

from .reference import reference_strategies

CASES_FILE = Path(__file__).with_name("hook_cases.yaml")
GOLDEN_SEED = 2026


@dataclass(frozen=True)
class HookSpec:
    """A student hook: its name in assignment/hooks.py, the reference's name, and its weight."""

    name: str
    reference: str  # the model answer's name in solvers/strategies.py
    points: float
    summary: str


#: The hooks in the order a student should implement them (each builds on the one before).
HOOKS: tuple[HookSpec, ...] = (
    HookSpec("constraint_bounds", "constraint_bounds", 2, "the smallest and largest sum a constraint can reach"),
    HookSpec("forward_check", "forward_check_once", 3, "one pass of the bound rule over the constraints"),
    HookSpec("select_variable", "select_mrv", 2, "MRV, ties by degree then lowest number"),
    HookSpec("order_values", "values_ascending", 1, "the values to try, safe first"),
)
HOOK_NAMES = tuple(h.name for h in HOOKS)


def reference_hooks() -> dict[str, Callable[..., Any]]:
    """The model answer of every hook (the SAT exercise's too), by the student's hook name."""
    strategies = reference_strategies()
    from solvers.sat import at_least_subsets, at_most_subsets

    hooks = {spec.name: getattr(strategies, spec.reference) for spec in HOOKS}
    hooks["at_least_clauses"] = lambda lits, k: list(at_least_subsets(lits, k))
    hooks["at_most_clauses"] = lambda lits, k: list(at_most_subsets(lits, k))
    return hooks


# --- turning case data into hook arguments (used by the worker) and results into data ---

def csp_of(case: dict[str, Any]) -> CSP:
    return build_csp(board_of(case))


def board_of(case: dict[str, Any]) -> Board:
    board = parse_rows(case["board"], case.get("rule", "classic"))
    return Board(board.clues, board.rule, case.get("mines"))


def domains_of(data: dict[Any, list[int]]) -> Domains:
    """Domains from case data (JSON turns the integer keys into strings)."""
    return {int(var): tuple(values) for var, values in data.items()}


def arguments(hook: str, case: dict[str, Any]) -> tuple[Any, ...]:
    """The positional arguments of `hook` for one case."""
    domains = domains_of(case["domains"])
    if hook == "constraint_bounds":
        return tuple(case["scope"]), domains
    csp = csp_of(case)
    if hook == "forward_check":
        return csp, domains, case.get("assigned")
    if hook == "select_variable":
        return csp, domains, list(case["unassigned"])
    return csp, case["var"], domains


def as_data(hook: str, value: Any) -> Any:
    """A hook's return value as plain data, or raise TypeError describing what is wrong."""
    if hook == "constraint_bounds":
        if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(_is_int(v) for v in value)):
            raise TypeError(f"must return a pair of ints (low, high), got {_show(value)}")
        return [int(v) for v in value]
    if hook == "forward_check":
        if value is None:
            return None
        if not isinstance(value, dict):
            raise TypeError(f"must return a dict of domains or None, got {_show(value)}")
        try:
            return {int(var): sorted(int(v) for v in values) for var, values in value.items()}
        except (TypeError, ValueError):
            raise TypeError(f"must map each variable to a tuple of ints, got {_show(value)}") from None
    if hook == "select_variable":
        if not _is_int(value):
            raise TypeError(f"must return a variable number (int), got {_show(value)}")
        return int(value)
    if not (isinstance(value, (list, tuple)) and all(_is_int(v) for v in value)):
        raise TypeError(f"must return a list of ints, got {_show(value)}")
    return [int(v) for v in value]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- building the cases ---

def _board_fields(board: Board) -> dict[str, Any]:
    fields: dict[str, Any] = {"board": board.rows_text(), "rule": board.rule}
    if board.mines is not None:
        fields["mines"] = board.mines
    return fields


def _random_domains(rng: random.Random, csp: CSP, fixed: float) -> Domains:
    """Each variable undecided, or (with probability `fixed`) fixed to 0 or 1."""
    return {v: ((rng.randint(0, 1),) if rng.random() < fixed else (0, 1)) for v in csp.variables}


def _data(domains: Domains) -> dict[int, list[int]]:
    return {v: list(d) for v, d in domains.items()}


def _inputs(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    from solvers.generate import hint_board  # an instructor's tool: not in the student copy

    cases: dict[str, list[dict[str, Any]]] = {name: [] for name in HOOK_NAMES}
    cases["constraint_bounds"] += [
        {"scope": [], "domains": {}},
        {"scope": [0, 1, 2], "domains": {0: [1], 1: [0, 1], 2: [0]}},
        {"scope": [0, 1], "domains": {0: [], 1: [0, 1]}},
    ]
    for index in range(12):
        rows, cols = rng.choice([(3, 3), (4, 4), (4, 5)])
        hints = rng.randint(3, rows * cols // 2)
        mines = rng.randint(1, rows * cols - hints)
        board, _ = hint_board(rng, rows, cols, hints, mines)
        if index % 3 == 2:
            board = Board(board.clues, board.rule, None)
        csp = build_csp(board)
        domains = _random_domains(rng, csp, rng.choice([0.0, 0.2, 0.5]))
        constraint = rng.choice(csp.constraints)
        cases["constraint_bounds"].append({"scope": list(constraint.scope), "domains": _data({v: domains[v] for v in constraint.scope})})
        board_fields = _board_fields(board)
        cases["forward_check"].append({**board_fields, "domains": _data(domains), "assigned": None})
        unassigned = [v for v in csp.variables if rng.random() < 0.8] or [0]
        cases["select_variable"].append({**board_fields, "domains": _data(domains), "unassigned": unassigned})
        var = rng.choice(list(csp.variables))
        cases["order_values"].append({**board_fields, "var": var, "domains": _data(domains)})
    return cases


def build_cases(seed: int = GOLDEN_SEED) -> dict[str, list[dict[str, Any]]]:
    """Every hook's cases with the reference's expected output, as plain data."""
    rng = random.Random(seed)
    inputs = _inputs(rng)
    reference = reference_hooks()
    hooks = {}
    for spec in HOOKS:
        hooks[spec.name] = [
            {**case, "expected": as_data(spec.name, reference[spec.name](*arguments(spec.name, case)))}
            for case in inputs[spec.name]
        ]
    return hooks


def write_cases(path: Path = CASES_FILE) -> int:
    """Rebuild the stored cases; returns how many were written."""
    data = {"seed": GOLDEN_SEED, "hooks": build_cases()}
    header = "# Hook test cases for the grader. Generated by `python -m grader goldens`: do not edit by hand.\n"
    path.write_text(header + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100), encoding="utf-8")
    return sum(len(c) for c in data["hooks"].values())


@lru_cache(maxsize=4)
def _stored_cases(path: Path) -> dict[str, list[dict[str, Any]]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when PyYAML has it
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)["hooks"]


def load_cases(path: Path = CASES_FILE) -> dict[str, list[dict[str, Any]]]:
    """The stored cases of every hook (read once per process; callers must not modify them)."""
    return _stored_cases(path)
