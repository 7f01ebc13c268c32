"""Every hook answer in the grader's own searches, checked against the model answer.

While the grader searches a board with the student's hooks, each answer is compared with
what the model answer of the hooks (the handout's: one forward-checking pass, MRV, safe
first) gives on the very same input. Two things come of it:

- the first call where the search parted from the model answer (`Divergence`): when a
  board is lost, it names the hook to look at, and where;
- for each hook, the calls it got wrong (`HookCalls`): a hook is graded on what it does in
  real searches, not only on the named cases, so answering the named cases' inputs right
  and the boards' otherwise earns nothing.

The `Watcher` wraps every hook the engine calls alike, by its table entry (`HookSpec.slot`).
A CSP hook the engine does not call is asked apart (`grader/scoring/probes.py`). The model
answer's own work is not charged to the student's time (`Uncharged`). In a student copy
the model answer is its stored answers (`grader/scoring/storedanswers.py`): a call whose
input is not there is counted as not checked (`HookCalls.unchecked`), and a board with
such a call is not known to be right.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from grader.hooktable import BY_NAME, ENGINE_HOOKS, HookSpec, checked_domains
from grader.sandbox.host import StudentRaised
from grader.scoring.case import Case, Reply
from grader.scoring.hookcalls import HookContractError
from grader.scoring.hookcases import HOOK_NAMES, as_data, handout_domain
from grader.scoring.storedanswers import AnswerTable, Model, OffPath, call_arguments
from solvers.board import Board
from solvers.engine import Strategy

#: A context in which the grader's work is not charged to the student's item.
Uncharged = Callable[[], AbstractContextManager[object]]
#: What a hook's call may raise that ends the search of one board: a broken contract, an exception of the student's.
HOOK_FAILURES = (HookContractError, StudentRaised)
HookFailure = HookContractError | StudentRaised


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
    returned: Reply
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

    def note(self, case: Callable[[], Case], returned: Reply, expected: Any, trivial: Callable[[], dict[str, object]]) -> None:
        """Count one call: `returned` and `expected` as checked data (or {"error": why});
        `trivial` gives what each input-independent answer gives on its input (asked only
        while some of them matched every call before)."""
        self.calls += 1
        first = self.calls == self.unchecked + 1
        if first or self.trivial:
            matching = {label for label, answer in trivial().items() if answer == expected}
            self.trivial = matching if first else self.trivial & matching
        if returned != {"value": expected}:
            self.wrong += 1
            if self.first_wrong is None:
                self.first_wrong = SearchCall(replace(case(), expected=expected), self.calls, returned)


def _domains_detail(got: Any, expected: Any) -> str:
    """How a domains answer (as data) parted from the model answer's."""
    if got is None:
        return "returned None (a dead end) where no constraint is violated yet"
    if expected is None:
        return "missed a dead end (the model answer returns None)"
    var = next(v for v in sorted(expected) if tuple(got.get(v, ())) != tuple(expected[v]))
    return f"gave variable {var} the domain {handout_domain(got.get(var, ()))} where the model answer gives {handout_domain(expected[var])}"


def divergence_detail(spec: HookSpec, got: Any, expected: Any) -> str:
    """What the student's hook did at a search's first wrong call, against the model
    answer (both as data): a domains answer by its first differing variable, any other in
    the words of its table entry (`HookSpec.differs`)."""
    if spec.returns is checked_domains:
        return _domains_detail(got, expected)
    return spec.differs.format(got=got, expected=expected)


def trivial_data(hook: str, args: tuple[Any, ...]) -> dict[str, object]:
    """What each input-independent answer of `hook` gives on these arguments, as data
    (compared with the model answer's, nothing else)."""
    answers: dict[str, object] = {}
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

    def _case(self, hook: str, args: tuple[Any, ...]) -> Callable[[], Case]:
        """A call (the arguments after the CSP) as a case, made when a reason needs it."""

        def make() -> Case:
            return Case(
                f"in the search of this board, node {self.step}",
                "a call the grader made while solving the board: the same rule as the named cases",
                call_arguments(hook, *args),
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
        record.note(case, returned, expected, partial(trivial_data, hook, args))
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

    def _watched(self, spec: HookSpec) -> Callable[..., Any]:
        """The student's hook of the engine's `spec.slot`, each call compared with the model
        answer's on a fresh copy of the same input (its dicts and lists copied)."""
        hook, student, model = spec.name, getattr(self.student, spec.slot), getattr(self.model, spec.slot)

        def expected(csp: Any, *args: Any) -> Any:
            fresh = [dict(arg) if isinstance(arg, dict) else list(arg) if isinstance(arg, list) else arg for arg in args]
            return as_data(hook, model(csp, *fresh))

        def call(csp: Any, *args: Any) -> Any:
            if spec.starts_node:
                self.step += 1
            case = self._case(hook, args)
            try:
                got = student(csp, *args)
            except HOOK_FAILURES as error:
                self._failed(hook, case, error, lambda: expected(csp, *args), (csp, *args))
                raise
            with self.uncharged():
                answer, wanted = as_data(hook, got), _asked(lambda _: expected(csp, *args), None)
                self._note(hook, case, {"value": answer}, wanted, (csp, *args), lambda: divergence_detail(spec, answer, wanted))
            return got

        return call

    def strategy(self) -> Strategy:
        """The student's strategy, every hook the engine calls watched."""
        return Strategy(self.student.name, **{spec.slot: self._watched(spec) for spec in ENGINE_HOOKS})
