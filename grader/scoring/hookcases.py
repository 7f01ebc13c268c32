"""Hook tests as data: crafted inputs for each student hook and the reference's outputs.

The cases live in `hook_cases.yaml` beside this module (`grader.scoring.case` reads and
writes that file). `python -m grader goldens` rebuilds it from a fixed seed, taking every
expected output from the reference hooks; a test keeps the stored file equal to a fresh
rebuild. Each hook draws its cases from its own random stream (the seed and the hook's
name), so adding or removing a hook moves no other hook's cases.

A case's data is plain (JSON/YAML): boards as rows of text, domains as {variable: [values]}.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from grader.hooktable import BY_NAME, CSP_HOOKS, DOMAINS, HookSpec, checked_bounds, checked_domains
from grader.reference import random_board, reference_hooks, reference_strategies
from grader.reports.caserecord import BoardRecord, CaseRecord, Cell, case_text
from grader.sandbox.wire import clean_text, quote
from grader.scoring.case import Case, Cases, Reply, read_file, write_file
from grader.scoring.misconceptions import Answered, recognised
from solvers.board import Board, cell_name
from solvers.csp import CSP, Domains, build_csp
from solvers.textformat import parse_rows

CASES_FILE = Path(__file__).with_name("hook_cases.yaml")
GOLDEN_SEED = 2026
MAX_SHOWN = 40  # variables of a returned dict shown in a reason (a 6x6 board has at most 36)
VARIABLE_NUMBERS = 100  # the hand-made constraint_bounds cases number their variables below this
RANDOM_CASES = 12  # seeded random cases of each hook, after its hand-made ones
RANDOM_WHY = "a random board and domains: the hook's rule, as the handout states it"

HOOKS_WITH_CASES = CSP_HOOKS  # the hooks the cases test, in the order a student should implement them
HOOK_NAMES = tuple(spec.name for spec in HOOKS_WITH_CASES)


# --- turning case data into hook arguments (for the model answer and the trivial probes) and results into data ---


def csp_of(case: Case) -> CSP:
    return build_csp(board_of(case))


def board_of(case: Case) -> Board:
    """The case's board (ValueError: it has none)."""
    if case.board is None:
        raise ValueError("the case has no board")
    board = parse_rows(list(case.board), case.rule)
    return Board(board.clues, board.rule, case.mines)


def domains_of(data: Any) -> Domains:
    """Domains from case data (JSON turns the integer keys into strings)."""
    return {int(var): tuple(values) for var, values in data.items()}


def arguments(hook: str, case: Case) -> tuple[Any, ...]:
    """The positional arguments of `hook` for one case: what a worker would rebuild from
    the case as the grader sends it."""
    spec = BY_NAME[hook]
    csp = csp_of(case) if spec.engine_calls else None
    return spec.positional(spec.wire_arguments(case.args), csp)


def as_data(hook: str, value: Any) -> Any:
    """A hook's return value as plain data, or raise TypeError describing what is wrong."""
    try:
        return BY_NAME[hook].returns(value)
    except TypeError as wrong:
        raise TypeError(f"{wrong}, got {quote(value)}") from None


# --- drawing the cases: each hook from its own stream ---

CaseDraw = Callable[[random.Random], list[Case]]
"""A hook's cases (inputs only: no expected answer, no group) drawn from its own stream."""


def stream(seed: int, hook: str) -> random.Random:
    """The random stream of `hook`'s cases under `seed` (seeded by text: the same in every
    Python and under any PYTHONHASHSEED)."""
    return random.Random(f"{seed}:{hook}")


def _on_board(board: Board, **args: Any) -> Case:
    return Case("", "", args, tuple(board.rows_text()), board.rule, board.mines)


def _named(name: str, why: str, case: Case) -> Case:
    return replace(case, name=name, why=why)


def _with(case: Case, **args: Any) -> Case:
    """The case with some of its arguments replaced (or added)."""
    return replace(case, args={**case.args, **args})


def _without(case: Case, arg: str) -> Case:
    return replace(case, args={key: value for key, value in case.args.items() if key != arg})


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


def _find(make: Callable[[], Case], holds: Callable[[Case], bool]) -> Case:
    """The first case `make` builds for which `holds` is true (a seeded search)."""
    for _ in range(5000):
        case = make()
        if holds(case):
            return case
    raise RuntimeError("no case found: widen the search")


