"""Exact counts, probabilities and mine-counted solutions from 32x32 to 256x256: the curves.

Run from the repository root::

    python bench/curves.py [--sizes 32,64,128,256] [--seeds 1] [--limit 60] [--json FILE]
    python bench/curves.py --before /tmp/before        # the same boards with an older checkout too

Boards (every one from a fixed seed):

- **game**: positions of classic games at Expert density (mines = side^2 x 99/480, the
  nearest whole number): a zero opened, then random safe cells next to the open area until
  20, 40 or 60 % of the safe cells are open (`game_board`: `answerkey.generate.game_position`'s
  process, the same boards, with the edge kept as the area grows: that function takes
  24 s to draw one 128x128 position), with the mine count;
- **scattered**: planted classic boards, 20 % mines, 25 % of the safe cells shown at
  random (`scale_boards.classic_board`), with the mine count;
- **fullest** (stress, sides up to `--fullest-max`): the scattered boards with the largest
  mine count any layout allows, so that the first solution found of every component has
  to change (`answerkey.components.reach` finds that count; the board is then the same
  text with another count).

Operations, each in a child process (CPU time, `time.process_time`, from the board's text:
parse, build the CSP, answer; calls repeated until they have taken 0.3 s, and at least three
unless one takes a second or more, at most 5, median: one call is a single noisy sample),
stopped after `--limit` seconds:

- **count**: `solution_counts(csp, per_variable=False)`, the exact number of layouts;
- **probs**: `solution_counts(csp)`, the exact mine count of every cell (its probability
  over the total);
- **first** / **first-no-M**: `solve_components(csp, "first")` with and without the
  board's mine count;
- **sat** / **sat-no-M**: `solve_first(csp)`, what `python -m solvers sat` runs
  (with `--mines` and without).

Every answer is checked: a solution is recounted on the board (clues and mine count),
`probs` must give the same total as `count` and its mine counts must add up to M times
the total; with `--before`, the older code's totals and mine counts must equal these.

Printed: per board, its frontier cells (unknown cells next to a number), each operation's
CPU seconds, and the ratios of the issue's goals: **probs / count** (at most 3),
**first / first-no-M** and **sat / sat-no-M** (at most 3); then the game
positions' curve, seconds per 1,000 frontier cells by side (flat: linear growth), and the
targets. With `--before DIR` (a checkout of an older commit, e.g.
`git worktree add /tmp/before 7c4ea44`) every operation runs on the same board with that
code too, and **speed-up** is its time over ours.
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from scale_boards import classic_board  # noqa: E402

from answerkey.generate import plant_mines  # noqa: E402
from solvers.board import Board, Cell, board_from_rows, clues_for_layout, neighbours  # noqa: E402

#: What a child does with a board file: (operation, mine count kept) -> the call, timed.
OPERATIONS: dict[str, tuple[str, bool]] = {
    "count": ("solution_counts(csp, per_variable=False)", True),
    "probs": ("solution_counts(csp)", True),
    "first": ("solve_components(csp, 'first')", True),
    "first-no-M": ("solve_components(csp, 'first')", False),
    "sat": ("solve_first(csp)", True),
    "sat-no-M": ("solve_first(csp)", False),
}

CHILD = """
import hashlib, json, statistics, sys, time
from answerkey.components.count import solution_counts
from answerkey.components.solve import solve_components
from answerkey.sat import solve_first
from solvers.csp import build_csp
from solvers.textformat import parse_board
text, mines, call = open(sys.argv[1]).read(), (int(sys.argv[2]) if sys.argv[2] != "-" else None), sys.argv[3]
times = []
while len(times) < 5 and (sum(times) < 0.3 or (len(times) < 3 and times[-1] < 1.0)):
    started = time.process_time()
    csp = build_csp(parse_board(text, "classic", mines))
    result = eval(call)
    times.append(time.process_time() - started)
out = {"seconds": statistics.median(times), "calls": len(times)}
if hasattr(result, "total"):  # hex: decimal strings of thousands of digits are refused
    out["total"] = hex(result.total)
    out["mines"] = hashlib.sha256(",".join(map(hex, result.mines)).encode()).hexdigest()[:16] if result.mines else ""
    out["mines_add_up"] = not result.mines or sum(result.mines) == mines * result.total
else:
    out["solution"] = "".join(map(str, result.solutions[0])) if result.solutions else ""
