"""Hook tests as data: crafted inputs for each student hook and the reference's outputs.

The cases live in `hook_cases.yaml` beside this module. `python -m grader goldens`
rebuilds that file from a fixed seed, taking every expected output from the reference
hooks; a test keeps the stored file equal to a fresh rebuild.

A case is plain data (JSON/YAML): boards as rows of text, domains as {variable: [values]}.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from grader.hooktable import BY_NAME, CSP_HOOKS, DOMAINS, checked_bounds, checked_domains
from grader.reference import random_board, reference_hooks, reference_strategies
from grader.sandbox.wire import quote
from grader.scoring.misconceptions import Answered, Misconception, recognised
from solvers.board import Board, cell_name
from solvers.csp import CSP, Domains, build_csp
from solvers.textformat import parse_rows

CASES_FILE = Path(__file__).with_name("hook_cases.yaml")
GOLDEN_SEED = 2026
MAX_SHOWN = 40  # variables of a returned dict shown in a reason (a 6x6 board has at most 36)
CASE_NOTES = ("name", "why", "expected", "group")  # what a stored case holds beside its hook's input
VARIABLE_NUMBERS = 100  # the hand-made constraint_bounds cases number their variables below this


Case = dict[str, Any]
"""A hook case as plain data: the hook's input (board, rule, mines, domains, scope, ...) and
its notes (`CASE_NOTES`: name, why, expected, group)."""
Cases = dict[str, list[Case]]  # every hook's cases, by hook name

HOOKS = CSP_HOOKS  # the hooks with cases, in the order a student should implement them
HOOK_NAMES = tuple(spec.name for spec in HOOKS)


# --- turning case data into hook arguments (for the model answer and the trivial probes) and results into data ---

def csp_of(case: Case) -> CSP:
    return build_csp(board_of(case))


def board_of(case: Case) -> Board:
    board = parse_rows(case["board"], case.get("rule", "classic"))
    return Board(board.clues, board.rule, case.get("mines"))


def domains_of(data: dict[Any, list[int]]) -> Domains:
    """Domains from case data (JSON turns the integer keys into strings)."""
    return {int(var): tuple(values) for var, values in data.items()}


def arguments(hook: str, case: Case) -> tuple[Any, ...]:
    """The positional arguments of `hook` for one case: what a worker would rebuild from
    the case as the grader sends it."""
    spec = BY_NAME[hook]
    csp = csp_of(case) if spec.engine_calls else None
    return spec.positional(spec.wire_arguments(case), csp)


def as_data(hook: str, value: Any) -> Any:
    """A hook's return value as plain data, or raise TypeError describing what is wrong."""
    try:
        return BY_NAME[hook].returns(value)
    except TypeError as wrong:
        raise TypeError(f"{wrong}, got {quote(value)}") from None


# --- building the cases ---

def _board_fields(board: Board) -> Case:
    fields: Case = {"board": board.rows_text(), "rule": board.rule}
    if board.mines is not None:
        fields["mines"] = board.mines
    return fields


def _random_domains(rng: random.Random, csp: CSP, fixed: float) -> Domains:
    """Each variable undecided, or (with probability `fixed`) fixed to 0 or 1."""
    return {v: ((rng.randint(0, 1),) if rng.random() < fixed else (0, 1)) for v in csp.variables}


def _data(domains: Domains) -> dict[int, list[int]]:
    return {v: list(d) for v, d in domains.items()}


