"""Large boards: the component engine against the SAT path, same boards, same run.

Run from the repository root::

    python bench/scale_boards.py [--boards 3] [--repeats 3] [--json FILE]

Scenarios (every board from a seeded generator, every timing from the board's text):

- status: 100x100 status grids at P = 20 % (the original generator's largest), one solution;
  target: the component path under 1 s.
- classic: planted 128x128 classic boards, 20 % mines, 25/35/50 % of the safe cells shown
  as clues, no mine count, one solution; target: within 5x of the SAT path.
- expert: mid-game positions of 16x30 games with 99 mines (a zero opened, then safe
  cells next to the open area until 20/40/60 % of the safe cells are open), the EXACT
  number of solutions with the mine count, and every cell's mine count; target: under
  1 s. SAT cannot count these (10^20 and more), so its row is one solution, for scale.
- scattered (stress, same target): 16x30 boards with 99 mines where 30 % of the safe
  cells are shown at random instead of around an open area, which leaves components of
  100-250 cells instead of a game's frontier of a few dozen.

Timed paths: "components" = parse + build_csp + solve_components(csp, "first") or
solution_counts(csp); "sat" = parse + build_csp + sat_solve(csp, "first") (default
encoding, Glucose 4.1). Every solution is checked by recounting the clues from the mine
layout (clues_for_layout), outside the timing.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from answerkey.components.count import SolutionCounts, solution_counts  # noqa: E402
from answerkey.components.solve import solve_components  # noqa: E402
from answerkey.generate import game_position, plant_mines, status_grid  # noqa: E402
from answerkey.sat import sat_solve  # noqa: E402
from solvers.board import Board, Rule, board_from_rows, clues_for_layout  # noqa: E402
from solvers.csp import build_csp  # noqa: E402
from solvers.textformat import parse_board  # noqa: E402

COMPONENTS = "components"
SAT = "sat"


@dataclass
class Row:
    """One board x path measurement."""

    scenario: str
    board: str
    path: str
    answer: str
    median_ms: float
    repeats: int
    detail: str = ""
    ratio: float = 0.0  # median time / the SAT path's on the same board


@dataclass(frozen=True)
class Case:
    scenario: str
    name: str
    text: str
    rule: Rule
    mines: int | None
    count: bool  # exact count (expert) rather than one solution


def timed(call: Callable[[], object], repeats: int) -> tuple[object, float]:
    """The result of the first call and the median time of `repeats` calls, in ms."""
    times, result = [], None
    gc.disable()
    try:
        for i in range(repeats):
            started = time.perf_counter()
            value = call()
            times.append(time.perf_counter() - started)
            if i == 0:
                result = value
    finally:
        gc.enable()
    return result, statistics.median(times) * 1000


def fits(board: Board, values: tuple[int, ...]) -> bool:
    """The layout recounts to every clue (independent of the CSP code)."""
    csp = build_csp(board)
    mines = {cell for cell, value in zip(csp.cells, values) if value}
    counts = clues_for_layout(mines, board.rows, board.cols, board.rule)
    if board.mines is not None and len(mines) != board.mines:
        return False
    return all(counts[r][c] == board.clue((r, c)) for r, c in board.clue_cells())


def classic_board(rng: random.Random, rows: int, cols: int, mines: int, reveal: float, count: int | None = None) -> Board:
    """A planted classic board with `reveal` of its safe cells shown at random (mine count `count`)."""
    layout = plant_mines(rng, rows, cols, mines)
    counts = clues_for_layout(layout, rows, cols, "classic")
    safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in layout]
    shown = set(rng.sample(safe, round(reveal * len(safe))))
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    return board_from_rows(grid, "classic", count)


def cases(boards: int, status_size: int, classic_size: int) -> list[Case]:
    """Every benchmark board, from fixed seeds."""
    out = []
    for seed in range(boards):
        board, _ = status_grid(random.Random(seed), status_size, status_size, 20)
        out.append(Case("status", f"{status_size}x{status_size} P=20% #{seed}", "\n".join(board.rows_text()), "inclusive", None, False))
    for reveal in (0.25, 0.35, 0.50):
        for seed in range(boards):
            board = classic_board(random.Random(1000 + seed), classic_size, classic_size, classic_size**2 // 5, reveal)
            out.append(Case("classic", f"{classic_size}^2 {reveal:.0%} shown #{seed}", "\n".join(board.rows_text()), "classic", None, False))
    for reveal in (0.2, 0.4, 0.6):
        for seed in range(boards):
            board, _ = game_position(random.Random(2000 + seed), 16, 30, 99, reveal)
            out.append(Case("expert", f"16x30/99 {reveal:.0%} open #{seed}", "\n".join(board.rows_text()), "classic", 99, True))
    for seed in range(boards):
        board = classic_board(random.Random(3000 + seed), 16, 30, 99, 0.3, 99)
        out.append(Case("scattered", f"16x30/99 30% shown #{seed}", "\n".join(board.rows_text()), "classic", 99, True))
    return out


def measure(case: Case, repeats: int) -> list[Row]:
    """Time the component path and the SAT path on one board; check their answers."""
    board = parse_board(case.text, case.rule, case.mines)

    def components() -> object:
        csp = build_csp(parse_board(case.text, case.rule, case.mines))
        return solution_counts(csp) if case.count else solve_components(csp, "first")

    def sat() -> object:
        return sat_solve(build_csp(parse_board(case.text, case.rule, case.mines)), "first")

    rows = []
    result, ms = timed(components, repeats)
    if isinstance(result, SolutionCounts):
        assert sum(result.mines) == board.mines * result.total, case.name  # E[mines] = M exactly
        stats = result.stats
        answer = f"{result.total:.3e}" if result.total > 10**6 else str(result.total)
        detail = f"{stats.components} comps (max {stats.largest_component}), {stats.nodes} branches, {stats.cache_hits} cache hits"
    else:
        assert result.solutions and fits(board, result.solutions[0]), case.name
        answer, detail = "1 solution", f"{result.stats.popped} nodes, {result.stats.dead_ends} dead ends"
    rows.append(Row(case.scenario, case.name, COMPONENTS, answer, ms, repeats, detail))
    result, ms = timed(sat, repeats)
    assert result.solutions and fits(board, result.solutions[0]), case.name
    stats = result.stats
    rows.append(Row(case.scenario, case.name, SAT, "1 solution", ms, repeats, f"{stats.variables} vars, {stats.clauses} clauses"))
    for row in rows:
        row.ratio = row.median_ms / rows[-1].median_ms
    return rows


TARGETS = {
    "status": ("components median under 1000 ms", lambda ms, ratio: ms < 1000),
    "classic": ("components within 5x of SAT", lambda ms, ratio: ratio <= 5),
    "expert": ("exact count under 1000 ms", lambda ms, ratio: ms < 1000),
    "scattered": ("exact count under 1000 ms", lambda ms, ratio: ms < 1000),
}


def summary(rows: list[Row]) -> dict[str, dict[str, float | bool | str]]:
    """Per scenario: median over boards of each path's time, the ratio, and the target."""
    out: dict[str, dict[str, float | bool | str]] = {}
    for scenario, (target, met) in TARGETS.items():
        mine = [r.median_ms for r in rows if r.scenario == scenario and r.path == COMPONENTS]
        sat = [r.median_ms for r in rows if r.scenario == scenario and r.path == SAT]
        if not mine:
            continue
        worst = max(mine)
        ratios = [r.ratio for r in rows if r.scenario == scenario and r.path == COMPONENTS]
        out[scenario] = {
            "components_median_ms": statistics.median(mine),
            "components_worst_ms": worst,
            "sat_median_ms": statistics.median(sat),
            "median_ratio": statistics.median(ratios),
            "worst_ratio": max(ratios),
            "target": target,
            "met": all(met(ms, ratio) for ms, ratio in zip(mine, ratios)),
        }
    return out


