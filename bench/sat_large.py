"""The reference SAT solver's large instance: a 128x128 board of alternating '?' and '2' cells.

Run from the repository root::

    python bench/sat_large.py [--size 128] [--repeats 5] [--engine-timeout 10] [--json FILE]

The board is a checkerboard: cell (r, c) is '?' when r + c is even and the clue '2'
otherwise (8192 unknown cells on 128x128), in the reference SAT solver's text format. For every encoding
the timed pipeline is what `python -m solvers sat` does: read the text (parse it and build
the CSP), encode, and find one solution with Glucose 4.1. Beside it, the search engine
(reference strategy, mode "first") runs on the same board in a child process that is
stopped after --engine-timeout seconds. Ratios are times over the best encoding's time.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from answerkey.instructor.solving.sat import read_seed_board  # noqa: E402
from answerkey.sat import ENCODINGS, encode_csp, sat_solve, solve_encoded  # noqa: E402
from answerkey.strategies import REFERENCE  # noqa: E402
from solvers.board import Board, clues_for_layout  # noqa: E402
from solvers.csp import CSP, build_csp  # noqa: E402
from solvers.engine import Popped, search  # noqa: E402

TARGET_S = 0.3
#: Stop repeating an encoding once its runs have taken this long (the slow ones).
BUDGET_S = 3.0
#: The reference SAT solver's write-up: 8192 variables, 64515 clauses, 0.072 s to solve (its machine).
REFERENCE_FIGURES = {"variables": 8192, "clauses": 64515, "solve_seconds": 0.072}


def checkerboard(size: int) -> str:
    """The board in the reference SAT solver's format: '?' where row + col is even, '2' elsewhere."""
    rows = (" ".join("?" if (r + c) % 2 == 0 else "2" for c in range(size)) for r in range(size))
    return "\n".join([f"{size} {size}", *rows]) + "\n"


def read(text: str) -> tuple[Board, CSP]:
    """What `python -m solvers sat` does first: parse the text, build the CSP."""
    board = read_seed_board(text)
    return board, build_csp(board)


def is_solution(board: Board, csp: CSP, values: tuple[int, ...]) -> bool:
    """Recount every clue from the layout on the board itself (not through the CSP)."""
    mines = {cell for cell, value in zip(csp.cells, values) if value}
    counts = clues_for_layout(mines, board.rows, board.cols, board.rule)
    return all(counts[r][c] == board.clue((r, c)) for r, c in board.clue_cells())


@dataclass
class Row:
    """One encoding's figures: formula size, median phase times (s), repeats, ratio."""

    encoding: str
    variables: int
    clauses: int
    read_s: float
    encode_s: float
    solve_s: float
    total_s: float
    repeats: int
    ratio: float = 0.0


