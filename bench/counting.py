"""Exact counts without enumeration: every user-facing count against an enumerating peer.

Run from the repository root::

    python bench/counting.py [--peer-limit 30] [--big-boards 10] [--json FILE]

Every figure is the CPU time (user + system) of a child process running the command as a
user types it, from `resource.getrusage(RUSAGE_CHILDREN)`; a child still running after
its limit is stopped and reported as "> limit". Rows (issue 14's targets in brackets):

- the 6x6 board with 4 hints and 10 mines (hint_board, seed 0; 211,530 layouts):
  `grader check` on a file holding it [under 1 s of CPU], the component counter alone
  (`solution_counts`, in the child, its own time) [under 50 ms], and the peer: the
  reference engine enumerating in "count" mode (how `grader check` counted it before);
- the 3x12 strip (a middle row `? 3 ? 3 ...` between two unknown rows; 318,205 layouts):
  `python -m solvers sat --count` [under 0.5 s] and the peer: Glucose enumerating with
  blocking clauses (how the command counted before);
- a status grid of 3x20 cells with many layouts: `python -m solvers grid --count`;
- `--big-boards` planted 48x48 and 64x64 classic boards (20 % mines, 25 % of the safe
  cells shown) with their mine count: `python -m solvers sat --count --mines N`
  [48x48 under 5 s, 64x64 under 20 s, every board]. No exact model counter installs
  here as a peer (pyganak is not in the package index this machine sees).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from scale_boards import classic_board  # noqa: E402

FOUR_HINTS = ". . . . . .\n. 2 . . . .\n. . 1 . . .\n. 4 . . 2 .\n. . . . . .\n. . . . . ."
STRIP = "3 12\n" + "\n".join([" ".join("?" * 12), " ".join(["?", "3"] * 6), " ".join("?" * 12)]) + "\n"
GRID = "\n".join([". " * 20, "3 . " * 10, ". " * 20]) + "\n"
PROBLEMS = "problems:\n  - id: four-hints\n    mines: 10\n    expect: 211530\n    board: |\n" + "".join(
    f"      {row}\n" for row in FOUR_HINTS.splitlines()
)
COUNTER_ONLY = """
import sys, time
from answerkey.components.count import count_solutions
from solvers.csp import build_csp
from solvers.textformat import parse_board
csp = build_csp(parse_board(open(sys.argv[1]).read(), "classic", 10))
started = time.process_time()
print(count_solutions(csp), time.process_time() - started)
"""
ENGINE_PEER = """
import sys
from solvers.csp import build_csp
from answerkey.fastsearch import search
from answerkey.strategies import REFERENCE
from solvers.textformat import parse_board
print(search(build_csp(parse_board(open(sys.argv[1]).read(), "classic", 10)), REFERENCE, "count").count)
"""
GLUCOSE_PEER = """
import sys
from answerkey.instructor.solving.sat import read_seed_board
from solvers.csp import build_csp
from answerkey.sat import sat_solve
print(sat_solve(build_csp(read_seed_board(open(sys.argv[1]).read())), "count").count)
"""


@dataclass
class Row:
    """One command's CPU time (None: stopped at `limit` seconds), its answer and its target."""

    board: str
    path: str
    cpu_seconds: float | None
    answer: str
    target: float | None
    limit: float

    def line(self) -> str:
        cpu = f"> {self.limit:.0f} s" if self.cpu_seconds is None else f"{self.cpu_seconds:.3f} s"
        goal = ""
        if self.target is not None:
            met = self.cpu_seconds is not None and self.cpu_seconds <= self.target
            goal = f"<= {self.target} s: {'met' if met else 'MISSED'}"
        return f"{self.board:<18}{self.path:<36}{cpu:>12}  {self.answer:<12} {goal}"


def run(command: list[str], limit: float) -> tuple[float | None, str]:
    """(CPU seconds, standard output) of a child process; (None, '') when stopped at `limit`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, f"{' '.join(command)}: {done.stderr.strip()}"
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def small_rows(folder: Path, limit: float) -> list[Row]:
    """The issue's three small boards: each command, and its enumerating peer."""
    py = sys.executable
    files = {"four.txt": FOUR_HINTS, "strip.txt": STRIP, "grid.txt": GRID, "four.yaml": PROBLEMS}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, code in (("counter.py", COUNTER_ONLY), ("engine.py", ENGINE_PEER), ("glucose.py", GLUCOSE_PEER)):
        (folder / name).write_text(code, encoding="utf-8")
    base, _ = run([py, "-c", "pass"], limit)
    cases = [
        ("211,530 layouts", "grader check FILE", [py, "-m", "grader", "check", str(folder / "four.yaml")], 1.0),
        ("211,530 layouts", "component counter (its own CPU)", [py, str(folder / "counter.py"), str(folder / "four.txt")], 0.05),
        ("211,530 layouts", "peer: engine count mode", [py, str(folder / "engine.py"), str(folder / "four.txt")], None),
        ("3x12 strip", "solvers sat --count", [py, "-m", "solvers", "sat", "--count", str(folder / "strip.txt")], 0.5),
        ("3x12 strip", "peer: Glucose blocking clauses", [py, str(folder / "glucose.py"), str(folder / "strip.txt")], None),
        ("3x20 status grid", "solvers grid --count", [py, "-m", "solvers", "grid", "--count", str(folder / "grid.txt")], None),
    ]
    rows = []
    for board, what, command, target in cases:
        seconds, out = run(command, limit)
        if what.startswith("component counter") and seconds is not None:
            answer, own = out.split()
            seconds, out = float(own), answer
        answer = out.strip().splitlines()[-1] if out.strip() else "-"
        if what.startswith("grader check"):
            answer = "expect ok" if "0 with a wrong expect" in out else "expect WRONG"
        rows.append(Row(board, what, seconds, answer, target, limit))
    rows.append(Row("-", "python -c pass", base, "-", None, limit))
    return rows


def big_rows(folder: Path, boards: int, limits: dict[int, float]) -> list[Row]:
    """`solvers sat --count --mines N` on planted 48x48 and 64x64 boards."""
    rows = []
    for size, limit in limits.items():
        mines = size * size // 5
        for seed in range(boards):
            board = classic_board(random.Random(seed), size, size, mines, 0.25, mines)
            path = folder / f"big-{size}-{seed}.txt"
            rows_text = [" ".join("?" if clue is None else str(clue) for clue in row) for row in board.clues]
            path.write_text("\n".join([f"{size} {size}", *rows_text]) + "\n", encoding="utf-8")
            command = [sys.executable, "-m", "solvers", "sat", "--count", "--mines", str(mines), str(path)]
            seconds, out = run(command, 3 * limit)
            digits = out.strip()
            answer = f"{len(digits)} digits" if digits else "-"
            rows.append(Row(f"{size}x{size} #{seed}", "solvers sat --count --mines", seconds, answer, limit, 3 * limit))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-limit", type=float, default=30.0, help="seconds before an enumerating peer is stopped")
    parser.add_argument("--big-boards", type=int, default=10, help="planted boards per size (default 10; 0 skips them)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        rows = small_rows(folder, args.peer_limit)
        rows += big_rows(folder, args.big_boards, {48: 5.0, 64: 20.0})
    print(f"{'board':<18}{'path':<36}{'CPU':>12}  {'answer':<12} target")
    for row in rows:
        print(row.line())
    if args.json:
        args.json.write_text(json.dumps({"rows": [asdict(row) for row in rows]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
