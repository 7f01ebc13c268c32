"""`python -m solvers sat [FILE]`: the SAT solver in the 'R C' text format, its input and its output.

Input (FILE, or standard input without it): a first line `R C`, then R rows of C
whitespace-separated tokens, `?` for an unknown cell or a clue 0-8 (classic rule: a clue
counts the mines among its 8 neighbours). Blank lines are skipped; line numbers in error
messages count every line of the input from 1.

One solution: the fixpoint bound rule first decides what it can and Glucose solves each
independent component on its own (`answerkey.sat.solve_first`); with `--mines`, the
cells next to no clue take the mines left over, and when they cannot, the components'
mine counts are chosen to add up and a component whose count changed takes a layout
with that count from a sweep of its cells (`answerkey.components.reach`). With `--all` the whole board is one CNF.

Output: `Satisfiable!` and the board in the same format, each unknown cell shown as `*`
(mine) or `s` (safe), or `?` when it is next to no clue (it is then in no constraint and
may be either); or `Unsatisfiable!`. The exit code is 0 for either answer and 2 for input
that cannot be read (one line on standard error).

`--count` prints the exact number of mine layouts without enumerating them: the
component counter of `answerkey.components.count` (big integers, the global mine count convolved
in), not Glucose, which could only block one model after another.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from answerkey.instructor.solving import decimal
from answerkey.sat import DEFAULT_ENCODING, ENCODINGS
from solvers.cliargs import print_error
from solvers.textformat import BoardFormatError, check_mine_count, parse_token

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

    from answerkey.components.count import SolutionCounts
    from solvers.board import Board
    from solvers.csp import CSP
    from solvers.glucose import SatResult


MINE, SAFE, FREE = "*", "s", "?"


@dataclass(frozen=True)
class SatOptions:
    """`python -m solvers sat`'s options (see `register`)."""

    file: str | None
    mines: int | None
    encoding: str
    dimacs: str | None
    stats: bool
    all: bool
    count: bool


def _header(line: str, number: int) -> tuple[int, int]:
    """The board size from the `R C` line."""
    tokens = line.split()
    if len(tokens) != 2 or not all(t.isascii() and t.isdigit() and int(t) > 0 for t in tokens):
        raise BoardFormatError(f"line {number}: expected the board size 'R C' (two positive integers), got {line.strip()!r}")
    rows, cols = map(int, tokens)
    return rows, cols


def _row(line: str, number: int, row: int, cols: int) -> list[int | None]:
    """One board row: C tokens, each a clue or unknown (the token rules of textformat)."""
    tokens = line.split()
    if len(tokens) != cols:
        raise BoardFormatError(f"line {number}: {len(tokens)} cells, but the header says {cols} columns")
    try:
        return [parse_token(token, "classic", row, col) for col, token in enumerate(tokens, start=1)]
    except BoardFormatError as error:
        raise BoardFormatError(f"line {number}, column {error.column}: {error.message}") from None


def read_seed_board(text: str, mines: int | None = None) -> Board:
    """A classic-rule Board from the 'R C' text format; BoardFormatError naming the line if bad."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise BoardFormatError("the input is empty: expected a first line 'R C', then R rows of C cells")
    rows, cols = _header(lines[0][1], lines[0][0])
    body = lines[1:]
    if len(body) < rows:
        after = body[-1][0] if body else lines[0][0]
        raise BoardFormatError(f"line {after + 1}: the header says {rows} rows, but the input has {len(body)}")
    if len(body) > rows:
        raise BoardFormatError(f"line {body[rows][0]}: an extra row; the header says {rows} rows")
    grid = [_row(line, number, row, cols) for row, (number, line) in enumerate(body, start=1)]
    from solvers.board import board_from_rows

    board = board_from_rows(grid, "classic", mines)
    try:
        check_mine_count(board)
    except BoardFormatError as error:
        raise BoardFormatError(f"--mines: {error.message}") from None
    return board


def render(board: Board, csp: CSP, values: tuple[int, ...]) -> list[str]:
    """The seed's output: the `R C` line, then the rows with `*`/`s`/`?` for unknown cells.

    `csp` is the board's CSP and `values` one of its solutions; a variable in no
    constraint (a cell next to no clue) shows as `?` whatever its value.
    """
    from answerkey.sat import free_variables

    free = set(free_variables(csp))
    shown = {cell: FREE if var in free else MINE if value else SAFE for var, (cell, value) in enumerate(zip(csp.cells, values))}
    rows = [" ".join(str(clue) if clue is not None else shown[(r, c)] for c, clue in enumerate(row)) for r, row in enumerate(board.clues)]
    return [f"{board.rows} {board.cols}", *rows]


def stats_table(result: SatResult, encoding: str) -> Table:
    """Glucose's statistics and the formula's size, as a rich table."""
    stats = result.stats
    from rich.table import Table

    table = Table(title="Glucose 4.1 (PySAT)")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    table.add_row("encoding", encoding)
    for name in ("variables", "clauses", "conflicts", "decisions", "propagations", "restarts"):
        table.add_row(name, f"{getattr(stats, name):,}")
    for label, seconds in (("encode", stats.encode_seconds), ("solve", stats.solve_seconds), ("total", stats.seconds)):
        table.add_row(f"{label} time (s)", f"{seconds:.4f}")
    return table


def stats_view(result: SatResult, encoding: str) -> RenderableType:
    """The statistics table, and why a formula is empty when the bound rule left Glucose
    nothing to solve (a small board, solved by components)."""
    from rich.console import Group
    from rich.text import Text

    table = stats_table(result, encoding)
    if result.stats.variables or not result.count:
        return table
    return Group(table, Text("The bound rule decided every cell first, so Glucose had no formula; --all gives it the whole board."))


def count_table(counts: SolutionCounts) -> Table:
    """The component counter's statistics, as a rich table."""
    stats = counts.stats
    from rich.table import Table

    table = Table(title="Exact count by components")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    for name in ("components", "largest_component", "nodes", "engine_leaves", "swept", "cache_hits"):
        table.add_row(name.replace("_", " "), f"{getattr(stats, name):,}")
    table.add_row("time (s)", f"{stats.seconds:.4f}")
    return table


