"""`python -m grader PATH...`: grade one solver (table, JSON, or a platform's results.json),
or a class with --submissions (`grader.commands.classgrade`); `--case` reruns are
`grader.commands.onecase`, `--trace` and `--compare` `grader.commands.tracing`."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from grader.commands.classgrade import grade_class
from grader.commands.common import NOT_GRADED_EXIT, which_kit
from grader.commands.onecase import one_case, one_search_call
from grader.commands.options import GradeOptions
from grader.inputs.submission import WHAT_TO_SUBMIT, resolve_agent, resolve_solver
from grader.sandbox import stopping
from grader.sandbox.isolation import MODES, Isolation
from solvers.cliargs import (
    OneLineParser,
    UsageError,
    add_version,
    output_problem,
    positive_int,
    read_options,
    seconds,
)
from solvers.errortext import describe_exception

if TYPE_CHECKING:  # the commands import what they use when they run: --help and --version stay fast
    from rich.console import Console

    from grader.inputs.config import GradingConfig
    from grader.inputs.problemset import Problem, ProblemError
    from grader.reports.rerunhint import RerunCommand
    from grader.reports.results import Report
    from grader.sandbox.isolation import Sandbox, Scope


COMMAND_HELP = """other commands (each with its own --help):
  check PATH...            validate problem files and grading.yaml, count each board's solutions
  release OUT_DIR          write the student copy (stubs, handout, public problems, no answers)
  gradescope-bundle OUT    build the Gradescope autograder zip (--test SUBMISSION... runs it as Gradescope does)
  gradescope-test ZIP SUB  run an autograder zip on submissions as Gradescope does
  prairielearn OUT_DIR     write a PrairieLearn question and grader image for the course
  similarity CLASS_DIR     rank pairs of submissions by shared code (HTML report)
  insights RESULTS_DIR     what a class got wrong, from a class run's kept results (tables, CSV, HTML)
  reexport RESULTS_DIR     write a class run's CSV and gradebook again from its kept results, grading nothing
  goldens                  rebuild the hook test cases from the reference"""


def _grade_parser() -> argparse.ArgumentParser:
    from solvers.trace import add_trace_arguments

    parser = OneLineParser(
        prog="python -m grader",
        description="Grade a solver's hooks on problem sets.",
        epilog=COMMAND_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_version(parser)
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="problem files or folders of them")
    parser.add_argument("--solver", default="assignment", help="assignment (default), reference, or a hooks .py file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--timeout", type=seconds, help="seconds per graded item (beats the problem files and config)")
    parser.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, help="items graded in parallel (default: cores)")
    parser.add_argument("--config", type=Path, help="grading config (default: grading.yaml beside the problems)")
    parser.add_argument(
        "--format",
        choices=("table", "gradescope", "prairielearn"),
        default="table",
        help="table (default), gradescope or prairielearn (results.json for that platform)",
    )
    parser.add_argument("--output", type=Path, help="with --format gradescope or prairielearn: where to write results.json")
    parser.add_argument(
        "--submissions",
        type=Path,
        metavar="DIR",
        help="grade every submission in DIR (a folder, or a Gradescope or PrairieLearn export, zipped or not)",
    )
    parser.add_argument("--csv", type=Path, default=Path("grades.csv"), help="with --submissions: the CSV to write")
    parser.add_argument(
        "--roster",
        type=Path,
        metavar="CSV",
        help="with --submissions and --gradebook: the class roster (columns submission, id, and optionally name, section, sis_user_id, sis_login_id)",
    )
    parser.add_argument(
        "--gradebook",
        choices=("canvas", "generic"),
        help="with --submissions and --roster: also write a gradebook CSV to import as is (canvas, or generic id,score) beside --csv",
    )
    parser.add_argument(
        "--assignment",
        default="Minesweeper CSP",
        help="with --gradebook canvas: the assignment's column name, as Canvas shows it (e.g. 'Minesweeper CSP (12345)')",
    )
    parser.add_argument("--show-hidden", action="store_true", help="show hidden problems' details (instructors)")
    parser.add_argument(
        "--agent",
        help="the playing agent to grade when grading.yaml has an agent section (default: choose_move in the solver's file, else agent.py beside it)",
    )
    parser.add_argument(
        "--isolation",
        choices=("auto", *MODES),
        default="auto",
        help="how student code is isolated: bwrap, user (as root), none (process limits only); auto (default) picks the strongest available",
    )
    parser.add_argument(
        "--only",
        metavar="ITEM[,ITEM]",
        help="grade just these: hook names, sat_encoding, "
        "efficiency, agent, problem ids, or problem files (course.yaml or course); with --trace: "
        "the steps to show, all, dead-ends or solutions",
    )
    parser.add_argument(
        "--case",
        metavar="HOOK:N",
        help="run hook case N of HOOK (as a reason names it) and show it, "
        "after cases 1 to N-1 as grading asks them; HOOK@BOARD:N: the N-th call of HOOK in the search "
        "of BOARD; HOOK:TOKEN: a private case, as its reason gives it",
    )
    parser.add_argument("--trace", metavar="ID", help="show the search on problem ID step by step")
    parser.add_argument("--against", choices=("reference",), help="with --trace: stop at the first step that differs")
    parser.add_argument("--compare", action="store_true", help="nodes, dead ends and time of each strategy")
    add_trace_arguments(parser, only=False)
    return parser


def grade_options(argv: list[str]) -> GradeOptions:
    """The options of `python -m grader ARGV...`; UsageError (one line) for a bad one."""
    return read_options(GradeOptions, _grade_parser().parse_args(argv))


def grade_command(argv: list[str], console: Console) -> int:
    """Grade one solver (or a class with --submissions): read, select, grade, report."""
    args = grade_options(argv)  # first: --help and --version import nothing more
    from grader.commands.liveline import live_line
    from grader.inputs.config import find_config, load_config
    from grader.inputs.problemset import load_problems
    from grader.reports.report import show_errors

    _check_outputs(args)
    if (args.roster or args.gradebook) and not (args.gradebook and args.submissions):
        raise UsageError("--gradebook goes with --submissions, and --roster with --gradebook")
    if args.format != "table":
        return _grade_for_gradescope(args, console)
    missing = [path for path in args.paths if not path.exists()]
    if missing:
        raise UsageError(f"{missing[0]}: does not exist; nothing was graded")
    if args.agent is not None and not Path(args.agent).is_file():
        raise UsageError(f"--agent {args.agent}: no such file; nothing was graded")
    problems, errors = load_problems(*args.paths)
    config_path = find_config(args.paths[0], args.config)
    config, config_errors = load_config(config_path)
    errors += config_errors
    show_errors(console, errors)
    if note := which_kit(args.paths):
        from rich.text import Text

        console.print(Text(note, style="yellow"))
    if args.compare:
        from grader.commands.tracing import compare_command  # tracing's imports only when they are used

        return compare_command(args, problems, console)
    solver, folder = _graded_solver(args)
    only, problems = _selection(args, problems)
    watching = live_line(console) if not (args.submissions or args.trace or args.case) else nullcontext()  # one solver's grade
    with watching as watch, _sandbox(args, problems, config_path, console, strict=bool(args.submissions)) as sandbox:
        if args.submissions:
            return grade_class(args, problems, config_path, console, sandbox, errors, config, only)
        assert solver is not None  # _graded_solver refuses a missing one unless a class is graded
        scope: Scope = "folder" if folder else "siblings"
        if args.trace:
            from grader.commands.tracing import trace_command

            return trace_command(args, solver, problems, console, sandbox)
        if args.case and "@" in args.case:
            return one_search_call(args, solver, problems, config, console, sandbox, scope)
        if args.case:
            return one_case(args, solver, config, console, sandbox, scope)
        from grader.scoring.grading import grade

        report = grade(
            solver,
            problems,
            config,
            args.jobs,
            args.timeout,
            resolve_agent(args.agent, solver, folder) if only is None or "agent" in only else None,  # read only when played
            sandbox,
            scope,
            only,
            _rerun_command(args),
            watch,
        )
        stopping.check()  # a stop asked while the last item ended: nothing is written
    return _show_grades(args, config, report, errors, console)


def _rerun_command(args: GradeOptions) -> RerunCommand:
    """How this run's rerun hints start: its own paths and the options a rerun needs, so
    that each hint runs as printed from where this run was started."""
    from grader.reports.rerunhint import RerunCommand

    config = str(args.config) if args.config else None
    return RerunCommand.of_run([str(path) for path in args.paths], args.solver, config, args.only, args.timeout)


def _check_outputs(args: GradeOptions) -> None:
    """UsageError when a file the run would write cannot be written."""
    for option, path in (("--json", args.json), ("--output", args.output), ("--export", args.export)):
        if path is not None and (why := output_problem(path)):
            raise UsageError(f"{option} {path}: {why}")
    if args.submissions and args.csv.is_dir():  # its folder may be missing: the class run makes it
        raise UsageError(f"--csv {args.csv}: is a folder; name a file")


def _graded_solver(args: GradeOptions) -> tuple[str | None, Path | None]:
    """The solver --solver names, and its folder when it is one; UsageError when it names
    nothing gradable (None only when a class is graded with --submissions)."""
    solver = resolve_solver(args.solver)
    folder = Path(args.solver) if Path(args.solver).is_dir() else None
    if args.submissions:
        return solver, folder
    if solver is None and folder is not None:
        raise UsageError(f"--solver {args.solver}: no Python file in it defines the hooks; {WHAT_TO_SUBMIT}")
    if solver is None:
        raise UsageError(f"--solver {args.solver}: not 'assignment', 'reference', a .py file or a folder holding one")
    if solver == "reference":
        from grader.reference import reference_strategies

        reference_strategies()  # a student copy has none: one clear line, not a table of errors
    return solver, folder


def _selection(args: GradeOptions, problems: list[Problem]) -> tuple[frozenset[str] | None, list[Problem]]:
    """The items --only grades (None: all) and the problems left. With --trace, --only
    filters the trace's steps instead, and every problem stays."""
    from solvers.trace import STEP_FILTERS, step_filter

    if args.trace:
        if step_filter(args.only or "all") is None:
            raise UsageError(f"--only {args.only}: with --trace, one of {', '.join(STEP_FILTERS)}")
        return None, problems
    if not args.only:
        return None, problems
    only, problems, unknown = select_items(args.only, problems)
    if unknown:
        raise UsageError(f"--only {args.only}: nothing is called {', '.join(unknown)}")
    return only, problems