def _reference(hook: str) -> Callable[..., Any]:
    return reference_hooks()[hook]


def _fc_case(rng: random.Random, rule: str = "classic", mines: bool = True, fixed: float = 0.2, assigned: bool = False) -> Case:
    board = _random_board(rng, rule, mines)
    csp = build_csp(board)
    domains = _random_domains(rng, csp, fixed)
    var = rng.choice(list(csp.variables)) if assigned and csp.variables else None
    return _on_board(board, domains=_data(domains), assigned=var)


def _decided(rng: random.Random, domains: Domains, assigned: Sequence[int]) -> Domains:
    """`domains` with every variable of `assigned` given a 1-tuple (kept when it has one,
    else drawn): the stubs' contract, an assigned variable holds its value."""
    return {v: (d if v not in assigned or len(d) == 1 else (rng.randint(0, 1),)) for v, d in domains.items()}


def _with_assigned(rng: random.Random, case: Case) -> Case:
    """A select_variable case whose variables outside `unassigned` hold 1-tuples."""
    unassigned, domains = set(case.args["unassigned"]), domains_of(case.args["domains"])
    return _with(case, domains=_data(_decided(rng, domains, [v for v in domains if v not in unassigned])))


def _random_inputs(rng: random.Random, index: int) -> tuple[Board, CSP, Domains]:
    """The `index`-th random board (every third without a mine count), its CSP and domains."""
    board = _random_board(rng, mines=index % 3 != 2)
    csp = build_csp(board)
    return board, csp, _random_domains(rng, csp, rng.choice([0.0, 0.2, 0.5]))


def _random_case(index: int, board: Board, domains: Domains, **args: Any) -> Case:
    return _named(f"random {index + 1}", RANDOM_WHY, _on_board(board, domains=_data(domains), **args))


def _once(case: Case) -> Any:
    return _reference("forward_check")(*arguments("forward_check", case))


def _narrows(case: Case) -> bool:
    result = _once(case)
    return result is not None and result != domains_of(case.args["domains"])


def _just_assigned(rng: random.Random) -> Case:
    """A forward_check case whose `assigned` variable holds a 1-tuple, as the engine gives
    it (of the two values, one that leaves the pass something to narrow, if one does)."""
    case = _fc_case(rng, assigned=True)
    var, tries = case.args["assigned"], [case]
    if len(case.args["domains"][var]) > 1:
        tries = [_with(case, domains={**case.args["domains"], var: [value]}) for value in rng.sample([0, 1], 2)]
    return next((c for c in tries if _narrows(c)), tries[0])


def _emptied(case: Case) -> Case:
    """The case with variable 0's domain emptied."""
    return _with(case, domains={**case.args["domains"], 0: []})


def _renumbered(rng: random.Random, case: Case) -> Case:
    """A hand-made constraint_bounds case with its variables numbered at random (in the
    same order), so that the same case under another seed has other numbers and no
    answer stored for the public cases fits it."""
    scope, domains = case.args["scope"], case.args["domains"]
    numbers = dict(zip(scope, sorted(rng.sample(range(VARIABLE_NUMBERS), len(scope)))))
    return _with(case, scope=[numbers[v] for v in scope], domains={numbers[v]: d for v, d in domains.items()})


def _bounds_cases(rng: random.Random) -> list[Case]:
    """constraint_bounds: the hand-made cases (renumbered), then random constraints."""
    named = [
        Case("an empty scope", "no variable: the sum is 0 at least and at most", {"scope": [], "domains": {}}),
        Case("an empty domain", "a variable with no value left: no sum is reachable, so (1, 0)", {"scope": [0, 1], "domains": {0: [], 1: [0, 1]}}),
        Case("mixed domains", "low adds each domain's minimum, high each maximum", {"scope": [0, 1, 2], "domains": {0: [1], 1: [0, 1], 2: [0]}}),
        Case("all mines", "every variable is a mine: low = high = the scope's size", {"scope": [3, 4, 5], "domains": {3: [1], 4: [1], 5: [1]}}),
    ]
    cases = [_renumbered(rng, case) for case in named]
    for index in range(RANDOM_CASES):
        _, csp, domains = _random_inputs(rng, index)
        scope = list(rng.choice(csp.constraints).scope)
        cases.append(Case(f"random {index + 1}", RANDOM_WHY, {"scope": scope, "domains": _data({v: domains[v] for v in scope})}))
    return cases


