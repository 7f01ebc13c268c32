"""`python -m grader`: grade solvers on problem sets, check problem sets, package the course.

    python -m grader PATH... [--solver assignment|reference|FILE.py] [--json FILE] [--jobs N]
                     [--timeout S] [--config FILE] [--format table|gradescope] [--output FILE]
                     [--submissions DIR [--csv FILE]] [--show-hidden]
    python -m grader PATH... --trace ID [--against reference] [--max-steps N] [--only dead-ends|solutions]
                     [--compact] [--tree] [--export trace.svg|.html|.txt]
    python -m grader PATH... --compare [--trace ID]
    python -m grader check PATH... [--json FILE]
    python -m grader release OUT_DIR [--problems DIR] [--allow-solutions]
    python -m grader gradescope-bundle OUT.zip [--problems DIR] [--public-hook-cases] [--unseeded-agent-games]
                     [--test SUBMISSION... [--keep DIR]]
    python -m grader gradescope-test OUT.zip SUBMISSION... [--keep DIR]
    python -m grader prairielearn OUT_DIR [--problems DIR] [--public-hook-cases] [--unseeded-agent-games]
    python -m grader similarity CLASS_DIR [--out report.html] [--boilerplate FILE_OR_DIR...]
    python -m grader insights RESULTS_DIR [--html FILE] [--csv-dir DIR] [--against OTHER_RESULTS_DIR]
    python -m grader reexport RESULTS_DIR [--csv OUT.csv] [--roster CSV --gradebook canvas|generic
                     [--assignment NAME] [--missing blank|zero]]
    python -m grader goldens
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import UserError
from grader.inputs.submission import KIT_ROOT, WHAT_TO_SUBMIT, resolve_agent, resolve_solver
from grader.sandbox.isolation import MODES, Isolation
from solvers.cliargs import (
    OneLineParser,
    UsageError,
    add_version,
    output_problem,
    positive_int,
    seconds,
)

if TYPE_CHECKING:  # the commands import what they use when they run: --help and --version stay fast
    from rich.console import Console

    from grader.inputs.config import GradingConfig
    from grader.inputs.problemset import Problem, ProblemError
    from grader.reports.results import Report
    from grader.sandbox.isolation import Sandbox, Scope
    from grader.scoring.searchcheck import Divergence


NOT_GRADED_EXIT = 3  # the grader could not grade: nothing was scored

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

    parser = OneLineParser(prog="python -m grader", description="Grade a solver's hooks on problem sets.",
                                     epilog=COMMAND_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version(parser)
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="problem files or folders of them")
    parser.add_argument("--solver", default="assignment", help="assignment (default), reference, or a hooks .py file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--timeout", type=seconds, help="seconds per graded item (beats the problem files and config)")
    parser.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, help="items graded in parallel (default: cores)")
    parser.add_argument("--config", type=Path, help="grading config (default: grading.yaml beside the problems)")
    parser.add_argument("--format", choices=("table", "gradescope", "prairielearn"), default="table",
                        help="table (default), gradescope or prairielearn (results.json for that platform)")
    parser.add_argument("--output", type=Path, help="with --format gradescope or prairielearn: where to write results.json")
    parser.add_argument("--submissions", type=Path, metavar="DIR", help="grade every submission in DIR (a folder, "
                        "or a Gradescope or PrairieLearn export, zipped or not)")
    parser.add_argument("--csv", type=Path, default=Path("grades.csv"), help="with --submissions: the CSV to write")
    parser.add_argument("--roster", type=Path, metavar="CSV", help="with --submissions and --gradebook: the class roster "
                        "(columns submission, id, and optionally name, section, sis_user_id, sis_login_id)")
    parser.add_argument("--gradebook", choices=("canvas", "generic"), help="with --submissions and --roster: also write "
                        "a gradebook CSV to import as is (canvas, or generic id,score) beside --csv")
    parser.add_argument("--assignment", default="Minesweeper CSP", help="with --gradebook canvas: the assignment's "
                        "column name, as Canvas shows it (e.g. 'Minesweeper CSP (12345)')")
    parser.add_argument("--show-hidden", action="store_true", help="show hidden problems' details (instructors)")
    parser.add_argument("--agent", help="the playing agent to grade when grading.yaml has an agent section "
                        "(default: choose_move in the solver's file, else agent.py beside it)")
    parser.add_argument("--isolation", choices=("auto", *MODES), default="auto",
                        help="how student code is isolated: bwrap, user (as root), none (process limits only); "
                             "auto (default) picks the strongest available")
    parser.add_argument("--only", metavar="ITEM[,ITEM]", help="grade just these: hook names, sat_encoding, "
                        "efficiency, agent, problem ids, or problem files (course.yaml or course); with --trace: "
                        "the steps to show, all, dead-ends or solutions")
    parser.add_argument("--case", metavar="HOOK:N", help="run hook case N of HOOK (as a reason names it) and show it, "
                        "after cases 1 to N-1 as grading asks them; HOOK@BOARD:N: the N-th call of HOOK in the search "
                        "of BOARD; HOOK:TOKEN: a private case, as its reason gives it")
    parser.add_argument("--trace", metavar="ID", help="show the search on problem ID step by step")
    parser.add_argument("--against", choices=("reference",), help="with --trace: stop at the first step that differs")
    parser.add_argument("--compare", action="store_true", help="nodes, dead ends and time of each strategy")
    add_trace_arguments(parser, only=False)
    return parser


def _grade(argv: list[str], console: Console) -> int:
    """Grade one solver (or a class with --submissions): read, select, grade, report."""
    args = _grade_parser().parse_args(argv)  # first: --help and --version import nothing more
    from grader.commands.tracing import compare_command
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
    if args.compare:
        return compare_command(args, problems, console)
    solver, folder = _graded_solver(args)
    only, problems = _selection(args, problems)
    with _sandbox(args, problems, config_path, console, strict=bool(args.submissions)) as sandbox:
        if args.submissions:
            return _batch(args, problems, config_path, console, sandbox, errors, config)
        assert solver is not None  # _graded_solver refuses a missing one unless a class is graded
        scope: Scope = "folder" if folder else "siblings"
        if args.trace:
            from grader.commands.tracing import trace_command

            return trace_command(args, solver, problems, console, sandbox)
        if args.case and "@" in args.case:
            return _one_search_call(args, solver, problems, config, console, sandbox, scope)
        if args.case:
            return _one_case(args, solver, config, console, sandbox, scope)
        from grader.scoring.grading import grade

        report = grade(solver, problems, config, args.jobs, args.timeout, resolve_agent(args.agent, solver, folder),
                       sandbox, scope, only)
    return _show_grades(args, config, report, errors, console)


def _check_outputs(args: argparse.Namespace) -> None:
    """UsageError when a file the run would write cannot be written."""
    for option, path in (("--json", args.json), ("--output", args.output), ("--export", args.export)):
        if path is not None and (why := output_problem(path)):
            raise UsageError(f"{option} {path}: {why}")
    if args.submissions and args.csv.is_dir():  # its folder may be missing: the class run makes it
        raise UsageError(f"--csv {args.csv}: is a folder; name a file")


def _class_folders(csv: Path, feedback: Path) -> str | None:
    """Make the folder of the class's CSV and the feedback folder beside it; why one
    cannot be made, or None."""
    for folder in (csv.parent, feedback):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return f"cannot make the folder {folder} ({error.strerror or error})"
    return None


def _graded_solver(args: argparse.Namespace) -> tuple[str | None, Path | None]:
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


def _selection(args: argparse.Namespace, problems: list[Problem]) -> tuple[frozenset[str] | None, list[Problem]]:
    """The items --only grades (None: all) and the problems left. With --trace, --only
    filters the trace's steps instead, and every problem stays."""
    from solvers.trace import STEP_FILTERS

    if args.trace:
        if (args.only or "all") not in STEP_FILTERS:
            raise UsageError(f"--only {args.only}: with --trace, one of {', '.join(STEP_FILTERS)}")
        args.only = args.only or "all"
        return None, problems
    if not args.only:
        return None, problems
    only, problems, unknown = select_items(args.only, problems)
    if unknown:
        raise UsageError(f"--only {args.only}: nothing is called {', '.join(unknown)}")
    return only, problems


