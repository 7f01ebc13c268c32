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
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Literal

from solvers.board import Cell, cell_name
from solvers.errortext import describe_exception

from .game import Game
from .levels import Level, RuleSet, parse_level
from .view import Move, View

ChooseMove = Callable[[View], Move]
#: Every hidden cell's exact mine probability in a view (the answer key's counter).
Probabilities = Callable[[View], dict[Cell, Fraction]]

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval

LossCause = Literal["raised", "illegal", "slow", "output", "crashed", "out of time", "unloadable", "ungraded"]
"""Why a game was lost other than on a mine: the agent raised an exception, made an
illegal move (or gave no move at all), took too long over one move, printed more than
the output cap during one move, or its process ended; the time for all the games ran
out; the agent's file did not load; the grader itself failed."""

#: How a report counts the games lost to each cause ("3 to an exception").
CAUSE_WORDS: dict[str, str] = {
    "raised": "to an exception",
    "illegal": "to an illegal move",
    "slow": "to a slow move",
    "output": "to printing over the output cap",
    "crashed": "to the agent's process ending",
    "out of time": "not finished: the time for all the games ran out",
    "unloadable": "not played: the agent's file did not load",
    "ungraded": "not played: the grader failed",
}


@dataclass(frozen=True)
class GameResult:
    """One game: won or not, the guesses the agent made (None: not known, as for an agent
    that does not say which of its moves are certain), the moves played (in a lost game,
    those before the move that lost it, move `moves + 1`), and why a lost game was lost:
    `error` (the agent crashed or cheated), or the mine it opened, `exploded`, with the
    view it chose that move from, `seen`; `cause` says what kind of error it was."""

    seed: int
    won: bool
    guesses: int | None = 0
    moves: int = 0
    error: str | None = None
    exploded: Cell | None = None
    seen: View | None = None
    cause: LossCause | None = None

    def loss(self, probabilities: Probabilities | None = None) -> str:
        """Why this game was lost, in one line, without its move number. Given
        `probabilities` (the exact counter, in the instructor's kit), an opened mine is
        told apart: a guess, or a cell what the agent saw proved to be a mine."""
        if self.error is not None:
            return self.error
        if self.exploded is None:
            return "lost"
        opened = f"opened {cell_name(self.exploded)}, a mine"
        if probabilities is None or self.seen is None:
            return opened
        chance = probabilities(self.seen).get(self.exploded)
        if chance is None:
            return opened
        if chance == 1:
            return f"{opened}: what it saw proved it was one (every layout that fits has a mine there)"
        return f"{opened}: a guess (a {float(chance):.0%} chance of a mine from what it saw)"


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


class AgentFailure(Exception):
    """An agent that could not give a move (raised by agents run elsewhere, with the reason
    and its `cause`)."""

    def __init__(self, reason: str, cause: LossCause):
        super().__init__(reason)
        self.cause = cause


def play_agent(choose_move: ChooseMove, level: Level, seed: int, rules: RuleSet = "classic") -> GameResult:
    """One game by any `choose_move` callable, one move per call.

    Every legal move reveals or flags a new cell, so a game ends after at most
    rows * cols moves. A raised exception or an illegal move is a loss with its reason.
    """
    game = Game(level, rules, seed)
    while not game.over:
        view = game.view()
        try:
            move = choose_move(view)
        except AgentFailure as failure:
            return GameResult(seed, False, None, game.moves, str(failure), cause=failure.cause)
        except Exception as error:  # the agent's own bug: a loss, with the reason
            return GameResult(seed, False, None, game.moves, f"agent raised {describe_exception(error, '')}", cause="raised")
        problem = game.illegal(move)
        if problem is not None:
            return GameResult(seed, False, None, game.moves, f"illegal move: {problem}", cause="illegal")
        game.apply(move)
    if game.status == "won":
        return GameResult(seed, True, None, game.moves)
    return GameResult(seed, False, None, game.moves - 1, exploded=game.exploded, seen=view)


def lost_by_cause(results: list[GameResult]) -> dict[LossCause, list[int]]:
    """The games lost to an error (numbered from 0), by cause, in the order the causes
    first occur: what `describe_losses` counts, as data."""
    by_cause: dict[LossCause, list[int]] = {}
    for index, result in enumerate(results):
        if not result.won and result.error is not None:
            by_cause.setdefault(result.cause or "raised", []).append(index)
    return by_cause


def describe_losses(results: list[GameResult]) -> str:
    """How the lost games were lost, counted by cause, each error cause with its games
    and the first game's reason: "lost 18 of 20: 15 opened a mine, 2 to a slow move
    (games 4, 9): a move took more than 10 s, 1 to an exception (game 7): ..."."""
    lost = [index for index, r in enumerate(results) if not r.won]
    if not lost:
        return f"lost none of {len(results)}"
    by_cause = lost_by_cause(results)
    mines = len(lost) - sum(map(len, by_cause.values()))
    parts = [f"{mines} opened a mine"] if mines else []
    for cause, games in by_cause.items():
        reason = results[games[0]].error
        parts.append(f"{len(games)} {CAUSE_WORDS[cause]} ({game_numbers(games)}): {reason}")
    return f"lost {len(lost)} of {len(results)}: {', '.join(parts)}"


