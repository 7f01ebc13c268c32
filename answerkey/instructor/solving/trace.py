"""`python -m solvers trace FILE`: watch the engine solve one board, step by step."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from answerkey.instructor.solving import stderr_console
from answerkey.strategies import STRATEGIES
from solvers.board import RULES
from solvers.cliargs import print_error, read_text
from solvers.trace import add_trace_arguments, export_error

if TYPE_CHECKING:
    from solvers.board import Rule
    from solvers.trace import Only


@dataclass(frozen=True)
class BoardTraceOptions:
    """`python -m solvers trace`'s options (see `register`)."""

    file: str | None
    rule: Rule
    mines: int | None
    strategy: str
    max_steps: int
    only: Only
    compact: bool
    tree: bool
    export: Path | None


def _trace(args: BoardTraceOptions) -> int:
    from rich.console import Console

    from answerkey.explain import explain
    from solvers.csp import build_csp
    from solvers.textformat import BoardFormatError, parse_board
    from solvers.trace import TraceOptions, record
    from solvers.trace_page import PageInfo, write_trace_page
    from solvers.trace_view import render_trace, save_export

    err = stderr_console()
    problem = export_error(args.export)
    try:
        board = parse_board(read_text(args.file), args.rule, args.mines)
    except OSError as error:
        problem = f"{args.file or 'standard input'}: {error.strerror or error}"
    except (BoardFormatError, UnicodeDecodeError) as error:
        problem = f"{args.file or 'standard input'}: {error}"
    if problem:
        return print_error(problem)
    csp = build_csp(board)
    trace = record(csp, STRATEGIES[args.strategy], max_steps=args.max_steps)
    console = Console(record=bool(args.export))
    title = f"{args.file or 'board'} with {args.strategy}"
    render_trace(console, board, csp, trace.steps, trace.summary(), TraceOptions(args.only, args.compact, args.tree), title, explain)
    if args.export and args.export.suffix == ".html":  # a page that plays the search
        info = PageInfo(title, trace.complete, args.max_steps)
        write_trace_page(args.export, board, csp, trace.steps, info, explain=explain)
        err.print(f"wrote {args.export}", markup=False)
    elif args.export:
        for line in save_export(console, args.export, title):
            err.print(line, markup=False, highlight=False)
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("trace", help="show the engine's search on one board, step by step")
    parser.add_argument("file", nargs="?", help="a board as rows of tokens ('.' or '?' unknown); standard input without it")
    parser.add_argument("--rule", choices=RULES, default="classic")
    parser.add_argument("--mines", type=int, help="the total number of mines, if known")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="fc-mrv", help="the engine's strategy (default fc-mrv)")
    add_trace_arguments(parser)
    parser.set_defaults(run=_trace, options=BoardTraceOptions)