def _show_grades(args: GradeOptions, config: GradingConfig, report: Report, errors: list[ProblemError], console: Console) -> int:
    """Print the report (and write its JSON); 0 only for full marks without errors."""
    from grader.reports.report import report_json, show_report, write_json

    show_report(console, report, errors, args.show_hidden)
    if args.agent and config.agent is None:  # say what --agent did without an agent section
        console.print(
            "note: grading.yaml has no agent section, so --agent plays practice games for no points (once its choose_move is written)",
            markup=False,
            highlight=False,
        )
    if args.json:
        write_json(args.json, report_json(report, errors, args.show_hidden))
    if report.ungraded:
        return NOT_GRADED_EXIT
    return 0 if not errors and report.score == report.max_score else 1


def select_items(text: str, problems: list[Problem]) -> tuple[frozenset[str], list[Problem], list[str]]:
    """--only: the item names asked for, the problems they pick (by id or file), and the
    names that match nothing."""
    from grader.hooktable import SAT_ENCODING, SOLVER_HOOK_NAMES

    items = {*SOLVER_HOOK_NAMES, SAT_ENCODING, "efficiency", "agent"}
    asked = [name.strip() for name in text.split(",") if name.strip()]

    def picks(problem: Problem, name: str) -> bool:
        return name in (problem.id, Path(problem.file).name, Path(problem.file).stem)

    chosen = [p for p in problems if any(picks(p, name) for name in asked)]
    unknown = [name for name in asked if name not in items and not any(picks(p, name) for p in problems)]
    return frozenset(asked), chosen, unknown


