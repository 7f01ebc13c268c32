"""`python -m solvers generate status|hints`: seeded problem sets that load and keep their word."""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest
import yaml

from answerkey.components.count import count_solutions
from answerkey.generate import game_position, hint_problem_set, measure, status_problem_set
from grader.inputs.problemset import load_problem_file
from solvers.board import clues_for_layout
from solvers.brute import brute_force
from solvers.cli import main
from solvers.csp import build_csp

ROOT = Path(__file__).resolve().parents[1]


def generate(tmp_path: Path, monkeypatch, *args: str) -> tuple[int, Path]:
    """Run `python -m solvers generate ARGS -o FILE` as the command line does (argv recorded)."""
    out = tmp_path / "set.yaml"
    argv = ["generate", *args, "-o", str(out)]
    monkeypatch.setattr("sys.argv", ["solvers", *argv])
    return main(argv), out


def test_status_set_loads_with_exact_counts_and_its_command(tmp_path, monkeypatch):
    code, out = generate(tmp_path, monkeypatch, "status", "--rows", "4", "--cols", "4", "--percent", "30", "--count", "6", "--seed", "3")
    assert code == 0
    problems, errors = load_problem_file(out)
    assert errors == [] and len(problems) == 6
    assert [p.id for p in problems] == [f"status-{i:02d}" for i in range(1, 7)]
    source = yaml.safe_load(out.read_text(encoding="utf-8"))["source"]
    assert source.startswith("python -m solvers generate status --rows 4 --cols 4 --percent 30 --count 6 --seed 3 -o ")
    for problem in problems:
        board = problem.board
        assert (board.rows, board.cols, board.rule, board.mines) == (4, 4, "inclusive", None)
        assert len(board.clue_cells()) == 16  # every cell shows its count
        assert problem.expect == brute_force(build_csp(board), "count").count >= 1


def test_status_sets_are_reproducible_and_seeded():
    first = status_problem_set(random.Random(5), 4, 6, 6, 25)
    again = status_problem_set(random.Random(5), 4, 6, 6, 25)
    other = status_problem_set(random.Random(6), 4, 6, 6, 25)
    assert first == again and first != other


def test_status_unique_only(tmp_path, monkeypatch):
    boards = status_problem_set(random.Random(1), 5, 5, 5, 40, unique_only=True)
    assert [expect for _board, expect in boards] == [1] * 5
    code, out = generate(tmp_path, monkeypatch, "status", "-N", "5", "-M", "5", "-P", "40", "--count", "3", "--unique-only")
    assert code == 0 and [p.expect for p in load_problem_file(out)[0]] == [1, 1, 1]


def test_status_bad_arguments(tmp_path, monkeypatch, capsys):
    assert generate(tmp_path, monkeypatch, "status", "--percent", "120")[0] == 2
    assert generate(tmp_path, monkeypatch, "status", "--rows", "0")[0] == 2
    assert "error:" in capsys.readouterr().err


def test_hints_unique_only_with_a_difficulty_floor(tmp_path, monkeypatch):
    code, out = generate(tmp_path, monkeypatch, "hints", "--count", "3", "--unique-only", "--min-nodes", "5", "--seed", "4")
    assert code == 0
    problems, errors = load_problem_file(out)
    assert errors == [] and len(problems) == 3
    for problem in problems:
        csp = build_csp(problem.board)
        solutions, nodes = measure(problem.board)
        assert problem.expect == solutions == count_solutions(csp) == 1
        assert nodes >= 5
    assert "--unique-only --min-nodes 5" in out.read_text(encoding="utf-8")


def test_hints_unsolvable_only_is_verified_by_counting(tmp_path, monkeypatch):
    code, out = generate(tmp_path, monkeypatch, "hints", "--count", "3", "--unsolvable-only", "--seed", "2")
    assert code == 0
    problems, _ = load_problem_file(out)
    assert [p.expect for p in problems] == [0, 0, 0]
    assert all(count_solutions(build_csp(p.board)) == 0 for p in problems)


def test_min_nodes_raises_the_difficulty():
    easy = hint_problem_set(random.Random(8), 6)
    hard = hint_problem_set(random.Random(8), 6, min_nodes=15)
    assert min(measure(board)[1] for board, _ in hard) >= 15
    assert sum(measure(b)[1] for b, _ in hard) > sum(measure(b)[1] for b, _ in easy)


def test_hints_conflicting_flags_and_impossible_requests(tmp_path, monkeypatch, capsys):
    assert generate(tmp_path, monkeypatch, "hints", "--unique-only", "--unsolvable-only")[0] == 2
    assert generate(tmp_path, monkeypatch, "hints", "--unique-only", "--unsolvable", "2")[0] == 2
    assert generate(tmp_path, monkeypatch, "hints", "--count", "2", "--unique-only", "--min-nodes", "100000")[0] == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 3 and "Traceback" not in err


def test_default_hints_are_unchanged_by_the_new_options(tmp_path, monkeypatch):
    """The recorded command of problems/generated-6x6.yaml still makes the same boards."""
    shipped = ROOT / "problems" / "generated-6x6.yaml"
    source = yaml.safe_load(shipped.read_text(encoding="utf-8"))["source"]
    argv = shlex.split(source)[3:]  # after "python -m solvers"
    argv[argv.index("-o") + 1] = str(tmp_path / "again.yaml")
    monkeypatch.setattr("sys.argv", ["solvers", *argv])
    assert main(argv) == 0
    again = (tmp_path / "again.yaml").read_text(encoding="utf-8").split("problems:", 1)[1]
    assert again == shipped.read_text(encoding="utf-8").split("problems:", 1)[1]


def test_shipped_generated_status_file_keeps_its_word():
    path = ROOT / "problems" / "generated-status.yaml"
    problems, errors = load_problem_file(path)
    assert errors == [] and len(problems) == 10
    assert "generate status" in path.read_text(encoding="utf-8")
    for problem in problems:
        assert (problem.board.rows, problem.board.cols, problem.board.rule) == (7, 7, "inclusive")
        assert problem.expect == count_solutions(build_csp(problem.board))


@pytest.mark.parametrize("reveal", [0.2, 0.5])
def test_game_positions_are_consistent_mid_games(reveal):
    board, layout = game_position(random.Random(9), reveal=reveal)
    assert (board.rows, board.cols, board.mines, board.rule) == (16, 30, 99, "classic")
    assert len(layout) == 99 and not any(board.clue(cell) is not None for cell in layout)
    counts = clues_for_layout(layout, 16, 30, "classic")
    shown = board.clue_cells()
    assert all(board.clue(cell) == counts[cell[0]][cell[1]] for cell in shown)
    assert len(shown) >= reveal * (16 * 30 - 99)
    assert any(counts[r][c] == 0 for r, c in shown)  # the game opened a zero
    assert game_position(random.Random(9), reveal=reveal)[0] == board