print(json.dumps(out))
"""


def game_board(rng: random.Random, rows: int, cols: int, mines: int, reveal: float) -> tuple[Board, set[Cell]]:
    """`answerkey.generate.game_position`'s board and layout for the same generator state, with
    the cells next to the open area kept in a sorted list as it grows (not recomputed from
    every open cell at each step, which is quadratic)."""
    while True:
        layout = plant_mines(rng, rows, cols, mines)
        counts = clues_for_layout(layout, rows, cols, "classic")
        zeros = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in layout and counts[r][c] == 0]
        if zeros:
            break
    revealed: set[Cell] = set()
    edge: list[Cell] = []  # sorted: safe hidden cells next to an open one

    def open_area(start: Cell) -> None:
        stack = [start]
        while stack:
            cell = stack.pop()
            if cell in revealed or cell in layout:
                continue
            revealed.add(cell)
            i = bisect.bisect_left(edge, cell)
            if i < len(edge) and edge[i] == cell:
                del edge[i]
            for other in neighbours(cell, rows, cols):
                if other not in revealed and other not in layout:
                    j = bisect.bisect_left(edge, other)
                    if j == len(edge) or edge[j] != other:
                        edge.insert(j, other)
                    if counts[cell[0]][cell[1]] == 0:
                        stack.append(other)

    open_area(rng.choice(zeros))
    target = reveal * (rows * cols - mines)
    while len(revealed) < target and edge:
        open_area(rng.choice(edge))
    grid = [[counts[r][c] if (r, c) in revealed else None for c in range(cols)] for r in range(rows)]
    return board_from_rows(grid, "classic", mines), layout


@dataclass(frozen=True)
class Case:
    kind: str
    name: str
    board: Board

    @property
    def side(self) -> int:
        return self.board.rows

    def frontier(self) -> int:
        """Unknown cells next to a number."""
        b = self.board
        return sum(
            1
            for r in range(b.rows)
            for c in range(b.cols)
            if b.clues[r][c] is None and any(b.clues[rr][cc] is not None for rr, cc in neighbours((r, c), b.rows, b.cols))
        )

    def text(self) -> str:
        return "\n".join(" ".join("." if clue is None else str(clue) for clue in row) for row in self.board.clues) + "\n"


def fullest(board: Board) -> int:
    """The largest number of mines a layout of `board` (its mine count ignored) can hold."""
    from answerkey.components.reach import Reach
    from answerkey.components.split import decompose
    from solvers.csp import build_csp

    dec = decompose(build_csp(board_from_rows(board.clues, "classic", None)))
    assert dec is not None
    most = [Reach.of(part.csp, None) for part in dec.components]
    return sum(dec.decided.values()) + len(dec.free) + sum(r.counts()[-1] for r in most if r is not None)


def cases(sizes: list[int], seeds: int, kinds: list[str], scattered_max: int, fullest_max: int = 128) -> list[Case]:
    out = []
    for kind in kinds:
        for size in sizes:
            if kind == "fullest" and size <= fullest_max:
                for seed in range(seeds):
                    board = classic_board(random.Random(seed), size, size, size * size // 5, 0.25)
                    out.append(Case(kind, f"{size}^2 fullest #{seed}", board_from_rows(board.clues, "classic", fullest(board))))
            elif kind == "game":
                for reveal in (0.2, 0.4, 0.6):
                    for seed in range(seeds):
                        board, _ = game_board(random.Random(seed), size, size, round(size * size * 99 / 480), reveal)
                        out.append(Case(kind, f"{size}^2 game {reveal:.0%} #{seed}", board))
            elif kind == "scattered" and size <= scattered_max:
                for seed in range(seeds):
                    mines = size * size // 5
                    board = classic_board(random.Random(seed), size, size, mines, 0.25, mines)
                    out.append(Case(kind, f"{size}^2 scattered #{seed}", board))
    return out


@dataclass
class Run:
    """One operation on one board with one checkout: CPU seconds (None: stopped) and its answer."""

    seconds: float | None
    answer: dict[str, str] = field(default_factory=dict)


def run(code: Path, path: Path, mines: int | None, call: str, limit: float) -> Run:
    """The operation in a child process importing the kit from `code`."""
    command = [sys.executable, "-c", CHILD, str(path), "-" if mines is None else str(mines), call]
    env = {"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"}
    try:
        done = subprocess.run(command, cwd=code, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return Run(None)
    if done.returncode != 0:
        raise RuntimeError(f"{call} failed under {code}: {done.stderr.strip()[-400:]}")
    answer = json.loads(done.stdout)
    seconds = float(answer.pop("seconds"))
    answer.pop("calls")
    return Run(seconds, {k: str(v) for k, v in answer.items()})


def fits(board: Board, solution: str, with_count: bool) -> bool:
    """A child's solution recounts to every clue (and to the mine count when it was kept)."""
    unknown = [(r, c) for r in range(board.rows) for c in range(board.cols) if board.clues[r][c] is None]
    mines = {cell for cell, value in zip(unknown, solution) if value == "1"}
    counts = clues_for_layout(mines, board.rows, board.cols, "classic")
    if with_count and len(mines) != board.mines:
        return False
    return len(solution) == len(unknown) and all(counts[r][c] == board.clue((r, c)) for r, c in board.clue_cells())