def _forward_check_cases(rng: random.Random) -> list[Case]:
    """forward_check: the hand-made cases, each a seeded search for a case that shows its rule."""
    strategies = reference_strategies()

    def one_pass_is_not_fixpoint(case: Case) -> bool:
        once, fixpoint = _once(case), strategies.forward_check_fixpoint(*arguments("forward_check", case))
        return once is not None and once != fixpoint

    def global_narrows(case: Case) -> bool:  # the mine count narrows what the clues left
        csp = csp_of(case)
        clues_only = type(csp)(csp.cells, csp.constraints[:-1])
        without = strategies.forward_check_once(clues_only, domains_of(case.args["domains"]))
        return without is not None and _once(case) not in (None, without)

    named = [
        (
            "one pass, not a fixpoint",
            "ONE pass in order: what a later constraint's narrowing would let an earlier one narrow waits for the next call",
            _find(lambda: _fc_case(rng), one_pass_is_not_fixpoint),
        ),
        (
            "an empty domain",
            "a variable with no value left: some constraint cannot be met, so None",
            _emptied(_find(lambda: _fc_case(rng), lambda c: bool(c.args["domains"]))),
        ),
        (
            "the mine count last",
            "the global constraint is the last one: it narrows with what the clues left",
            _find(lambda: _fc_case(rng, fixed=0.5), global_narrows),
        ),
        ("no mine count", "without a mine count there is no global constraint", _find(lambda: _fc_case(rng, mines=False), _narrows)),
        (
            "assigned is given",
            "`assigned` names the variable just assigned; the pass still checks every constraint",
            _find(lambda: _just_assigned(rng), _narrows),
        ),
        ("the inclusive rule", "under the inclusive rule a clue counts its own cell too", _find(lambda: _fc_case(rng, rule="inclusive"), _narrows)),
        ("a dead end", "a clue can no longer be met: None", _find(lambda: _fc_case(rng, fixed=0.5), lambda c: _once(c) is None)),
        (
            "nothing to narrow",
            "no bound meets its total: every domain comes back as it was",
            _find(lambda: _fc_case(rng, fixed=0.0), lambda c: _once(c) == domains_of(c.args["domains"])),
        ),
    ]
    randoms = []
    for index in range(RANDOM_CASES):
        board, _, domains = _random_inputs(rng, index)
        randoms.append(_random_case(index, board, domains, assigned=None))
    return [_named(name, why, case) for name, why, case in named] + randoms


def _select_variable_cases(rng: random.Random) -> list[Case]:
    """select_variable: a degree tie and decided variables of each value, then random ones."""

    def degree_tie(case: Case) -> bool:
        csp, domains, unassigned = csp_of(case), domains_of(case.args["domains"]), case.args["unassigned"]
        smallest = min(len(domains[v]) for v in unassigned)
        tied = [v for v in unassigned if len(domains[v]) == smallest]
        return len({len(csp.constraints_of[v]) for v in tied}) > 1 and _reference("select_variable")(*arguments("select_variable", case)) != min(tied)

    def with_unassigned(fixed: float) -> Callable[[], Case]:
        def make() -> Case:
            case = _without(_fc_case(rng, fixed=fixed), "assigned")
            unassigned = [v for v in domains_of(case.args["domains"]) if rng.random() < 0.8] or [0]
            return _with_assigned(rng, _with(case, unassigned=unassigned))

        return make

    def singletons_of_each_value(case: Case) -> bool:
        domains = domains_of(case.args["domains"])
        return {domains[v] for v in case.args["unassigned"]} >= {(0,), (1,)}

    cases = [
        _named("a degree tie", "equal domain sizes: the variable in more constraints comes first", _find(with_unassigned(0.0), degree_tie)),
        _named(
            "a singleton of each value",
            "the smallest domain first: a decided variable, whatever its value",
            _find(with_unassigned(0.4), singletons_of_each_value),
        ),
    ]
    for index in range(RANDOM_CASES):
        board, csp, domains = _random_inputs(rng, index)
        unassigned = [v for v in csp.variables if rng.random() < 0.8] or [0]
        cases.append(_with_assigned(rng, _random_case(index, board, domains, unassigned=unassigned)))
    return cases


