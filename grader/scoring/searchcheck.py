"""Every hook answer in the grader's own searches, checked against the model answer.

While the grader searches a board with the student's hooks, each answer is compared with
what the model answer of the hooks (the handout's: one forward-checking pass, MRV, safe
first) gives on the very same input. Two things come of it:

- the first call where the search parted from the model answer (`Divergence`): when a
  board is lost, it names the hook to look at, and where;
- for each hook, the calls it got wrong (`HookCalls`): a hook is graded on what it does in
  real searches, not only on the named cases, so answering the named cases' inputs right
  and the boards' otherwise earns nothing. A CSP hook the engine does not call (the
  student's forward_check need not call constraint_bounds) is asked apart when its table
  entry names a probe builder (`HookSpec.probe`, `PROBE_BUILDERS`): for "constraints",
  about the constraints of the model answer's first nodes on each board (`constraint_probes`).

The model answer's own work is not charged to the student's time (`Uncharged`).

The student copy has no model answer: it has its answers along its own searches of the
public boards (`AnswerTable`, written by the release). A call whose input is not there
came after the search had left the model answer's path: it is counted as not checked
(`HookCalls.unchecked`), and a board with such a call is not known to be right.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from grader.hooktable import BY_NAME, CSP_HOOKS, DOMAINS, Probe
from grader.inputs.searchanswers import call_key
from grader.sandbox.host import StudentRaised
from grader.scoring.case import Case
from grader.scoring.hookcalls import HookContractError
from grader.scoring.hookcases import HOOK_NAMES, as_data, domains_of, handout_domain
from solvers.board import Board
from solvers.csp import CSP, Domains
from solvers.engine import Strategy

#: Questions a "constraints" probe asks per board: one constraint at each of the model
#: answer's first nodes, the mine count first (the largest scope), then the clues from the last.
PROBES = 24
#: The hooks the engine does not call that are asked about its searches all the same.
PROBED = tuple(spec.name for spec in CSP_HOOKS if spec.probe)
#: A context in which the grader's work is not charged to the student's item.
Uncharged = Callable[[], AbstractContextManager[object]]
#: What a hook's call may raise that ends the search of one board: a broken contract, an exception of the student's.
HOOK_FAILURES = (HookContractError, StudentRaised)
HookFailure = HookContractError | StudentRaised


@dataclass(frozen=True)
class Model:
    """The model answer of the hooks: its search strategy, and its answer of each probed
    hook (`PROBED`), by name."""

    strategy: Strategy
    probed: Mapping[str, Callable[..., Any]]

    def on(self, board: Board) -> Model:
        """The model answer on `board` (the same everywhere)."""
        return self


class OffPath(Exception):
    """The student copy does not know the model answer's answer to this call: its input
    is not on the model answer's own search of a board the copy carries."""


def call_arguments(hook: str, *args: Any) -> dict[str, Any]:
    """A call's input as plain data (what `call_key` digests): the arguments after the
    CSP, by name, domains as {variable: [values]}."""
    names = [p.name for p in BY_NAME[hook].params if p.codec.sent]
    return {
        name: (
            {var: list(values) for var, values in value.items()} if name == "domains" else list(value) if isinstance(value, (list, tuple)) else value
        )
        for name, value in zip(names, args)
    }


def stored_answer(hook: str, answer: Any, args: dict[str, Any]) -> Any:
    """`answer` (the model's, as data) as the release stores it: forward_check's as the
    variables it changed ({"changed": [[var, values], ...]}), the others as they are."""
    if hook != "forward_check" or answer is None:
        return answer
    return {"changed": [[var, values] for var, values in answer.items() if args["domains"].get(var) != values]}


def restored_answer(hook: str, stored: Any, args: dict[str, Any]) -> Any:
    """The model answer's return value from its stored form (`stored_answer`)."""
    if hook == "constraint_bounds":
        return tuple(stored)
    if hook != "forward_check" or stored is None:
        return stored
    changed = {int(var): tuple(values) for var, values in stored["changed"]}
    return {var: changed.get(var, tuple(values)) for var, values in args["domains"].items()}