def _read_input(path: str | None) -> str:
    """The text of FILE, or of standard input without one (or with '-')."""
    if path in (None, "-") and (sys.stdin is None or sys.stdin.closed):
        raise OSError("standard input is closed: give a FILE")
    data = sys.stdin.buffer.read() if path in (None, "-") else Path(path).read_bytes()
    return data.decode("utf-8")


def _answer(board: Board, csp: CSP, result: SatResult, every: bool) -> list[str]:
    """The printed answer: a verdict, the board(s) and, with --all, a count line."""
    from answerkey.sat import free_variables

    lines = ["Satisfiable!" if result.count else "Unsatisfiable!"]
    for index, values in enumerate(result.solutions):
        lines += ([""] if index else []) + render(board, csp, values)
    free = len(free_variables(csp))
    if every:
        count = f"{result.count} solution{'s' if result.count != 1 else ''}"
        if free and result.count:
            count += f" ({result.count << free} counting each of the {free} '?' cells next to no clue as mine or safe)"
        lines += ["", count]
    return lines


def _solve(csp: CSP, args: SatOptions) -> SatResult:
    """Every solution (one CNF, projected on the constrained cells), or one (by components)."""
    from answerkey.sat import encode_csp, solve_encoded, solve_first

    if args.all:
        return solve_encoded(encode_csp(csp, args.encoding), "all", project=True)
    return solve_first(csp, args.encoding)


def _sat(args: SatOptions) -> int:
    from answerkey.sat import EncodingError, encode_csp
    from solvers.csp import build_csp

    where = args.file if args.file not in (None, "-") else "standard input"
    try:
        board = read_seed_board(_read_input(args.file), args.mines)
        csp = build_csp(board)
        if args.dimacs:
            Path(args.dimacs).write_text(encode_csp(csp, args.encoding).dimacs(), encoding="utf-8")
        result = None if args.count else _solve(csp, args)
    except OSError as error:
        return print_error(f"{error.filename or where}: {error.strerror or error}")
    except UnicodeDecodeError:
        return print_error(f"{where}: not UTF-8 text")
    except (BoardFormatError, EncodingError) as error:
        return print_error(f"{where}: {error}")
    if result is None:
        from answerkey.components.count import solution_counts

        counts = solution_counts(csp, per_variable=False)
        return _show([decimal(counts.total)], lambda: count_table(counts), args.stats)
    return _show(_answer(board, csp, result, args.all), lambda: stats_view(result, args.encoding), args.stats)


def _show(lines: list[str], table: Callable[[], RenderableType], stats: bool) -> int:
    """Print the answer, then the statistics table when asked for (rich is imported only then)."""
    sys.stdout.write("\n".join(lines) + "\n")
    if stats:
        from rich.console import Console

        sys.stdout.flush()
        Console().print(table())
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "sat",
        help="the SAT solver: 'R C' then rows of '?'/clues; prints a solution with */s/?",
        description=(
            "Solve a classic board with Glucose 4.1 (PySAT). Input: a line 'R C', then R rows of C "
            "tokens ('?' or a clue 0-8). Output: Satisfiable! and the board with * (mine), s (safe), "
            "? (next to no clue), or Unsatisfiable!. Exit code 2 for unreadable input."
        ),
    )
    parser.add_argument("file", nargs="?", help="the board (default: standard input)")
    parser.add_argument("--mines", type=int, help="the total number of mines, if known (default: no mine count)")
    parser.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default=DEFAULT_ENCODING,
        help=f"CNF encoding of 'exactly k of these cells' (default {DEFAULT_ENCODING})",
    )
    parser.add_argument(
        "--dimacs",
        metavar="FILE",
        help="write the CNF in DIMACS to FILE, with 'c var V = row R col C' lines (from 1) for the cells",
    )
    parser.add_argument("--stats", action="store_true", help="print the solver's statistics after the answer")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--all",
        action="store_true",
        help="print every solution (boards as shown, '?' cells either way), blank-line separated, then their number",
    )
    what.add_argument(
        "--count",
        action="store_true",
        help="print only the number of solutions (mine layouts of every unknown cell, as the grader counts them), "
        "counted exactly by independent components without enumerating them",
    )
    parser.set_defaults(run=_sat, options=SatOptions)
