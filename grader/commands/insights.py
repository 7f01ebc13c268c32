"""`python -m grader insights RESULTS_DIR`: what a class got wrong, from a class run's kept results.

    python -m grader insights RESULTS_DIR [--html insights.html] [--csv-dir DIR] [--against OTHER_RESULTS_DIR]

RESULTS_DIR is the folder a class run keeps beside its CSV (`grades-results/` for
`--csv grades.csv`). The tables (`grader.reports.insights`) show on the terminal; `--html`
writes them as one self-contained page, `--csv-dir` one CSV file per table, and
`--against` adds what moved since another run (OTHER is "before"). Reading kept results
never changes a grade; a kept file that cannot be read is one line, and the exit status 1.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from grader.commands.options import InsightsOptions
from grader.reports.csvfile import write_table
from grader.reports.insights import StudentResult, Table, all_tables, class_max, first_wrong_table, help_table, moved
from grader.reports.insights_page import insights_page
from grader.reports.kept import Kept, load_kept
from solvers.cliargs import OneLineParser, UsageError, add_version, output_problem, print_error, read_options

SHORT_ROWS = 5  # rows of each table the end of a class run shows


def students_of(kept: Kept) -> list[StudentResult]:
    """The kept students as the insights read them."""
    return [StudentResult(s.student, s.report, s.not_graded or "", s.identity.get("section", ""), s.identity.get("name", "")) for s in kept.students]


def show_table(console: Console, table: Table, limit: int | None = None) -> None:
    """One table on the terminal (every cell as text, never markup), its first `limit` rows."""
    shown = RichTable(title=table.title, title_justify="left")
    for column in table.columns:
        shown.add_column(column)
    for row in table.rows[:limit]:
        shown.add_row(*(Text(f"{cell:g}" if isinstance(cell, float) else str(cell)) for cell in row))
    console.print(shown)
    if limit is not None and len(table.rows) > limit:
        console.print(f"  ... and {len(table.rows) - limit} more rows", highlight=False)


def write_tables(folder: Path, tables: list[Table]) -> None:
    """One CSV per table, named by its key; no text cell reads as a formula."""
    folder.mkdir(parents=True, exist_ok=True)
    for table in tables:
        write_table(folder / f"{table.key}.csv", [table.columns, *table.rows])


def show_short(console: Console, students: list[StudentResult]) -> None:
    """The insights in short, for the end of a class run: the commonest first wrong cases
    and who needs help."""
    for table in (first_wrong_table(students), help_table(students)):
        if table.rows:
            show_table(console, table, SHORT_ROWS)
    console.print(
        "every table: python -m grader insights RESULTS_DIR (the results kept beside the CSV) [--html FILE] [--csv-dir DIR]",
        highlight=False,
        markup=False,
    )


def _loaded(console: Console, folder: Path) -> tuple[list[StudentResult], bool]:
    """The students kept in `folder`, and whether every file could be read (one line each that could not)."""
    kept = load_kept(folder)
    for error in kept.errors:
        print_error(error, console)
    return students_of(kept), not kept.errors


def command(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader insights", description="What a class got wrong, from the results a class run keeps beside its CSV.")
    add_version(parser)
    parser.add_argument("results", type=Path, metavar="RESULTS_DIR", help="the folder STEM-results beside a class CSV")
    parser.add_argument("--html", type=Path, metavar="FILE", help="also write the tables as one page")
    parser.add_argument("--csv-dir", type=Path, metavar="DIR", help="also write one CSV file per table")
    parser.add_argument("--against", type=Path, metavar="OTHER_RESULTS_DIR", help="show what moved since these results")
    args = read_options(InsightsOptions, parser.parse_args(argv))
    if args.html is not None and (why := output_problem(args.html)):
        raise UsageError(f"--html {args.html}: {why}")
    if args.csv_dir is not None and args.csv_dir.exists() and not args.csv_dir.is_dir():
        raise UsageError(f"--csv-dir {args.csv_dir}: is a file; name a folder")
    students, clean = _loaded(console, args.results)
    if not students:
        return 1
    tables = all_tables(students)
    if args.against is not None:
        before, read = _loaded(console, args.against)
        clean = clean and read
        tables += moved(before, students)
    scores = [s for student in students if (s := student.score) is not None]
    summary = (
        f"{len(students)} students, {len(scores)} graded, out of {class_max(students):g}; mean {sum(scores) / len(scores):.2f}"
        if scores
        else f"{len(students)} students, none graded"
    )
    console.print(summary, highlight=False, markup=False)
    for table in tables:
        show_table(console, table)
    if args.csv_dir is not None:
        write_tables(args.csv_dir, tables)
        console.print(f"wrote {len(tables)} CSV files in {args.csv_dir}/", highlight=False, markup=False)
    if args.html is not None:
        args.html.write_text(insights_page(f"Class insights: {args.results.name}", summary, tables), encoding="utf-8")
        console.print(f"wrote {args.html}", highlight=False, markup=False)
    return 0 if clean else 1
