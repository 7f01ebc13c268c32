"""`python -m solvers generate`: problem sets from planted mine layouts."""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from pathlib import Path

from rich.console import Console

from ..generate import hint_problem_set
from ..problemfile import Entry, problem_set_yaml

err = Console(stderr=True)


def _hints(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    try:
        boards = hint_problem_set(
            rng, args.count, args.unique, args.unsolvable, args.rows, args.cols, args.hints, args.mines
        )
    except (ValueError, RuntimeError) as error:
        err.print(f"[red]error:[/] {error}")
        return 2
    command = "python -m solvers " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    entries = [Entry(f"{args.prefix}-{i:02d}", board, expect) for i, (board, expect) in enumerate(boards, start=1)]
    text = problem_set_yaml(args.title, entries, source=command)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        err.print(f"wrote {len(entries)} problems to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    gen = commands.add_parser("generate", help="generate problem sets from planted mine layouts")
    kinds = gen.add_subparsers(dest="kind", required=True)
    hints = kinds.add_parser("hints", help="classic boards with some clues shown (seed 001's 6x6, 16 hints, 10 mines)")
    hints.add_argument("--count", type=int, default=30, help="number of boards (default 30)")
    hints.add_argument("--unique", type=int, default=0, help="how many must have exactly one solution")
    hints.add_argument("--unsolvable", type=int, default=0, help="how many must have none (a clue perturbed, verified)")
    hints.add_argument("--rows", type=int, default=6)
    hints.add_argument("--cols", type=int, default=6)
    hints.add_argument("--hints", type=int, default=16)
    hints.add_argument("--mines", type=int, default=10)
    hints.add_argument("--seed", type=int, default=0)
    hints.add_argument("--prefix", default="gen", help="problem ids are PREFIX-01, PREFIX-02, ...")
    hints.add_argument("--title", default="Generated boards")
    hints.add_argument("--output", "-o", help="YAML file to write (default: standard output)")
    hints.set_defaults(run=_hints)
