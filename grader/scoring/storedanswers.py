"""The model answer of the hooks, live or as a student copy stores it.

The course's grader asks the model answer itself (`Model`). The student copy has no
model answer: it has the model answer's answers along its own searches of the public
boards (`AnswerTable`, written by the release with `stored_answer`, read back with
`restored_answer`, each hook's form as its table entry says: `HookSpec.stored`). A call
whose input is not there came after the search had left the model answer's path
(`OffPath`). A copy already released carries answers in this form: `tests/test_stored_answers.py`
reads one written by an earlier kit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from grader.hooktable import BY_NAME, CSP_HOOKS, DOMAINS, ENGINE_HOOKS
from grader.inputs.searchanswers import call_key
from solvers.board import Board
from solvers.engine import Strategy

#: The hooks the engine does not call that are asked about its searches all the same.
PROBED = tuple(spec.name for spec in CSP_HOOKS if spec.probe)


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
    CSP, by name, domains as {variable: [values]}, sequences as lists."""
    sent = [p for p in BY_NAME[hook].params if p.codec.sent]
    return {p.name: _plain(value, p.codec is DOMAINS) for p, value in zip(sent, args)}


def _plain(value: Any, domains: bool) -> Any:
    """An argument as plain data: domains as {variable: [values]}, a sequence as a list."""
    if domains:
        return {var: list(values) for var, values in value.items()}
    return list(value) if isinstance(value, (list, tuple)) else value


def stored_answer(hook: str, answer: Any, args: Mapping[str, Any]) -> Any:
    """`answer` (the model's, as data) as the release stores it: a domains answer stored
    as "the domains changed" as the variables it changed ({"changed": [[var, values], ...]}),
    any other as it is."""
    if BY_NAME[hook].stored != "the domains changed" or answer is None:
        return answer
    return {"changed": [[var, values] for var, values in answer.items() if args["domains"].get(var) != values]}


def restored_answer(hook: str, stored: Any, args: Mapping[str, Any]) -> Any:
    """The model answer's return value from its stored form (`stored_answer`)."""
    form = BY_NAME[hook].stored
    if form == "a tuple":
        return tuple(stored)
    if form != "the domains changed" or stored is None:
        return stored
    changed = {int(var): tuple(values) for var, values in stored["changed"]}
    return {var: changed.get(var, tuple(values)) for var, values in args["domains"].items()}


class AnswerTable:
    """The model answer as the student copy carries it: its answers (by `call_key`) along
    its own searches of the public boards. `missing`: why the copy has none ("" when it
    has them)."""

    def __init__(self, answers: Mapping[str, Any], missing: str = ""):
        self.answers, self.missing = answers, missing

    def answer(self, hook: str, board: Board, *args: Any) -> Any:
        """The model answer's return value for this call; OffPath when it is not stored."""
        data = call_arguments(hook, *args)
        try:
            stored = self.answers[call_key(hook, board, data)]
        except KeyError:
            raise OffPath(hook) from None
        return restored_answer(hook, stored, data)

    def _engine_answer(self, hook: str, board: Board) -> Callable[..., Any]:
        """The stored answers of an engine-called hook, called as the engine calls it (the CSP first)."""
        return lambda csp, *args: self.answer(hook, board, *args)

    def on(self, board: Board) -> Model:
        """The model answer on `board`, as far as the table knows it."""
        slots = {spec.slot: self._engine_answer(spec.name, board) for spec in ENGINE_HOOKS}
        return Model(Strategy("model answer (stored)", **slots), {hook: partial(self.answer, hook, board) for hook in PROBED})
