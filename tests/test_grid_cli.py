"""`python -m solvers grid`: the status grids of the original solvers, as they print them."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.cli import main

ROOT = Path(__file__).resolve().parents[1]

SEED_3X3 = "011\n122\n122\n"
SEED_5X5 = "13431\n25663\n24564\n24675\n12443\n"
SEED_7X7 = "1100111\n2321122\n3532122\n3653022\n2432011\n2332121\n1111110\n"
SEED_004_SPARSE = """\
0 0 0 0 0 0 0
0 0 0 0 0 1 1
0 0 0 0 0 1 1
0 0 1 1 1 1 1
0 0 2 2 2 0 0
0 0 2 2 2 0 0
0 0 1 1 1 0 0
"""
SEED_004_GENERATED = """\
0 1 1 1 1 1 1
1 3 3 3 2 2 1
1 2 2 2 2 2 1
1 2 2 2 1 1 0
1 2 1 1 1 1 1
1 3 2 2 1 1 1
1 3 2 2 1 1 1
"""

#: What the original tools print for their examples (the status-grid solver without spaces).
PRINTED = {
    SEED_3X3: "___\n__x\n_x_\n",
    SEED_5X5: "_xxx_\n__x__\nx_xxx\n_x_xx\n__xx_\n",
    SEED_7X7: "_______\nx____x_\n_xx___x\nx_x____\n_xx___x\n_______\n_x__x__\n",
    SEED_004_SPARSE: "_______\n_______\n______x\n_______\n___x___\n___x___\n_______\n",
}


def run(capsys, text: str, *args: str, tmp_path: Path | None = None) -> tuple[int, str, str]:
    """Run `grid ARGS` on `text` (through a file when tmp_path is given, else standard input)."""
    if tmp_path is not None:
        path = tmp_path / "grid.txt"
        path.write_text(text, encoding="utf-8")
        code = main(["grid", str(path), *args])
    else:
        old = sys.stdin
        sys.stdin = io.StringIO(text)
        try:
            code = main(["grid", *args])
        finally:
            sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("grid", list(PRINTED))
def test_default_method_prints_what_the_seed_prints(capsys, tmp_path, grid):
    code, out, err = run(capsys, grid, tmp_path=tmp_path)
    assert (code, out, err) == (0, PRINTED[grid], "")


@pytest.mark.parametrize("method", ["search", "recursive", "sat"])
@pytest.mark.parametrize("grid", list(PRINTED))
def test_every_method_prints_a_solution_among_all(capsys, method, grid):
    code, out, _ = run(capsys, grid, "--method", method)
    assert code == 0
    _, every, _ = run(capsys, grid, "--all")
    layouts = every.split("\n\n")
    assert out.rstrip("\n") in layouts[:-1]
    assert every.endswith(("1 solution\n", "2 solutions\n"))


def test_seed_000_5x5_has_two_solutions_and_the_printed_one_is_first(capsys):
    code, out, _ = run(capsys, SEED_5X5, "--all")
    assert code == 0
    *layouts, count = out.split("\n\n")
    assert count == "2 solutions\n"
    assert layouts[0] + "\n" == PRINTED[SEED_5X5]
    assert len(set(layouts)) == 2
    for method in ("search", "recursive", "sat"):
        assert run(capsys, SEED_5X5, "--count", "--method", method)[1] == "2\n"
    assert run(capsys, SEED_3X3, "--method", "brute")[1] == PRINTED[SEED_3X3]


def test_the_seeds_recursion_finds_the_seeds_layout(capsys):
    # The original status-grid solver tries a mine first: its 5x5 output is the recursion's first solution too.
    assert run(capsys, SEED_5X5, "--method", "recursive")[1] == PRINTED[SEED_5X5]


def test_seed_004_generated_grid_is_unique_and_spaced_output(capsys):
    code, out, _ = run(capsys, SEED_004_GENERATED, "--spaced")
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 7 and all(len(row.split(" ")) == 7 for row in rows)
    assert set(out) <= set("x_ \n")
    assert run(capsys, SEED_004_GENERATED, "--count")[1] == "1\n"
    assert run(capsys, SEED_3X3, "--spaced")[1] == "_ _ _\n_ _ x\n_ x _\n"


def test_no_solution_prints_minus_one(capsys):
    assert run(capsys, "99\n99\n") == (0, "-1\n", "")
    assert run(capsys, "99\n99\n", "--all")[1] == "-1\n"
    assert run(capsys, "99\n99\n", "--count")[1] == "0\n"
    assert run(capsys, "9 9\n9 9\n", "--method", "recursive")[1] == "-1\n"


def test_partial_grid_with_dots(capsys):
    code, out, _ = run(capsys, "1.\n.1\n", "--all")
    assert code == 0
    assert out.endswith("\n\n4 solutions\n")
    assert run(capsys, "1,.\n.,1\n", "--count")[1] == "4\n"
    assert run(capsys, "1.\n.1\n", "--count", "--mines", "1")[1] == "4\n"
    assert run(capsys, "1.\n.1\n", "--count", "--mines", "2")[1] == "0\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("12\n3\n", "row 2: has 1 cells, expected 2"),
        ("1 10\n3 4\n", "clue 10 is out of range 0-9"),
        ("1a\n34\n", "'a' is not a clue"),
        ("", "the board has no rows"),
        ("\n  \n", "the board has no rows"),
        ("1 2\n3 -1\n", "'-1' is not a clue"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, text, message):
    code, out, err = run(capsys, text)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("error: standard input: ") and message in err


def test_missing_file_and_brute_force_on_a_large_grid(capsys, tmp_path):
    assert main(["grid", str(tmp_path / "nope.txt")]) == 2
    assert "No such file" in capsys.readouterr().err
    code, out, err = run(capsys, SEED_7X7, "--method", "brute")
    assert code == 2 and out == "" and "2^49" in err


def test_as_a_real_command_from_standard_input():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-m", "solvers", "grid"], input=SEED_3X3, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, PRINTED[SEED_3X3])
    bad = subprocess.run([sys.executable, "-m", "solvers", "grid"], input="1 x\n", cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [["grid"], ["sat"], ["trace"]])
def test_a_closed_standard_input_is_one_line(command: list[str]) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "solvers", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: os.close(0),
    )
    assert ran.returncode == 2 and "standard input is closed" in ran.stderr and "Traceback" not in ran.stderr


@pytest.mark.parametrize("command, text", [(["grid"], "1 [/x]\n2 2\n"), (["sat"], "2 3\n1 [/x] ?\n? ? ?\n"), (["trace"], ". [/x]\n. 1\n")])
def test_markup_in_a_board_is_shown_as_it_is(command: list[str], text: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "solvers", *command],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert ran.returncode == 2 and "'[/x]' is not a clue" in ran.stderr and "Traceback" not in ran.stderr


def test_every_solvers_command_has_a_version() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "solvers", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert ran.returncode == 0 and ran.stdout.startswith("python -m solvers ")


@pytest.mark.parametrize("command", ["grid", "sat", "trace", "generate"])
def test_every_solvers_subcommand_has_a_version(command: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "solvers", command, "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert ran.returncode == 0 and ran.stdout.startswith(f"python -m solvers {command} ")
