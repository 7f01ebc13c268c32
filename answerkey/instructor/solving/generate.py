"""`python -m solvers generate`: problem sets from planted mine layouts.

- `hints`: classic boards with some clues shown (the course's 6x6, 16 hints, 10 mines);
  `--unique-only`, `--unsolvable-only` and `--min-nodes K` (difficulty) filter them.
- `status`: status grids (every cell counts its 3x3 block) for N x M cells at
  mine density P, with their exact solution counts.

The YAML goes to standard output or `--output`, with the exact command in `source:`.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from answerkey.instructor.solving import stderr_console
from solvers.cliargs import output_problem, positive_int, print_error

if TYPE_CHECKING:
    from solvers.board import Board


@dataclass(frozen=True)
class SetOptions:
    """What both kinds of problem set take (see `_common`)."""

    seed: int
    prefix: str
    title: str
    output: str | None


@dataclass(frozen=True)
class HintsOptions(SetOptions):
    """`python -m solvers generate hints`'s options (see `register`)."""

    count: int
    unique: int
    unsolvable: int
    unique_only: bool
    unsolvable_only: bool
    min_nodes: int
    rows: int
    cols: int
    hints: int
    mines: int


@dataclass(frozen=True)
class StatusOptions(SetOptions):
    """`python -m solvers generate status`'s options (see `register`)."""

    rows: int
    cols: int
    percent: float
    count: int
    unique_only: bool


def _command() -> str:
    return "python -m solvers " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _write(args: SetOptions, boards: list[tuple[Board, int]]) -> int:
    """Write the problem set (ids PREFIX-01, ...) and report where."""
    from grader.inputs.problemset import Problem, problem_set_yaml

    where = args.output or "<stdout>"
    problems = [Problem(where, f"{args.prefix}-{i:02d}", board, expect) for i, (board, expect) in enumerate(boards, start=1)]
    text = problem_set_yaml(args.title, problems, source=_command())
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        stderr_console().print(f"wrote {len(problems)} problems to {args.output}", markup=False)
    else:
        sys.stdout.write(text)
    return 0


def _output_error(args: SetOptions) -> str | None:
    """Why --output cannot be written (checked before any board is made), or None."""
    why = output_problem(Path(args.output)) if args.output else None
    return f"--output {args.output}: {why}" if why else None


def _hints(args: HintsOptions) -> int:
    if why := _output_error(args):
        return print_error(why)
    if args.unique_only and args.unsolvable_only:
        return print_error("--unique-only and --unsolvable-only exclude each other")
    unique = args.count if args.unique_only else args.unique
    unsolvable = args.count if args.unsolvable_only else args.unsolvable
    if (args.unique_only and args.unsolvable) or (args.unsolvable_only and args.unique):
        return print_error("--unique/--unsolvable counts cannot be combined with --unique-only/--unsolvable-only")
    import random

    from answerkey.generate import hint_problem_set

    try:
        boards = hint_problem_set(
            random.Random(args.seed),
            args.count,
            unique,
            unsolvable,
            args.rows,
            args.cols,
            args.hints,
            args.mines,
            args.min_nodes,
        )
    except (ValueError, RuntimeError) as error:
        return print_error(str(error))
    return _write(args, boards)


def _status(args: StatusOptions) -> int:
    if why := _output_error(args):
        return print_error(why)
    if args.rows < 1 or args.cols < 1 or args.count < 1:
        return print_error("--rows, --cols and --count must be at least 1")
    if not 0 <= args.percent <= 100:
        return print_error("--percent must be between 0 and 100")
    import random

    from answerkey.generate import status_problem_set

    try:
        boards = status_problem_set(random.Random(args.seed), args.count, args.rows, args.cols, args.percent, args.unique_only)
    except RuntimeError as error:
        return print_error(str(error))
    return _write(args, boards)


def _common(parser: argparse.ArgumentParser, prefix: str, title: str) -> None:
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0): the same seed gives the same boards")
    parser.add_argument("--prefix", default=prefix, help=f"problem ids are PREFIX-01, PREFIX-02, ... (default {prefix})")
    parser.add_argument("--title", default=title)
    parser.add_argument("--output", "-o", help="YAML file to write (default: standard output)")


def register(commands: argparse._SubParsersAction) -> None:
    gen = commands.add_parser("generate", help="generate problem sets from planted mine layouts")
    kinds = gen.add_subparsers(dest="kind", required=True)
    hints = kinds.add_parser("hints", help="classic boards with some clues shown (the course's 6x6, 16 hints, 10 mines)")
    hints.add_argument("--count", type=positive_int, default=30, help="number of boards (default 30)")
    hints.add_argument("--unique", type=int, default=0, help="how many must have exactly one solution")
    hints.add_argument("--unsolvable", type=int, default=0, help="how many must have none (a clue perturbed, verified)")
    hints.add_argument("--unique-only", action="store_true", help="every board must have exactly one solution")
    hints.add_argument("--unsolvable-only", action="store_true", help="every board must have none (a clue perturbed, verified by counting)")
    hints.add_argument(
        "--min-nodes",
        type=int,
        default=0,
        metavar="K",
        help="difficulty: keep boards on which the reference engine pops at least K nodes (default 0)",
    )
    hints.add_argument("--rows", type=int, default=6)
    hints.add_argument("--cols", type=int, default=6)
    hints.add_argument("--hints", type=int, default=16)
    hints.add_argument("--mines", type=int, default=10)
    _common(hints, "gen", "Generated boards")
    hints.set_defaults(run=_hints, options=HintsOptions)

    status = kinds.add_parser("status", help="status grids: N x M cells, each a mine with probability P%%")
    status.add_argument("--rows", "-N", type=int, default=7, help="N, the number of rows (default 7)")
    status.add_argument("--cols", "-M", type=int, default=7, help="M, the number of columns (default 7)")
    status.add_argument("--percent", "-P", type=float, default=20, help="P, the mine density in percent (default 20)")
    status.add_argument("--count", type=positive_int, default=10, help="number of grids (default 10)")
    status.add_argument("--unique-only", action="store_true", help="keep only grids with exactly one solution")
    _common(status, "status", "Generated status grids")
    status.set_defaults(run=_status, options=StatusOptions)
