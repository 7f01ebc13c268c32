"""Grading a playing agent: the games are played here, the agent is asked one move at a time.

The `Game`, and so the mine layout, never enters the process that runs student code: each
visible board goes to a sandboxed worker as a `choose_move` question (one message each
way per move) and one checked move comes back. A crash, an illegal move, a move over the
per-move limit or printing past the output cap during one move loses that game only; the
worker is replaced for the next game (starting it counts in the time allowed for all the
games), and play goes on within that time. Every lost game keeps its cause
(`play.evaluate.LossCause`), so the report counts each kind apart, with its games.

The agent item whole: which games are played (`agent_seed`; `PRACTICE` games for no
points without an agent section), and their score (`score_agent`).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from grader.hooktable import AGENT_NAME, VIEW
from grader.inputs.config import AgentGrading, GradingConfig
from grader.reference import reference_agent
from grader.reports.results import ItemResult, ItemStatus, failed_item, measured
from grader.sandbox.cores import SharedCore
from grader.sandbox.host import Asker, Limits, StudentRaised, Worker, WorkerFailure, start_worker, stop_worker
from grader.sandbox.isolation import Sandbox, Scope
from grader.sandbox.tasks import Outcome
from grader.sandbox.wire import from_data, read_move_reply
from grader.scoring.hookcalls import HookContractError, Hooks, LocalAsker, checked_move
from play.advisor import load_probabilities
from play.evaluate import (
    CAUSE_WORDS,
    AgentFailure,
    ChooseMove,
    GameResult,
    LossCause,
    describe_losses,
    first_lost_ways,
    lost_by_cause,
    play_agent,
    wilson_interval,
)
from play.levels import RuleSet, parse_level
from play.view import Move, View
from solvers.cliargs import instructor_only


class RemoteAgent:
    """A `choose_move` callable that asks a sandboxed worker (or the reference, here).

    All the games share `budget` seconds (see `Budget`), one move at most `move_limit` of
    them. A failure of the student's loses the game it happened in (`AgentFailure` with
    its cause) and the next move starts a fresh worker; once the budget is used up, every
    game left is lost as not finished. A failure of the grader's own is retried once,
    then marks the games `ungraded`. What the worker prints is read and kept (the first
    `Limits.output_kept` characters) move by move, so the output cap bounds one move.
    """

    def __init__(self, source: str, rules: str, limits: Limits, budget: float, move_limit: float, sandbox: Sandbox | None, scope: Scope):
        self.budget, self.move_limit, self.kept = budget, move_limit, limits.output_kept
        self.start: Callable[[float], Asker]
        if source == "reference":
            choose = reference_agent(rules)
            self.start = lambda limit: LocalAsker({AGENT_NAME: choose})
        else:
            if sandbox is None:
                raise ValueError("student code is only ever run in a sandbox")
            self.start = start_worker(sandbox, sandbox.submission(Path(source), scope), limits)
        self.asker: Asker | None = None
        self.used = 0.0  # seconds charged to workers already stopped, and to starting their replacements
        self.replaced = False  # whether the next worker replaces one (the first is the grader's cost)
        self.printed = ""
        self.stopped: AgentFailure | None = None  # why no game can be played any more
        self.core = SharedCore()  # the worker and this thread on one core while the games last (`end`)
        self.ungraded: str | None = None

    def __call__(self, view: View) -> Move:
        if self.stopped is not None:
            raise AgentFailure(str(self.stopped), self.stopped.cause)
        try:
            return self._move(view)
        except WorkerFailure as failure:
            self.close()
            if not failure.ours:
                raise self._lost(failure) from None
        try:  # the grader's failure, not the agent's: once more, in a fresh worker
            return self._move(view)
        except WorkerFailure as failure:
            self.close()
            if failure.ours:
                self.ungraded = failure.message
                self.stopped = AgentFailure(f"not graded: {failure.message}", "ungraded")
                raise self.stopped from None
            raise self._lost(failure) from None

    def _lost(self, failure: WorkerFailure) -> AgentFailure:
        """The game lost to a failure of the student's, with its cause."""
        if failure.kind == "unloadable":
            self.stopped = AgentFailure(failure.message, "unloadable")
            return self.stopped
        if self.used >= self.budget:  # the whole budget, not one move's limit
            return self._out_of_time()
        if failure.kind == "timeout":
            return AgentFailure(f"a move took more than {self.move_limit:g} s", "slow")
        if failure.kind == "output":
            return AgentFailure(failure.message, "output")
        return AgentFailure(failure.message, "crashed")

    def _out_of_time(self) -> AgentFailure:
        self.stopped = AgentFailure(f"the {self.budget:g} s allowed for all the games ran out", "out of time")
        return self.stopped

    def _move(self, view: View) -> Move:
        if self.asker is None:
            left = self.budget - self.used
            if left <= 0:
                raise self._out_of_time()
            started = time.monotonic()
            asker = self.start(min(left, self.move_limit))
            if self.replaced:  # after a lost game: the agent's doing, so its time (a crash every game is bounded too)
                self.used += time.monotonic() - started
                left = self.budget - self.used
            asker.begin(max(left, 0.0))
            self.asker, self.replaced = asker, True
            if isinstance(asker, Worker):
                self.core.join(asker.keep_on)
        try:
            return self._ask(view)
        except StudentRaised as error:
            raise AgentFailure(str(error), "raised") from None
        except HookContractError as error:
            raise AgentFailure(str(error), "illegal") from None
        finally:
            self._keep_output()

    def _ask(self, view: View) -> Move:
        """The agent's move for `view`, checked; of a worker asked with the question written
        as a line at once and the answer read quicker (`wire.read_move_reply`)."""
        asker = self.asker
        assert asker is not None
        if isinstance(asker, Worker):
            return checked_move(from_data(asker.call_line(AGENT_NAME, move_request(view), self.move_limit, read_move_reply)))
        return Hooks(asker, self.move_limit).choose_move(view)

    def _keep_output(self) -> None:
        """Read what the worker printed during the last move: kept up to the limit, and
        its count for the output cap back at 0."""
        if self.asker is not None:
            text = self.asker.take_output()
            if len(self.printed) < self.kept:
                self.printed += text

    def close(self) -> None:
        """Stop the worker (the next move starts another)."""
        if self.asker is not None:
            self._keep_output()
            self.used += self.asker.used()
            stop_worker(self.asker)
            self.asker = None

    def end(self) -> None:
        """The games are over: stop the worker, and give this thread its cores back."""
        try:
            self.close()
        finally:
            self.core.end()


