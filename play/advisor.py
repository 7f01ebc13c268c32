"""Who gives the game's hints and plays its auto moves: an `Advisor`.

The full kit's advisor is the reference agent, with its layer and reason for every move.
The student copy has no reference agent: there the advisor is the student's own
`choose_move` (assignment/agent.py) once it is written, and there is none before.
Exact probabilities (the overlay) come from the full kit's counter, likewise. Both live
in the answer key (`answerkey.agent`), which this module asks for in one place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from solvers.board import Cell
from solvers.cliargs import instructor_only

from .view import Move, View

if TYPE_CHECKING:
    from .evaluate import GameResult
    from .levels import Level, RuleSet


@dataclass(frozen=True)
class Advice:
    """A move and why, in one line."""

    move: Move
    text: str


class Advisor(Protocol):
    def advise(self, view: View) -> Advice: ...


class ReferenceAdvisor:
    """The reference agent: the move, its layer and its reason."""

    def __init__(self, rules: str):
        from answerkey.agent.agent import Agent
        from answerkey.agent.decision import LAYER_NAMES

        self.agent, self.layers = Agent(rules, trust_flags=False), LAYER_NAMES

    def advise(self, view: View) -> Advice:
        decision = self.agent.decide(view)
        layer = self.layers[decision.layer]
        reason = decision.reason.removeprefix(f"{layer}: ")  # the layer named once
        return Advice(decision.move, f"{decision.move} -- {layer}: {reason}")


class StudentAdvisor:
    """A student's `choose_move`: the move, with no reason but whose it is."""

    def __init__(self, choose_move: Callable[[View], Move]):
        self.choose_move = choose_move

    def advise(self, view: View) -> Advice:
        move = self.choose_move(view)
        return Advice(move, f"{move} -- your agent (assignment/agent.py)")


def written_agent() -> Callable[[View], Move] | None:
    """The student's `choose_move` from assignment/agent.py, once it is written (None for
    the stub, or for one that fails on the simplest board)."""
    try:
        choose_move = importlib.import_module("assignment.agent").choose_move
        choose_move(View(1, 2, 1, ((1, -1),)))  # a stub raises NotImplementedError at once
    except Exception:
        return None
    return choose_move


def has_reference_agent() -> bool:
    """True in the instructor's kit, whose answer key holds the reference agent."""
    return instructor_only("the reference agent") is None


def load_advisor(rules: str) -> Advisor | None:
    """The reference agent if this kit has it, else the student's written agent, else None."""
    if has_reference_agent():
        return ReferenceAdvisor(rules)
    choose_move = written_agent()
    return StudentAdvisor(choose_move) if choose_move is not None else None


def load_probabilities() -> Callable[[View], dict[Cell, Fraction]] | None:
    """Every hidden cell's exact mine probability, where the full kit's counter exists."""
    if not has_reference_agent():
        return None
    from answerkey.agent.probability import probabilities

    return lambda view: probabilities(view).as_dict()


def load_reference_games() -> Callable[[Level, int, int, RuleSet, int], Iterator[GameResult]] | None:
    """The reference agent's benchmark games (level, games, first seed, rules, jobs), where
    the full kit has it."""
    if not has_reference_agent():
        return None
    from answerkey.agent.benchmark import reference_games

    return reference_games
