"""Seeded game runs (play/evaluate.py) and the student hook (assignment/agent.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from answerkey.agent.agent import Agent
from answerkey.agent.benchmark import play_reference, reference_games
from assignment import agent as student
from play.evaluate import evaluate_agent, summarise, wilson_interval
from play.levels import BEGINNER
from play.view import HIDDEN, Move, View

ROOT = Path(__file__).resolve().parent.parent


def first_hidden(view: View) -> Move:
    """A legal but blind agent: open the first hidden cell, row-major."""
    return Move("open", next(cell for cell in view.all_cells() if view[cell] == HIDDEN))


def test_wilson_interval_known_values():
    low, high = wilson_interval(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-4) and high == pytest.approx(0.9448, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_evaluate_agent_report_shape_and_reference_agent():
    report = evaluate_agent(Agent().choose_move, "beginner", games=10, seed=0)
    assert set(report) >= {"level", "games", "wins", "win_rate", "ci95", "errors"}
    assert report["games"] == 10 and report["errors"] == []
    assert report["win_rate"] == report["wins"] / 10
    low, high = report["ci95"]
    assert low <= report["win_rate"] <= high
    # one move per call and batches of moves play the same games
    assert report["wins"] == sum(play_reference(BEGINNER, seed).won for seed in range(10))


def test_a_crashing_agent_loses_with_the_reason():
    def crashes(view: View) -> Move:
        raise ZeroDivisionError("oops")

    report = evaluate_agent(crashes, BEGINNER, games=3, seed=5)
    assert report["wins"] == 0 and len(report["errors"]) == 3
    first = report["errors"][0]
    assert first["seed"] == 5 and "ZeroDivisionError: oops" in first["reason"] and first["move"] == 1
    assert "move" not in first["reason"]  # the move is told once, in its own field


@pytest.mark.parametrize(
    "bad, words",
    [
        (lambda view: Move("open", (99, 0)), "outside"),
        (lambda view: Move("open", [0, 0]), "pair"),
        (lambda view: ("open", (0, 0)), "not a Move"),
        (lambda view: None, "not a Move"),
        (lambda view: Move("dig", (0, 0)), "not a Move"),
    ],
)
def test_illegal_moves_lose_with_the_reason(bad, words):
    report = evaluate_agent(bad, "beginner", games=2, seed=0)
    assert report["wins"] == 0 and len(report["errors"]) == 2
    assert words in report["errors"][0]["reason"]


def test_reopening_a_revealed_cell_is_illegal():
    def repeats(view: View) -> Move:
        return Move("open", (0, 0))

    report = evaluate_agent(repeats, "beginner", games=1, seed=1)
    assert "already revealed" in report["errors"][0]["reason"] and report["errors"][0]["move"] == 2


def test_a_blind_agent_plays_to_the_end_without_errors():
    report = evaluate_agent(first_hidden, "beginner", games=5, seed=0)
    assert report["errors"] == [] and report["games"] == 5


def test_the_student_stub_raises_not_implemented():
    with pytest.raises(NotImplementedError):
        student.choose_move(View(1, 1, 0, ((-1,),)))
    report = evaluate_agent(student.choose_move, "beginner", games=2)
    assert report["wins"] == 0 and "NotImplementedError" in report["errors"][0]["reason"]
    assert student.choose_move.__doc__ and 'Move("open", (r, c))' in student.choose_move.__doc__


@pytest.mark.slow  # jobs=2 plays in worker processes
def test_parallel_runs_give_the_same_games():
    one = list(reference_games(BEGINNER, 12, seed=3, jobs=1))
    two = list(reference_games(BEGINNER, 12, seed=3, jobs=2))
    assert one == two
    summary = summarise(two, BEGINNER, "classic", 3, seconds=1.0, jobs=2)
    assert summary.games == 12 and summary.wins == sum(r.won for r in one)
    assert summary.as_dict()["ci95"] == list(wilson_interval(summary.wins, 12))


def test_student_side_modules_do_not_load_the_reference_agent():
    """assignment/agent.py and evaluate_agent need only the game: a student copy of the kit
    can ship play/{levels,view,game,evaluate}.py without the reference agent's code."""
    code = (
        "import sys; import assignment.agent, play.evaluate; "
        "loaded = sorted(m for m in sys.modules if m.startswith(('play.', 'solvers.'))); print(' '.join(loaded))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == {"play.evaluate", "play.game", "play.levels", "play.view", "solvers.board", "solvers.errortext"}