def _order_values_cases(rng: random.Random) -> list[Case]:
    """order_values: a variable undecided, decided safe and decided a mine, then random ones."""

    def order_case(domain: tuple[int, ...]) -> Case:
        case = _without(_fc_case(rng, fixed=0.3), "assigned")
        var = rng.choice(list(domains_of(case.args["domains"])))
        return _with(case, var=var, domains={**case.args["domains"], var: list(domain)})

    cases = [
        _named("undecided", "both values: safe (0) before mine (1)", order_case((0, 1))),
        _named("decided safe", "a singleton (0,): only 0 to try", order_case((0,))),
        _named("decided a mine", "a singleton (1,): only 1 to try", order_case((1,))),
    ]
    for index in range(RANDOM_CASES):
        board, csp, domains = _random_inputs(rng, index)
        cases.append(_random_case(index, board, domains, var=rng.choice(list(csp.variables))))
    return cases


#: How each hook's cases are drawn: the hand-made ones (each says what it tests, printed
#: when it fails), then seeded random ones.
DRAWS: dict[str, CaseDraw] = {
    "constraint_bounds": _bounds_cases,
    "forward_check": _forward_check_cases,
    "select_variable": _select_variable_cases,
    "order_values": _order_values_cases,
}


def trivial_passes(hook: str, case: Case, answer: Callable[..., Any]) -> bool:
    """Whether an input-independent `answer` gets `case` right."""
    try:
        return bool(as_data(hook, answer(*arguments(hook, case))) == case.expected)
    except Exception:
        return False


def _groups(hook: str, cases: list[Case]) -> list[list[int]]:
    """Cases in groups (indices) such that every trivial answer fails some case of each
    group: a group counts only when all its cases pass, so a trivial answer earns nothing."""
    return group_indices([{label for label, answer in BY_NAME[hook].trivial if trivial_passes(hook, case, answer)} for case in cases])


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


def build_cases(seed: int = GOLDEN_SEED, hooks: Sequence[HookSpec] = HOOKS_WITH_CASES) -> Cases:
    """Every hook's cases (`DRAWS`, each hook from its own `stream`) with the reference's
    expected output and the group each belongs to.

    Under any seed but the public GOLDEN_SEED, a case whose input is one of the stored
    public cases' is left out (the empty scope, alike under every seed, is one): no
    graded case is ever one a student has the answer to.
    """
    public = {} if seed == GOLDEN_SEED else _public_inputs()
    reference = reference_hooks()
    built: Cases = {}
    for spec in hooks:
        seen = public.get(spec.name, set())
        fresh = [case for case in DRAWS[spec.name](stream(seed, spec.name)) if case.input_text() not in seen]
        answered = [replace(case, expected=as_data(spec.name, reference[spec.name](*arguments(spec.name, case)))) for case in fresh]
        group_of = {index: number for number, group in enumerate(_groups(spec.name, answered), start=1) for index in group}
        built[spec.name] = [replace(case, group=group_of[index]) for index, case in enumerate(answered)]
    return built


def _public_inputs() -> dict[str, set[str]]:
    """The inputs of the stored public cases, by hook."""
    return {name: {case.input_text() for case in cases} for name, cases in load_cases().items()}


def write_cases(path: Path = CASES_FILE) -> int:
    """Rebuild the stored cases; returns how many were written."""
    cases = build_cases()
    write_file(path, GOLDEN_SEED, cases)
    return sum(len(c) for c in cases.values())


def load_cases(path: Path = CASES_FILE) -> Cases:
    """The stored cases of every hook (read once per process; callers must not modify them)."""
    return read_file(path)


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


def result_text(hook: str, result: Reply) -> str:
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


def _first_variable(hook: str, got: dict[Any, Any], expected: dict[Any, Any]) -> int | None:
    """The first variable whose domain differs between two domains answers (None: none, or not a variable)."""
    var = next((v for v in sorted(set(got) | set(expected)) if got.get(v) != expected.get(v)), None)
    return var if type(var) is int and BY_NAME[hook].returns is checked_domains else None


