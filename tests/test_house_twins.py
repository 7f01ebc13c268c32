"""One home each: the agent's decision without its rejected experiments, the goal test, the
trace's domain codec, the levels and rule sets, and the README's JSON shape."""

from __future__ import annotations

import importlib
import sys
from dataclasses import fields
from pathlib import Path
from types import ModuleType

from answerkey.agent.guess import Guesser
from answerkey.agent.probability import probabilities
from play.game import Game
from play.levels import custom_level

ROOT = Path(__file__).resolve().parents[1]


def experiments() -> ModuleType:
    """bench/agent_experiments.py, imported as the bench scripts import it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.agent_experiments")


def test_the_reference_guesser_holds_no_rejected_experiment():
    """`Guesser` has only the fields of the decision the handout's table describes; the
    experiments measured and not kept are fields of the bench's `ExperimentalGuesser` alone."""
    experimental = experiments().ExperimentalGuesser
    kept = {f.name for f in fields(Guesser)}
    added = {f.name for f in fields(experimental)} - kept
    assert added == {"blend", "deeper_margin", "deeper_cells", "formation_credit", "formation_counts"}
    assert issubclass(experimental, Guesser)


def test_the_experimental_guesser_at_its_defaults_guesses_as_the_reference():
    """Left at its defaults (every experiment off), `ExperimentalGuesser` makes the same guess,
    with the same reason, as `Guesser` on every view where a small game needs a guess; with
    the experiments on, it still guesses (the bench scripts that measured them run)."""
    experimental = experiments().ExperimentalGuesser
    plain, same, on = Guesser(endgame_layouts=0, pockets=False), experimental(endgame_layouts=0, pockets=False), 0
    busy = experimental(endgame_layouts=0, pockets=False, blend=0.2, deeper_margin=0.05, formation_credit=0.9)
    checked = 0
    for seed in range(6):
        game = Game(custom_level(6, 8, 10), "classic", seed)
        game.open((0, 0))
        while not game.over:
            counted = probabilities(game.view())
            safe = counted.safe()
            if safe:
                game.open(safe[0])
                continue
            decision = plain.guess(game.view(), counted)
            assert same.guess(game.view(), counted) == decision
            on += busy.guess(game.view(), counted).move.cell in counted.mines
            checked += 1
            game.open(decision.move.cell)
    assert checked >= 5 and on == checked
