"""`python -m solvers`: one-off solving and generating from the command line.

Each subcommand lives in its own module under `answerkey/instructor/solving/`: they solve with the
reference strategies, so they belong to the instructor's kit, and a student copy (the
kit without its answer key) says so in one line.
"""

from __future__ import annotations

import argparse
import importlib

from .cliargs import OneLineParser, UsageError, add_version, instructor_only, print_error, read_options

#: The modules of `answerkey.instructor.solving`, one per subcommand (a test checks the list is complete).
COMMANDS = ("generate", "grid", "sat", "trace")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m solvers", description="Solve and generate Minesweeper boards.")
    add_version(parser)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for name in COMMANDS:
        importlib.import_module(f"answerkey.instructor.solving.{name}").register(subparsers)
    for command in subparsers.choices.values():
        add_version(command)
    return parser


def main(argv: list[str] | None = None) -> int:
    if why := instructor_only("python -m solvers"):
        return print_error(why)
    try:
        args = build_parser().parse_args(argv)
    except UsageError as error:
        return print_error(str(error))
    return args.run(read_options(args.options, args))  # each subcommand sets its function and its record of options
