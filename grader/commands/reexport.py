"""`python -m grader reexport RESULTS_DIR`: the grades CSV and gradebook again, from a class
run's kept results, without grading anything again.

The CSV has the columns and values the class run wrote; a gradebook is matched with the
roster as it is now (a line added or renamed since the run counts), and roster students
with no kept result are left out (`--missing blank`, the default) or given 0
(`--missing zero`). The grades are the kept ones: nothing is graded again, and a kept
file that cannot be read is one line, skipped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.text import Text

from grader.commands.batch import BatchRow, class_gradebook, write_csv
from grader.commands.options import ReexportOptions
from grader.inputs.exports import Identity
from grader.reports.gradebook import FORMATS, Person, matched_roster, read_roster
from grader.reports.kept import KeptStudent, load_kept
from solvers.cliargs import OneLineParser, UsageError, add_version, output_problem, print_error, read_options


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m grader reexport", description="Write a class run's grades CSV and gradebook again from its kept results.")
    add_version(parser)
    parser.add_argument("results", type=Path, metavar="RESULTS_DIR", help="the kept results (GRADES-results/ beside the CSV)")
    parser.add_argument("--csv", type=Path, help="the grades CSV to write (default: GRADES-reexport.csv beside RESULTS_DIR)")
    parser.add_argument("--roster", type=Path, metavar="CSV", help="with --gradebook: the class roster, as it is now")
    parser.add_argument("--gradebook", choices=FORMATS, help="with --roster: also write a gradebook CSV beside --csv")
    parser.add_argument("--assignment", default="Minesweeper CSP", help="with --gradebook canvas: the assignment's column")
    parser.add_argument(
        "--missing",
        choices=("blank", "zero"),
        help="with --gradebook: roster students with no kept result are left out (blank, the default) or given 0 (zero)",
    )
    return parser


def command(argv: list[str], console: Console) -> int:
    """Exit status 0; 1 when a kept file was skipped or a graded student is not in the
    gradebook; 2 when RESULTS_DIR holds no kept results or an option is wrong."""
    args = read_options(ReexportOptions, _parser().parse_args(argv))
    if (args.roster or args.gradebook) and not (args.roster and args.gradebook):
        raise UsageError("--roster and --gradebook go together")
    if args.missing and not args.gradebook:
        raise UsageError("--missing goes with --gradebook")
    out = args.csv or args.results.with_name(f"{args.results.name.removesuffix('-results')}-reexport.csv")
    if why := output_problem(out):
        raise UsageError(f"--csv {out}: {why}")
    roster = read_roster(args.roster) if args.roster else None  # a bad roster is told before anything is written
    kept = load_kept(args.results)
    if roster is not None and args.roster is not None:  # a roster with no submission column: matched with the students the export named
        people = [Person(s.student, s.identity.get("sid", ""), s.identity.get("email", "")) for s in kept.students]
        roster, notes = matched_roster(args.roster, roster, [person for person in people if person.sid or person.email])
        for note in notes:
            console.print(Text.assemble(("! ", "yellow"), f"--roster {args.roster}: {note}"))
    for error in kept.errors:
        console.print(Text.assemble(("! ", "yellow"), error))
    if not kept.run and not kept.students:
        return print_error(f"{args.results}: no kept results to export", console)
    rows = [_row(student) for student in kept.students]
    write_csv(out, rows)
    console.print(Text(f"wrote {out} from {len(rows)} kept results (nothing graded again)"))
    left_out = False
    if roster is not None and args.gradebook is not None:  # they go together
        path = out.with_name(f"{out.stem}-{args.gradebook}.csv")
        book = class_gradebook(console, path, rows, roster, args.gradebook, args.assignment, args.missing or "blank")
        left_out = bool(book.left_out())
    return 1 if kept.errors or left_out else 0


def _row(kept: KeptStudent) -> BatchRow:
    """The class run's row of a kept student, as it was."""
    identity = Identity(**kept.identity) if any(kept.identity.values()) else None  # as an export named them
    return BatchRow(kept.student, kept.report, kept.problem, kept.not_graded or "", kept.submission, identity, kept.cpu_seconds, kept.wall_seconds)
