"""Grading a playing agent by its win rate on seeded games (the `agent:` config section)."""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import lone, no_traceback, run_grader

from answerkey.agent.agent import Agent
from grader.hooktable import VIEW
from grader.inputs.config import AgentGrading
from grader.sandbox.tasks import Outcome
from grader.scoring.agentplay import NO_AGENT, PUBLIC_GAMES
from play.evaluate import GameResult, play_agent
from play.game import Game
from play.levels import LEVELS
from play.view import FLAGGED, HIDDEN, Move, View

ROOT = Path(__file__).resolve().parents[1]
STUDENTS = ROOT / "tests" / "student_files"
CONFIG = "agent:\n  level: beginner\n  games: 20\n  seed: 3\n  points: 4\n  thresholds: [[0.6, 1.0], [0.3, 0.5]]\n"


def grade(tmp_path: Path, *args: str | Path, config: str = CONFIG) -> tuple[subprocess.CompletedProcess[str], dict | None]:
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    shutil.copy(ROOT / "problems" / "course.yaml", folder)
    (folder / "grading.yaml").write_text(config, encoding="utf-8")
    out = tmp_path / "report.json"
    result = run_grader(folder, *args, "--json", out, timeout=300, columns=150)
    no_traceback(result)
    return result, json.loads(out.read_text(encoding="utf-8")) if out.exists() else None


def agent_entry(report: dict) -> dict:
    return next(e for e in report["other"] if e["id"] == "agent")


#: The agent item alone: what a test that reads only the agent's entry grades.
AGENT_ONLY = ("--only", "agent")

