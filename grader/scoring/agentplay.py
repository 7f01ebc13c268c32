"""Grading a playing agent: the games are played here, the agent is asked one move at a time.

The `Game`, and so the mine layout, never enters the process that runs student code: each
visible board goes to a sandboxed worker as a `choose_move` question and one checked move
comes back. A crash, an illegal move or a move that takes too long loses that game; the
worker is replaced for the next game, within the time allowed for all the games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from grader.inputs.config import AgentGrading
from grader.sandbox.host import Asker, Limits, StudentRaised, WorkerFailure, start_worker, stop_worker
from grader.sandbox.isolation import Sandbox, Scope
from grader.scoring.hookcalls import HookContractError, Hooks, LocalAsker
from play.evaluate import AgentFailure, ChooseMove, GameResult, play_agent, wilson_interval
from play.levels import RuleSet, parse_level
from play.view import Move, View

MOVE_TIMEOUT = 10.0  # seconds for one move


class RemoteAgent:
    """A `choose_move` callable that asks a sandboxed worker (or the reference, here)."""

    def __init__(self, source: str, rules: str, limits: Limits, budget: float, sandbox: Sandbox | None, scope: Scope):
        self.deadline = time.monotonic() + budget
        self.start: Callable[[float], Asker]
        if source == "reference":
            from answerkey.agent.agent import Agent

            choose = Agent(rules).choose_move
            self.start = lambda timeout: LocalAsker({"choose_move": choose})
        else:
            if sandbox is None:
                raise ValueError("student code is only ever run in a sandbox")
            self.start = start_worker(sandbox, sandbox.submission(Path(source), scope), limits)
        self.asker: Asker | None = None
        self.load_error: str | None = None

    def __call__(self, view: View) -> Move:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise AgentFailure("out of time: the time allowed for all the games is used up")
        if self.load_error:
            raise AgentFailure(self.load_error)
        try:
            self.asker = self.asker or self.start(min(left, MOVE_TIMEOUT))
        except WorkerFailure as failure:
            self.load_error = failure.message
            raise AgentFailure(failure.message) from None
        try:
            return Hooks(self.asker, time.monotonic() + min(left, MOVE_TIMEOUT)).choose_move(view)
        except (StudentRaised, HookContractError) as error:
            raise AgentFailure(str(error)) from None
        except WorkerFailure as failure:
            self.close()
            raise AgentFailure(f"no move within {min(left, MOVE_TIMEOUT):g} s" if failure.status == "timeout"
                               else failure.message) from None

    def close(self) -> None:
        if self.asker is not None:
            stop_worker(self.asker)
            self.asker = None


def play_games(agent: ChooseMove, grading: AgentGrading, first_seed: int) -> list[GameResult]:
    """The configured games, game i with seed `first_seed + i`, each move asked of `agent`."""
    rules = cast(RuleSet, grading.rules)  # checked when the config was read
    level = parse_level(grading.level, rules)
    return [play_agent(agent, level, first_seed + index, rules) for index in range(grading.games)]


def games_result(games: list[GameResult]) -> dict[str, Any]:
    """Wins, the win rate and its 95% interval, and the lost games by number: no seed is
    kept, so nothing shown lets a student replay them."""
    wins = sum(game.won for game in games)
    lost = [(index, game) for index, game in enumerate(games) if not game.won]
    return {"games": len(games), "wins": wins, "win_rate": wins / max(len(games), 1),
            "ci95": list(wilson_interval(wins, len(games))),
            "errors": [{"game": index, "reason": game.error} for index, game in lost if game.error],
            "losses": [{"game": index, "moves": game.moves, "reason": game.error or "opened a mine"}
                       for index, game in lost]}


def play_agent_games(source: str, grading: AgentGrading, first_seed: int, limits: Limits,
                     sandbox: Sandbox | None, scope: Scope = "siblings") -> dict[str, Any]:
    """Play the configured games, from `first_seed`, with the agent in `source` ("reference"
    or a file defining choose_move); an outcome like run_tasks'."""
    started = time.perf_counter()
    agent = RemoteAgent(source, grading.rules, limits, grading.timeout, sandbox, scope)
    output = ""
    try:
        result = games_result(play_games(agent, grading, first_seed))
    finally:
        output = agent.asker.take_output() if agent.asker is not None else ""
        agent.close()
    return {"status": "ok", "result": result, "seconds": time.perf_counter() - started, "output": output}