#: What running student code with no isolation risks (said in a warning, and in the refusal to fall back to it).
NONE_RISKS = "student code runs with your permissions: it can read the answer key and the hidden problems, change files and stop the grader"
NONE_RISK = f"with --isolation none, {NONE_RISKS}"


@contextmanager
def _sandbox(args: GradeOptions, problems: list[Problem], config: Path | None, console: Console, strict: bool) -> Iterator[Sandbox | None]:
    """The sandbox for this run (None when only the reference is graded), opened, used and
    closed `polled` (see `stopping`): a signal there is only written down, the workers'
    waits check for it, and what they started is cleaned up whole.

    `strict` (a class, Gradescope): falling back to `none` is refused unless asked for.
    Raises IsolationUnavailable with the line to print.
    """
    from grader.sandbox.isolation import IsolationUnavailable, open_sandbox

    if args.solver == "reference" and not strict:
        yield None
        return
    secrets = [Path(p.file) for p in problems] + ([config] if config else [])
    with stopping.polled():
        sandbox = open_sandbox(args.isolation, secrets, workers=max(1, args.jobs) * (2 if strict else 1))
        try:
            stopping.check()  # asked while it opened
            if sandbox.mode is Isolation.NONE and strict:
                if args.isolation == "auto":
                    raise IsolationUnavailable(
                        f"no isolation is available for grading a class ({sandbox.note}); install "
                        f"bubblewrap, or pass --isolation none knowing that {NONE_RISKS}"
                    )
                console.print(f"warning: {NONE_RISK}", style="yellow", markup=False, highlight=False)
            yield sandbox
        finally:
            sandbox.close()