def render(rows: list[Row], summ: dict[str, dict[str, float | bool | str]], console: Console) -> None:
    table = Table(title="Large boards: median per call (ratio = time / SAT path's on the same board)")
    for name in ("scenario", "board", "path", "answer", "median ms", "ratio", "details"):
        table.add_column(name, justify="right" if name in ("median ms", "ratio") else "left", no_wrap=name != "details")
    for row in rows:
        ratio = f"{row.ratio:.2f}" if row.path == COMPONENTS else "1.00"
        table.add_row(row.scenario, row.board, row.path, row.answer, f"{row.median_ms:.1f}", ratio, row.detail)
    console.print(table)
    for scenario, s in summ.items():
        verdict = "[green]met[/]" if s["met"] else "[red]MISSED[/]"
        console.print(
            f"{scenario}: components median {s['components_median_ms']:.1f} ms (worst {s['components_worst_ms']:.1f}), "
            f"SAT median {s['sat_median_ms']:.1f} ms, ratio median {s['median_ratio']:.2f} (worst {s['worst_ratio']:.2f}); "
            f"target {s['target']}: {verdict}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=3, help="boards per scenario and density (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls per board and path (default 3)")
    parser.add_argument("--status-size", type=int, default=100, help="status grid side (default 100)")
    parser.add_argument("--classic-size", type=int, default=128, help="classic board side (default 128)")
    parser.add_argument("--only", choices=tuple(TARGETS), action="append", help="run only these scenarios")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.boards < 1 or args.repeats < 1:
        parser.error("--boards and --repeats must be at least 1")
    console = Console()
    console = console if console.is_terminal else Console(width=160)
    chosen = [c for c in cases(args.boards, args.status_size, args.classic_size) if not args.only or c.scenario in args.only]
    rows: list[Row] = []
    with console.status("benchmarking") as status:
        for index, case in enumerate(chosen, start=1):
            status.update(f"{index}/{len(chosen)}: {case.scenario} {case.name}")
            rows += measure(case, args.repeats)
    summ = summary(rows)
    render(rows, summ, console)
    if args.json:
        args.json.write_text(json.dumps({"rows": [asdict(r) for r in rows], "summary": summ}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
