"""bench/play_jsms.py without JSMinesweeper: the exported layouts, and the pairing against a cache of its results."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from play.game import Game
from play.levels import BEGINNER

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str):
    """A script of bench/ as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_bench():
    return load_script("play_jsms")


def test_layout_is_the_game_after_a_safe_corner_click():
    bench = load_bench()
    for seed in range(30):
        board = bench.layout(BEGINNER, seed)
        game = Game(BEGINNER, "classic", seed)
        game.open((0, 0))
        assert board["mines"] == game.mine_cells() and len(board["mines"]) == BEGINNER.mines
        assert (0, 0) not in board["mines"] and board["first"] == [0, 0]
        around = sum((r, c) in board["mines"] for r in (0, 1) for c in (0, 1))
        assert board["first_value"] == around == game.shown((0, 0))
    assert bench.layout(BEGINNER, 3)["hash"] == bench.layout(BEGINNER, 3)["hash"] != bench.layout(BEGINNER, 4)["hash"]


def write_cache(bench, path: Path, seeds: range, won: bool, tamper: int | None = None) -> None:
    rows = []
    for seed in seeds:
        board = bench.layout(BEGINNER, seed)
        digest = "0" * 16 if seed == tamper else board["hash"]
        rows.append({"level": "beginner", "seed": seed, "hash": digest, "won": won, "cpu": 0.01, "guesses": 1})
    rows.append({"level": "expert", "seed": seeds.start, "hash": "x", "won": True, "cpu": 0.1, "guesses": 3})  # another level: ignored
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_the_agent_is_paired_with_cached_results(tmp_path, capsys):
    bench = load_bench()
    cache, report, mine = tmp_path / "js.jsonl", tmp_path / "report.json", tmp_path / "agent.jsonl"
    write_cache(bench, cache, range(40), won=False)
    args = ["--level", "beginner", "--games", "40", "--cache", str(cache), "--json", str(report), "--agent-results", str(mine), "--chunk", "15"]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "JS: 40 boards from the cache, 0 to play" in out and "paired difference agent - JS" in out
    data = json.loads(report.read_text())
    agent, js = data["players"]
    paired = data["paired"]
    assert js["wins"] == 0 and agent["wins"] == paired["agent_only"] > 0
    assert paired["both"] == paired["js_only"] == 0 and paired["neither"] == 40 - agent["wins"]
    assert paired["difference"] == pytest.approx(agent["wins"] / 40)
    assert [json.loads(line)["seed"] for line in mine.read_text().splitlines()] == list(range(40))


def test_boards_missing_from_the_cache_need_jsminesweeper(tmp_path):
    bench = load_bench()
    cache = tmp_path / "js.jsonl"
    write_cache(bench, cache, range(10), won=True)
    with pytest.raises(SystemExit, match="5 boards are not in the cache: give --jsms PATH"):
        bench.main(["--level", "beginner", "--games", "15", "--cache", str(cache)])


def test_a_cache_of_other_layouts_is_refused(tmp_path):
    bench = load_bench()
    cache = tmp_path / "js.jsonl"
    write_cache(bench, cache, range(10), won=True, tamper=7)
    with pytest.raises(SystemExit, match=r"holds other layouts for seeds \[7\]"):
        bench.main(["--level", "beginner", "--games", "10", "--cache", str(cache)])


def test_the_agent_is_paired_with_an_earlier_agent_run(tmp_path, capsys):
    """--against pairs this run with an earlier --agent-results file on the boards both played:
    against a run that lost every board, the difference is this agent's win rate there."""
    bench = load_bench()
    cache, report, earlier = tmp_path / "js.jsonl", tmp_path / "report.json", tmp_path / "earlier.jsonl"
    write_cache(bench, cache, range(20), won=True)
    earlier.write_text("".join(json.dumps({"level": "beginner", "seed": seed, "won": False, "cpu": 0.0, "guesses": 0}) + "\n" for seed in range(10)))
    args = ["--level", "beginner", "--games", "20", "--cache", str(cache), "--json", str(report), "--against", str(earlier)]
    assert bench.main(args) == 0
    assert f"against {earlier} (10 boards, it won 0)" in capsys.readouterr().out
    data = json.loads(report.read_text())
    paired = data["against"]
    assert paired["boards"] == 10 and paired["only_baseline"] == 0 and paired["only_new"] > 0
    assert paired["difference"] == pytest.approx(paired["only_new"] / 10)


def load_losses():
    return load_script("jsms_losses")


def test_the_agents_guesses_are_logged_with_the_cells_opened_before_them():
    """bench/jsms_losses.py replays the agent's games: the same result as the benchmark's
    own play, every guess's prefix is safe and grows, and the last guess of a lost game is a mine."""
    from answerkey.agent.agent import Agent
    from answerkey.agent.benchmark import play_reference

    losses = load_losses()
    agent, lost = Agent(), 0
    for seed in range(20):
        won, guesses = losses.agent_guesses(BEGINNER, seed, agent)
        assert won == play_reference(BEGINNER, seed, "classic", agent).won
        game = Game(BEGINNER, "classic", seed)
        game.open((0, 0))
        mines = set(map(tuple, game.mine_cells()))
        for before, after in zip(guesses, guesses[1:]):
            assert after["prefix"][: len(before["prefix"])] == before["prefix"]
        for guess in guesses:
            assert not mines & set(map(tuple, guess["prefix"])) and 0 < guess["p"] < 1 and guess["lowest"] <= guess["p"]
        if not won and guesses:
            lost += 1
            assert tuple(guesses[-1]["cell"]) in mines
    assert lost >= 1


def test_js_first_guess_is_compared_with_the_agents():
    losses = load_losses()
    guess = {"cell": [2, 3], "p": 0.25, "lowest": 0.2}
    assert losses.compare(guess, [2, 3, 0.25]) == "the same cell"
    assert losses.compare(guess, [5, 5, 0.25]) == "another cell, the same probability"
    assert losses.compare(guess, [5, 5, 0.4]) == "a riskier cell"
    assert losses.compare(guess, [5, 5, 0.2]) == "a safer cell (the agent had left the safest)"
    assert losses.compare({**guess, "lowest": 0.25}, [5, 5, 0.2]) == "a safer cell"
    assert losses.compare(guess, None) == "JS guesses no more"