def _grade_for_gradescope(args: GradeOptions, console: Console) -> int:
    """Grade one submission into results.json (Gradescope's or PrairieLearn's, as --format
    says). When the grader cannot grade it (a failure of its own, never the student's), no
    results.json is written: Gradescope then records no score ("the autograder failed to
    execute correctly") instead of a zero, and PrairieLearn a failed grading job."""
    from grader.inputs.config import find_config, load_config
    from grader.inputs.problemset import load_problems
    from grader.reports.gradescope import gradescope_results, student_failure
    from grader.reports.prairielearn import not_gradable, prairielearn_results
    from grader.reports.report import write_json
    from grader.scoring.grading import grade

    platform = "PrairieLearn" if args.format == "prairielearn" else "Gradescope"
    writers = {"gradescope": (lambda report: gradescope_results(report, []), student_failure), "prairielearn": (prairielearn_results, not_gradable)}
    results_for, failure = writers[args.format]
    output = args.output or Path("results.json")
    try:
        solver = resolve_solver(args.solver)
        folder = Path(args.solver) if Path(args.solver).is_dir() else None
        if solver is None:
            write_json(output, failure(f"Your submission has no Python file that defines the hooks: {WHAT_TO_SUBMIT}."))
            verdict = "not gradable" if platform == "PrairieLearn" else "0 points"
            console.print(f"wrote {output}: {verdict} (no hooks file in {args.solver})")
            return 0
        problems, errors = load_problems(*args.paths)
        config_path = find_config(args.paths[0], args.config)
        config, config_errors = load_config(config_path)
        if errors or config_errors:  # a broken assignment must not hand out partial grades
            raise ValueError(f"the assignment's own files are broken: {(errors + config_errors)[0]}")
        with _sandbox(args, problems, config_path, console, strict=True) as sandbox:
            report = grade(
                solver,
                problems,
                config,
                args.jobs,
                args.timeout,
                resolve_agent(args.agent, solver, folder),
                sandbox,
                "folder" if folder else "siblings",
            )
            stopping.check()  # a stop asked while the last item ended: no results.json
    except Exception as error:  # the grader's failure: no grade at all, never a zero
        return _not_graded(console, output, describe_exception(error), platform)
    if report.ungraded:
        return _not_graded(console, output, report.ungraded, platform)
    results = results_for(report)
    write_json(output, results)
    verdict = f"{report.score:g} points" if results.get("gradable", True) else f"not gradable: {results['message']}"
    console.print(f"wrote {output}: {verdict}", markup=False, highlight=False)
    return 0


def _not_graded(console: Console, output: Path, why: str, platform: str = "Gradescope") -> int:
    """Say why a submission was not graded, and leave no results.json behind."""
    output.unlink(missing_ok=True)
    console.print(
        f"not graded: {why}; no {output.name} was written, so {platform} records no score for this submission: run the autograder on it again",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    return NOT_GRADED_EXIT
