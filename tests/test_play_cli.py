"""`python -m play bench` (play/cli.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from play.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_bench_prints_and_writes_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--level", "beginner", "--games", "12", "--seed", "4", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "win rate" in printed and "95% CI" in printed and "games/s" in printed
    data = json.loads(out.read_text())
    assert data["level"] == "beginner" and data["games"] == 12 and data["seed"] == 4
    assert data["win_rate"] == data["wins"] / 12
    low, high = data["ci95"]
    assert 0 <= low <= data["win_rate"] <= high <= 1
    assert data["games_per_second"] > 0 and "guesses_per_game" in data


def test_bench_is_deterministic_and_jobs_do_not_change_the_games(tmp_path):
    files = [tmp_path / "one.json", tmp_path / "two.json"]
    assert main(["bench", "--level", "9x9x10", "--games", "10", "--json", str(files[0])]) == 0
    assert main(["bench", "--level", "beginner", "--games", "10", "--jobs", "2", "--json", str(files[1])]) == 0
    one, two = (json.loads(f.read_text()) for f in files)
    assert one["wins"] == two["wins"] and one["guesses_per_game"] == two["guesses_per_game"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["bench", "--level", "hard"], "unknown level"),
        (["bench", "--games", "0"], "positive"),
        (["bench", "--games", "ten"], "positive"),
        (["bench", "--rules", "easy"], "invalid choice"),
        (["bench", "--level", "3x3x9"], "do not fit"),
        (["bench", "--level", "5x5x20", "--rules", "opening"], "do not fit"),
        (["bench", "--jobs", "-1"], "positive"),
        (["bench", "--json", "/no/such/folder/out.json"], "no folder"),
        (["bench", "--frobnicate"], "unrecognized"),
        (["play"], "unknown command"),
    ],
)
def test_bad_arguments_one_line_exit_2(args, words, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0]
    assert "Traceback" not in captured.err + captured.out


def test_python_dash_m_play_bench_runs():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "play", "bench", "--level", "beginner", "--games", "3"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and "win rate" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "play", "bench", "--games", "x"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_winrate_benchmark_script_runs_small(tmp_path):
    out = tmp_path / "winrate.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "play_winrate.py"), "--games", "6", "--peer-games", "3",
         "--speed-games", "1", "--levels", "beginner", "--jobs", "1", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    (level,) = data["levels"]
    assert level["reference"]["games"] == 6 and level["plain"]["games"] == 3
    assert data["expert_one_core"]["games"] == 1
