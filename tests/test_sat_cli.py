"""`python -m solvers sat` (answerkey/instructor/solving/sat.py), run as a user runs it.

The five instances of the reference SAT solver's write-up, DIMACS output, and unreadable input.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.formula import CNF

from answerkey.instructor.solving.sat import read_seed_board
from answerkey.methods import solve
from solvers.board import clues_for_layout
from solvers.csp import build_csp
from solvers.glucose import solve_cnf

ROOT = Path(__file__).resolve().parent.parent

ROW = "1 5\n? 1 ? 2 ?\n"
ROW_UNSAT = "1 5\n? 3 ? 3 ?\n"
SQUARE = "3 3\n2 ? 2\n? 4 ?\n? ? ?\n"
SQUARE_UNSAT = "3 3\n2 ? ?\n? 3 ?\n? ? 2\n"
COLUMN = "5 1\n1\n?\n2\n?\n1\n"
SQUARE_AS_LISTED = ["3 3", "2 * 2", "* 4 *", "* s s"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m solvers sat ARGS` from the repository root."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "solvers", "sat", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def blocks(stdout: str) -> list[list[str]]:
    """The output split at blank lines."""
    return [block.splitlines() for block in stdout.strip().split("\n\n")]


def shown_board_is_valid(text: str, shown: list[str]) -> bool:
    """The printed board is the input with each '?' as */s (or '?'), and every clue holds."""
    board = read_seed_board(text)
    if shown[0] != f"{board.rows} {board.cols}" or len(shown) != board.rows + 1:
        return False
    tokens = [line.split(" ") for line in shown[1:]]
    mines = {(r, c) for r, row in enumerate(tokens) for c, token in enumerate(row) if token == "*"}
    counts = clues_for_layout(mines, board.rows, board.cols, "classic")
    for r, c in board.cells():
        clue = board.clue((r, c))
        if clue is None and tokens[r][c] not in "*s?":
            return False
        if clue is not None and (tokens[r][c] != str(clue) or counts[r][c] != clue):
            return False
    return True


# --- the reference SAT solver's instances -------------------------------------------------------------


def test_instance_1_row() -> None:
    result = run(stdin=ROW)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == "Satisfiable!\n1 5\ns 1 * 2 *\n"


@pytest.mark.parametrize("text", [ROW_UNSAT, SQUARE_UNSAT], ids=["instance-2", "instance-4"])
def test_unsatisfiable_instances(text: str) -> None:
    result = run(stdin=text)
    assert (result.returncode, result.stdout, result.stderr) == (0, "Unsatisfiable!\n", "")
    assert run("--count", stdin=text).stdout == "0\n"


def test_instance_3_square_prints_a_valid_solution() -> None:
    result = run(stdin=SQUARE)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines[0] == "Satisfiable!"
    assert shown_board_is_valid(SQUARE, lines[1:])


def test_instance_3_square_all_includes_the_listed_solution() -> None:
    result = run("--all", stdin=SQUARE)
    assert result.returncode == 0
    *boards, count = blocks(result.stdout)
    boards[0] = boards[0][1:]  # after "Satisfiable!"
    assert count == ["3 solutions"]
    assert SQUARE_AS_LISTED in boards and len({tuple(b) for b in boards}) == 3
    assert all(shown_board_is_valid(SQUARE, board) for board in boards)
    assert run("--count", stdin=SQUARE).stdout == "3\n"


def test_instance_5_column_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "column.txt"
    path.write_text(COLUMN)
    result = run(str(path))
    assert result.returncode == 0
    assert result.stdout == "Satisfiable!\n5 1\n1\n*\n2\n*\n1\n"


def test_free_cells_are_shown_as_question_marks() -> None:
    text = "2 4\n? 1 ? ?\n? ? ? ?\n"
    result = run("--all", stdin=text)
    *boards, count = blocks(result.stdout)
    assert len(boards) == 5 and all(board[-2].endswith(" ?") and board[-1].endswith(" ?") for board in boards)
    assert count == ["5 solutions (20 counting each of the 2 '?' cells next to no clue as mine or safe)"]
    assert run("--count", stdin=text).stdout == "20\n"


def test_mine_count_and_encodings() -> None:
    text = "2 3\n? 1 ?\n? ? ?\n"
    encodings = ("subsets", "totalizer", "auto")
    counts = {run("--count", "--mines", "2", "--encoding", e, stdin=text).stdout for e in encodings}
    expected = solve(build_csp(read_seed_board(text, mines=2)), "fc-mrv", "count").count
    assert counts == {f"{expected}\n"}
    shown = run("--mines", "1", stdin=text).stdout.splitlines()
    assert "?" not in " ".join(shown[2:])  # every cell is in the global constraint


def test_stats_table_follows_the_board() -> None:
    result = run("--stats", stdin=SQUARE)
    assert result.returncode == 0
    assert result.stdout.startswith("Satisfiable!\n3 3\n")
    for name in ("conflicts", "decisions", "propagations", "restarts", "variables", "clauses", "time"):
        assert name in result.stdout


# --- DIMACS ---------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["subsets", "seqcounter", "auto"])
@pytest.mark.parametrize("text", [SQUARE, ROW_UNSAT, "2 4\n? 1 ? ?\n? ? ? ?\n"], ids=["square", "unsat", "free-cells"])
def test_dimacs_file_has_the_same_models(tmp_path: Path, text: str, encoding: str) -> None:
    path = tmp_path / "board.cnf"
    result = run("--count", "--dimacs", str(path), "--encoding", encoding, stdin=text)
    assert result.returncode == 0
    lines = path.read_text().splitlines()
    header = next(line for line in lines if line.startswith("p cnf "))
    assert all(line.startswith("c ") for line in lines[: lines.index(header)])
    cnf = CNF(from_file=str(path))
    _, _, n_vars, n_clauses = header.split()
    assert len(cnf.clauses) == int(n_clauses) and cnf.nv <= int(n_vars)
    board = read_seed_board(text)
    csp = build_csp(board)
    mapping = [line for line in cnf.comments if line.startswith("c var ")]
    assert mapping == [f"c var {v + 1} = r{r + 1}c{c + 1}" for v, (r, c) in enumerate(csp.cells)]
    assert solve_cnf(cnf, len(mapping), "count").count == int(result.stdout)


# --- unreadable input -----------------------------------------------------------------

BAD_INPUTS = {
    "empty": ("", "empty"),
    "blank": ("\n  \n", "empty"),
    "header-one-number": ("3\n? ? ?\n", "line 1"),
    "header-not-integers": ("a b\n? ?\n", "line 1"),
    "header-zero": ("0 2\n", "line 1"),
    "too-few-rows": ("3 2\n? ?\n1 ?\n", "line 4"),
    "too-many-rows": ("1 2\n? ?\n1 ?\n", "line 3"),
    "short-row": ("2 3\n? 1 ?\n? ?\n", "line 3"),
    "long-row": ("1 2\n? 1 ?\n", "line 2"),
    "stray-token": ("2 2\n? 1\nx ?\n", "line 3, column 1"),
    "clue-too-big": ("1 2\n? 9\n", "line 2, column 2"),
    "negative-clue": ("1 2\n? -1\n", "line 2, column 2"),
}


@pytest.mark.parametrize("text, where", BAD_INPUTS.values(), ids=list(BAD_INPUTS))
def test_bad_input_is_one_line_and_exit_2(text: str, where: str) -> None:
    result = run(stdin=text)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert where in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args, stdin, where",
    [
        (["missing-file.txt"], "", "missing-file.txt"),
        (["--mines", "9"], ROW, "--mines"),
        (["--dimacs", "no/such/dir/x.cnf"], ROW, "no/such/dir/x.cnf"),
        (["--mines", "15", "--encoding", "subsets", "--all"], "6 6\n" + "? ? ? ? ? ?\n" * 6, "subset encoding"),
    ],
    ids=["missing-file", "mines-too-many", "dimacs-unwritable", "subsets-too-large"],
)
def test_other_user_mistakes(args: list[str], stdin: str, where: str) -> None:
    result = run(*args, stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and where in result.stderr


def test_non_utf8_input() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "solvers", "sat"],
        input=b"\xff\xfe 1\n",
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 2 and b"UTF-8" in result.stderr and len(result.stderr.splitlines()) == 1


def test_count_of_over_4300_digits_is_printed_in_full() -> None:
    """120x120 unknown cells: 2**14400 layouts, 4,335 digits (Python refuses to print more
    than 4,300 by default)."""
    text = "120 120\n" + ("? " * 120 + "\n") * 120
    result = run("--count", stdin=text)
    assert result.returncode == 0 and result.stderr == ""
    import sys as system

    system.set_int_max_str_digits(0)
    assert result.stdout.strip() == str(2**14400)


def test_mines_are_placed_by_components_when_the_free_cells_cannot_take_them() -> None:
    """A strip where every unknown cell is next to a clue: the mine count picks one of the
    layouts, component by component (no free cell can absorb the difference)."""
    text = "3 5\n? ? ? ? ?\n2 ? 3 ? 2\n? ? ? ? ?\n"  # 36, 84 and 12 layouts with 4, 5 and 6 mines
    for mines in (4, 5, 6):
        result = run("--mines", str(mines), stdin=text)
        assert result.returncode == 0 and result.stdout.startswith("Satisfiable!")
        shown = result.stdout.split("\n")[1:5]
        assert shown_board_is_valid(text, shown) and sum(row.split().count("*") for row in shown) == mines
    for mines in (3, 7):
        assert run("--mines", str(mines), stdin=text).stdout == "Unsatisfiable!\n"
