"""`python -m play` and `python -m play bench` (play/cli.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from play.app import MinesweeperApp
from play.cli import main
from play.levels import EXPERT

ROOT = Path(__file__).resolve().parent.parent
KIT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


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
    assert data["games_per_second"] > 0 and data["games_per_cpu_second"] > 0 and "guesses_per_game" in data


@pytest.mark.slow  # --jobs 2 plays in worker processes
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
        (["bench", "--json", "/no/such/folder/out.json"], "does not exist"),
        (["bench", "--frobnicate"], "unrecognized"),
        (["play"], "unknown command"),
        (["--level", "hard"], "unknown level"),
        (["--level", "3x3x9"], "do not fit"),
        (["--seed", "x"], "whole number"),
        (["--rules", "easy"], "invalid choice"),
        (["--frobnicate"], "unrecognized"),
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
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "win rate" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "play", "bench", "--games", "x"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_winrate_benchmark_script_runs_small(tmp_path):
    out = tmp_path / "winrate.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "play_winrate.py"),
            "--games",
            "6",
            "--peer-games",
            "3",
            "--speed-games",
            "1",
            "--levels",
            "beginner",
            "--jobs",
            "1",
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    (level,) = data["levels"]
    assert level["reference"]["games"] == 6 and level["plain"]["games"] == 3
    assert data["expert_one_core"]["games"] == 1


def started_games(monkeypatch) -> list[MinesweeperApp]:
    """Apps that `main` runs, recorded instead of run."""
    apps: list[MinesweeperApp] = []
    monkeypatch.setattr(MinesweeperApp, "run", lambda app: apps.append(app))
    return apps


def test_options_start_a_game_directly(monkeypatch):
    apps = started_games(monkeypatch)
    assert main(["--level", "expert", "--seed", "7", "--rules", "opening"]) == 0
    (app,) = apps
    settings = app.start_with
    assert settings is not None and (settings.level, settings.seed, settings.rules) == (EXPERT, 7, "opening")
    assert main(["--seed", "3"]) == 0 and apps[1].start_with.level.name == "beginner"
    assert main([]) == 0 and apps[2].start_with is None  # no option: the menu


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["bench", "--help"], ["bench", "--version"]])
def test_help_and_version_print_and_do_nothing_else(args, tmp_path, monkeypatch, capsys):
    apps = started_games(monkeypatch)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as done:
        main([*args, "--json", str(out)] if args[0] == "bench" else args)
    assert done.value.code == 0 and not apps and not out.exists()
    printed = capsys.readouterr().out
    if args[-1] == "--help":
        assert "usage: python -m play" in printed
    else:  # the version of the installed kit (the README's set-up installs it)
        assert printed == f"python -m play{' bench' if args[0] == 'bench' else ''} {KIT_VERSION}\n"


def test_python_dash_m_play_help_and_a_bad_level():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "play", "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--level" in done.stdout and "bench" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "play", "--level", "huge"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown level" in bad.stderr and not bad.stdout
