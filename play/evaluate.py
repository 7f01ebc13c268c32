"""Playing many seeded games with any agent, and summing them up.

Game i of a run uses seed `seed + i`, so a run is reproducible and two agents can be
compared on the same games. `evaluate_agent` plays any `choose_move(view) -> Move`
callable, such as a student's: a crash or an illegal move ends that game as a loss, and
the reason is kept. The win rate comes with a 95% Wilson score interval.

This module needs only the game (`play.game`, `play.levels`, `play.view`), not the
reference agent, so a student copy of the kit can ship it without the agent's code;
the reference agent's runs are in `answerkey.agent.benchmark`.
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .game import Game
from .levels import Level, RuleSet, parse_level
from .view import Move, View

ChooseMove = Callable[[View], Move]

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


@dataclass(frozen=True)
class GameResult:
    """One game: won or not, guesses the agent made (reference agent only), moves, and
    `error`: why the agent lost without opening a mine (it crashed or cheated), or None."""

    seed: int
    won: bool
    guesses: int = 0
    moves: int = 0
    error: str | None = None


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (default: 95%); (0, 1) for no games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


# --- one game ---------------------------------------------------------------------------


def describe_crash(error: BaseException) -> str:
    """`Type: message (file:line)` of the innermost frame, for a crashed agent."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


class AgentFailure(Exception):
    """An agent that could not give a move (raised by agents run elsewhere, with the reason)."""


def play_agent(choose_move: ChooseMove, level: Level, seed: int, rules: RuleSet = "classic") -> GameResult:
    """One game by any `choose_move` callable, one move per call.

    Every legal move reveals or flags a new cell, so a game ends after at most
    rows * cols moves. A raised exception or an illegal move is a loss with its reason.
    """
    game = Game(level, rules, seed)
    while not game.over:
        try:
            move = choose_move(game.view())
        except AgentFailure as failure:
            return GameResult(seed, False, 0, game.moves, f"move {game.moves + 1}: {failure}")
        except Exception as error:  # the agent's own bug: a loss, with the reason
            return GameResult(seed, False, 0, game.moves, f"move {game.moves + 1}: agent raised {describe_crash(error)}")
        problem = game.illegal(move)
        if problem is not None:
            return GameResult(seed, False, 0, game.moves, f"move {game.moves + 1}: illegal move: {problem}")
        game.apply(move)
    return GameResult(seed, game.status == "won", 0, game.moves)


# --- many games -------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """What a run of games comes to (the JSON of `python -m play bench`)."""

    level: str
    rules: str
    seed: int
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    guesses_per_game: float
    seconds: float
    games_per_second: float
    jobs: int = 1
    cpu_seconds: float = 0.0
    games_per_cpu_second: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        return data


def summarise(
    results: Iterable[GameResult], level: Level, rules: str, seed: int, seconds: float, jobs: int = 1, cpu_seconds: float = 0.0
) -> Summary:
    """Wins, the win rate and its 95% interval, guesses per game and speed (wall clock, and
    per CPU-second when `cpu_seconds` is given: one core's rate, whatever the jobs)."""
    results = list(results)
    games = len(results)
    wins = sum(r.won for r in results)
    return Summary(
        level=level.name if level.name != "custom" else f"{level.cols}x{level.rows}x{level.mines}",
        rules=rules,
        seed=seed,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        ci95=wilson_interval(wins, games),
        guesses_per_game=sum(r.guesses for r in results) / games if games else 0.0,
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        jobs=jobs,
        cpu_seconds=cpu_seconds,
        games_per_cpu_second=games / cpu_seconds if cpu_seconds > 0 else 0.0,
    )


def evaluate_agent(
    choose_move: ChooseMove, level: Level | str = "beginner", games: int = 100, seed: int = 0, rules: RuleSet = "classic"
) -> dict[str, Any]:
    """Play `games` seeded games (seeds `seed`, `seed + 1`, ...) with `choose_move`.

    `level` is a Level or a name `parse_level` reads ("beginner", "expert", "30x16x99").

    Returns {"level", "rules", "games", "wins", "win_rate", "ci95": [low, high],
    "errors": [{"game", "seed", "reason"}, ...], "seconds"}. A game in which the agent
    raised an exception or made an illegal move is lost and listed in "errors".
    """
    chosen = level if isinstance(level, Level) else parse_level(level, rules)
    started = time.perf_counter()
    results = [play_agent(choose_move, chosen, seed + i, rules) for i in range(games)]
    summary = summarise(results, chosen, rules, seed, time.perf_counter() - started)
    errors = [{"game": i, "seed": r.seed, "reason": r.error} for i, r in enumerate(results) if r.error]
    return {
        "level": summary.level,
        "rules": rules,
        "games": summary.games,
        "wins": summary.wins,
        "win_rate": summary.win_rate,
        "ci95": list(summary.ci95),
        "errors": errors,
        "seconds": summary.seconds,
    }