def check(case: Case, runs: dict[str, Run]) -> None:
    """Every finished answer is right (see the module docstring)."""
    for name, result in runs.items():
        if result.seconds is not None and "solution" in result.answer:
            assert fits(case.board, result.answer["solution"], OPERATIONS[name][1]), f"{case.name}: {name}: not a solution"
    count, probs = runs.get("count"), runs.get("probs")
    if count and probs and count.seconds is not None and probs.seconds is not None:
        assert count.answer["total"] == probs.answer["total"], f"{case.name}: count and probs disagree"
        assert probs.answer["mines_add_up"] == "True", f"{case.name}: the mine counts do not add up to M times the total"


def fmt(seconds: float | None, limit: float) -> str:
    return f"> {limit:.0f}" if seconds is None else f"{seconds:.3f}"


def ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None or b <= 0 else f"{a / b:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,64,128,256", help="board sides, comma-separated (default 32,64,128,256)")
    parser.add_argument("--seeds", type=int, default=1, help="boards per side and kind (and reveal, for games; default 1)")
    parser.add_argument("--kinds", default="game,scattered,fullest", help="game, scattered, fullest (default: all three)")
    parser.add_argument("--scattered-max", type=int, default=128, help="largest side of scattered boards (default 128)")
    parser.add_argument("--fullest-max", type=int, default=128, help="largest side of fullest boards (default 128)")
    parser.add_argument("--ops", default=",".join(OPERATIONS), help="operations, comma-separated (default all)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before a child is stopped (default 60)")
    parser.add_argument("--before", type=Path, metavar="DIR", help="also time the same operations with the kit at DIR")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--summary", type=Path, metavar="FILE", help="only print the curves and goals of a JSON file written by --json")
    args = parser.parse_args(argv)
    if args.summary:
        saved = json.loads(args.summary.read_text(encoding="utf-8"))
        summarize(saved["rows"], list(saved["rows"][0]["seconds"]["after"]), list(saved["rows"][0]["seconds"]), saved["limit"])
        return 0
    ops = [op for op in args.ops.split(",") if op]
    unknown = [op for op in ops if op not in OPERATIONS]
    if unknown:
        parser.error(f"unknown operation(s) {', '.join(unknown)}; choose from {', '.join(OPERATIONS)}")
    codes = {"after": ROOT} | ({"before": args.before.resolve()} if args.before else {})
    chosen = cases([int(s) for s in args.sizes.split(",")], args.seeds, args.kinds.split(","), args.scattered_max, args.fullest_max)
    rows = []
    header = f"{'board':<24}{'frontier':>9}" + "".join(f"{op:>17}" for op in ops)
    header += f"{'probs/count':>13}{'first ratio':>13}{'sat ratio':>11}"
    print(f"CPU seconds ({'after / before' if args.before else 'this checkout'}); ratios of this checkout")
    print(header)
    with tempfile.TemporaryDirectory() as folder:
        for case in chosen:
            path = Path(folder) / "board.txt"
            path.write_text(case.text(), encoding="utf-8")
            frontier = case.frontier()
            runs: dict[str, dict[str, Run]] = {}
            for label, code in codes.items():
                runs[label] = {}
                for op in ops:
                    call, with_count = OPERATIONS[op]
                    runs[label][op] = run(code, path, case.board.mines if with_count else None, call, args.limit)
                check(case, runs[label])
            if "before" in runs:
                for op in ops:
                    a, b = runs["after"][op], runs["before"][op]
                    if a.seconds is not None and b.seconds is not None and "total" in a.answer:
                        assert a.answer == b.answer, f"{case.name}: {op}: before and after disagree"
            mine = {op: r.seconds for op, r in runs["after"].items()}
            cells = ""
            for op in ops:
                cell = fmt(mine[op], args.limit)
                if "before" in runs:
                    cell += " / " + fmt(runs["before"][op].seconds, args.limit)
                cells += f"{cell:>17}"
            ratios = (
                ratio(mine.get("probs"), mine.get("count")),
                ratio(mine.get("first"), mine.get("first-no-M")),
                ratio(mine.get("sat"), mine.get("sat-no-M")),
            )
            print(f"{case.name:<24}{frontier:>9}{cells}{ratios[0]:>13}{ratios[1]:>13}{ratios[2]:>11}", flush=True)
            rows.append(
                {
                    "kind": case.kind,
                    "board": case.name,
                    "side": case.side,
                    "frontier": frontier,
                    "seconds": {label: {op: r.seconds for op, r in by_op.items()} for label, by_op in runs.items()},
                }
            )
    summary = summarize(rows, ops, list(codes), args.limit)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary, "limit": args.limit}, indent=2) + "\n")
    return 0