def run_once(text: str, encoding: str) -> tuple[tuple[float, float, float], int, int]:
    """One checked run: (read, encode, solve) seconds, SAT variables, clauses."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        board, csp = read(text)
        read_s = time.perf_counter() - started
        encoded = encode_csp(csp, encoding)
        result = solve_encoded(encoded, "first")
    finally:
        gc.enable()
    assert result.count == 1 and is_solution(board, csp, result.solutions[0]), encoding
    return (read_s, encoded.seconds, result.stats.solve_seconds), result.stats.variables, result.stats.clauses


def time_pipelines(text: str, encodings: list[str], repeats: int) -> list[Row]:
    """Median phase times per encoding, the encodings taking turns so drift hits them alike.

    An encoding stops repeating once its runs have taken BUDGET_S seconds.
    """
    phases: dict[str, list[tuple[float, float, float]]] = {encoding: [] for encoding in encodings}
    size: dict[str, tuple[int, int]] = {}
    for _ in range(repeats):
        for encoding in encodings:
            if sum(map(sum, phases[encoding])) < BUDGET_S:
                times, *size[encoding] = run_once(text, encoding)
                phases[encoding].append(times)
    rows = []
    for encoding, runs in phases.items():
        read_s, encode_s, solve_s = (statistics.median(run[i] for run in runs) for i in range(3))
        total_s = statistics.median(map(sum, runs))
        rows.append(Row(encoding, *size[encoding], read_s, encode_s, solve_s, total_s, len(runs)))
    return rows


def _engine_child(text: str, repeats: int, popped: Any, out: Any) -> None:
    """In the child: read + search (reference, "first") `repeats` times; report the median."""
    totals, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        board, csp = read(text)
        result = search(csp, REFERENCE, "first", observer=lambda e: _count_pop(e, popped))
        totals.append(time.perf_counter() - started)
        assert result.count == 1 and is_solution(board, csp, result.solutions[0])
    out.put(
        {
            "total_s": statistics.median(totals),
            "search_s": result.stats.seconds,
            "popped": result.stats.popped,
            "expanded": result.stats.expanded,
            "dead_ends": result.stats.dead_ends,
            "repeats": repeats,
        }
    )


def _count_pop(event: object, popped: Any) -> None:
    """The observer: count nodes popped, so a stopped run can say how far it got."""
    if isinstance(event, Popped):
        popped.value += 1


def time_engine(text: str, repeats: int, timeout: float) -> dict[str, Any]:
    """The search engine in a child process, stopped after `timeout` seconds."""
    context = multiprocessing.get_context("spawn")
    popped, out = context.Value("q", 0, lock=False), context.Queue()
    child = context.Process(target=_engine_child, args=(text, repeats, popped, out), daemon=True)
    started = time.perf_counter()
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return {"finished": False, "timeout_s": timeout, "popped": popped.value}
    if child.exitcode != 0 or out.empty():
        return {"finished": False, "error": f"exit code {child.exitcode}", "popped": popped.value}
    return {"finished": True, "wall_s": time.perf_counter() - started, **out.get()}


def board_facts(text: str) -> dict[str, Any]:
    """Size, unknown cells, free cells and number of solutions of the board."""
    board, csp = read(text)
    return {
        "rows": board.rows,
        "cols": board.cols,
        "unknown_cells": len(csp.cells),
        "clues": len(board.clue_cells()),
        "solutions": sat_solve(csp, "count").count,
    }


def render(console: Console, facts: dict[str, Any], rows: list[Row], engine: dict[str, Any], summary: dict[str, Any]) -> None:
    """The table of encodings, the engine's line and the summary."""
    console.print(
        f"board: {facts['rows']}x{facts['cols']} checkerboard of '?' and '2', {facts['unknown_cells']} unknown cells, "
        f"{facts['clues']} clues, {facts['solutions']} solution(s)"
    )
    table = Table(title="read + encode + solve (one solution), median per run; ratio = total / best total")
    columns = ("encoding", "variables", "clauses", "read ms", "encode ms", "solve ms", "total ms", "repeats", "ratio")
    for name in columns:
        table.add_column(name, justify="left" if name == "encoding" else "right", no_wrap=True)
    for row in rows:
        times = (f"{1000 * t:.1f}" for t in (row.read_s, row.encode_s, row.solve_s, row.total_s))
        size = (f"{row.variables:,}", f"{row.clauses:,}")
        table.add_row(row.encoding, *size, *times, str(row.repeats), f"{row.ratio:.2f}")
    console.print(table)
    if engine["finished"]:
        console.print(
            f"engine {REFERENCE.name} (first): read + search {1000 * engine['total_s']:.1f} ms "
            f"({engine['popped']} node(s) popped, {engine['expanded']} expanded, {engine['dead_ends']} dead ends), "
            f"{engine['total_s'] / summary['best_total_s']:.2f}x the best encoding's time"
        )
    else:
        timed_out = "timeout_s" in engine
        reason = f"did not finish within {engine['timeout_s']} s" if timed_out else f"failed ({engine['error']})"
        console.print(f"engine {REFERENCE.name} (first): {reason}; {engine['popped']} node(s) popped by then")
    console.print(
        f"best: {summary['best']} at {1000 * summary['best_total_s']:.1f} ms "
        f"({'under' if summary['under_target'] else 'NOT under'} the {TARGET_S} s target)"
    )
    if summary["subsets_clauses"] is not None:
        seed = (
            f"; the reference SAT solver reports {REFERENCE_FIGURES['clauses']:,} clauses and {REFERENCE_FIGURES['solve_seconds']} s "
            "to solve on its machine"
            if facts["rows"] == 128
            else ""
        )
        console.print(f"subsets (the seed's encoding): {summary['subsets_clauses']:,} clauses, {1000 * summary['subsets_total_s']:.1f} ms{seed}")


def main(argv: list[str] | None = None) -> int:
    """Benchmark every encoding and the engine on the board; print (and save) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=128, help="rows = columns (default 128, the seed's board)")
    parser.add_argument("--repeats", type=int, default=5, help=f"timed runs per encoding (fewer past {BUDGET_S} s; default 5)")
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="comma-separated encodings (default: all)")
    parser.add_argument("--engine-timeout", type=float, default=10.0, help="seconds before the engine is stopped (default 10)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    encodings = args.encodings.split(",")
    if args.size < 2 or args.repeats < 1 or not set(encodings) <= set(ENCODINGS):
        parser.error(f"need --size >= 2, --repeats >= 1 and encodings among {', '.join(ENCODINGS)}")
    text = checkerboard(args.size)
    facts = board_facts(text)
    assert facts["solutions"] > 0, "the checkerboard is unsatisfiable at this size"
    rows = time_pipelines(text, encodings, args.repeats)
    best = min(rows, key=lambda row: row.total_s)
    for row in rows:
        row.ratio = row.total_s / best.total_s
    subsets = next((row for row in rows if row.encoding == "subsets"), None)
    summary = {
        "best": best.encoding,
        "best_total_s": best.total_s,
        "under_target": best.total_s < TARGET_S,
        "subsets_clauses": subsets.clauses if subsets else None,
        "subsets_total_s": subsets.total_s if subsets else None,
        "reference_figures": REFERENCE_FIGURES,
    }
    engine = time_engine(text, args.repeats, args.engine_timeout)
    console = Console()
    render(console if console.is_terminal else Console(width=140), facts, rows, engine, summary)
    if args.json:
        report = {"board": facts, "rows": [asdict(row) for row in rows], "engine": engine, "summary": summary}
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
