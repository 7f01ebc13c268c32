"""Asking a solver's hooks, with every answer checked against the hook's contract.

The grader runs each search, game and SAT solve itself and asks the hooks one question at
a time through an `Asker`: a sandboxed worker for student code (`grader.sandbox.host`),
or `LocalAsker` for the reference, which goes through the very same conversions in our
own process. An answer comes back as plain data; `Hooks` turns it into what the engine
uses only after checking it, and raises HookContractError otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from grader.errors import HookError
from grader.hooktable import AGENT_NAME, BY_NAME, ENGINE_HOOKS, Unfit, is_int
from grader.sandbox.budget import CallTimes
from grader.sandbox.child import Answerer
from grader.sandbox.host import Asker, Recording, StudentRaised
from grader.sandbox.wire import Answer, BoardRequest, Raised, Upto, batch_ends, from_data, quote
from play.view import ACTIONS, Move, View
from solvers.board import Board
from solvers.engine import Strategy


class HookContractError(HookError):
    """Hook `hook` returned something its contract does not allow."""

    def __init__(self, hook: str, message: str):
        super().__init__(message, hook, "contract")


#: What a task may raise that costs that task only.
TASK_FAILURES = (HookContractError, StudentRaised)


class LocalAsker:
    """Hook functions of our own (the reference), asked like a worker but in this process
    (no time limit: the model answer is trusted)."""

    def __init__(self, functions: dict[str, Callable[..., Any]]):
        self.answerer = Answerer(SimpleNamespace(**functions), Path("reference"))  # type: ignore[arg-type]
        self.started = time.thread_time()
        self.calls = CallTimes()

    def begin(self, limit: float) -> None:
        self.started = time.thread_time()
        self.calls = CallTimes()

    def send(self, request: dict[str, Any]) -> None:
        if request["op"] == "board":
            self.answerer.use_board(request)

    def call(self, hook: str, args: dict[str, Any], limit: float | None = None) -> Any:
        reply = self._answer(hook, args)
        if isinstance(reply, Raised):
            raise StudentRaised(reply.message, reply.fatal, hook, reply.kind, reply.where)
        return reply.value

    def call_all(self, asks: list[dict[str, Any]], upto: Upto) -> list[Answer | StudentRaised]:
        """A batch's replies, as a worker gives them (`host.Worker.call_all`)."""
        replies: list[Answer | StudentRaised] = []
        for ask in asks:
            if ask["op"] == "board":
                self.send(ask)
                continue
            reply = self._answer(ask["hook"], ask["args"])
            replies.append(StudentRaised(reply.message, reply.fatal, ask["hook"], reply.kind, reply.where) if isinstance(reply, Raised) else reply)
            if batch_ends(reply, ask["hook"], ask["args"], upto):
                break
        return replies

    def recorded(self, board: BoardRequest) -> AbstractContextManager[Recording]:
        """Calls are answered here as they are made: the board is noted, nothing recorded."""
        self.answerer.use_board(board)
        return nullcontext(Recording())

    def _answer(self, hook: str, args: dict[str, Any]) -> Answer | Raised:
        started = time.monotonic()
        reply = self.answerer.answer(hook, args)
        self.calls.add(hook, time.monotonic() - started)
        return reply

    def end(self) -> None:
        pass

    def again(self) -> None:
        """One process: the item goes on where it is, its time with it."""

    def used(self) -> float:
        return time.thread_time() - self.started

    def spent(self) -> str:
        return f"{self.used():.1f} s of CPU"

    @contextmanager
    def uncharged(self) -> Iterator[None]:
        started = time.thread_time()
        try:
            yield
        finally:
            self.started += time.thread_time() - started

    def take_output(self) -> str:
        return ""


