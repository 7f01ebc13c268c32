"""`python -m solvers`: one-off solving and generating from the command line.

Each subcommand lives in its own module under `solvers/commands/`.
"""

from __future__ import annotations

import argparse
import importlib

#: The modules of `solvers.commands`, one per subcommand (a test checks the list is complete).
COMMANDS = ("generate", "grid", "sat", "trace")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m solvers", description="Solve and generate Minesweeper boards.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
