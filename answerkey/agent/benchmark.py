"""The reference agent's runs of seeded games (what `python -m play bench` plays).

The reference agent hands back a batch of certain moves at a time (`Agent.decisions`),
which is much faster than one move per call; game i of a run uses seed `seed + i`,
and `jobs` worker processes play the same games as one.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass

from answerkey.agent.agent import Agent
from answerkey.agent.guess import Guesser
from play.evaluate import GameResult
from play.game import Game
from play.levels import Level, RuleSet


def play_reference(level: Level, seed: int, rules: RuleSet = "classic", agent: Agent | None = None) -> GameResult:
    """One game by the reference agent, which plays each batch of certain moves at once."""
    agent = agent or Agent(rules)
    game = Game(level, rules, seed)
    guesses = 0
    while not game.over:
        for decision in agent.decisions(game.view()):
            guesses += not decision.certain and decision.layer != "first"
            game.apply(decision.move)
            if game.over:
                break
    return GameResult(seed, game.status == "won", guesses, game.moves)


@dataclass(frozen=True)
class _ReferenceJob:
    """A picklable 'play this seed' for worker processes."""

    level: Level
    rules: RuleSet
    guesser: Guesser

    def __call__(self, seed: int) -> GameResult:
        return play_reference(self.level, seed, self.rules, Agent(self.rules, guesser=self.guesser))


def reference_games(
    level: Level, games: int, seed: int, rules: RuleSet = "classic", jobs: int = 1, guesser: Guesser | None = None
) -> Iterator[GameResult]:
    """The reference agent's games, seeds `seed`..`seed + games - 1`, in order.

    With `jobs` > 1 the games are shared out among that many worker processes; the
    results are the same, in the same order. `guesser` replaces the agent's layer (d)
    (benchmarks compare policies with it).
    """
    job = _ReferenceJob(level, rules, guesser or Guesser())
    seeds = range(seed, seed + games)
    if jobs <= 1:
        yield from map(job, seeds)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(job, seeds, chunksize=max(1, min(16, games // (jobs * 8) or 1)))