def move_request(view: View) -> bytes:
    """The question of one move: the line `wire.encode` writes for {"op": "call", "hook":
    "choose_move", "args": {"view": the view as `VIEW` sends it}}, written as text at once
    (a question a move: its encoding was a tenth of the grader's work for it)."""
    data = VIEW.send(view)
    return (
        f'{{"op":"call","hook":"{AGENT_NAME}","args":{{"view":{{"rows":{data["rows"]},"cols":{data["cols"]},'
        f'"mines":{data["mines"]},"cells":"{data["cells"]}"}}}}}}\n'
    ).encode()


def play_games(agent: ChooseMove, grading: AgentGrading, first_seed: int) -> list[GameResult]:
    """The configured games, game i with seed `first_seed + i`, each move asked of `agent`."""
    rules = cast(RuleSet, grading.rules)  # checked when the config was read
    level = parse_level(grading.level, rules)
    return [play_agent(agent, level, first_seed + index, rules) for index in range(grading.games)]


#: How many different ways of losing a report names.
LOST_WAYS_SHOWN = 3


@dataclass(frozen=True)
class FirstLoss:
    """One of the first ways the games were lost: the first game lost so (numbered from 0),
    the moves played in it, the reason, how many games were lost that way, and where."""

    game: int
    moves: int
    reason: str
    games: int
    at: str


@dataclass(frozen=True)
class AgentGames:
    """The answer of the agent's games (`games_result`): wins, the win rate and its 95%
    interval, how the games were lost (`lost`, counted; `errors`: those lost to an error),
    how each game ended ((way, games), the most first) and the first ways they were lost."""

    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    lost: str
    errors: int
    outcomes: list[tuple[str, int]]
    losses: list[FirstLoss]
    lost_games: list[tuple[LossCause, list[int]]] = field(default_factory=list)


