"""Start-up: the CPU time every `python -m solvers` command costs above bare Python.

Run from the repository root::

    python bench/startup.py [--repeats 9] [--json FILE]

Each command runs `--repeats` times in a child process, taking turns with `python -c pass`
(the baseline); its CPU time (user + system, from `resource.getrusage(RUSAGE_CHILDREN)`)
is compared with the baseline's, medians over the runs. The target of issue 14: every
command at most 0.1 s of CPU above the baseline.

Commands: `--help` of the program and of every subcommand, and each subcommand on a small
board (the boards are written to a temporary folder). Last, the reference SAT solver's 128x128 board
(bench/sat_large.py) through `python -m solvers sat` and through a 30-line PySAT script
written here (the peer: parse, cardinality encoding, Glucose 4.1, print), for the ratio.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from sat_large import checkerboard  # noqa: E402

TARGET_S = 0.1
BOARDS = {
    "square.txt": "3 3\n2 ? 2\n? 4 ?\n? ? ?\n",
    "strip.txt": "3 12\n" + "\n".join([" ".join("?" * 12), " ".join(["?", "3"] * 6), " ".join("?" * 12)]) + "\n",
    "grid.txt": "1100111\n2321122\n3532122\n3653022\n2432011\n2332121\n1111110\n",
    "board.txt": "? 1 ? ?\n? 2 ? 1\n? ? ? ?\n",
}
PYSAT_PEER = """
import sys
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver
lines = [line.split() for line in open(sys.argv[1]) if line.strip()]
rows, cols = map(int, lines[0])
grid = lines[1:]
var = {}
for r in range(rows):
    for c in range(cols):
        if grid[r][c] == "?":
            var[r, c] = len(var) + 1
clauses, top = [], len(var)
for r in range(rows):
    for c in range(cols):
        if grid[r][c] != "?":
            lits = [var[r + i, c + j] for i in (-1, 0, 1) for j in (-1, 0, 1) if (r + i, c + j) in var]
            enc = CardEnc.equals(lits=lits, bound=int(grid[r][c]), top_id=top, encoding=EncType.seqcounter)
            clauses += enc.clauses
            top = max(top, enc.nv)
with Solver(name="glucose4", bootstrap_with=clauses) as solver:
    if not solver.solve():
        print("Unsatisfiable!")
        sys.exit()
    mine = {lit for lit in solver.get_model() if lit > 0}
print("Satisfiable!")
print(rows, cols)
for r in range(rows):
    print(" ".join(("*" if var[r, c] in mine else "s") if grid[r][c] == "?" else grid[r][c] for c in range(cols)))
"""


def cpu_of(command: list[str]) -> float:
    """CPU seconds (user + system) of one child process running `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, f"{' '.join(command)}: {done.stderr.strip()}"
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands(folder: Path) -> dict[str, list[str]]:
    """Every command to time, by its label (the baseline first)."""
    solvers = [sys.executable, "-m", "solvers"]
    table = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "solvers --help": [*solvers, "--help"],
    }
    for sub in ("sat", "grid", "trace", "generate"):
        table[f"solvers {sub} --help"] = [*solvers, sub, "--help"]
    table["solvers sat square.txt"] = [*solvers, "sat", str(folder / "square.txt")]
    table["solvers sat --count strip.txt"] = [*solvers, "sat", "--count", str(folder / "strip.txt")]
    table["solvers sat --stats square.txt"] = [*solvers, "sat", "--stats", str(folder / "square.txt")]
    table["solvers grid grid.txt"] = [*solvers, "grid", str(folder / "grid.txt")]
    table["solvers grid --count grid.txt"] = [*solvers, "grid", "--count", str(folder / "grid.txt")]
    table["solvers trace board.txt"] = [*solvers, "trace", str(folder / "board.txt"), "--compact"]
    table["solvers generate hints --count 1"] = [*solvers, "generate", "hints", "--count", "1"]
    return table


def measure(table: dict[str, list[str]], repeats: int) -> dict[str, float]:
    """Median CPU seconds of each command, the commands taking turns."""
    times: dict[str, list[float]] = {label: [] for label in table}
    for _ in range(repeats):
        for label, command in table.items():
            times[label].append(cpu_of(command))
    return {label: statistics.median(values) for label, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="runs of each command (default 9)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for file, text in BOARDS.items():
            (folder / file).write_text(text, encoding="utf-8")
        (folder / "checkerboard128.txt").write_text(checkerboard(128), encoding="utf-8")
        (folder / "peer.py").write_text(PYSAT_PEER, encoding="utf-8")
        medians = measure(commands(folder), args.repeats)
        big = measure(
            {
                "solvers sat 128x128": [sys.executable, "-m", "solvers", "sat", str(folder / "checkerboard128.txt")],
                "PySAT script 128x128": [sys.executable, str(folder / "peer.py"), str(folder / "checkerboard128.txt")],
            },
            args.repeats,
        )
    base = medians["python -c pass"]
    print(f"{'command':<36}{'CPU s':>8}{'above bare':>12}  target <= {TARGET_S} s above")
    rows = []
    for label, seconds in medians.items():
        above = seconds - base
        met = above <= TARGET_S
        rows.append({"command": label, "cpu_seconds": seconds, "above_baseline": above, "met": met})
        print(f"{label:<36}{seconds:>8.3f}{above:>12.3f}  {'met' if met else 'MISSED'}")
    ratio = big["solvers sat 128x128"] / big["PySAT script 128x128"]
    print(
        f"\nthe reference SAT solver's 128x128 board: solvers sat {big['solvers sat 128x128']:.3f} s, "
        f"PySAT script {big['PySAT script 128x128']:.3f} s, ratio {ratio:.2f}"
    )
    worst = max(row["above_baseline"] for row in rows)
    print(f"worst command: {worst:.3f} s above bare Python; target {'met' if worst <= TARGET_S else 'MISSED'}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "checkerboard128": {**big, "ratio": ratio}}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
