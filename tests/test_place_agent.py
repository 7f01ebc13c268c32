"""The agent item gives the same grade for the same reason wherever it is graded: a slow
move, a crash, an illegal move or a flood of output loses its own game only, and the
report counts each cause apart with its games; printing costs nothing; the whole item
fits the platform's job limit or the export says so; a student copy plays a stated
practice set; every place says what a missing `agent.seed` means."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import ROOT, STUDENT_FILES, Kit, agent_entry, isolation_unavailable, needed, run_grader, self_contained

from grader.inputs.config import AgentGrading
from grader.reports.results import ItemResult, report_from_data
from grader.sandbox.host import Limits
from grader.sandbox.isolation import open_sandbox
from grader.sandbox.tasks import Outcome
from grader.scoring.agentplay import AgentGames, play_agent_games, play_games, score_agent
from play.evaluate import AgentFailure, GameResult, game_numbers, lost_by_cause
from play.view import Move

GRADING = AgentGrading(games=12, points=4.0, thresholds=((0.5, 1.0),))


def student(name: str) -> ModuleType:
    """A student agent file, loaded here to replay its games in this process."""
    spec = importlib.util.spec_from_file_location(name, STUDENT_FILES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sandboxed(name: str, grading: AgentGrading = GRADING, limits: Limits = Limits()) -> tuple[Outcome, ItemResult]:
    """The public default games of STUDENT_FILES/NAME.py played as the grader plays them
    (a bwrap worker, one question per move), and the item they make."""
    from grader.scoring.agentplay import score_agent

    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    sandbox = open_sandbox("bwrap", [], workers=1)
    try:
        outcome = play_agent_games(str(STUDENT_FILES / f"{name}.py"), grading, 0, limits, sandbox, "file")
    finally:
        sandbox.close()
    assert outcome.ok, outcome.reason
    return outcome, score_agent(grading, outcome)


def replayed(choose_move: Any, grading: AgentGrading = GRADING) -> list[GameResult]:
    """The same games played in this process."""
    return play_games(choose_move, grading, 0)


def same_play(ours: list[GameResult], result: AgentGames) -> None:
    """The sandboxed games' wins are the in-process ones."""
    assert result.games == len(ours) and result.wins == sum(game.won for game in ours)


def test_two_slow_moves_lose_exactly_their_two_games_and_play_goes_on(kit: Kit, tmp_path: Path) -> None:
    """An agent that spins on CPU time past the per-move limit in two of 12 games loses
    those two games only, by number, under bwrap and under user isolation: the games
    after them are played, and the cause is named."""
    slow, naive = student("agent_slow_twice"), student("agent_naive")
    slow_games: list[int] = []
    for index in range(GRADING.games):

        def marked(view: Any, index: int = index) -> Any:
            if slow.slow_here(view):
                slow_games.append(index)
                raise AgentFailure("slow", "slow")
            return naive.choose_move(view)

        play_games(marked, AgentGrading(games=1), index)
    assert len(slow_games) == 2  # the file is slow on two of these games

    entry = agent_entry(kit, tmp_path, STUDENT_FILES / "agent_slow_twice.py", GRADING.games)
    numbers = game_numbers(slow_games)
    assert f"2 to a slow move ({numbers}): a move took more than 0.5 s" in entry["message"], entry["message"]
    assert f"won 0/{GRADING.games}" in entry["message"] and "not finished" not in entry["message"]
    assert f"lost {GRADING.games} of {GRADING.games}: {GRADING.games - 2} opened a mine" in entry["message"]