def games_result(games: list[GameResult]) -> AgentGames:
    """Wins, the win rate and its 95% interval, how the games were lost (counted), and
    the first ways they were lost, by game number: no seed is kept, so nothing shown lets
    a student replay them. Where the answer key is at hand, an opened mine is told apart
    as a guess or a cell the agent's view proved to be a mine."""
    wins = sum(game.won for game in games)
    ways = first_lost_ways(games, LOST_WAYS_SHOWN, load_probabilities())
    return AgentGames(
        len(games),
        wins,
        wins / max(len(games), 1),
        wilson_interval(wins, len(games)),
        describe_losses(games),
        sum(not game.won and game.error is not None for game in games),
        sorted(Counter(_outcome(game) for game in games).items(), key=lambda pair: -pair[1]),
        [FirstLoss(way.game, way.result.moves, way.reason, way.games, way.at()) for way in ways],
        list(lost_by_cause(games).items()),
    )


def _outcome(game: GameResult) -> str:
    """How one game ended, in a report's words: "won", "opened a mine" or its cause of loss."""
    if game.won:
        return "won"
    return "opened a mine" if game.error is None else CAUSE_WORDS[game.cause or "raised"]


def play_agent_games(
    source: str, grading: AgentGrading, first_seed: int, limits: Limits, sandbox: Sandbox | None, scope: Scope = "siblings"
) -> Outcome[AgentGames]:
    """Play the configured games, from `first_seed`, with the agent in `source` ("reference"
    or a file defining choose_move): their `games_result` as the answer of one task."""
    agent = RemoteAgent(source, grading.rules, limits, grading.timeout, grading.move_timeout, sandbox, scope)
    try:
        result = games_result(play_games(agent, grading, first_seed))
    finally:
        agent.end()
    output, seconds = agent.printed[: limits.output_kept], agent.used
    if agent.ungraded is not None:
        return Outcome("ungraded", None, f"{agent.ungraded} (tried twice)", output, seconds)
    return Outcome("ok", result, output=output, seconds=seconds)


NO_AGENT = (
    "no agent found: none of your files defines choose_move; write it in assignment/agent.py and hand that "
    "file in with your hooks (part 3 of the handout)"
)
PUBLIC_GAMES = "the public default games, which anyone can replay: set a private agent.seed in grading.yaml to grade"
#: How many of the configured games a student copy plays: a practice set, seconds to play
#: locally, while the course's autograder plays every configured game.
COPY_GAMES = 500


def in_student_copy() -> bool:
    """Whether this kit is a student copy (no answer key, and so none of the course's seeds)."""
    return instructor_only("the course's seeds") is not None


def public_games(played: int, configured: int) -> str:
    """What graded games without a private seed are: the instructor is told to add one;
    a student copy (no answer key, and no seed by design) says what the course plays."""
    if not in_student_copy():
        return PUBLIC_GAMES
    games = f"the public default games (seeds 0-{played - 1})"
    if played < configured:
        games = f"a practice set, the first {played} public default games (seeds 0-{played - 1})"
    return f"{games}: the course's autograder plays other games of the same kind, {configured} of them, drawn from its private seed"