def _show_grades(args: argparse.Namespace, config: GradingConfig, report: Report, errors: list[ProblemError],
                 console: Console) -> int:
    """Print the report (and write its JSON); 0 only for full marks without errors."""
    from grader.reports.report import report_json, show_report, write_json

    show_report(console, report, errors, args.show_hidden)
    if args.agent and config.agent is None:  # say what --agent did without an agent section
        console.print("note: grading.yaml has no agent section, so --agent plays practice games for no points "
                      "(once its choose_move is written)", markup=False, highlight=False)
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


def _one_case(args: argparse.Namespace, solver: str, config, console: Console, sandbox: Sandbox | None, scope) -> int:
    """`--case HOOK:N`: ask hook cases 1 to N in order, as grading did, and show case N in
    full; `--case='HOOK:TOKEN'`: a private case a reason carried (see `grader.scoring.rerun`)."""
    from dataclasses import replace

    from rich.text import Text

    from grader.commands.reruns import ask_in_order, earlier_cases, private_note, rerun_notes, verdict
    from grader.reports.report import fail
    from grader.scoring.hookcases import HOOK_NAMES, build_cases, describe_case, load_cases
    from grader.scoring.rerun import unpack

    hook, _, number = args.case.partition(":")
    cases = build_cases(config.hook_seed) if config.hook_seed is not None else load_cases()
    if hook in HOOK_NAMES and number and not number.isdigit():
        try:
            hook, course_number, case, graded = unpack(number)
        except ValueError as damaged:
            return fail(console, f"--case {hook}:...: {damaged}")
        asked, labels = [case], [f"the course's case {course_number}"]
    elif hook not in HOOK_NAMES or not number.isdigit() or not 1 <= int(number) <= len(cases[hook]):
        known = ", ".join(f"{name}:1-{len(cases[name])}" for name in HOOK_NAMES)
        return fail(console, f"--case {args.case}: expected HOOK:N, one of {known}")
    else:
        course_number, asked, graded = int(number), cases[hook][:int(number)], None
        labels = [f'case {n} ("{c.name}")' for n, c in enumerate(asked, start=1)]
    case = asked[-1]
    shown_number, shown = (course_number, case) if graded is None else (  # a private case is no case of the copy's
        None, replace(case, name=f'the course\'s private case {course_number}, "{case.name}"'))
    rerun = ask_in_order(solver, hook, asked, args.timeout or config.timeout, config.memory_mb, sandbox, scope)
    if not rerun.outcome.ok:
        return fail(console, f"{hook} case {course_number}: {rerun.outcome.message}")
    console.print(Text(describe_case(hook, shown_number, shown, rerun.answer)), highlight=False)
    if rerun.outcome.output.strip():
        console.print(Text("  printed: " + rerun.outcome.output.strip()[:2000]), highlight=False)
    steady = rerun.unsteady(labels) is None
    notes = private_note(hook, course_number, graded, rerun.answer) if graded is not None and steady else []
    for line in rerun_notes(hook, rerun, labels, case.expected, earlier_cases(asked)) + notes:
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, rerun.answer, case.expected)