Played = Callable[[Path], tuple[subprocess.CompletedProcess[str], dict | None]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The agent item of correct.py with --agent AGENT, graded once for the module (CONFIG's
    seeded games): the tests that read the same agent's run share it."""
    runs: dict[Path, tuple[subprocess.CompletedProcess[str], dict | None]] = {}

    def played_once(agent: Path) -> tuple[subprocess.CompletedProcess[str], dict | None]:
        if agent not in runs:
            runs[agent] = grade(tmp_path_factory.mktemp("agent"), "--solver", lone("correct"), "--agent", agent, *AGENT_ONLY)
        return runs[agent]

    return played_once


def test_reference_agent_gets_the_agent_points(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "--solver", "reference", *AGENT_ONLY)
    entry = agent_entry(report)
    assert entry["status"] == "pass" and entry["score"] == entry["max_score"] == 4
    assert "beginner games" in entry["message"] and "95% CI" in entry["message"]
    assert result.returncode == 0


def test_a_losing_agent_scores_by_the_thresholds(played: Played, tmp_path: Path) -> None:
    _, report = played(lone("agent_naive"))
    entry = agent_entry(report)
    assert entry["status"] == "fail" and entry["score"] < entry["max_score"]
    assert entry["message"].startswith("won ")
    again = agent_entry(grade(tmp_path, "--solver", lone("correct"), "--agent", lone("agent_naive"), *AGENT_ONLY)[1])  # a run of its own
    assert again["message"] == entry["message"]  # seeded games: the same result every time


def test_a_crashing_agent_loses_its_games_with_the_reason(played: Played) -> None:
    _, report = played(lone("agent_crash"))
    entry = agent_entry(report)
    assert entry["score"] == 0 and "KeyError" in entry["message"]
    assert entry["message"].startswith("won 0/20 beginner games: all lost at move 1: KeyError: 'no such key' (agent_crash.py, line 5")
    assert entry["message"].endswith("; 0 of 4 points")
    assert entry["message"].count("KeyError") == 1 and "move 1: move 1" not in entry["message"]  # said once


def test_no_agent_file_is_one_reason(played: Played, tmp_path: Path) -> None:
    _, report = grade(tmp_path, "--solver", lone("correct"), *AGENT_ONLY)
    entry = agent_entry(report)
    assert entry["status"] == "error" and entry["message"] == NO_AGENT and "--agent" not in entry["message"]
    _, report = played(lone("crash"))
    assert "no function named choose_move" in agent_entry(report)["message"]


def test_bad_agent_config_is_one_line(tmp_path: Path) -> None:
    result, _ = grade(tmp_path, "--solver", "reference", config="agent:\n  level: impossible\n")
    assert result.returncode != 0
    assert "agent.level: must be one of beginner, intermediate, expert" in " ".join(result.stdout.split())


def test_an_agent_cannot_read_the_mines(played: Played) -> None:
    """The game stays in the grader: walking the agent's own frames finds no game to peek at."""
    _, report = played(lone("agent_peeks"))
    entry = agent_entry(report)
    assert entry["score"] == 0 and entry["message"].startswith("won 0/20")


def test_a_view_travels_as_what_the_player_sees_and_nothing_more() -> None:
    """At every move of lost and won games, flags included, a view goes to the worker as its
    size, its mine count and one character a cell: rebuilt there, it is the very view the
    grader's game showed; no mine position is in it (a hidden mine and a hidden safe cell
    travel alike)."""
    views: list[View] = []
    agent = Agent("classic").choose_move

    def recorded(view: View) -> Move:
        views.append(view)
        return agent(view)

    results = [play_agent(recorded, LEVELS["intermediate"], seed) for seed in range(6)]
    assert any(r.won for r in results) and not all(r.won for r in results)
    assert any(value == FLAGGED for view in views for row in view.cells for value in row)
    for view in views:
        sent = VIEW.send(view)
        assert set(sent) == {"rows", "cols", "mines", "cells"} and len(sent["cells"]) == view.rows * view.cols
        assert set(sent["cells"]) <= set("./012345678")
        assert VIEW.rebuild(json.loads(json.dumps(sent))) == view
    game = Game(LEVELS["beginner"], "classic", 0)
    game.apply(Move("open", (0, 0)))
    hidden = [i for i, value in enumerate(VIEW.send(game.view())["cells"]) if value == "/"]
    assert {game.view().cells[i // 9][i % 9] for i in hidden} == {HIDDEN} and len(hidden) > game.level.mines


# --- the points rule: stable, honest, explained (no games through a worker: fast) ---------------


def test_points_rise_in_a_straight_line_between_thresholds() -> None:
    linear = AgentGrading()  # 0% of the points at 0 wins, 50% at 70%, 100% from 85%
    assert [linear.share(rate) for rate in (0.0, 0.35, 0.70, 0.775, 0.85, 0.97)] == pytest.approx([0, 0.25, 0.5, 0.75, 1, 1])
    steps = AgentGrading(between="steps")
    assert [steps.share(rate) for rate in (0.69, 0.70, 0.849, 0.85)] == [0.0, 0.5, 0.5, 1.0]
    floor = AgentGrading(thresholds=((0.5, 0.0), (0.9, 1.0)))  # nothing up to 50% wins, then a straight line
    assert floor.share(0.4) == 0 and floor.share(0.7) == pytest.approx(0.5)


def test_more_wins_never_earn_fewer_points() -> None:
    """A weaker agent never gets more points on the same games, under either rule."""
    for grading in (AgentGrading(), AgentGrading(between="steps"), AgentGrading(thresholds=((0.3, 0.2), (0.6, 0.2), (0.9, 1.0)))):
        shares = [grading.share(wins / 500) for wins in range(501)]
        assert shares == sorted(shares) and shares[0] == 0 and shares[-1] == 1


def test_thresholds_that_would_pay_a_weaker_agent_more_are_refused() -> None:
    from grader.inputs.config import ConfigError, parse_config

    for thresholds, why in (
        ("[[0.85, 0.5], [0.7, 1.0]]", "a higher win rate must never earn a smaller share"),
        ("[[0.8, 1.0], [0.8, 0.5]]", "two thresholds at the same win rate"),
        ("[[85, 1.0]]", "a win rate is at most 1"),
    ):
        with pytest.raises(ConfigError, match=why):
            parse_config(yaml.safe_load(f"agent:\n  thresholds: {thresholds}\n"))
    with pytest.raises(ConfigError, match="agent.between: must be one of linear, steps"):
        parse_config({"agent": {"between": "smooth"}})
    assert parse_config({"agent": {"between": "steps"}}).agent == AgentGrading(between="steps")


def test_the_reason_says_wins_the_interval_and_how_the_points_were_computed() -> None:
    from grader.scoring.agentplay import games_result, score_agent

    games = [GameResult(seed, won=seed % 4 != 0) for seed in range(200)]  # 150 wins: 75%
    item = score_agent(AgentGrading(seed=7, games=200), Outcome("ok", games_result(games)))
    assert item.score == pytest.approx(4 * (0.5 + 0.5 * 5 / 15), abs=0.005)
    assert item.message.startswith(
        "won 150/200 beginner games (75.0%, 95% CI 68.6%-80.5%); 75.00% lies between 70% "
        "(50% of the points) and 85% (100%): 50% + 5.00/15 of the 50% between = 66.7% of the points = 2.67 of 4"
    )
    assert "public default games" not in item.message


def test_a_fixed_config_plays_the_same_games_and_gives_the_same_points() -> None:
    from grader.scoring.agentplay import agent_seed, games_result, play_games, score_agent

    agent = Agent("classic").choose_move
    private = AgentGrading(seed=48127730, games=15)
    first = play_games(agent, private, agent_seed(private))
    assert play_games(agent, private, agent_seed(private)) == first
    items = [score_agent(private, Outcome("ok", games_result(first))) for _ in range(2)]
    assert items[0] == items[1]
    public = AgentGrading(games=15)  # no seed: the public default games, not fresh ones at every run
    games = play_games(agent, public, agent_seed(public))
    assert games == play_games(agent, public, agent_seed(public)) != first
    assert [game.seed for game in games] == list(range(15))  # what evaluate_agent(..., seed=0) plays
    item = score_agent(public, Outcome("ok", games_result(games)))
    assert PUBLIC_GAMES in item.message and ("games", f"15 beginner, classic rules, {PUBLIC_GAMES}") in item.facts


@pytest.mark.parametrize("threshold", [0.85, 0.70])
def test_an_agent_1_point_above_a_threshold_gets_nearly_the_same_points_from_any_games(threshold: float) -> None:
    """The promise, without playing: with the default config, the points at the win rates
    20 private seeds would show (2.5 standard errors either side of a true rate 1 point
    above a threshold) differ by at most 10% of the item's points; the old rule's by half."""
    from grader.scoring.agentplay import games_result, score_agent

    def spread(grading: AgentGrading) -> float:
        rate = threshold + 0.01
        error = math.sqrt(rate * (1 - rate) / grading.games)
        wins = [round((rate + side * 2.5 * error) * grading.games) for side in (-1, 1)]
        results = [games_result([GameResult(seed, seed < won) for seed in range(grading.games)]) for won in wins]
        points = [score_agent(grading, Outcome("ok", result)).score for result in results]
        return (max(points) - min(points)) / grading.points

    assert spread(AgentGrading(seed=1)) <= 0.1
    assert spread(AgentGrading(seed=1, games=200, between="steps")) == 0.5


# --- what each kind of agent is told (graded on CONFIG's 20 seeded games) -----------------------

STUB = "your agent's choose_move in {file} is still the stub (it raises NotImplementedError): write it there (part 3 of the handout)"

#: Agent files (tests/student_files, or the handout's own stub), their points, status and the
#: words their reason must hold; the games are seeded, so the points are exact.
AGENT_OUTCOMES = {
    "stub": (
        ROOT / "assignment" / "agent.py",
        0.0,
        "fail",
        ("won 0/20 beginner games: all lost at move 1: " + STUB.format(file="agent.py") + "; 0 of 4 points",),
    ),
    "bare stub": (lone("agent_bare_stub"), 0.0, "fail", (STUB.format(file="agent_bare_stub.py"),)),
    "crash": (lone("agent_crash"), 0.0, "fail", ("all lost at move 1: KeyError: 'no such key' (agent_crash.py, line 5",)),
    "naive": (
        lone("agent_naive"),
        0.0,
        "fail",
        (
            "won 0/20",
            "lost 20 of 20: 20 opened a mine; first: game 1 at move 6: opened r1c6, a mine: a guess (a 50% ",
            "game 2 at move 4: opened r2c1, a mine: what it saw proved it was one",
        ),
    ),
    "guesses": (
        lone("agent_guesses"),
        4.0,
        "pass",
        ("won 13/20", "lost 7 of 20: 7 opened a mine", "game 3 at move 17: opened r8c3, a mine: a guess (a 88% "),
    ),
}


@pytest.mark.parametrize("name", AGENT_OUTCOMES)
def test_every_agent_is_told_how_its_games_were_lost(played: Played, name: str) -> None:
    agent, points, status, words = AGENT_OUTCOMES[name]
    result, report = played(agent)
    entry = agent_entry(report)
    assert (entry["score"], entry["status"]) == (points, status), entry
    for word in words:
        assert word in entry["message"], (word, entry["message"])
    assert "move 1: move 1" not in entry["message"] and "a hook" not in entry["message"]
    shown = " ".join(result.stdout.split())  # the terminal says it too: a lost point's reason, the games' table
    assert (words[0] if status == "fail" else words[1]) in shown, shown


def test_gradescope_tells_a_stub_and_a_missing_agent_what_to_write(tmp_path: Path) -> None:
    """On Gradescope the submission is a folder: the agent is found in it, or named missing
    without the instructor's --agent flag."""
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copyfile(STUDENTS / "model_answer.py", submission / "hooks.py")

    def agent_output() -> str:
        out = tmp_path / "results.json"
        grade(tmp_path, "--solver", submission, "--format", "gradescope", "--output", out)
        results = json.loads(out.read_text(encoding="utf-8"))
        test = next(t for t in results["tests"] if t["name"] == "agent")
        assert test["score"] == 0 and "--agent" not in test["output"]
        assert results["output"].splitlines()[1].startswith("Next step: your agent: ")  # the one thing left
        assert test["output_format"] == "html"
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", test["output"])).split())  # the text a student reads

    assert NO_AGENT in agent_output()
    shutil.copyfile(ROOT / "assignment" / "agent.py", submission / "agent.py")
    assert STUB.format(file="agent.py") in agent_output()