def _random_board(rng: random.Random, rule: str = "classic", mines: bool = True) -> Board:
    rows, cols = rng.choice([(3, 3), (4, 4), (4, 5)])
    hints = rng.randint(3, rows * cols // 2)
    board = random_board(rng, rows, cols, hints, rng.randint(1, rows * cols - hints))
    if rule == "inclusive":  # the same clues read as 3x3 blocks that count the clue cell too
        board = Board(board.clues, "inclusive", board.mines)
    return Board(board.clues, board.rule, board.mines if mines else None)


def _find(rng: random.Random, make: Callable[[], Case], holds: Callable[[Case], bool]) -> Case:
    """The first case `make` builds for which `holds` is true (a seeded search)."""
    for _ in range(5000):
        case = make()
        if holds(case):
            return case
    raise RuntimeError("no case found: widen the search")


def _reference(hook: str) -> Callable[..., Any]:
    return reference_hooks()[hook]


def _fc_case(rng: random.Random, rule: str = "classic", mines: bool = True, fixed: float = 0.2,
             assigned: bool = False) -> Case:
    board = _random_board(rng, rule, mines)
    csp = build_csp(board)
    domains = _random_domains(rng, csp, fixed)
    var = rng.choice(list(csp.variables)) if assigned and csp.variables else None
    return {**_board_fields(board), "domains": _data(domains), "assigned": var}


def _decided(values: random.Random, domains: Domains, assigned: Sequence[int]) -> Domains:
    """`domains` with every variable of `assigned` given a 1-tuple (kept when it has one,
    else drawn from `values`): the stubs' contract, an assigned variable holds its value."""
    return {v: (d if v not in assigned or len(d) == 1 else (values.randint(0, 1),)) for v, d in domains.items()}


def _with_assigned(values: random.Random, case: Case) -> Case:
    """A select_variable case whose variables outside `unassigned` hold 1-tuples."""
    unassigned = set(case["unassigned"])
    assigned = [v for v in domains_of(case["domains"]) if v not in unassigned]
    return {**case, "domains": _data(_decided(values, domains_of(case["domains"]), assigned))}


def _once(case: Case) -> Any:
    return _reference("forward_check")(*arguments("forward_check", case))


def _narrows(case: Case) -> bool:
    result = _once(case)
    return result is not None and result != domains_of(case["domains"])


def _just_assigned(rng: random.Random, values: random.Random) -> Case:
    """A forward_check case whose `assigned` variable holds a 1-tuple, as the engine gives
    it (of the two values, one that leaves the pass something to narrow, if one does)."""
    case = _fc_case(rng, assigned=True)
    var, tries = case["assigned"], [case]
    if len(case["domains"][var]) > 1:
        tries = [{**case, "domains": {**case["domains"], var: [value]}} for value in values.sample([0, 1], 2)]
    return next((c for c in tries if _narrows(c)), tries[0])


def _emptied(case: Case) -> Case:
    """The case with variable 0's domain emptied."""
    return {**case, "domains": {**case["domains"], 0: []}}


def _named_cases(rng: random.Random, values: random.Random) -> Cases:
    """The hand-made cases: each says what it tests ("why"), printed when it fails.
    `values` draws the values of assigned variables (apart from `rng`, so that the
    cases drawn after them do not move)."""
    strategies = reference_strategies()

    def one_pass_is_not_fixpoint(case: Case) -> bool:
        once, fixpoint = _once(case), strategies.forward_check_fixpoint(*arguments("forward_check", case))
        return once is not None and once != fixpoint

    def global_narrows(case: Case) -> bool:  # the mine count narrows what the clues left
        csp = csp_of(case)
        clues_only = type(csp)(csp.cells, csp.constraints[:-1])
        without = strategies.forward_check_once(clues_only, domains_of(case["domains"]))
        return without is not None and _once(case) not in (None, without)

    def degree_tie(case: Case) -> bool:
        csp, domains = csp_of(case), domains_of(case["domains"])
        smallest = min(len(domains[v]) for v in case["unassigned"])
        tied = [v for v in case["unassigned"] if len(domains[v]) == smallest]
        return len({len(csp.constraints_of[v]) for v in tied}) > 1 and _reference("select_variable")(
            *arguments("select_variable", case)) != min(tied)

    def with_unassigned(fixed: float) -> Callable[[], Case]:
        def make() -> Case:
            case = _fc_case(rng, fixed=fixed)
            case.pop("assigned")
            unassigned = [v for v in domains_of(case["domains"]) if rng.random() < 0.8] or [0]
            return _with_assigned(values, {**case, "unassigned": unassigned})
        return make

    def singletons_of_each_value(case: Case) -> bool:
        domains = domains_of(case["domains"])
        return {domains[v] for v in case["unassigned"]} >= {(0,), (1,)}

    def order_case(domain: tuple[int, ...]) -> Case:
        case = _fc_case(rng, fixed=0.3)
        case.pop("assigned")
        var = rng.choice(list(domains_of(case["domains"])))
        return {**case, "var": var, "domains": {**case["domains"], var: list(domain)}}

    named: dict[str, list[tuple[str, str, Case]]] = {
        "constraint_bounds": [
            ("an empty scope", "no variable: the sum is 0 at least and at most", {"scope": [], "domains": {}}),
            ("an empty domain", "a variable with no value left: no sum is reachable, so (1, 0)",
             {"scope": [0, 1], "domains": {0: [], 1: [0, 1]}}),
            ("mixed domains", "low adds each domain's minimum, high each maximum",
             {"scope": [0, 1, 2], "domains": {0: [1], 1: [0, 1], 2: [0]}}),
            ("all mines", "every variable is a mine: low = high = the scope's size",
             {"scope": [3, 4, 5], "domains": {3: [1], 4: [1], 5: [1]}}),
        ],
        "forward_check": [
            ("one pass, not a fixpoint", "ONE pass in order: what a later constraint's narrowing would let an "
             "earlier one narrow waits for the next call", _find(rng, lambda: _fc_case(rng), one_pass_is_not_fixpoint)),
            ("an empty domain", "a variable with no value left: some constraint cannot be met, so None",
             _emptied(_find(rng, lambda: _fc_case(rng), lambda c: bool(c["domains"])))),
            ("the mine count last", "the global constraint is the last one: it narrows with what the clues left",
             _find(rng, lambda: _fc_case(rng, fixed=0.5), global_narrows)),
            ("no mine count", "without a mine count there is no global constraint",
             _find(rng, lambda: _fc_case(rng, mines=False), _narrows)),
            ("assigned is given", "`assigned` names the variable just assigned; the pass still checks every constraint",
             _find(rng, lambda: _just_assigned(rng, values), _narrows)),
            ("the inclusive rule", "under the inclusive rule a clue counts its own cell too",
             _find(rng, lambda: _fc_case(rng, rule="inclusive"), _narrows)),
            ("a dead end", "a clue can no longer be met: None",
             _find(rng, lambda: _fc_case(rng, fixed=0.5), lambda c: _once(c) is None)),
            ("nothing to narrow", "no bound meets its total: every domain comes back as it was",
             _find(rng, lambda: _fc_case(rng, fixed=0.0), lambda c: _once(c) == domains_of(c["domains"]))),
        ],
        "select_variable": [
            ("a degree tie", "equal domain sizes: the variable in more constraints comes first",
             _find(rng, with_unassigned(0.0), degree_tie)),
            ("a singleton of each value", "the smallest domain first: a decided variable, whatever its value",
             _find(rng, with_unassigned(0.4), singletons_of_each_value)),
        ],
        "order_values": [
            ("undecided", "both values: safe (0) before mine (1)", order_case((0, 1))),
            ("decided safe", "a singleton (0,): only 0 to try", order_case((0,))),
            ("decided a mine", "a singleton (1,): only 1 to try", order_case((1,))),
        ],
    }
    cases: Cases = {}
    for hook, entries in named.items():
        cases[hook] = []
        for name, why, case in entries:
            if "domains" in case and case.get("board"):  # keys as variables, values as lists
                case = {**case, "domains": {int(v): list(d) for v, d in case["domains"].items()}}
            cases[hook].append({"name": name, "why": why, **case})
    return cases


def _renumbered(rng: random.Random, case: Case) -> Case:
    """A hand-made constraint_bounds case with its variables numbered at random (in the
    same order), so that the same case under another seed has other numbers and no
    answer stored for the public cases fits it."""
    numbers = dict(zip(case["scope"], sorted(rng.sample(range(VARIABLE_NUMBERS), len(case["scope"])))))
    return {**case, "scope": [numbers[v] for v in case["scope"]], "domains": {numbers[v]: d for v, d in case["domains"].items()}}


def _random_cases(rng: random.Random, values: random.Random, count: int = 12) -> Cases:
    """Seeded random cases for every hook: random boards, random partial assignments."""
    why = "a random board and domains: the hook's rule, as the handout states it"
    cases: Cases = {name: [] for name in HOOK_NAMES}
    for index in range(count):
        board = _random_board(rng, mines=index % 3 != 2)
        csp = build_csp(board)
        domains = _random_domains(rng, csp, rng.choice([0.0, 0.2, 0.5]))
        constraint = rng.choice(csp.constraints)
        named = {"name": f"random {index + 1}", "why": why}
        cases["constraint_bounds"].append({**named, "scope": list(constraint.scope),
                                           "domains": _data({v: domains[v] for v in constraint.scope})})
        fields = {**named, **_board_fields(board), "domains": _data(domains)}
        cases["forward_check"].append({**fields, "assigned": None})
        unassigned = [v for v in csp.variables if rng.random() < 0.8] or [0]
        cases["select_variable"].append(_with_assigned(values, {**fields, "unassigned": unassigned}))
        cases["order_values"].append({**fields, "var": rng.choice(list(csp.variables))})
    return cases


def trivial_passes(hook: str, case: Case, answer: Callable[..., Any]) -> bool:
    """Whether an input-independent `answer` gets `case` right."""
    try:
        return bool(as_data(hook, answer(*arguments(hook, case))) == case["expected"])
    except Exception:
        return False


def _groups(hook: str, cases: list[Case]) -> list[list[int]]:
    """Cases in groups (indices) such that every trivial answer fails some case of each
    group: a group counts only when all its cases pass, so a trivial answer earns nothing."""
    return group_indices([{label for label, answer in BY_NAME[hook].trivial if trivial_passes(hook, case, answer)}
                          for case in cases])


def group_indices(passes: list[set[str]]) -> list[list[int]]:
    """Indices 0..n-1 in groups such that no label is in `passes[i]` for every i of a
    group (where that can be done): `passes[i]` names the trivial answers that get item i right."""
    remaining, groups = list(range(len(passes))), list[list[int]]()
    while remaining:
        group = [remaining.pop(0)]
        still = set(passes[group[0]])
        while still and remaining:
            best = max(remaining, key=lambda j: len(still - passes[j]))
            if not still - passes[best]:
                break
            remaining.remove(best)
            group.append(best)
            still &= passes[best]
        if still and groups:  # nothing left can close this group: the previous one is closed
            groups[-1] += group
        else:
            groups.append(group)
    return groups


def build_cases(seed: int = GOLDEN_SEED) -> Cases:
    """Every hook's cases (the hand-made ones, then seeded random ones) with the
    reference's expected output and the group each belongs to, as plain data.

    Under any seed but the public GOLDEN_SEED, a case whose input is one of the stored
    public cases' is left out (the empty scope, alike under every seed, is one): no
    graded case is ever one a student has the answer to.
    """
    rng, values = random.Random(seed), random.Random(f"assigned values {seed}")
    named, random_ones = _named_cases(rng, values), _random_cases(rng, values)
    named["constraint_bounds"] = [_renumbered(rng, case) for case in named["constraint_bounds"]]
    public = {name: set[str]() for name in HOOK_NAMES} if seed == GOLDEN_SEED else _public_inputs()
    reference = reference_hooks()
    built: Cases = {}
    for spec in HOOKS:
        fresh = [case for case in named[spec.name] + random_ones[spec.name] if case_input(case) not in public[spec.name]]
        cases = [{**case, "expected": as_data(spec.name, reference[spec.name](*arguments(spec.name, case)))} for case in fresh]
        for number, group in enumerate(_groups(spec.name, cases), start=1):
            for index in group:
                cases[index]["group"] = number
        built[spec.name] = cases
    return built


def case_input(case: Case) -> str:
    """What a case gives its hook (its name, reason, answer and group left out), as one canonical text."""
    return json.dumps({key: value for key, value in case.items() if key not in CASE_NOTES}, sort_keys=True, default=list)


def _public_inputs() -> dict[str, set[str]]:
    """The inputs of the stored public cases, by hook."""
    return {name: {case_input(case) for case in cases} for name, cases in load_cases().items()}


def write_cases(path: Path = CASES_FILE) -> int:
    """Rebuild the stored cases; returns how many were written."""
    cases = build_cases()
    data = {"seed": GOLDEN_SEED, "hooks": cases}
    header = "# Hook test cases for the grader. Generated by `python -m grader goldens`: do not edit by hand.\n"
    path.write_text(header + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100), encoding="utf-8")
    return sum(len(c) for c in cases.values())