def first_difference(hook: str, got: Any, expected: Any, case: Case | None = None) -> str:
    """The first thing that differs, in the handout's notation (with the variable's cell
    when the case has a board)."""
    if BY_NAME[hook].returns is checked_domains and isinstance(got, dict) and isinstance(expected, dict):
        var = next((v for v in sorted(set(got) | set(expected)) if got.get(v) != expected.get(v)), None)
        if var is not None:
            where = ""
            cells = csp_of(case).cells if case is not None and case.board is not None else []
            if isinstance(var, int) and 0 <= var < len(cells):  # a variable the board has
                where = f" ({cell_name(cells[var])})"
            return f"variable {quote(var)}{where}: yours {handout_domain(got.get(var, []))}, expected {handout_domain(expected.get(var, []))}"
    return f"yours {_handout_value(hook, got)}, expected {_handout_value(hook, expected)}"


def _board_record(case: Case) -> BoardRecord:
    """The case's board with its domains as typed cells (the variable the call is about marked)."""
    from solvers.trace_view import SYMBOLS, cell_state

    board = board_of(case)
    csp = build_csp(board)
    domains = domains_of(case.args["domains"])
    focus = case.args.get("assigned", case.args.get("var"))
    index = {cell: var for var, cell in enumerate(csp.cells)}
    rows = []
    for r in range(board.rows):
        row = []
        for c in range(board.cols):
            var = index.get((r, c))
            state = SYMBOLS[cell_state(domains.get(var, ()))][0] if var is not None else ""
            row.append(Cell(board.clue((r, c)), var, state, var is not None and var == focus))
        rows.append(tuple(row))
    return BoardRecord(case.rule, case.mines, tuple(rows))


#: How many variables of a student's answer that the model answer does not have its record keeps
#: (each is a row of the answer table): an answer of a million variables makes a small record.
EXTRA_VARIABLES = 8


def _answer_domains(hook: str, value: Any, asked: Collection[int] = ()) -> tuple[tuple[int, str], ...] | None:
    """A domains answer variable by variable in the handout's notation (None: not domains):
    the variables of `asked` and, of the others, the first `EXTRA_VARIABLES`."""
    if BY_NAME[hook].returns is not checked_domains or not isinstance(value, dict) or not all(type(v) is int for v in value):
        return None
    extra = [var for var in sorted(value) if var not in asked][:EXTRA_VARIABLES]
    return tuple((var, handout_domain(value[var])) for var in sorted({*extra, *(var for var in asked if var in value)}))


def case_record(hook: str, number: int | None, case: Case, result: Reply, evidence: Sequence[tuple[Case, Reply]] = ()) -> CaseRecord:
    """A case (a named one, or with no `number` a call from a search) and what the
    student's hook did with it, as a typed record (`case_text` writes it as a reason's lines).
    `evidence`: the hook's other cases and what it did with them; a mistake is named only
    when they bear it out too (`recognised`)."""
    title = f'case {number}, "{case.name}"' if number is not None else case.name
    inputs = []
    for param in BY_NAME[hook].params:
        if param.codec is DOMAINS:
            inputs.append((param.name, _domains_line(domains_of(case.args[param.name]))))
        elif param.codec.sent:
            inputs.append((param.name, str(param.codec.rebuild(case.args.get(param.name)))))
    record = CaseRecord(hook, title, case.why, _board_record(case) if case.board is not None else None, tuple(inputs))
    if "error" in result:
        where = result.get("where")
        return replace(record, error=clean_text(str(result["error"])), raised=(str(where[0]), int(where[1])) if where else None)
    got, want = result["value"], case.expected
    seen = [None if "error" in other else _answered(one, other["value"]) for one, other in evidence]
    found = recognised(hook, _answered(case, got), seen)
    differs = got != want and isinstance(got, dict) and isinstance(want, dict)
    return replace(
        record,
        returned=_handout_value(hook, got),
        expected=_handout_value(hook, want),
        returned_domains=_answer_domains(hook, got, want if isinstance(want, dict) else ()),
        expected_domains=_answer_domains(hook, want, want if isinstance(want, dict) else ()),
        differing=_first_variable(hook, got, want) if differs else None,
        difference=first_difference(hook, got, want, case) if differs else "",
        mistake=found.name if found else "",
        mistake_says=found.says if found else "",
    )


def describe_case(hook: str, number: int | None, case: Case, result: Reply) -> str:
    """A case and what the student's hook did with it, in a few lines (`case_record`'s text)."""
    return case_text(case_record(hook, number, case, result))


def _answered(case: Case, returned: Any) -> Answered:
    """A case and an answer to it as the misconceptions table reads them."""
    return Answered(case.args, domains_of(case.args.get("domains", {})), csp_of(case) if case.board is not None else None, case.expected, returned)
