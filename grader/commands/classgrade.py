"""`python -m grader PATH... --submissions DIR`: grade a class into its CSV, feedback files,
kept results and gradebook (the grading of each submission is `grader.commands.batch`)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TYPE_CHECKING

from grader.commands.common import NOT_GRADED_EXIT
from grader.sandbox import stopping
from grader.sandbox.isolation import Isolation
from solvers.errortext import describe_exception

if TYPE_CHECKING:
    from rich.console import Console

    from grader.commands.options import GradeOptions
    from grader.inputs.config import GradingConfig
    from grader.inputs.problemset import Problem
    from grader.sandbox.isolation import Sandbox


def grade_class(
    args: GradeOptions,
    problems: list[Problem],
    config: Path | None,
    console: Console,
    sandbox: Sandbox | None,
    errors: list,
    grading: GradingConfig,
    only: frozenset[str] | None = None,
) -> int:
    """Grade every submission of --submissions (a folder, or a platform's export, zipped or
    not) into the CSV, feedback files and kept results, then the summary, all written even
    when interrupted. Exit status: 0, or 1 when a submission was refused (a link, a FIFO,
    too deep or too large), an export held something odd, a graded one is not in the
    gradebook or the results could not be kept, 3 when one was not graded (a failure of
    the grader's), 128 + N when
    stopped by signal N (the results of the students graded so far written first: the
    caller runs this `stopping.polled`)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="grader-export-") as scratch:
        return _batch_in(args, problems, config, console, sandbox, errors, grading, Path(scratch), only)


def _class_roster(args: GradeOptions, submissions: list, console: Console) -> list | None:
    """The gradebook's roster: --roster's (matched with the export's students when it has no
    submission column, each line that cannot be said), else the students an export names
    (None when neither, or no gradebook is asked for)."""
    if not args.gradebook:
        return None
    from rich.text import Text

    from grader.reports.gradebook import Person, Student, matched_roster, read_roster

    if args.roster:
        people = [Person(s.student, s.identity.sid, s.identity.email) for s in submissions if s.identity]
        roster, notes = matched_roster(args.roster, read_roster(args.roster), people)
        for note in notes:
            console.print(Text.assemble(("! ", "yellow"), f"--roster {args.roster}: {note}"))
        return roster
    named = [
        Student(
            s.student,
            s.identity.sid or s.student,
            s.identity.name,
            s.identity.section,
            sis_user_id=s.identity.sid,
            email=s.identity.email,
            from_export=True,
        )
        for s in submissions
        if s.identity
    ]  # the export is the roster: its sid goes where Canvas matches it, SIS User ID
    return named or None


def _batch_in(
    args: GradeOptions,
    problems: list[Problem],
    config: Path | None,
    console: Console,
    sandbox: Sandbox | None,
    errors: list,
    grading: GradingConfig,
    scratch: Path,
    only: frozenset[str] | None = None,
) -> int:
    """`grade_class`, an export unpacked into `scratch`."""
    import zipfile

    from grader.commands.batch import (
        ClassRun,
        Interrupted,
        class_gradebook,
        find_submissions,
        grade_batch,
        keep_results,
        run_info,
        show_export,
        show_summary,
        write_csv,
        write_feedback,
    )
    from grader.inputs.exports import read_export
    from solvers.cliargs import print_error

    assert args.submissions is not None  # run for --submissions only
    if not (args.submissions.is_dir() or zipfile.is_zipfile(args.submissions)):
        return print_error(f"--submissions {args.submissions}: not a folder nor a zip", console)
    feedback = args.csv.with_name(args.csv.stem + "-feedback")
    if why := _class_folders(args.csv, feedback):
        return print_error(f"--csv {args.csv}: {why}", console)
    mode = sandbox.mode if sandbox else Isolation.NONE
    notes = [sandbox.unbounded] if sandbox and sandbox.unbounded else []
    jobs = args.jobs
    if mode is Isolation.USER:  # no private /tmp, /dev/shm or file system: students graded at once could meet there
        jobs = 1
        notes.append(
            "one student at a time (under user, students graded at once would share /tmp and /dev/shm); "
            "a student graded earlier can still pass data to a later one through the machine's file caches: "
            "grade a class under bwrap"
        )
    console.print(f"isolation: {'; '.join([mode, *notes])}", highlight=False, markup=False)
    with stopping.unpolled():  # no worker yet, nobody graded: a signal stops the run at once, nothing written
        try:
            export = read_export(args.submissions, scratch)
            submissions = find_submissions(export.folder, export)
        except (OSError, zipfile.BadZipFile) as error:
            return print_error(f"--submissions {args.submissions}: cannot be read ({getattr(error, 'strerror', None) or error})", console)
        odd = show_export(console, export, submissions)
        roster = _class_roster(args, submissions, console)  # a bad roster is told before anyone is graded
    if args.gradebook and roster is None:
        return print_error("--gradebook: give --roster (the submissions are no export naming the students)", console)
    spared, probed = (sandbox.helpers(), sandbox.probed()) if sandbox else (frozenset[int](), None)
    run = ClassRun(problems, config.resolve() if config else None, mode, args.timeout, spared, probed, only)
    stopped: Interrupted | None = None
    try:
        rows = grade_batch(submissions, run, jobs, console)
    except Interrupted as interrupted:
        stopped, rows = interrupted, interrupted.rows
    count = write_feedback(feedback, rows, errors)  # first: a student it fails for is not graded in the CSV either
    write_csv(args.csv, rows)
    show_summary(console, rows)
    console.print(f"wrote {args.csv} and {count} feedback files (Markdown and HTML) in {feedback}/", highlight=False)
    try:
        kept = keep_results(args.csv, rows, run_info(grading, problems, rows))
        console.print(f"kept the results in {kept}/ (python -m grader reexport {kept})", highlight=False, markup=False)
    except Exception as error:  # the CSV and feedback are written: keeping the results never costs the class
        print_error(f"--csv {args.csv}: the results could not be kept beside it ({describe_exception(error)})", console)
        kept = None
    left_out = kept is None  # a graded student the gradebook does not hold, or no results kept
    if roster is not None and args.gradebook is not None:  # a roster only with --gradebook
        path = args.csv.with_name(f"{args.csv.stem}-{args.gradebook}.csv")
        left_out = bool(class_gradebook(console, path, rows, roster, args.gradebook, args.assignment).left_out()) or left_out
    name = stopped.name if stopped is not None else stopping.asked()  # or asked while the results were written
    if name is not None:
        print_error(f"interrupted ({name}): the students graded so far are in {args.csv}; the others are marked not graded", console)
        return 128 + signal.Signals[name].value
    if any(row.ungraded for row in rows):
        return NOT_GRADED_EXIT
    return 1 if left_out or odd or any(s.refused for s in submissions) else 0  # each is named above


def _class_folders(csv: Path, feedback: Path) -> str | None:
    """Make the folder of the class's CSV and the feedback folder beside it; why one
    cannot be made, or None."""
    for folder in (csv.parent, feedback):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return f"cannot make the folder {folder} ({error.strerror or error})"
    return None