def _one_search_call(args: argparse.Namespace, solver: str, problems: list[Problem], config, console: Console,
                     sandbox: Sandbox | None, scope: Scope) -> int:
    """`--case HOOK@BOARD:N`: search BOARD with the solver's hooks up to the N-th call of
    HOOK, and show that call as a case (a reason names it so)."""
    from dataclasses import replace

    from rich.text import Text

    from grader.commands.reruns import Rerun, rerun_notes, verdict
    from grader.hooktable import BY_NAME
    from grader.reports.report import fail
    from grader.sandbox.host import Limits
    from grader.scoring.grading import model_answer, problem_task, run_solver_tasks
    from grader.scoring.hookcases import HOOK_NAMES, describe_case
    from grader.scoring.searchcheck import AnswerTable

    hook, _, rest = args.case.partition("@")
    board, _, number = rest.rpartition(":")
    problem = next((p for p in problems if p.id == board and not p.hidden), None)
    if hook not in HOOK_NAMES or problem is None or not number.isdigit() or int(number) < 1:
        why = f"expected HOOK@BOARD:N, a hook of {', '.join(HOOK_NAMES)} and a visible board of the files given"
        return fail(console, f"--case {args.case}: {why}")
    model = model_answer()
    if isinstance(model, AnswerTable) and model.missing:
        return fail(console, f"--case {args.case}: cannot show the model answer's answers: {model.missing}")
    limit = args.timeout or problem.timeout or config.timeout
    if not BY_NAME[hook].engine_calls:  # asked apart, about the model answer's searches (see bounds_probes)
        return _one_probe(args, solver, problems, problem, int(number), config, console, sandbox, scope)
    task = problem_task(problem, limit, model, stop_at=(hook, int(number)))
    first, again = run_solver_tasks(solver, [task, task], 1, Limits(memory_mb=config.memory_mb), sandbox, scope)
    if not first.ok:
        return fail(console, f"{args.case}: {first.message}")
    call = first.answer.get("found")
    if call is None:
        return fail(console, f"{args.case}: the search of {board} made fewer than {number} calls of {hook}")
    if not call.known:
        return fail(console, f"{args.case}: {_off_path(call.after, board)}")
    case = replace(call.case, name=f"call {number} of {hook} in the search of {board}")
    console.print(Text(describe_case(hook, None, case, call.returned)), highlight=False)
    rerun, labels = Rerun(first, again), [f"call {number}"]
    for line in rerun_notes(hook, rerun, labels, case.expected):
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, call.returned, case.expected)