@lru_cache(maxsize=4)
def _stored_cases(path: Path) -> Cases:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when PyYAML has it
    hooks: Cases = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)["hooks"]
    return hooks


def load_cases(path: Path = CASES_FILE) -> Cases:
    """The stored cases of every hook (read once per process; callers must not modify them)."""
    return _stored_cases(path)


# --- a case as a student reads it --------------------------------------------------------

def handout_domain(values: Any) -> str:
    """A domain as the handout writes it: (0, 1), (1,), () (a long one cut short)."""
    values = list(values)
    if len(values) > 2:  # no domain of the contract: quoted within bounds
        return quote(tuple(values))
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


def _handout_value(hook: str, value: Any) -> str:
    """A hook's answer (checked data: ints, lists and dicts of them) in the handout's
    notation, cut short when it is longer than any right answer."""
    returns = BY_NAME[hook].returns
    if returns is checked_domains and isinstance(value, dict):
        shown = sorted(value.items())[:MAX_SHOWN]
        more = f", ... {len(value) - len(shown)} more" if len(value) > len(shown) else ""
        return "{" + ", ".join(f"{v}: {handout_domain(d)}" for v, d in shown) + more + "}"
    if returns is checked_bounds and isinstance(value, list):
        return "(" + ", ".join(map(str, value)) + ")"
    return quote(value)


