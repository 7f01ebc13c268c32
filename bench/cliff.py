"""One solution of large planted classic boards: does any user-facing path fall off a cliff?

Run from the repository root::

    python bench/cliff.py [--sizes 32,48,64,96,128,192,256] [--seeds 3] [--json FILE]

Boards: planted classic boards (`scale_boards.classic_board`), 20 % mines, 25, 35 and
50 % of the safe cells shown as clues, no mine count, `--seeds` seeds per size and
density. Every timing is CPU time (`time.process_time`) from the board's text: parse,
build the CSP, find one solution, which is then recounted on the board outside the timing;
calls are repeated until they have taken 0.2 s (at most 15) and the median is kept.

Paths, in one run, board by board:

- **components**: `solve_components(csp, "first")`, the reference of the ratios;
- **solve()**: `answerkey.methods.solve(csp, mode="first")` with its default method, as a
  library user calls it;
- **sat**: `solve_first(csp)`, what `python -m solvers sat` runs: the bound rule to a
  fixpoint, then Glucose 4.1 on each independent component;
- **sat whole CNF** (peer, with `--whole-cnf`): `sat_solve(csp, "first")`, Glucose on the
  whole board as one CNF, as `python -m solvers sat` did before (20 s on 256x256 boards);
- **engine fc-mrv** (context): `search(csp, REFERENCE, "first")` on the whole board, in
  a child process stopped after `--engine-limit` seconds, on sizes up to
  `--engine-max-size`: the cliff that `solve()` no longer walks into.

The summary, per path: the worst time and the worst ratio to the component path over
all boards, against issue 14's targets (within 2x of the component path, none over 10 s).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from scale_boards import classic_board, fits  # noqa: E402

from answerkey.components.solve import solve_components  # noqa: E402
from answerkey.methods import solve  # noqa: E402
from answerkey.sat import sat_solve, solve_first  # noqa: E402
from solvers.csp import CSP, build_csp  # noqa: E402
from solvers.engine import SearchResult  # noqa: E402
from solvers.glucose import SatResult  # noqa: E402
from solvers.textformat import parse_board  # noqa: E402

Solver = Callable[[CSP], SearchResult | SatResult]
REVEALS = (0.25, 0.35, 0.50)
LIMIT_S, RATIO = 10.0, 2.0
ENGINE_CHILD = """
import sys, time
from solvers.csp import build_csp
from answerkey.fastsearch import search
from answerkey.strategies import REFERENCE
from solvers.textformat import parse_board
started = time.process_time()
result = search(build_csp(parse_board(sys.stdin.read())), REFERENCE, "first")
print(time.process_time() - started, result.stats.popped)
"""


def timed(text: str, solver: Solver) -> tuple[float, tuple[int, ...] | None]:
    """Median CPU seconds from text to one solution over calls repeated until they have
    taken 0.2 s (at most 15), and the solution (None when none was found)."""
    times: list[float] = []
    while sum(times) < 0.2 and len(times) < 15:
        started = time.process_time()
        solutions = solver(build_csp(parse_board(text))).solutions
        times.append(time.process_time() - started)
    return statistics.median(times), solutions[0] if solutions else None


def engine_in_child(text: str, limit: float) -> str:
    """The whole-board engine's CPU time in a child process, or '> limit s' when stopped."""
    try:
        done = subprocess.run([sys.executable, "-c", ENGINE_CHILD], input=text, capture_output=True, text=True, timeout=limit, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return f"> {limit:.0f} s"
    seconds, nodes = done.stdout.split()
    return f"{float(seconds):.2f} s ({nodes} nodes)"


PATHS: dict[str, Solver] = {
    "components": lambda csp: solve_components(csp, "first"),
    "solve()": lambda csp: solve(csp, mode="first"),
    "sat": solve_first,
    "sat whole CNF": lambda csp: sat_solve(csp, "first"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,48,64,96,128,192,256", help="board sides, comma-separated")
    parser.add_argument("--seeds", type=int, default=3, help="boards per size and density (default 3)")
    parser.add_argument("--whole-cnf", action="store_true", help="also time Glucose on the whole board as one CNF")
    parser.add_argument("--engine-limit", type=float, default=10.0, help="seconds for the whole-board engine (default 10)")
    parser.add_argument("--engine-max-size", type=int, default=48, help="largest side the engine runs on (default 48)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    paths = {name: call for name, call in PATHS.items() if args.whole_cnf or name != "sat whole CNF"}
    rows = []
    print(f"{'board':<22}" + "".join(f"{name:>20}" for name in paths) + "  engine fc-mrv (whole board)")
    for size in sizes:
        for reveal in REVEALS:
            for seed in range(args.seeds):
                board = classic_board(random.Random(seed), size, size, size * size // 5, reveal)
                text = "\n".join(board.rows_text())
                row: dict[str, object] = {"board": f"{size}x{size} {reveal:.0%} #{seed}"}
                for name, call in paths.items():
                    seconds, values = timed(text, call)
                    assert values is not None and fits(board, values), f"{row['board']}: {name} found no valid solution"
                    row[name] = seconds
                if size <= args.engine_max_size:
                    row["engine"] = engine_in_child(text, args.engine_limit)
                rows.append(row)
                cells = "".join(
                    f"{row[name]:>9.3f} s {row[name] / row['components']:>6.2f}x"
                    for name in paths  # type: ignore[operator]
                )
                print(f"{row['board']:<22}{cells}  {row.get('engine', '-')}", flush=True)
    summary = {}
    for name in paths:
        worst = max(float(row[name]) for row in rows)  # type: ignore[arg-type]
        ratio = max(float(row[name]) / float(row["components"]) for row in rows)  # type: ignore[arg-type]
        met = worst <= LIMIT_S and ratio <= RATIO
        summary[name] = {"worst_seconds": worst, "worst_ratio": ratio, "met": met}
        print(
            f"{name}: worst {worst:.3f} s, worst ratio to components {ratio:.2f}x; "
            f"target within {RATIO:.0f}x and under {LIMIT_S:.0f} s: {'met' if met else 'MISSED'}"
        )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