def _one_probe(args: argparse.Namespace, solver: str, problems: list[Problem], problem: Problem, number: int, config,
               console: Console, sandbox: Sandbox | None, scope: Scope) -> int:
    """`--case constraint_bounds@BOARD:N`: ask the questions about the searches of the
    visible boards in order, as grading did (every board before BOARD, then BOARD's up to
    its N-th), and show the last in full."""
    from dataclasses import replace

    from rich.text import Text

    from grader.commands.reruns import ask_in_order, rerun_notes, verdict
    from grader.reports.report import fail
    from grader.scoring.case import Case
    from grader.scoring.grading import model_answer
    from grader.scoring.hookcases import describe_case
    from grader.scoring.searchcheck import OffPath, bounds_probes

    hook, model = "constraint_bounds", model_answer()
    assert model is not None  # the caller checked
    asked: list[Case] = []
    labels: list[str] = []
    before: list[str] = []
    for shown in (p for p in problems if not p.hidden):
        try:
            probes = bounds_probes(shown.board, model)
        except OffPath:
            return fail(console, f"--case {args.case}: this copy does not carry the model answer's search of {shown.id} "
                        "(a board changed since the copy was made), so only the course's grader can ask this call")
        if shown is problem and number > len(probes):
            return fail(console, f"{args.case}: the search of {problem.id} made fewer than {number} calls of {hook}")
        count = number if shown is problem else len(probes)
        asked += probes[:count]
        labels += [f"call {n} on {shown.id}" for n in range(1, count + 1)]
        last = count - 1 if shown is problem else count
        if last:
            before.append(f"call 1 on {shown.id}" if last == 1 else f"calls 1-{last} on {shown.id}")
        if shown is problem:
            break
    rerun = ask_in_order(solver, hook, asked, args.timeout or config.timeout, config.memory_mb, sandbox, scope)
    if not rerun.outcome.ok:
        return fail(console, f"{args.case}: {rerun.outcome.message}")
    case = replace(asked[-1], name=f"call {number} of {hook} in the search of {problem.id}")
    console.print(Text(describe_case(hook, None, case, rerun.answer)), highlight=False)
    for line in rerun_notes(hook, rerun, labels, case.expected, ", ".join(before)):
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, rerun.answer, case.expected)


def _off_path(divergence: Divergence | None, board: str) -> str:
    """Why a call of a search cannot be shown with the model answer's answer in a student copy."""
    where = (f"after your search had left the model answer's path ({divergence.describe(board)})"
             if divergence is not None else "on a board this copy does not carry as it is now")
    return (f"this call came {where}; this copy knows the model answer's answers only along its own searches of the "
            "public boards, so only the course's grader can check this call (fix the first wrong call first)")


NONE_RISK = ("with --isolation none, student code runs with your permissions: it can read the answer key and the "
             "hidden problems, change files and stop the grader")


@contextmanager
def _sandbox(args: argparse.Namespace, problems: list[Problem], config: Path | None, console: Console,
             strict: bool) -> Iterator[Sandbox | None]:
    """The sandbox for this run (None when only the reference is graded).

    `strict` (a class, Gradescope): falling back to `none` is refused unless asked for.
    Raises IsolationUnavailable with the line to print.
    """
    from grader.sandbox.isolation import IsolationUnavailable, open_sandbox

    if args.solver == "reference" and not strict:
        yield None
        return
    secrets = [Path(p.file) for p in problems] + ([config] if config else [])
    sandbox = open_sandbox(args.isolation, secrets, workers=max(1, args.jobs) * (2 if strict else 1))
    try:
        if sandbox.mode is Isolation.NONE and strict:
            if args.isolation == "auto":
                raise IsolationUnavailable(f"no isolation is available for grading a class ({sandbox.note}); install "
                                           f"bubblewrap, or pass --isolation none knowing that {NONE_RISK.split(', ', 1)[1]}")
            console.print(f"warning: {NONE_RISK}", style="yellow", markup=False, highlight=False)
        yield sandbox
    finally:
        sandbox.close()


