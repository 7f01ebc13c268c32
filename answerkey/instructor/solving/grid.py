"""`python -m solvers grid [FILE]`: a status grid, solved.

Every number counts the mines in its own cell and its 8 neighbours (the inclusive rule);
`.` or `?` marks a cell without a number. Rows are digits (`1100111`) or tokens separated
by spaces or commas. The answer is one layout as rows of `x` (mine) and `_` (empty), or
`-1` when none exists, as the original status-grid solvers print it. Exit status: 0 when the question was
answered (`-1` included), 2 for unreadable input.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from answerkey.instructor.solving import decimal, stderr_console
from solvers.cliargs import print_error, read_text

if TYPE_CHECKING:
    from solvers.board import Board
    from solvers.csp import CSP
    from solvers.engine import Mode, SearchResult

#: --method name -> answerkey.methods method: "search" is the engine on independent components.
GRID_METHODS = {"search": "components", "recursive": "recursive", "brute": "brute", "sat": "sat"}
#: Brute force tries 2**n layouts; refuse beyond this many cells.
BRUTE_LIMIT = 24
NO_SOLUTION = "-1"


@dataclass(frozen=True)
class GridOptions:
    """`python -m solvers grid`'s options (see `register`)."""

    file: str | None
    all: bool
    count: bool
    method: str
    spaced: bool
    mines: int | None
    stats: bool


def render(board: Board, csp: CSP, values: tuple[int, ...], spaced: bool) -> str:
    """One layout as rows of `x`/`_`, characters joined by a space when `spaced`."""
    from solvers.csp import layout_of

    joiner = " " if spaced else ""
    grid = layout_of(csp, values, board.rows, board.cols)
    return "\n".join(joiner.join("x" if mine else "_" for mine in row) for row in grid)


def read_board(args: GridOptions) -> Board:
    """The grid from FILE or standard input; BoardFormatError/OSError/UnicodeDecodeError when unreadable."""
    from solvers.textformat import parse_board

    return parse_board(read_text(args.file), "inclusive", args.mines)


def _answer(csp: CSP, args: GridOptions) -> SearchResult:
    from answerkey.methods import solve

    mode: Mode = "count" if args.count else "all" if args.all else "first"
    return solve(csp, GRID_METHODS[args.method], mode)


def _solutions_text(board: Board, csp: CSP, result: SearchResult, spaced: bool) -> list[str]:
    """Every layout, a blank line between them, then how many there are."""
    layouts = "\n\n".join(render(board, csp, values, spaced) for values in result.solutions)
    return [layouts, "", f"{result.count} solution{'' if result.count == 1 else 's'}"]


def _grid(args: GridOptions) -> int:
    from solvers.csp import build_csp
    from solvers.textformat import BoardFormatError

    where = args.file or "standard input"
    try:
        board = read_board(args)
    except OSError as error:
        return print_error(f"{where}: {error.strerror or error}")
    except UnicodeDecodeError:
        return print_error(f"{where}: not UTF-8 text")
    except BoardFormatError as error:
        return print_error(f"{where}: {error}")
    csp = build_csp(board)
    if args.method == "brute" and len(csp.cells) > BRUTE_LIMIT:
        return print_error(f"brute force would try 2^{len(csp.cells)} layouts; use it on at most {BRUTE_LIMIT} cells")
    result = _answer(csp, args)
    if args.count:
        out = [decimal(result.count)]
    elif not result.solutions:
        out = [NO_SOLUTION]
    elif args.all:
        out = _solutions_text(board, csp, result, args.spaced)
    else:
        out = [render(board, csp, result.solutions[0], args.spaced)]
    sys.stdout.write("\n".join(out) + "\n")
    if args.stats:
        stats = result.stats
        stderr_console().print(
            f"{args.method}: {stats.popped} nodes, {stats.dead_ends} dead ends, {stats.seconds * 1000:.1f} ms",
        )
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "grid",
        help="solve a status grid: every number counts its own 3x3 block",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument("file", nargs="?", help="the grid: rows of digits 0-9 ('.' for no number); standard input without it")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--all", action="store_true", help="every solution, separated by blank lines, then their number")
    shown.add_argument("--count", action="store_true", help="only the number of solutions")
    parser.add_argument(
        "--method",
        choices=tuple(GRID_METHODS),
        default="search",
        help="search: the engine on independent components (default); recursive: the classic cell-by-cell "
        "backtracking; brute: every layout (small grids); sat: Glucose through PySAT",
    )
    parser.add_argument("--spaced", action="store_true", help="separate the cells of a row by spaces, as the status-grid generator prints")
    parser.add_argument("--mines", type=int, help="the total number of mines, if known")
    parser.add_argument("--stats", action="store_true", help="print the solver's statistics on standard error")
    parser.set_defaults(run=_grid, options=GridOptions)