def game_numbers(indices: list[int], shown: int = 6) -> str:
    """Games by number from 1, runs of consecutive games as ranges, the first `shown`
    parts: "game 4", "games 812, 3117", "games 3, 21-200"."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in runs[:shown]]
    more = f" and {len(runs) - shown} more" if len(runs) > shown else ""
    return ("game " if len(indices) == 1 else "games ") + ", ".join(parts) + more


@dataclass(frozen=True)
class LostWay:
    """A way games were lost: the first game lost so (index in the run), its result, the
    reason, and how many games were lost the very same way."""

    game: int
    result: GameResult
    reason: str
    games: int

    def at(self) -> str:
        """ "at move 5: reason", and how many more games were lost so."""
        more = f" (and {self.games - 1} more game{'s' if self.games > 2 else ''} the same way)" if self.games > 1 else ""
        return f"at move {self.result.moves + 1}: {self.reason}{more}"

    def describe(self) -> str:
        """ "game 3 at move 5: reason", and how many more games were lost so."""
        return f"game {self.game + 1} {self.at()}"


def first_lost_ways(results: list[GameResult], shown: int = 3, probabilities: Probabilities | None = None) -> list[LostWay]:
    """The first `shown` different ways the games were lost, in the order they first
    happened: an error repeated game after game at the same move (a crash at move 1, say)
    is one way; each opened mine is one of its own."""
    ways: dict[tuple[int, str], LostWay] = {}
    for index, result in enumerate(results):
        if result.won:
            continue
        reason = result.loss()  # without the counter: grouping never pays for it
        key = (result.moves, reason) if result.error is not None else (-1 - index, reason)
        if key in ways:
            ways[key] = LostWay(ways[key].game, ways[key].result, ways[key].reason, ways[key].games + 1)
        elif len(ways) < shown:
            ways[key] = LostWay(index, result, reason, 1)
    if probabilities is None:
        return list(ways.values())
    return [LostWay(w.game, w.result, w.result.loss(probabilities), w.games) for w in ways.values()]


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
    guesses_per_game: float | None  # None: not known (an agent that does not say which moves are guesses)
    seconds: float
    games_per_second: float
    jobs: int = 1
    cpu_seconds: float = 0.0
    games_per_cpu_second: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        return data


def summarise(results: Iterable[GameResult], level: Level, rules: str, seed: int, seconds: float, jobs: int = 1, cpu_seconds: float = 0.0) -> Summary:
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
        guesses_per_game=guesses_per_game(results),
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        jobs=jobs,
        cpu_seconds=cpu_seconds,
        games_per_cpu_second=games / cpu_seconds if cpu_seconds > 0 else 0.0,
    )


def guesses_per_game(results: list[GameResult]) -> float | None:
    """The mean guesses a game, None when some game's guesses are not known."""
    counted = [r.guesses for r in results]
    if not counted:
        return 0.0
    if any(guesses is None for guesses in counted):
        return None
    return sum(guesses or 0 for guesses in counted) / len(counted)


def evaluate_agent(
    choose_move: ChooseMove, level: Level | str = "beginner", games: int = 100, seed: int = 0, rules: RuleSet = "classic"
) -> dict[str, Any]:
    """Play `games` seeded games (seeds `seed`, `seed + 1`, ...) with `choose_move`.

    `level` is a Level or a name `parse_level` reads ("beginner", "expert", "30x16x99").

    Returns {"level", "rules", "games", "wins", "win_rate", "ci95": [low, high],
    "errors": [{"game", "seed", "move", "reason"}, ...], "losses": "lost N of M: ...",
    "seconds"}. A game in which the agent raised an exception or made an illegal move is
    lost and listed in "errors" (`move` counts from 1).
    """
    chosen = level if isinstance(level, Level) else parse_level(level, rules)
    started = time.perf_counter()
    results = [play_agent(choose_move, chosen, seed + i, rules) for i in range(games)]
    summary = summarise(results, chosen, rules, seed, time.perf_counter() - started)
    errors = [{"game": i, "seed": r.seed, "move": r.moves + 1, "reason": r.error} for i, r in enumerate(results) if r.error]
    return {
        "level": summary.level,
        "rules": rules,
        "games": summary.games,
        "wins": summary.wins,
        "win_rate": summary.win_rate,
        "ci95": list(summary.ci95),
        "errors": errors,
        "losses": describe_losses(results),
        "seconds": summary.seconds,
    }