class AnswerTable:
    """The model answer as the student copy carries it: its answers (by `call_key`) along
    its own searches of the public boards. `missing`: why the copy has none ("" when it
    has them)."""

    def __init__(self, answers: dict[str, Any], missing: str = ""):
        self.answers, self.missing = answers, missing

    def answer(self, hook: str, board: Board, *args: Any) -> Any:
        """The model answer's return value for this call; OffPath when it is not stored."""
        data = call_arguments(hook, *args)
        try:
            stored = self.answers[call_key(hook, board, data)]
        except KeyError:
            raise OffPath(hook) from None
        return restored_answer(hook, stored, data)

    def on(self, board: Board) -> Model:
        """The model answer on `board`, as far as the table knows it."""

        def ask(hook: str) -> Callable[..., Any]:
            return lambda csp, *args: self.answer(hook, board, *args)

        strategy = Strategy("model answer (stored)", ask("select_variable"), ask("order_values"), forward_check=ask("forward_check"))
        return Model(strategy, {hook: partial(self.answer, hook, board) for hook in PROBED})


@dataclass(frozen=True)
class Divergence:
    """The first call where the student's hook and the model answer disagreed."""

    hook: str
    step: int  # the node being expanded (1 = the root)
    detail: str  # what the student's hook did, against the model answer

    def describe(self, board: str) -> str:
        where = "at the root" if self.step == 1 else f"at step {self.step}"
        return f"{self.hook} {self.detail} {where} of {board}"


@dataclass(frozen=True)
class SearchCall:
    """One call of a hook in a search: its input as a case (with the model answer's answer
    as `expected` when `known`: a student copy knows none off the model answer's path),
    its number among the hook's calls, what the student's hook did ({"value": ...} or
    {"error": ...}), and the search's first divergence before it (`after`)."""

    case: Case
    call: int
    returned: dict[str, Any]
    known: bool = True
    after: Divergence | None = None


@dataclass
class HookCalls:
    """One hook's calls in the search of one board."""

    calls: int = 0
    wrong: int = 0
    unchecked: int = 0  # calls the student copy could not check (off the model answer's path)
    first_wrong: SearchCall | None = None  # the first call it got wrong
    trivial: set[str] = field(default_factory=set)  # the input-independent answers that matched every call

    def note(self, case: Callable[[], Case], returned: Any, expected: Any, trivial_answers: dict[str, Any]) -> None:
        """Count one call: `returned` and `expected` as checked data (or {"error": why})."""
        self.calls += 1
        matching = {label for label, answer in trivial_answers.items() if answer == expected}
        self.trivial = matching if self.calls == self.unchecked + 1 else self.trivial & matching
        if returned != {"value": expected}:
            self.wrong += 1
            if self.first_wrong is None:
                self.first_wrong = SearchCall(replace(case(), expected=expected), self.calls, returned)


def _forward_check_detail(got: Domains | None, expected: Domains | None) -> str:
    if got is None:
        return "returned None (a dead end) where no constraint is violated yet"
    if expected is None:
        return "missed a dead end (the model answer returns None)"
    var = next(v for v in sorted(expected) if tuple(got.get(v, ())) != tuple(expected[v]))
    return f"gave variable {var} the domain {handout_domain(got.get(var, ()))} where the model answer gives {handout_domain(expected[var])}"


def _trivial(hook: str, args: tuple[Any, ...]) -> dict[str, Any]:
    """What each input-independent answer of `hook` gives on these arguments, as data."""
    answers = {}
    for label, answer in BY_NAME[hook].trivial:
        try:
            answers[label] = as_data(hook, answer(*args))
        except Exception:  # noqa: BLE001 (a probe that does not fit this input matches nothing)
            continue
    return answers


#: The model answer's answer to a call the student copy cannot check.
UNKNOWN: Any = object()


def _asked(call: Callable[[Any], Any], hook: Any) -> Any:
    """`call(hook)`: the model answer's answer, or UNKNOWN when the copy does not know it."""
    try:
        return call(hook)
    except OffPath:
        return UNKNOWN


