"""Time every solver on the course boards: all solutions, same run, median of N calls.

Run from the repository root::

    python bench/course_boards.py [--repeats 200] [--brute-repeats 3] [--json FILE]

Methods: the engine's strategies as the answer key runs them (`answerkey.fastsearch.search`;
fc-mrv is the reference), the fixpoint ones also through the plain engine students read
(`solvers.engine.search`), Glucose 4.1 through PySAT (encoding included, and on a
pre-encoded CNF) and brute force. Every method must find the same solutions; ratios are
method time / reference engine time (>1: slower).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from answerkey.fastsearch import FixpointStrategy, search  # noqa: E402
from answerkey.sat import encode, sat_solve  # noqa: E402
from answerkey.strategies import REFERENCE, STRATEGIES  # noqa: E402
from grader.inputs.problemset import load_problems  # noqa: E402
from solvers import engine  # noqa: E402
from solvers.brute import brute_force  # noqa: E402
from solvers.csp import CSP, build_csp  # noqa: E402
from solvers.engine import SearchResult  # noqa: E402
from solvers.glucose import SatResult, solve_cnf  # noqa: E402

COURSE = ROOT / "problems" / "course.yaml"
TARGET_MS = 0.5
SAT_FULL = "glucose4 encode+solve"
SAT_CNF = "glucose4 pre-encoded"
BRUTE = "brute force"

T = TypeVar("T")


@dataclass
class Row:
    """One board x method measurement."""

    board: str
    method: str
    solutions: int
    nodes: int | None
    median_ms: float
    repeats: int
    ratio: float = 0.0


def timed(call: Callable[[], T], repeats: int) -> tuple[T, float]:
    """The result of one warm-up call, and the median time of `repeats` more calls in ms."""
    result = call()
    times = []
    gc.disable()
    try:
        for _ in range(repeats):
            started = time.perf_counter()
            call()
            times.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return result, statistics.median(times) * 1000


def methods(csp: CSP) -> dict[str, Callable[[], SearchResult | SatResult]]:
    """Every method, reference first, as a call that enumerates all solutions of `csp`."""
    cnf = encode(csp)
    order = [REFERENCE.name, *(name for name in STRATEGIES if name != REFERENCE.name)]
    table: dict[str, Callable[[], SearchResult | SatResult]] = {f"engine {name}": partial(search, csp, STRATEGIES[name], "all") for name in order}
    for name in order:  # the answer key's fast path against the plain engine students read
        if isinstance(STRATEGIES[name], FixpointStrategy):
            table[f"plain engine {name}"] = partial(engine.search, csp, STRATEGIES[name], "all")
    table[SAT_FULL] = partial(sat_solve, csp, "all")
    table[SAT_CNF] = partial(solve_cnf, cnf, len(csp.cells), "all")
    table[BRUTE] = partial(brute_force, csp, "all")
    return table


def bench_board(board_id: str, csp: CSP, repeats: int, brute_repeats: int) -> list[Row]:
    """Time each method and check that it finds the same solutions as the reference."""
    rows: list[Row] = []
    expected: set[tuple[int, ...]] | None = None
    for method, run in methods(csp).items():
        n = brute_repeats if method == BRUTE else repeats
        result, ms = timed(run, n)
        found = result.solutions
        nodes = getattr(result.stats, "popped", None)  # engine and brute force only
        assert len(set(found)) == len(found), f"{board_id}/{method}: duplicate solutions"
        expected = set(found) if expected is None else expected
        assert set(found) == expected, f"{board_id}/{method}: {len(found)} solutions, reference has {len(expected)}"
        rows.append(Row(board_id, method, len(found), nodes, ms, n))
    for row in rows:
        row.ratio = row.median_ms / rows[0].median_ms
    return rows


def summary(rows: list[Row]) -> dict[str, float | bool]:
    """Median over boards of the reference time, and of each SAT row's time divided by it."""
    by = {(row.board, row.method): row for row in rows}
    boards = sorted({row.board for row in rows})
    reference = f"engine {REFERENCE.name}"
    ref_ms = statistics.median(by[b, reference].median_ms for b in boards)
    sat_ratio = statistics.median(by[b, SAT_FULL].median_ms for b in boards) / ref_ms
    cnf_ratio = statistics.median(by[b, SAT_CNF].median_ms for b in boards) / ref_ms
    return {
        "reference_median_ms": ref_ms,
        "under_target": ref_ms < TARGET_MS,
        "sat_solve_over_reference": sat_ratio,
        "solve_cnf_over_reference": cnf_ratio,
        "faster_than_sat_solve": sat_ratio > 1,
        "faster_than_solve_cnf": cnf_ratio > 1,
    }


def render(rows: list[Row], summ: dict[str, float | bool], console: Console) -> None:
    """Print the table and the summary lines."""
    table = Table(title=f"All solutions, median per call (ratio = time / engine {REFERENCE.name})")
    for name in ("board", "method", "solutions", "nodes", "median ms", "repeats", "ratio"):
        table.add_column(name, justify="left" if name in ("board", "method") else "right", no_wrap=True)
    for row in rows:
        nodes = "-" if row.nodes is None else str(row.nodes)
        table.add_row(row.board, row.method, str(row.solutions), nodes, f"{row.median_ms:.3f}", str(row.repeats), f"{row.ratio:.2f}")
    console.print(table)

    def versus(key: str) -> str:
        ratio = float(summ[key])
        return f"{ratio:.2f}x the reference's time (reference {'faster' if ratio > 1 else 'slower'})"

    console.print(
        f"summary: engine {REFERENCE.name}, median over the course boards: {summ['reference_median_ms']:.3f} ms "
        f"({'under' if summ['under_target'] else 'NOT under'} the {TARGET_MS} ms target)"
    )
    console.print(f"  Glucose encode+solve takes {versus('sat_solve_over_reference')}")
    console.print(f"  Glucose pre-encoded takes {versus('solve_cnf_over_reference')}")


def main(argv: list[str] | None = None) -> int:
    """Load the course boards, benchmark them, print (and optionally save) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200, help="timed calls per fast method (default 200)")
    parser.add_argument("--brute-repeats", type=int, default=3, help="timed calls for brute force (default 3)")
    parser.add_argument("--problems", type=Path, default=COURSE, help="problem file (default problems/course.yaml)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.brute_repeats < 1:
        parser.error("repeats must be at least 1")
    problems, errors = load_problems(args.problems)
    if errors or not problems:
        for error in errors:
            print(error, file=sys.stderr)
        return 1
    rows: list[Row] = []
    for problem in problems:
        board_rows = bench_board(problem.id, build_csp(problem.board), args.repeats, args.brute_repeats)
        if problem.expect is not None:
            assert board_rows[0].solutions == problem.expect, f"{problem.id}: expected {problem.expect}"
        rows += board_rows
    summ = summary(rows)
    console = Console()
    render(rows, summ, console if console.is_terminal else Console(width=120))
    if args.json:
        args.json.write_text(json.dumps({"rows": [asdict(r) for r in rows], "summary": summ}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
