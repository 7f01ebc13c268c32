"""Start-up: `python -m solvers` imports the heavy modules only for the commands that need
them (bench/startup.py measures the CPU time; these tests pin what is imported)."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import answerkey.instructor.solving
from solvers.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
BOARD = "3 3\n2 ? 2\n? 4 ?\n? ? ?\n"


def imported_after(code: str, tmp_path: Path, board: str = BOARD) -> set[str]:
    """The top-level packages in sys.modules after running `code` in a fresh interpreter."""
    (tmp_path / "board.txt").write_text(board, encoding="utf-8")
    probe = (
        "import sys, io, contextlib\nfrom solvers.cli import main, build_parser\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    {code}\nprint(' '.join(sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return {name.split(".")[0] for name in done.stdout.split()}


def test_every_command_module_is_registered() -> None:
    assert sorted(COMMANDS) == sorted(m.name for m in pkgutil.iter_modules(answerkey.instructor.solving.__path__))


def test_the_parser_imports_neither_pysat_nor_rich(tmp_path: Path) -> None:
    loaded = imported_after("build_parser()", tmp_path)
    assert "solvers" in loaded and not {"pysat", "rich", "fractions"} & loaded


@pytest.mark.parametrize(
    "argv, absent",
    [
        (["sat", "board.txt"], {"rich"}),
        (["sat", "--count", "board.txt"], {"rich", "pysat"}),
        (["grid", "--count", "board.txt"], {"rich", "pysat"}),
    ],
)
def test_commands_import_only_what_they_use(tmp_path: Path, argv: list[str], absent: set[str]) -> None:
    board = "011\n122\n122\n" if argv[0] == "grid" else BOARD
    loaded = imported_after(f"assert main({argv!r}) == 0", tmp_path, board)
    assert not absent & loaded