def unchecked_board(calls: int = 1) -> HookCalls:
    """A board whose calls (`calls` of them) the student copy could not check at all."""
    return HookCalls(calls=calls, unchecked=calls)


class CallFound(Exception):
    """Raised by a watcher told to stop at one call (`stop_at`): that call, as a case."""

    def __init__(self, hook: str, call: SearchCall):
        super().__init__(f"{hook} call {call.call}")
        self.hook, self.call = hook, call


class Watcher:
    """Wraps the student's strategy: every call is compared with the model answer's.

    `board`: the board searched (to describe a wrong call as a case); `uncharged`: the
    model answer's work is not the item's time; `stop_at`: (hook, n) raises CallFound at
    the n-th call of hook (to show one).
    """

    def __init__(
        self, student: Strategy, model: Model | AnswerTable, board: Board, uncharged: Uncharged = nullcontext, stop_at: tuple[str, int] | None = None
    ):
        self.student, self.model = student, model.on(board).strategy
        self.board, self.uncharged, self.stop_at = board, uncharged, stop_at
        self.step = 0
        self.first: Divergence | None = None
        self.calls: dict[str, HookCalls] = {hook: HookCalls() for hook in HOOK_NAMES}

    def _case(self, domains: Domains, **args: Any) -> Callable[[], Case]:
        def make() -> Case:
            return Case(
                f"in the search of this board, node {self.step}",
                "a call the grader made while solving the board: the same rule as the named cases",
                {"domains": {var: list(values) for var, values in domains.items()}, **args},
                tuple(self.board.rows_text()),
                self.board.rule,
                self.board.mines,
            )

        return make

    def _note(
        self, hook: str, case: Callable[[], Case], returned: Any, expected: Any, args: tuple[Any, ...], detail: Callable[[], str] | None
    ) -> None:
        """Record the call; keep the first divergence of the search. `expected` is
        UNKNOWN for a call the student copy cannot check (off the model answer's path)."""
        record = self.calls[hook]
        if expected is UNKNOWN:
            record.calls += 1
            record.unchecked += 1
            if self.stop_at == (hook, record.calls):
                raise CallFound(hook, SearchCall(case(), record.calls, returned, known=False, after=self.first))
            return
        record.note(case, returned, expected, _trivial(hook, args))
        if self.first is None and detail is not None and returned != {"value": expected}:
            self.first = Divergence(hook, self.step, detail())
        if self.stop_at == (hook, record.calls):
            raise CallFound(hook, SearchCall(replace(case(), expected=expected), record.calls, returned))

    def _failed(self, hook: str, case: Callable[[], Case], error: HookFailure, expected: Callable[[], Any], args: tuple[Any, ...]) -> None:
        """Record a call that raised or broke the hook's contract: a wrong call of `hook`
        (the board counts against it), and the search's divergence if none came before."""
        with self.uncharged():
            known = _asked(lambda _: expected(), None)
        if known is not UNKNOWN:
            self._note(hook, case, {"error": str(error)}, known, args, lambda: f"failed ({error})")
            return
        record = self.calls[hook]  # off the path the student copy knows: no answer raises, so it is wrong all the same
        record.calls += 1
        record.wrong += 1
        if record.first_wrong is None:
            record.first_wrong = SearchCall(case(), record.calls, {"error": str(error)}, known=False)

    def forward_check(self, csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
        self.step += 1
        student, model = self.student.forward_check, self.model.forward_check
        assert student is not None and model is not None
        try:
            got = student(csp, domains, assigned)
        except HOOK_FAILURES as error:
            self._failed(
                "forward_check",
                self._case(domains, assigned=assigned),
                error,
                lambda: as_data("forward_check", model(csp, dict(domains), assigned)),
                (csp, domains, assigned),
            )
            raise
        with self.uncharged():
            expected = _asked(lambda check: check(csp, dict(domains), assigned), self.model.forward_check)
            self._note(
                "forward_check",
                self._case(domains, assigned=assigned),
                {"value": as_data("forward_check", got)},
                expected if expected is UNKNOWN else as_data("forward_check", expected),
                (csp, domains, assigned),
                lambda: _forward_check_detail(got, expected),
            )
        return got

    def select_variable(self, csp: CSP, domains: Domains, unassigned: Sequence[int]) -> int:
        try:
            got = self.student.select_variable(csp, domains, unassigned)
        except HOOK_FAILURES as error:
            self._failed(
                "select_variable",
                self._case(domains, unassigned=list(unassigned)),
                error,
                lambda: self.model.select_variable(csp, dict(domains), list(unassigned)),
                (csp, domains, list(unassigned)),
            )
            raise
        with self.uncharged():
            expected = _asked(lambda select: select(csp, dict(domains), list(unassigned)), self.model.select_variable)
            self._note(
                "select_variable",
                self._case(domains, unassigned=list(unassigned)),
                {"value": got},
                expected,
                (csp, domains, list(unassigned)),
                lambda: f"chose variable {got} where the model answer chooses {expected}",
            )
        return got

    def order_values(self, csp: CSP, var: int, domains: Domains) -> Any:
        try:
            got = self.student.order_values(csp, var, domains)
        except HOOK_FAILURES as error:
            self._failed(
                "order_values",
                self._case(domains, var=var),
                error,
                lambda: list(self.model.order_values(csp, var, dict(domains))),
                (csp, var, domains),
            )
            raise
        with self.uncharged():
            expected = _asked(lambda order: list(order(csp, var, dict(domains))), self.model.order_values)
            self._note(
                "order_values",
                self._case(domains, var=var),
                {"value": list(got)},
                expected,
                (csp, var, domains),
                lambda: f"ordered {list(got)} where the model answer orders {expected}",
            )
        return got

    def strategy(self) -> Strategy:
        return Strategy(self.student.name, self.select_variable, self.order_values, forward_check=self.forward_check)


def constraint_probes(hook: str, board: Board, model: Model | AnswerTable) -> list[Case]:
    """Cases of `hook` (which takes a scope and domains) from the model answer's search of
    `board`: at each of its first PROBES nodes, one constraint (the mine count first, then
    the clues from the last) with that node's domains, and the model's answer. The
    student's forward_check need not call such a hook, so these are asked of it apart, as
    hook cases. (OffPath in a student copy that does not carry this board.)"""
    from solvers.csp import build_csp
    from solvers.engine import search

    model = model.on(board)
    cases: list[Case] = []
    model_check = model.strategy.forward_check
    assert model_check is not None

    def recording(csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
        if len(cases) < PROBES and csp.constraints:
            scope = list(csp.constraints[-(len(cases) + 1) % len(csp.constraints)].scope)
            cases.append(
                Case(
                    f"node {len(cases) + 1} of the model answer's search of this board",
                    "a call of the search of a real board: the same rule as the named cases",
                    {"scope": scope, "domains": {var: list(values) for var, values in domains.items()}},
                    tuple(board.rows_text()),
                    board.rule,
                    board.mines,
                    as_data(hook, model.probed[hook](scope, domains)),
                )
            )
        return model_check(csp, domains, assigned)

    search(build_csp(board), Strategy("probes", model.strategy.select_variable, model.strategy.order_values, forward_check=recording), "first")
    return cases


#: How a board's questions for a probed hook are built, by `HookSpec.probe`.
PROBE_BUILDERS: dict[Probe, Callable[[str, Board, Model | AnswerTable], list[Case]]] = {
    "constraints": constraint_probes,
}


def board_probes(hook: str, board: Board, model: Model | AnswerTable) -> list[Case]:
    """The questions the grader asks `hook` about its searches of `board`, built as the
    hook's table entry says (`HookSpec.probe`)."""
    return PROBE_BUILDERS[BY_NAME[hook].probe](hook, board, model)


def probe_calls(hook: str, cases: list[Case], results: list[dict[str, Any]]) -> HookCalls:
    """The student's answers to one board's `board_probes`, as that board's calls."""
    spec = BY_NAME[hook]
    calls = HookCalls()
    for case, result in zip(cases, results):
        args = tuple(case.args[p.name] if p.codec is not DOMAINS else domains_of(case.args[p.name]) for p in spec.params)
        calls.note(partial(replace, case), result, case.expected, _trivial(hook, args))
    return calls