def score_agent(grading: AgentGrading, outcome: Outcome[AgentGames]) -> ItemResult:
    """Points by the win rate (`AgentGrading.share`); the reason gives wins, the interval,
    how the points were computed and any errors."""
    name = "agent" if grading.points else "agent (practice, no points)"
    if not outcome.ok:
        return failed_item("agent", name, grading.points, outcome)
    result = outcome.answered
    share = grading.share(result.win_rate)
    score = round(grading.points * share, 2)
    low, high = result.ci95
    computed = grading.explain(result.win_rate) + (f" = {score:g} of {grading.points:g}" if grading.points else "")
    public = grading.seed is None
    losses = result.losses
    if len(losses) == 1 and losses[0].games == result.games and result.errors == result.games:
        # every game lost to the same error at the same move (the stub, say): that is the reason
        message = f"won 0/{result.games} {grading.level} games: all lost at move {losses[0].moves + 1}: {losses[0].reason}" + (
            f"; 0 of {grading.points:g} points" if grading.points else ""
        )
    else:
        message = f"won {result.wins}/{result.games} {grading.level} games ({result.win_rate:.1%}, 95% CI {low:.1%}-{high:.1%}); {computed}"
        if losses:
            message += f"\n  {result.lost}; first: " + "; ".join(f"game {loss.game + 1} {loss.at}" for loss in losses)
    if public and grading.points:
        message += f"\n  {public_games(result.games, grading.games)}"
    status: ItemStatus = "pass" if share == 1 or not grading.points else "fail"  # practice games are for information
    games = f"{result.games} {grading.level}, {grading.rules} rules"
    if public:  # practice games are public on purpose: a student can replay them with evaluate_agent
        games += f", {public_games(result.games, grading.games)}" if grading.points else ", the public default games"
    facts = (
        ("games", games),
        ("wins", str(result.wins)),
        ("win rate", f"{result.win_rate:.1%} (95% interval {low:.1%}-{high:.1%})"),
        ("grading", grading.describe().removeprefix("grading: ")),
        ("points", computed),
        *((("losses", result.lost),) if losses else ()),
        *((f"lost game {loss.game + 1}", loss.at) for loss in losses),
    )
    outcomes = tuple((str(way), int(count)) for way, count in result.outcomes)
    lost = tuple((cause, tuple(games)) for cause, games in result.lost_games)
    return ItemResult(
        "agent", name, status, score, grading.points, message, facts=facts, game_outcomes=outcomes, lost_games=lost, **measured(outcome)
    )


def agent_item(grading: AgentGrading, outcome: Outcome[AgentGames] | None) -> ItemResult:
    """The agent's item: its games' score (`score_agent`), or none found (`outcome` None:
    no file of the student's defines choose_move)."""
    if outcome is None:
        return ItemResult("agent", "agent", "error", 0.0, grading.points, NO_AGENT)
    return score_agent(grading, outcome)


#: With no agent section in the config, a student's written agent plays these games for
#: information: how it would be graded, for no points.
PRACTICE = AgentGrading(level="beginner", games=20, points=0.0, timeout=120.0)


def agent_is_written(source: str) -> bool:
    """False for the stub (choose_move only raises NotImplementedError); True for a file
    that does not parse (its grading then says why)."""
    if source == "reference":
        return True
    from grader.inputs.submission import solved_hooks

    try:
        found = solved_hooks(Path(source).parent, Path(source).name)
    except SyntaxError:
        return True
    return any(name.endswith(": choose_move") for name in found)


#: The first game's seed when the config has no private `agent.seed`: the public default
#: games are seeds 0, 1, 2, ..., the games `evaluate_agent(choose_move, level, games, seed=0)`
#: and `python -m play bench` play.
PUBLIC_FIRST_SEED = 0


def agent_seed(grading: AgentGrading) -> int:
    """The first game's seed: derived from the config's private seed, so that no seed the
    student could know or guess is played; without one, the public default games."""
    if grading.seed is None:
        return PUBLIC_FIRST_SEED
    return int.from_bytes(hashlib.sha256(f"agent games {grading.seed}".encode()).digest()[:8], "big")


def practice_stub(config: GradingConfig, agent: str | None) -> bool:
    """Whether the agent plays for practice only (no points) and is still the stub."""
    return agent is not None and not (config.agent is not None and config.agent.points) and not agent_is_written(agent)


def agent_games(
    config: GradingConfig, agent: str | None, limits: Limits, sandbox: Sandbox | None, scope: Scope
) -> tuple[AgentGrading | None, Outcome[AgentGames] | None]:
    """How the agent is graded (None: it is not), and its games' outcome (None: no agent file)."""
    grading = config.agent or (PRACTICE if agent is not None and agent_is_written(agent) else None)
    if grading is None or agent is None:
        return grading, None
    played = replace(grading, games=min(grading.games, COPY_GAMES)) if in_student_copy() else grading
    return grading, play_agent_games(agent, played, agent_seed(grading), limits, sandbox, scope)
