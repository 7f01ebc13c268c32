"""The grader's one door to the answer key (the `answerkey` package), which the student
copy of the kit leaves out.

Everything in the grader that needs the reference asks here, so that a student copy
says in one line that a command belongs to the instructor's kit instead of raising an
ImportError. A student copy never needs to: its problem files carry every `expect`,
`grader/scoring/hook_cases.yaml` carries the expected output of every hook case, and
`grader/inputs/search_answers.json` the model answer's answers along its own searches of
the public boards (`grader.scoring.searchcheck.AnswerTable`).

The instructor's commands (`answerkey/instructor/`) are not reached from here: they use
the grader's scoring, which uses this door, so the grader's commands reach them from
above both (`grader/commands/instructor.py`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from grader.errors import UserError
from grader.hooktable import HOOKS
from solvers.board import Board
from solvers.cliargs import instructor_only

if TYPE_CHECKING:
    from play.view import Move, View
    from solvers.trace_view import Explainer


class ReferenceUnavailable(UserError):
    """The answer key is not installed (a student copy of the kit)."""


def require_answer_key(what: str) -> None:
    """Return when the answer key is installed; else ReferenceUnavailable saying that
    `what` belongs to the instructor's kit."""
    why = instructor_only(what)
    if why is not None:
        raise ReferenceUnavailable(why)


def reference_strategies() -> ModuleType:
    """`answerkey.strategies`: the reference hooks and the named strategies."""
    require_answer_key("the reference solution")
    from answerkey import strategies

    return strategies


def reference_hooks() -> dict[str, Callable[..., Any]]:
    """The model answer of every hook that has one (`HookSpec.reference`), by hook name."""
    require_answer_key("the reference solution")
    hooks = {}
    for spec in HOOKS:
        if spec.reference:
            module, _, name = spec.reference.rpartition(".")
            hooks[spec.name] = getattr(importlib.import_module(f"answerkey.{module}"), name)
    return hooks


def reference_agent(rules: str) -> Callable[[View], Move]:
    """The reference agent's `choose_move` under `rules`."""
    require_answer_key("the reference agent")
    from answerkey.agent.agent import Agent

    return Agent(rules).choose_move


def random_board(rng: random.Random, rows: int, cols: int, hints: int, mines: int) -> Board:
    """A board of `hints` clues on a random layout of `mines` mines, drawn with `rng` (for
    hook cases under a private seed)."""
    require_answer_key("drawing new hook cases")
    from answerkey.generate import hint_board

    return hint_board(rng, rows, cols, hints, mines)[0]


def reference_explainer() -> Explainer | None:
    """The bound rule's explanations for traces, or None in a student copy (its traces
    show what each step did, without the rule's reasons)."""
    if instructor_only("explanations") is not None:
        return None
    from answerkey.explain import explain

    return explain


def count_solutions(board: Board) -> int:
    """The exact number of layouts of a board whose file gives no `expect`."""
    require_answer_key("counting the solutions of a problem without `expect`")
    from answerkey.oracle import count_solutions as count

    return count(board)


def has_solution(board: Board) -> bool:
    """Whether any layout fits a board whose file gives no `expect` (Glucose 4.1)."""
    require_answer_key("checking a no-solution claim on a problem without `expect`")
    from answerkey.oracle import has_solution as solvable

    return solvable(board)