class Hooks:
    """A solver's hooks as the grader uses them: one asker (its item's time running), one
    board at a time; `call_limit`: seconds one call may take, if less than the whole item."""

    def __init__(self, asker: Asker, call_limit: float | None = None):
        self.asker, self.call_limit = asker, call_limit

    def use_board(self, board: Board) -> None:
        """Tell the asker which board the next calls are about (it builds the same CSP)."""
        self.asker.send({**board_request(board)})

    def call(self, hook: str, **args: Any) -> Any:
        """The answer to arguments already as wire data, as Python values (lists,
        frozensets, dicts, ints...), unchecked."""
        return from_data(self.asker.call(hook, args, self.call_limit))

    def call_all(self, calls: Sequence[tuple[str, dict[str, Any], Board | None]], upto: Upto) -> list[Answer | StudentRaised]:
        """The replies to calls (hook, arguments as wire data, the board they are about or
        None) whose arguments do not depend on earlier answers, asked as one batch: each
        one's reply in turn, up to where the batch ends (`upto`: after a fatal raise, or
        after any failure; see `wire`). Read each with `answered`."""
        assert self.call_limit is None, "a batch has no limit per call"
        asks: list[dict[str, Any]] = []
        for hook, args, board in calls:
            if board is not None:
                asks.append({**board_request(board)})
            asks.append({"op": "call", "hook": hook, "args": args})
        return self.asker.call_all(asks, upto)

    @staticmethod
    def answered(reply: Answer | StudentRaised) -> Any:
        """A reply of `call_all` as `call` gives it: the answer as Python values, unchecked,
        or what the student's function raised, raised."""
        if isinstance(reply, StudentRaised):
            raise reply
        return from_data(reply.value)

    def ask(self, hook: str, *args: Any) -> Any:
        """The answer to the hook's positional arguments (the CSP is not sent: the worker
        builds it from the board), unchecked."""
        spec = BY_NAME[hook]
        return self.call(hook, **spec.wire_arguments(spec.named(args)))

    # --- the search hooks, checked ------------------------------------------------------

    def checked(self, hook: str, *args: Any) -> Any:
        """The answer of a hook the engine calls, as the engine uses it, once its table
        entry's contract allows it for this input (`HookSpec.fits`); HookContractError
        otherwise, quoting the student's values within bounds."""
        spec = BY_NAME[hook]
        answer = self.ask(hook, *args)
        try:
            return spec.fits(answer, spec.named(args))
        except Unfit as unfit:
            words = unfit.words.format(**{name: quote(value) for name, value in unfit.shown.items()})
            raise HookContractError(hook, f"{hook} {words}") from None

    def strategy(self) -> Strategy:
        """The engine's strategy, every call a question to the asker."""
        return Strategy("student", **{spec.slot: partial(self.checked, spec.name) for spec in ENGINE_HOOKS})

    # --- the SAT exercise and the agent -------------------------------------------------

    def choose_move(self, view: View) -> Move:
        return checked_move(self.ask(AGENT_NAME, view))


def checked_move(answer: Any) -> Move:
    """An answer of choose_move (as `Hooks.call` gives it) as a Move, once it is one: an
    action and a cell of two ints (its legality is the game's to check);
    HookContractError otherwise."""
    if not (isinstance(answer, tuple) and len(answer) == 3 and answer[0] == "move"):
        raise HookContractError("choose_move", f"choose_move returned {quote(answer)}, not a Move")
    _, action, cell = answer
    if action not in ACTIONS or not (isinstance(cell, list) and len(cell) == 2 and all(map(is_int, cell))):
        shown = repr(action) if action in ACTIONS else f"{quote(action)} (actions: {', '.join(ACTIONS)})"
        raise HookContractError("choose_move", f"choose_move returned a Move with action {shown} and cell {quote(cell)}")
    return Move(action, (cell[0], cell[1]))


def board_request(board: Board) -> BoardRequest:
    """The request that tells an asker which board the next calls are about."""
    return {"op": "board", "board": board.rows_text(), "rule": board.rule, "mines": board.mines}
