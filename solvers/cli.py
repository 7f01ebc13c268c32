"""`python -m solvers`: one-off solving and generating from the command line.

Each subcommand lives in its own module under `solvers/commands/`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from . import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m solvers", description="Solve and generate Minesweeper boards.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module_info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{module_info.name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