def _grade_for_gradescope(args: argparse.Namespace, console: Console) -> int:
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
    writers = {"gradescope": (lambda report: gradescope_results(report, []), student_failure),
               "prairielearn": (prairielearn_results, not_gradable)}
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
            report = grade(solver, problems, config, args.jobs, args.timeout, resolve_agent(args.agent, solver, folder),
                           sandbox, "folder" if folder else "siblings")
    except Exception as error:  # the grader's failure: no grade at all, never a zero
        return _not_graded(console, output, f"{type(error).__name__}: {error}", platform)
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
    console.print(f"not graded: {why}; no {output.name} was written, so {platform} records no score for this "
                  "submission: run the autograder on it again", markup=False, highlight=False, soft_wrap=True)
    return NOT_GRADED_EXIT


def _batch(args: argparse.Namespace, problems: list[Problem], config: Path | None, console: Console,
           sandbox: Sandbox | None, errors: list, grading: GradingConfig) -> int:
    """Grade every submission of --submissions (a folder, or a platform's export, zipped or
    not) into the CSV, feedback files and kept results, then the summary, all written even
    when interrupted. Exit status: 0, or 1 when a submission was refused (a link, a FIFO,
    too deep or too large), an export held something odd, a graded one is not in the
    gradebook or the results could not be kept, 3 when one was not graded (a failure of
    the grader's), 128 + N when
    stopped by signal N."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="grader-export-") as scratch:
        return _batch_in(args, problems, config, console, sandbox, errors, grading, Path(scratch))


def _class_roster(args: argparse.Namespace, submissions: list) -> list | None:
    """The gradebook's roster: --roster's, else the students an export names (None when
    neither, or no gradebook is asked for)."""
    if not args.gradebook:
        return None
    if args.roster:
        from grader.reports.gradebook import read_roster

        return read_roster(args.roster)
    from grader.reports.gradebook import Student

    named = [Student(s.student, s.identity.sid or s.student, s.identity.name, s.identity.section)
             for s in submissions if s.identity]  # the export is the roster
    return named or None


def _batch_in(args: argparse.Namespace, problems: list[Problem], config: Path | None, console: Console,
              sandbox: Sandbox | None, errors: list, grading: GradingConfig, scratch: Path) -> int:
    """`_batch`, an export unpacked into `scratch`."""
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
    from grader.reports.report import fail

    if not (args.submissions.is_dir() or zipfile.is_zipfile(args.submissions)):
        return fail(console, f"--submissions {args.submissions}: not a folder nor a zip")
    feedback = args.csv.with_name(args.csv.stem + "-feedback")
    if why := _class_folders(args.csv, feedback):
        return fail(console, f"--csv {args.csv}: {why}")
    mode = sandbox.mode if sandbox else Isolation.NONE
    notes = [sandbox.unbounded] if sandbox and sandbox.unbounded else []
    jobs = args.jobs
    if mode is Isolation.USER:  # no private /tmp, /dev/shm or file system: students graded at once could meet there
        jobs = 1
        notes.append("one student at a time (under user, students graded at once would share /tmp and /dev/shm); "
                     "a student graded earlier can still pass data to a later one through the machine's file caches: "
                     "grade a class under bwrap")
    console.print(f"isolation: {'; '.join([mode, *notes])}", highlight=False, markup=False)
    try:
        export = read_export(args.submissions, scratch)
        submissions = find_submissions(export.folder, export)
    except (OSError, zipfile.BadZipFile) as error:
        return fail(console, f"--submissions {args.submissions}: cannot be read ({getattr(error, 'strerror', None) or error})")
    odd = show_export(console, export, submissions)
    roster = _class_roster(args, submissions)  # a bad roster is told before anyone is graded
    if args.gradebook and roster is None:
        return fail(console, "--gradebook: give --roster (the submissions are no export naming the students)")
    run = ClassRun(problems, config.resolve() if config else None, mode, args.timeout,
                   sandbox.helpers() if sandbox else frozenset())
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
        fail(console, f"--csv {args.csv}: the results could not be kept beside it ({type(error).__name__}: {error})")
        kept = None
    left_out = kept is None  # a graded student the gradebook does not hold, or no results kept
    if roster is not None:
        path = args.csv.with_name(f"{args.csv.stem}-{args.gradebook}.csv")
        left_out = bool(class_gradebook(console, path, rows, roster, args.gradebook, args.assignment).left_out()) or left_out
    if stopped is not None:
        fail(console, f"interrupted ({stopped.name}): the students graded so far are in {args.csv}; "
                      "the others are marked not graded")
        return 128 + signal.Signals[stopped.name].value
    if any(row.ungraded for row in rows):
        return NOT_GRADED_EXIT
    return 1 if left_out or odd or any(s.refused for s in submissions) else 0  # each is named above


def _check(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader check", description="Validate problem files and count solutions.")
    add_version(parser)
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="problem files or folders of them")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--config", type=Path, help="grading config to check too (default: grading.yaml beside the problems)")
    args = parser.parse_args(argv)
    from grader.reference import instructor_tool

    checking = instructor_tool("checking", "python -m grader check")  # it counts with the answer key's counter
    from grader.inputs.config import find_config
    from grader.inputs.problemset import load_problems
    from grader.reports.report import fail, show_errors, write_json

    if args.json is not None and (why := output_problem(args.json)):
        return fail(console, f"--json {args.json}: {why}")
    problems, errors = load_problems(*args.paths)
    errors += checking.config_errors(find_config(args.paths[0], args.config), problems)
    show_errors(console, errors)
    rows = checking.check_problems(problems)
    checking.show_check(console, rows)
    if args.json:
        write_json(args.json, {"problems": [r.as_dict() for r in rows], "errors": [str(e) for e in errors]})
    return 0 if not errors and all(r.ok for r in rows) else 1


def _release(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader release", description="Write the student copy of the kit.")
    add_version(parser)
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument("--problems", type=Path, default=KIT_ROOT / "problems", help="the problem folder to publish")
    parser.add_argument("--allow-solutions", action="store_true",
                        help="publish assignment/ even if it holds implemented hooks")
    args = parser.parse_args(argv)
    from grader.reference import instructor_tool
    from grader.reports.report import fail

    releasing = instructor_tool("release", "python -m grader release")
    seeds = instructor_tool("seeds", "python -m grader release")
    _need_source_checkout("release")
    try:
        release = releasing.write_release(KIT_ROOT, args.problems, args.out, args.allow_solutions)
    except releasing.ReleaseError as error:
        return fail(console, str(error))
    if release.seeds:
        console.print(seeds.written(release.seeds, release.config), markup=False, highlight=False, soft_wrap=True)
    console.print(f"wrote the student copy to {args.out} with {release.problems} public problems", markup=False, highlight=False)
    return 0


KEEP_HELP = ("keep each run's results.json in DIR (made if need be) as DIR/SUBMISSION.json: what each student "
             "will read on Gradescope")


def _bundle(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader gradescope-bundle", description="Build the Gradescope autograder zip.")
    add_version(parser)
    parser.add_argument("out", type=Path, metavar="OUT.zip")
    parser.add_argument("--problems", type=Path, default=KIT_ROOT / "problems",
                        help="the problem folder to grade with (hidden problems and grading.yaml included)")
    parser.add_argument("--public-hook-cases", action="store_true",
                        help="build even though grading.yaml has no private hook_seed: the hooks are then graded on "
                             "the public cases, whose answers every student has")
    parser.add_argument("--unseeded-agent-games", action="store_true",
                        help="build even though the agent section of grading.yaml has no seed: the agent then plays the "
                             "public default games (seeds 0, 1, ...), the same at every run, which every student can replay")
    parser.add_argument("--test", type=Path, nargs="+", metavar="SUBMISSION",
                        help="then run the zip as Gradescope does (setup.sh on a bare Python, run_autograder on each "
                             "SUBMISSION: a .py file or a folder) and show every results.json in a table")
    parser.add_argument("--keep", type=Path, metavar="DIR", help=KEEP_HELP)
    args = parser.parse_args(argv)
    from grader.reference import instructor_tool
    from grader.reports.report import fail

    if args.keep is not None and not args.test:
        return fail(console, "--keep DIR needs --test SUBMISSION...: it keeps the results.json of those runs")
    if args.keep is not None and args.keep.exists() and not args.keep.is_dir():
        return fail(console, f"--keep {args.keep}: not a folder")

    bundle = instructor_tool("bundle", "python -m grader gradescope-bundle")
    _need_source_checkout("gradescope-bundle")
    if not args.problems.is_dir():
        return fail(console, f"--problems {args.problems}: not a folder")
    refusal = bundle.seed_refusal(args.problems, args.public_hook_cases, args.unseeded_agent_games)
    if refusal:
        return fail(console, refusal)
    if not args.out.resolve().parent.is_dir():
        return fail(console, f"{args.out}: the folder {args.out.resolve().parent} does not exist")
    count = bundle.write_bundle(KIT_ROOT, args.problems, args.out)
    console.print(f"wrote {args.out} ({count} files): upload it as the Gradescope autograder")
    from rich.text import Text

    cost = instructor_tool("agentcost", "python -m grader gradescope-bundle")
    for warning in cost.agent_time_warnings(args.problems, cost.GRADESCOPE):
        console.print(Text(f"warning: {warning}", style="yellow"))
    if args.test:
        from grader.commands.bundletest import check_bundle

        return check_bundle(args.out, args.test, console, args.keep)
    return 0


def _gradescope_test(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader gradescope-test",
                           description="Run a Gradescope autograder zip on submissions as Gradescope does.")
    add_version(parser)
    parser.add_argument("zip", type=Path, metavar="AUTOGRADER.zip")
    parser.add_argument("submissions", type=Path, nargs="+", metavar="SUBMISSION", help="a .py file or a folder")
    parser.add_argument("--keep", type=Path, metavar="DIR", help=KEEP_HELP)
    args = parser.parse_args(argv)
    from grader.commands.bundletest import check_bundle

    return check_bundle(args.zip, args.submissions, console, args.keep)


def _prairielearn(argv: list[str], console: Console) -> int:
    from grader.commands.prairielearn import command

    return command(argv, console)


def _similarity(argv: list[str], console: Console) -> int:
    from grader.commands.similarity import command

    return command(argv, console)


def _insights(argv: list[str], console: Console) -> int:
    from grader.commands.insights import command

    return command(argv, console)


def _reexport(argv: list[str], console: Console) -> int:
    from grader.commands.reexport import command

    return command(argv, console)


def _need_source_checkout(command: str) -> None:
    """UsageError unless the kit runs from a source checkout (a wheel or `pip install .`
    has no pyproject.toml, and its files are not the ones anybody publishes or commits)."""
    if not (KIT_ROOT / "pyproject.toml").is_file():
        raise UsageError(f"{command} needs a source checkout of the kit (this one is installed without its pyproject.toml)")


def _goldens(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader goldens",
                                     description="Rebuild the hook test cases (grader/scoring/hook_cases.yaml) from the reference.")
    add_version(parser)
    parser.parse_args(argv)
    from grader.reference import require_answer_key

    require_answer_key("python -m grader goldens")
    _need_source_checkout("goldens")  # an installed copy's cases would be rewritten where nobody commits them
    from grader.scoring.hookcases import CASES_FILE, write_cases

    count = write_cases()
    console.print(f"wrote {count} hook test cases to {CASES_FILE}")
    return 0


COMMANDS = {"check": _check, "release": _release, "gradescope-bundle": _bundle, "goldens": _goldens,
            "gradescope-test": _gradescope_test, "prairielearn": _prairielearn, "similarity": _similarity,
            "insights": _insights, "reexport": _reexport}


def _stop_on_signal(number: int, frame: object) -> None:
    """SIGTERM and SIGHUP stop grading exactly as Ctrl-C does."""
    from grader.sandbox.host import interrupt

    interrupt()
    raise KeyboardInterrupt(signal.Signals(number).name)


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    argv = list(sys.argv[1:] if argv is None else argv)
    console = Console()
    command = COMMANDS.get(argv[0]) if argv else None
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _stop_on_signal)
    try:
        return command(argv[1:], console) if command else _grade(argv, console)
    except (UserError, UsageError) as error:
        from grader.reports.report import fail

        return fail(console, str(error))
    except KeyboardInterrupt as stop:
        from grader.reports.report import fail
        from grader.sandbox.host import interrupt

        interrupt()
        name = stop.args[0] if stop.args and isinstance(stop.args[0], str) else "SIGINT"
        fail(console, f"interrupted ({name}): the workers were stopped and nothing was written")
        return 128 + signal.Signals[name].value
