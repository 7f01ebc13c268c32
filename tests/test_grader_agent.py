"""Grading a playing agent by its win rate on seeded games (the `agent:` config section)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from conftest import no_traceback, run_grader

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


def test_reference_agent_gets_the_agent_points(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "--solver", "reference")
    entry = agent_entry(report)
    assert entry["status"] == "pass" and entry["score"] == entry["max_score"] == 4
    assert "beginner games" in entry["message"] and "95% CI" in entry["message"]
    assert result.returncode == 0


def test_a_losing_agent_scores_by_the_thresholds(tmp_path: Path) -> None:
    _, report = grade(tmp_path, "--solver", STUDENTS / "correct.py", "--agent", STUDENTS / "agent_naive.py")
    entry = agent_entry(report)
    assert entry["status"] == "fail" and entry["score"] < entry["max_score"]
    assert entry["message"].startswith("won ")
    again = agent_entry(grade(tmp_path, "--solver", STUDENTS / "correct.py", "--agent", STUDENTS / "agent_naive.py")[1])
    assert again["message"] == entry["message"]  # seeded games: the same result every time


def test_a_crashing_agent_loses_its_games_with_the_reason(tmp_path: Path) -> None:
    _, report = grade(tmp_path, "--solver", STUDENTS / "correct.py", "--agent", STUDENTS / "agent_crash.py")
    entry = agent_entry(report)
    assert entry["score"] == 0 and "lost to errors" in entry["message"] and "KeyError" in entry["message"]


def test_no_agent_file_is_one_reason(tmp_path: Path) -> None:
    _, report = grade(tmp_path, "--solver", STUDENTS / "correct.py")
    entry = agent_entry(report)
    assert entry["status"] == "error" and "no agent file found" in entry["message"]
    _, report = grade(tmp_path, "--solver", STUDENTS / "correct.py", "--agent", STUDENTS / "crash.py")
    assert "no function named choose_move" in agent_entry(report)["message"]


def test_bad_agent_config_is_one_line(tmp_path: Path) -> None:
    result, _ = grade(tmp_path, "--solver", "reference", config="agent:\n  level: impossible\n")
    assert result.returncode != 0
    assert "agent.level: must be one of beginner, intermediate, expert" in " ".join(result.stdout.split())


def test_an_agent_cannot_read_the_mines(tmp_path: Path) -> None:
    """The game stays in the grader: walking the agent's own frames finds no game to peek at."""
    _, report = grade(tmp_path, "--solver", STUDENTS / "correct.py", "--agent", STUDENTS / "agent_peeks.py")
    entry = agent_entry(report)
    assert entry["score"] == 0 and entry["message"].startswith("won 0/20")
