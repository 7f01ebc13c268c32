"""Grading a playing agent: the games are played here, the agent is asked one move at a time.

The `Game`, and so the mine layout, never enters the process that runs student code: each
visible board goes to a sandboxed worker as a `choose_move` question and one checked move
comes back. A crash, an illegal move or a move that takes too long loses that game; the
worker is replaced for the next game, within the time allowed for all the games.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from grader.hooktable import AGENT_NAME
from grader.inputs.config import AgentGrading
from grader.reference import reference_agent
from grader.sandbox.host import Asker, Limits, StudentRaised, WorkerFailure, start_worker, stop_worker
from grader.sandbox.isolation import Sandbox, Scope
from grader.sandbox.tasks import HUNG_AFTER, Outcome
from grader.scoring.hookcalls import HookContractError, Hooks, LocalAsker
from play.advisor import load_probabilities
from play.evaluate import (
    AgentFailure,
    ChooseMove,
    GameResult,
    describe_losses,
    first_lost_ways,
    play_agent,
    wilson_interval,
)
from play.levels import RuleSet, parse_level
from play.view import Move, View

MOVE_TIMEOUT = 10.0  # seconds for one move


class RemoteAgent:
    """A `choose_move` callable that asks a sandboxed worker (or the reference, here).

    All the games share `budget` seconds (see `Budget`), one move at most MOVE_TIMEOUT of
    them; after HUNG_AFTER moves ran out of time, the remaining games are lost at once. A
    failure of the grader's own is retried once, then marks the games `ungraded`.
    """

    def __init__(self, source: str, rules: str, limits: Limits, budget: float, sandbox: Sandbox | None, scope: Scope):
        self.budget = budget
        self.start: Callable[[float], Asker]
        if source == "reference":
            choose = reference_agent(rules)
            self.start = lambda limit: LocalAsker({AGENT_NAME: choose})
        else:
            if sandbox is None:
                raise ValueError("student code is only ever run in a sandbox")
            self.start = start_worker(sandbox, sandbox.submission(Path(source), scope), limits)
        self.asker: Asker | None = None
        self.used = 0.0  # seconds charged to workers already stopped
        self.load_error: str | None = None
        self.ungraded: str | None = None
        self.timeouts = 0

    def __call__(self, view: View) -> Move:
        if self.ungraded or self.load_error:
            raise AgentFailure(self.ungraded or self.load_error)
        if self.timeouts >= HUNG_AFTER:
            raise AgentFailure(f"not played: choose_move ran out of time in {HUNG_AFTER} games before this one")
        try:
            return self._move(view)
        except WorkerFailure as failure:
            self.close()
            if not failure.ours:
                self.timeouts += failure.kind == "timeout"
                raise AgentFailure(failure.message) from None
        try:  # the grader's failure, not the agent's: once more, in a fresh worker
            return self._move(view)
        except WorkerFailure as failure:
            self.close()
            if failure.ours:
                self.ungraded = failure.message
            self.timeouts += failure.kind == "timeout"
            raise AgentFailure(failure.message) from None

    def _move(self, view: View) -> Move:
        left = self.budget - self.spent()
        if left <= 0:
            raise AgentFailure("out of time: the time allowed for all the games is used up")
        if self.asker is None:
            try:
                asker = self.start(min(left, MOVE_TIMEOUT))
            except WorkerFailure as failure:
                if not failure.ours:
                    self.load_error = failure.message
                raise
            asker.begin(left)
            self.asker = asker
        try:
            return Hooks(self.asker, MOVE_TIMEOUT).choose_move(view)
        except (StudentRaised, HookContractError) as error:
            raise AgentFailure(str(error)) from None

    def spent(self) -> float:
        """Seconds charged to the games so far."""
        return self.used + (self.asker.used() if self.asker is not None else 0.0)

    def close(self) -> None:
        if self.asker is not None:
            self.used += self.asker.used()
            stop_worker(self.asker)
            self.asker = None


def play_games(agent: ChooseMove, grading: AgentGrading, first_seed: int) -> list[GameResult]:
    """The configured games, game i with seed `first_seed + i`, each move asked of `agent`."""
    rules = cast(RuleSet, grading.rules)  # checked when the config was read
    level = parse_level(grading.level, rules)
    return [play_agent(agent, level, first_seed + index, rules) for index in range(grading.games)]


#: How many different ways of losing a report names.
LOST_WAYS_SHOWN = 3


def games_result(games: list[GameResult]) -> dict[str, Any]:
    """Wins, the win rate and its 95% interval, how the games were lost (counted), and
    the first ways they were lost, by game number: no seed is kept, so nothing shown lets
    a student replay them. Where the answer key is at hand, an opened mine is told apart
    as a guess or a cell the agent's view proved to be a mine."""
    wins = sum(game.won for game in games)
    ways = first_lost_ways(games, LOST_WAYS_SHOWN, load_probabilities())
    return {"games": len(games), "wins": wins, "win_rate": wins / max(len(games), 1),
            "ci95": list(wilson_interval(wins, len(games))), "lost": describe_losses(games),
            "errors": sum(not game.won and game.error is not None for game in games),
            "losses": [{"game": way.game, "moves": way.result.moves, "reason": way.reason, "games": way.games,
                        "at": way.at()} for way in ways]}


def play_agent_games(source: str, grading: AgentGrading, first_seed: int, limits: Limits,
                     sandbox: Sandbox | None, scope: Scope = "siblings") -> Outcome:
    """Play the configured games, from `first_seed`, with the agent in `source` ("reference"
    or a file defining choose_move): their `games_result` as the answer of one task."""
    agent = RemoteAgent(source, grading.rules, limits, grading.timeout, sandbox, scope)
    output = ""
    try:
        result = games_result(play_games(agent, grading, first_seed))
    finally:
        output = agent.asker.take_output() if agent.asker is not None else ""
        seconds = agent.spent()
        agent.close()
    if agent.ungraded is not None:
        return Outcome("ungraded", {}, f"{agent.ungraded} (tried twice)", output, seconds)
    return Outcome("ok", {"result": result}, output=output, seconds=seconds)
