"""The model answer's answers along its own searches of the public boards, for the student
copy (`grader/inputs/searchanswers.py` says what it is and how the copy reads it).

Every call the model answer's search of a board makes (all solutions, as the grader asks)
is recorded with its answer, and so is every question the grader asks a probed hook about
that search (`board_probes`). Nothing else: no hidden board, no hook case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from grader.hooktable import ENGINE_HOOKS
from grader.inputs.searchanswers import call_key
from grader.scoring.grading import model_answer
from grader.scoring.hookcases import as_data
from grader.scoring.probes import board_probes
from grader.scoring.storedanswers import PROBED, AnswerTable, Model, call_arguments, restored_answer, stored_answer
from solvers.board import Board
from solvers.csp import build_csp
from solvers.engine import Strategy, search


def _recording(model: Model, board: Board, entries: dict[str, Any]) -> Model:
    """`model`, writing each answer it gives on `board` into `entries` (by `call_key`):
    every hook the engine calls (by its table entry's `slot`) and every probed hook."""

    def record(hook: str, answer: Callable[..., Any], takes_csp: bool = True) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            given = args[1:] if takes_csp else args
            value = answer(*args)
            data = call_arguments(hook, *given)
            stored = stored_answer(hook, as_data(hook, value), data)
            assert as_data(hook, restored_answer(hook, stored, data)) == as_data(hook, value), f"{hook} does not read back"
            entries[call_key(hook, board, data)] = stored
            return value

        return call

    slots = {spec.slot: record(spec.name, answer) for spec in ENGINE_HOOKS if (answer := getattr(model.strategy, spec.slot)) is not None}
    return Model(Strategy("model answer (recorded)", **slots), {hook: record(hook, answer, takes_csp=False) for hook, answer in model.probed.items()})


def path_answers(boards: Iterable[Board]) -> dict[str, Any]:
    """The model answer's answer to every call of its searches of `boards`, and to every
    question the grader asks about them, by `call_key`; each checked to read back alike,
    and the questions to replay from the stored answers alone."""
    model = model_answer()
    assert isinstance(model, Model), "the release runs in the instructor's kit"
    entries: dict[str, Any] = {}
    for board in boards:
        recorded = _recording(model, board, entries)
        search(build_csp(board), recorded.strategy, "all")
        replayed = AnswerTable(entries)
        for hook in PROBED:
            probes = board_probes(hook, board, recorded)
            assert board_probes(hook, board, replayed) == probes, f"the stored answers do not replay {board.rows_text()}"
    return entries