def slow_at_chosen_moves(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[int], list[GameResult]]:
    """agent_slow_chosen.py in `folder` (beside agent_guesses.py, whose moves it plays), made
    slow at one chosen move of each of two chosen games: games won otherwise, at a move
    after the first (whose view is alike in every game) whose view no other move of any
    game shows. The file, the chosen games (from 0), and the games as played with no slow move."""
    monkeypatch.syspath_prepend(str(STUDENT_FILES))
    fingerprint, guessed = student("agent_slow_chosen").fingerprint, student("agent_guesses").choose_move
    views: list[list[str]] = []

    def recorded(view: Any) -> Any:
        views[-1].append(fingerprint(view))
        return guessed(view)

    played = []
    for index in range(GRADING.games):
        views.append([])
        played += play_games(recorded, replace(GRADING, games=1), index)
    seen = [view for game in views for view in game]
    chosen: dict[int, int] = {}  # game: move, numbered from 0
    for game in (index for index, result in enumerate(played) if result.won and index):
        unique = [move for move in range(len(views[game]) // 2, len(views[game])) if seen.count(views[game][move]) == 1]
        chosen |= {game: unique[0]} if unique and len(chosen) < 2 else {}
    assert len(chosen) == 2, views
    slow = [views[game][move] for game, move in chosen.items()]
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STUDENT_FILES / "agent_guesses.py", folder / "agent_guesses.py")
    text = (STUDENT_FILES / "agent_slow_chosen.py").read_text(encoding="utf-8").replace("{{SLOW_VIEWS}}", " ".join(slow))
    (folder / "agent.py").write_text(text, encoding="utf-8")
    return folder / "agent.py", sorted(chosen), played


def test_slow_chosen_moves_lose_their_games_alone_by_the_move_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent that spins on CPU time, 120 times the per-move limit, at one chosen move of
    two chosen games (every other move instant) loses those two games alone, to a slow
    move: the typed games lost by cause are exactly them, the other games are won as
    without the slow moves, and the losses line names them."""
    agent, chosen, played = slow_at_chosen_moves(tmp_path / "agent", monkeypatch)
    grading = replace(GRADING, move_timeout=0.5, timeout=120.0)
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    sandbox = open_sandbox("bwrap", [], workers=1)
    try:
        outcome = play_agent_games(str(agent), grading, 0, Limits(), sandbox, "siblings")
    finally:
        sandbox.close()
    assert outcome.ok, outcome.reason
    result = outcome.answered
    assert result.lost_games == [("slow", chosen)], result.lost
    assert result.wins == sum(game.won for game in played) - len(chosen), result.lost
    item = score_agent(grading, outcome)
    assert item.lost_games == (("slow", tuple(chosen)),)
    losses = dict(item.facts)["losses"]
    assert f"2 to a slow move ({game_numbers(chosen)}): a move took more than 0.5 s" in losses, losses


def test_a_class_run_loses_the_slow_games_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through a class run (`--submissions`, an agent section with a 0.5 s move
    limit): the kept result of the student whose agent is slow at the chosen moves has
    those games alone lost to a slow move, the losses line in its feedback names them, and
    a classmate with the same agent never slow loses none to it."""
    ann, chosen, played = slow_at_chosen_moves(tmp_path / "class" / "ann", monkeypatch)
    bob = tmp_path / "class" / "bob"
    bob.mkdir()
    for student_folder in (ann.parent, bob):
        (student_folder / "hooks.py").write_text(self_contained("correct"), encoding="utf-8")
        shutil.copyfile(STUDENT_FILES / "agent_guesses.py", student_folder / "agent_guesses.py")
    (bob / "agent.py").write_text((STUDENT_FILES / "agent_slow_chosen.py").read_text(encoding="utf-8"), encoding="utf-8")
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(ROOT / "problems" / "course.yaml", problems / "course.yaml")
    (problems / "grading.yaml").write_text(
        f"agent:\n  games: {GRADING.games}\n  move_timeout: 0.5\n  timeout: 120\n  thresholds: [[0.5, 1.0]]\n", encoding="utf-8"
    )
    csv = tmp_path / "grades.csv"
    run = run_grader(problems, "--submissions", tmp_path / "class", "--csv", csv, "--only", "agent", timeout=600)
    assert csv.is_file() and "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr
    kept = {
        name: report_from_data(json.loads((tmp_path / "grades-results" / f"{name}.json").read_text(encoding="utf-8"))["report"])
        for name in ("ann", "bob")
    }
    items = {name: next(i for i in report.items if i.kind == "agent") for name, report in kept.items()}
    assert items["ann"].lost_games == (("slow", tuple(chosen)),), items["ann"].message
    assert items["bob"].lost_games == (), items["bob"].message
    wins = sum(game.won for game in played)
    assert [dict(items[name].facts)["wins"] for name in ("ann", "bob")] == [str(wins - len(chosen)), str(wins)]
    feedback = (tmp_path / "grades-feedback" / "ann.md").read_text(encoding="utf-8")
    assert f"2 to a slow move ({game_numbers(chosen)}): a move took more than 0.5 s" in " ".join(feedback.split())


def test_printing_every_move_loses_no_game() -> None:
    """`print(view)` many times a move, more in all than the output cap (made small
    here), costs no game: the cap bounds one move, not the whole item."""
    limits = Limits(output_bytes=1 << 20)
    outcome, item = sandboxed("agent_prints", limits=limits)
    result = outcome.answered
    same_play(replayed(student("agent_naive").choose_move), result)
    assert result.errors == 0 and "output cap" not in item.message, item.message
    assert outcome.output.startswith("View(rows=9")  # what it printed is kept, up to the limit


def test_printing_past_the_cap_in_one_move_names_the_cap() -> None:
    """A move that prints without end loses that game, and the report names the cap."""
    outcome, item = sandboxed("agent_floods", AgentGrading(games=3, points=4.0), Limits(output_bytes=1 << 20))
    assert "3 to printing over the output cap (games 1-3): printed more than 1 MiB" in outcome.answered.lost
    assert "printed more than 1 MiB" in item.message


def test_exceptions_and_illegal_moves_are_counted_apart_with_their_games() -> None:
    """Games lost to an exception and to an illegal move are counted apart, each with
    its game numbers; the exception is named with its line in the student's file."""
    ours = replayed(student("agent_raises").choose_move)
    raised = [i for i, game in enumerate(ours) if game.cause == "raised"]
    illegal = [i for i, game in enumerate(ours) if game.cause == "illegal"]
    assert raised and illegal
    outcome, item = sandboxed("agent_raises")
    lost = outcome.answered.lost
    same_play(ours, outcome.answered)
    assert (f"{len(raised)} to an exception ({game_numbers(raised)}): ValueError: a three (agent_raises.py, line 11, in choose_move)") in lost, lost
    assert f"{len(illegal)} to an illegal move ({game_numbers(illegal)}): illegal move: open of r1c2" in lost, lost
    assert "ended by an error" not in item.message


def test_an_agent_that_forges_replies_gets_exactly_what_it_claimed_checked_by_the_grader() -> None:
    """An agent that writes forged replies on the worker's reply descriptor (a move on a
    cell already open) ahead of its real ones: the grader reads one reply per move, in
    order, checks each against its own game, and so plays exactly the games of the lines
    sent (replayed here with the same queue of replies): the forged claim loses its game
    as an illegal move, every later move is one reply late, nothing is ours to fail."""
    agent = student("agent_forges")
    sent: list[Move] = []

    def queued(view: Any) -> Move:
        claim = agent.forged(view)
        sent.extend(([Move(claim[0], claim[1])] if claim is not None else []) + [agent.honest(view)])
        return sent.pop(0)

    ours = replayed(queued)
    assert ours[0].cause == "illegal" and "the cell is already revealed" in (ours[0].error or "")
    outcome, item = sandboxed("agent_forges")
    result = outcome.answered
    same_play(ours, result)
    assert [(cause, games) for cause, games in result.lost_games] == list(lost_by_cause(ours).items())
    assert "illegal move: open of r1c1: the cell is already revealed" in result.lost, result.lost
    assert item.score == 0 and "ungraded" not in item.message


def test_when_the_time_for_all_games_runs_out_the_rest_are_counted_apart() -> None:
    """An agent within the per-move limit but slow over all the games: the games it
    finished count as played, the rest are counted apart as not finished, with why."""
    grading = AgentGrading(games=6, points=4.0, timeout=1.0, move_timeout=0.5)
    outcome, item = sandboxed("agent_ponders", grading)
    result = outcome.answered
    match = re.search(
        r"(\d+) not finished: the time for all the games ran out \(games? ([\d-]+)\): "
        r"the 1 s allowed for all the games ran out",
        result.lost,
    )
    assert match, result.lost
    unfinished = int(match.group(1))
    assert 0 < unfinished < grading.games and match.group(2).endswith(str(grading.games))
    assert "opened a mine" in result.lost  # the games before were played out


def test_the_student_copy_plays_a_practice_set_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a student copy the configured games are cut to COPY_GAMES, and the report says
    how many the course's autograder plays; the handout states the same number."""
    from grader.inputs.config import GradingConfig
    from grader.scoring import agentplay
    from grader.scoring.agentplay import COPY_GAMES, score_agent

    played: list[AgentGrading] = []

    def fake_play(source: str, chosen: AgentGrading, *rest: Any) -> Outcome:
        played.append(chosen)
        games = [GameResult(seed, seed % 2 == 0) for seed in range(chosen.games)]
        return Outcome("ok", agentplay.games_result(games))

    monkeypatch.setattr(agentplay, "play_agent_games", fake_play)
    monkeypatch.setattr(agentplay, "in_student_copy", lambda: True)
    course = AgentGrading(games=COPY_GAMES * 10)
    chosen, outcome = agentplay.agent_games(GradingConfig(agent=course), "reference", Limits(), None, "file")
    assert chosen == course and played[0].games == COPY_GAMES
    assert outcome is not None
    message = score_agent(course, outcome).message
    assert f"a practice set, the first {COPY_GAMES} public default games" in message
    assert f"the course's autograder plays other games of the same kind, {COPY_GAMES * 10} of them" in message
    monkeypatch.setattr(agentplay, "in_student_copy", lambda: False)
    agentplay.agent_games(GradingConfig(agent=course), "reference", Limits(), None, "file")
    assert played[1].games == COPY_GAMES * 10  # the course plays every configured game
    handout = (ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8")
    assert f"{COPY_GAMES:,} of the public default games" in handout


def write_config(folder: Path, agent: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "grading.yaml").write_text(f"hook_seed: 5\nagent:\n  seed: 3\n{agent}", encoding="utf-8")
    return folder


def test_export_warns_when_the_agent_item_cannot_finish_within_the_platform_limit(tmp_path: Path) -> None:
    """The configured budget and the reference's time for the configured games are
    checked against each platform's job limit: too much of either is one warning line
    with the figure; the defaults fit."""
    from answerkey.instructor.agentcost import GRADESCOPE, agent_time_warnings, prairielearn

    fits = write_config(tmp_path / "fits", "  games: 20\n")
    assert agent_time_warnings(fits, prairielearn(600)) == [] and agent_time_warnings(fits, GRADESCOPE) == []
    long_budget = write_config(tmp_path / "budget", "  games: 20\n  timeout: 1200\n")
    [warning] = agent_time_warnings(long_budget, prairielearn(600))
    assert "agent.timeout lets the games use 1200 s of CPU" in warning and "600 s limit" in warning
    [warning] = agent_time_warnings(write_config(tmp_path / "half", "  games: 20\n  timeout: 400\n"), GRADESCOPE)
    assert "up to 800 s on Gradescope at 0.5 of a CPU" in warning  # half a CPU: twice the wall time
    many = write_config(tmp_path / "many", "  games: 100000000\n")
    [warning] = agent_time_warnings(many, prairielearn(600))
    assert re.search(
        r"the reference agent's 100000000 beginner games would take about \d+ s on PrairieLearn "
        r"\([\d.]+ ms of CPU a game, timed on \d+ games",
        warning,
    ), warning


def test_prairielearn_export_prints_the_warning(tmp_path: Path) -> None:
    """`python -m grader prairielearn` with an agent budget past the job limit still
    writes the question, and warns in one line."""
    problems = write_config(tmp_path / "problems", "  games: 20\n  timeout: 1200\n")
    (problems / "course.yaml").write_text((ROOT / "problems" / "course.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    run = run_grader("prairielearn", tmp_path / "out", "--problems", problems, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    text = " ".join(run.stdout.split())
    assert "warning: " in text and "agent.timeout lets the games use 1200 s of CPU" in text and "600 s limit" in text


def test_every_place_says_what_a_missing_agent_seed_means() -> None:
    """No document or message promises fresh random games: without a seed the grader
    plays the public default games, the same at every run."""
    from answerkey.instructor.seeds import AGENT_SEED, WITHOUT

    assert "public default games" in WITHOUT[AGENT_SEED] and "same at every run" in WITHOUT[AGENT_SEED]
    help_text = " ".join(run_grader("gradescope-bundle", "--help").stdout.split())
    assert "fresh random" not in help_text and "public default games" in help_text
    for document in ("README.md", "problems/README.md", "assignment/HANDOUT.md", "answerkey/instructor/seeds.py", "grader/commands/cli.py"):
        assert "fresh random" not in (ROOT / document).read_text(encoding="utf-8"), document


def test_an_agent_whose_process_ends_loses_each_game_to_that_cause() -> None:
    """A process that ends itself at every move loses every game to that cause, named
    with how it ended; every game is still played in a fresh worker."""
    outcome, item = sandboxed("agent_exits", AgentGrading(games=3, points=4.0))
    lost = outcome.answered.lost
    assert lost.startswith("lost 3 of 3: 3 to the agent's process ending (games 1-3): "), lost
    assert "exit code 3" in lost and "exit code 3" in item.message