def worst(values: list[float | None]) -> float | None:
    """The largest value, None (did not finish) when any is None."""
    return None if any(v is None for v in values) else max(values)  # type: ignore[type-var]


def summarize(rows: list[dict], ops: list[str], labels: list[str], limit: float) -> dict:
    """Print the curves by side and the goals; return them."""
    out: dict = {}
    sides = sorted({row["side"] for row in rows})
    for label in labels:
        print(
            f"\n{label}: worst CPU seconds per side and kind; the curves: the slowest of count, probs and first on a board"
            " per 1,000 frontier cells and per 10,000 cells of the board (the worst board; '-': none finished)"
        )
        print(f"{'side':>6}{'kind':>11}{'frontier':>10}" + "".join(f"{op:>17}" for op in ops) + f"{'s/1k frontier':>15}{'s/10k cells':>13}")
        for kind in ("game", "scattered", "fullest"):
            for side in sides:
                mine = [row for row in rows if row["side"] == side and row["kind"] == kind]
                if not mine:
                    continue
                frontier = max(row["frontier"] for row in mine)
                figures = {op: worst([row["seconds"][label][op] for row in mine]) for op in ops}
                slowest = [worst([row["seconds"][label].get(op) for op in ("count", "probs", "first")]) for row in mine]
                per_k = max((t / row["frontier"] * 1000 for t, row in zip(slowest, mine) if t is not None and row["frontier"]), default=None)
                per_cells = max((t / side**2 * 10_000 for t in slowest if t is not None), default=None)
                out.setdefault(label, []).append(
                    {"side": side, "kind": kind, "frontier": frontier, "worst": figures, "per_1k_frontier": per_k, "per_10k_cells": per_cells}
                )
                line = "".join(f"{fmt(figures[op], limit):>17}" for op in ops)
                curve = "".join(f"{'-' if v is None else f'{v:.3f}':>{w}}" for v, w in ((per_k, 15), (per_cells, 13)))
                print(f"{side:>6}{kind:>11}{frontier:>10}{line}{curve}")
    pairs_of = {
        "probs at most 3x count": ("probs", "count"),
        "first with count at most 3x without": ("first", "first-no-M"),
        "sat --mines at most 3x without": ("sat", "sat-no-M"),
    }
    print()
    for goal, (mine, peer) in pairs_of.items():
        verdicts = []
        for kind in ("game", "scattered", "fullest", None):
            after = [row["seconds"]["after"] for row in rows if kind is None or row["kind"] == kind]
            pairs = [(s[mine], s[peer]) for s in after if mine in s and peer in s]
            ratios = [a / b for a, b in pairs if a is not None and b]
            unfinished = sum(1 for a, b in pairs if a is None and b is not None)
            if not (ratios or unfinished):
                continue
            met = not unfinished and max(ratios) <= 3
            verdicts.append(
                f"{kind or 'all'} worst {max(ratios, default=0):.2f}x{f' ({unfinished} stopped)' if unfinished else ''} {'met' if met else 'MISSED'}"
            )
            out.setdefault(goal, {})[kind or "all"] = {"worst": max(ratios, default=None), "met": met}
        if verdicts:
            print(f"{goal}: " + "; ".join(verdicts))
    big = [row["seconds"]["after"] for row in rows if row["kind"] == "game" and row["side"] == 256]
    if big:
        slowest = {op: worst([s.get(op) for s in big]) for op in ("first", "count", "probs") if op in ops}
        met = all(v is not None and v < 3 for v in slowest.values())
        print(
            "256x256 game positions, worst: "
            + ", ".join(f"{op} {fmt(v, limit)} s" for op, v in slowest.items())
            + f"; each under 3 s: {'met' if met else 'MISSED'}"
        )
        out["256 game under 3 s"] = {"worst": slowest, "met": met}
    return out


if __name__ == "__main__":
    sys.exit(main())