def result_text(hook: str, result: dict[str, Any]) -> str:
    """What a hook did with a case, in a few words: the answer it returned, or its error."""
    return f"failed: {result['error']}" if "error" in result else f"returned {_handout_value(hook, result['value'])}"


def _domains_line(domains: Domains) -> str:
    """Every domain, the common one once: "every variable (0, 1) except 3: (1,), 5: ()"."""
    if not domains:
        return "{}"
    common = max({tuple(d) for d in domains.values()}, key=lambda d: sum(tuple(x) == d for x in domains.values()))
    others = [f"{v}: {handout_domain(d)}" for v, d in sorted(domains.items()) if tuple(d) != common]
    if len(others) == len(domains) or len(domains) < 4:
        return "{" + ", ".join(f"{v}: {handout_domain(d)}" for v, d in sorted(domains.items())) + "}"
    return f"every variable {handout_domain(common)}" + (" except " + ", ".join(others) if others else "")


def first_difference(hook: str, got: Any, expected: Any, case: Case | None = None) -> str:
    """The first thing that differs, in the handout's notation (with the variable's cell
    when the case has a board)."""
    if BY_NAME[hook].returns is checked_domains and isinstance(got, dict) and isinstance(expected, dict):
        var = next((v for v in sorted(set(got) | set(expected)) if got.get(v) != expected.get(v)), None)
        if var is not None:
            where = ""
            cells = csp_of(case).cells if case is not None and "board" in case else []
            if isinstance(var, int) and 0 <= var < len(cells):  # a variable the board has
                where = f" ({cell_name(cells[var])})"
            return (f"variable {quote(var)}{where}: yours {handout_domain(got.get(var, []))}, "
                    f"expected {handout_domain(expected.get(var, []))}")
    return f"yours {_handout_value(hook, got)}, expected {_handout_value(hook, expected)}"


def _drawn(case: Case) -> str:
    """The case's board with its domains, as a trace shows a node (the variable the call
    is about in brackets)."""
    from solvers.trace_view import board_grid

    board = board_of(case)
    domains = {int(v): tuple(d) for v, d in case["domains"].items()}
    return board_grid(board, build_csp(board), domains, {}, case.get("assigned", case.get("var")), numbered=True).plain


def describe_case(hook: str, number: int | None, case: Case, result: dict[str, Any]) -> str:
    """A case (a named one, or with no `number` a call from a search) and what the
    student's hook did with it, in a few lines."""
    title = f'case {number}, "{case.get("name", "")}"' if number is not None else case.get("name", "")
    lines = [f'{title}: {case.get("why", "")}']
    if "board" in case:
        count = case.get("mines")
        mines = ", no mine count" if count is None else f", {count} mine{'' if count == 1 else 's'}"
        lines.append(f"  board ({case.get('rule', 'classic')}{mines}; vN is variable N: ? undecided, ◇ safe, ◆ a mine, "
                     "✗ no value left; digits are clues):")
        lines += ["    " + row.rstrip() for row in _drawn(case).splitlines()]
    for param in BY_NAME[hook].params:
        if param.codec is DOMAINS:
            lines.append(f"  {param.name}: {_domains_line(domains_of(case[param.name]))}")
        elif param.codec.sent:
            lines.append(f"  {param.name}: {param.codec.rebuild(case.get(param.name))}")
    if "error" in result:
        lines.append(f"  your hook: {result['error']}")
    else:
        lines.append(f"  returned: {_handout_value(hook, result['value'])}")
        lines.append(f"  expected: {_handout_value(hook, case['expected'])}")
        if result["value"] != case["expected"] and isinstance(result["value"], dict) and isinstance(case["expected"], dict):
            lines.append(f"  first difference: {first_difference(hook, result['value'], case['expected'], case)}")
        mistake = _mistake(hook, case, result["value"])
        if mistake:
            lines.append(f"  this looks like: {mistake}")
    return "\n".join(lines)


def _mistake(hook: str, case: Case, returned: Any) -> str:
    """What the misconceptions table recognises in this wrong answer ("" when nothing)."""
    found = _recognised(hook, case, returned)
    return f"{found.name} ({found.says})" if found else ""


def _recognised(hook: str, case: Case, returned: Any) -> Misconception | None:
    seen = Answered(case, domains_of(case.get("domains", {})), csp_of(case) if "board" in case else None,
                    case["expected"], returned)
    return recognised(hook, seen)


def mistake_name(hook: str, case: Case, result: dict[str, Any]) -> str:
    """The name of the misconception a wrong case's answer looks like ("" when it raised
    or nothing is recognised): the typed fact a reason's "this looks like" line shows."""
    found = None if "error" in result else _recognised(hook, case, result["value"])
    return found.name if found else ""
