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

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from grader.commands.common import need_source_checkout
from grader.commands.grade import grade_command
from grader.commands.options import BundleOptions, BundleTestOptions, CheckOptions, ReleaseOptions
from grader.errors import UserError
from grader.inputs.submission import KIT_ROOT
from grader.sandbox import stopping
from solvers.cliargs import OneLineParser, UsageError, add_version, output_problem, read_options

if TYPE_CHECKING:  # the commands import what they use when they run: --help and --version stay fast
    from rich.console import Console


def _check(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader check", description="Validate problem files and count solutions.")
    add_version(parser)
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="problem files or folders of them")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--config", type=Path, help="grading config to check too (default: grading.yaml beside the problems)")
    args = read_options(CheckOptions, parser.parse_args(argv))
    from grader.commands.instructor import instructor_tools

    checking = instructor_tools("python -m grader check")  # it counts with the answer key's counter
    from grader.inputs.config import find_config
    from grader.inputs.problemset import load_problems
    from grader.reports.report import show_errors, write_json
    from solvers.cliargs import print_error

    if args.json is not None and (why := output_problem(args.json)):
        return print_error(f"--json {args.json}: {why}", console)
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
    parser.add_argument("--allow-solutions", action="store_true", help="publish assignment/ even if it holds implemented hooks")
    args = read_options(ReleaseOptions, parser.parse_args(argv))
    from grader.commands.instructor import ReleaseRefused, instructor_tools
    from solvers.cliargs import print_error

    releasing = instructor_tools("python -m grader release")
    need_source_checkout("release")
    try:
        release = releasing.write_release(KIT_ROOT, args.problems, args.out, args.allow_solutions)
    except ReleaseRefused as error:
        return print_error(str(error), console)
    if release.seeds:
        console.print(releasing.seeds_written(release.seeds, release.config), markup=False, highlight=False, soft_wrap=True)
    console.print(f"wrote the student copy to {args.out} with {release.problems} public problems", markup=False, highlight=False)
    return 0


KEEP_HELP = "keep each run's results.json in DIR (made if need be) as DIR/SUBMISSION.json: what each student will read on Gradescope"


def _bundle(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader gradescope-bundle", description="Build the Gradescope autograder zip.")
    add_version(parser)
    parser.add_argument("out", type=Path, metavar="OUT.zip")
    parser.add_argument(
        "--problems", type=Path, default=KIT_ROOT / "problems", help="the problem folder to grade with (hidden problems and grading.yaml included)"
    )
    parser.add_argument(
        "--public-hook-cases",
        action="store_true",
        help="build even though grading.yaml has no private hook_seed: the hooks are then graded on "
        "the public cases, whose answers every student has",
    )
    parser.add_argument(
        "--unseeded-agent-games",
        action="store_true",
        help="build even though the agent section of grading.yaml has no seed: the agent then plays the "
        "public default games (seeds 0, 1, ...), the same at every run, which every student can replay",
    )
    parser.add_argument(
        "--test",
        type=Path,
        nargs="+",
        metavar="SUBMISSION",
        help="then run the zip as Gradescope does (setup.sh on a bare Python, run_autograder on each "
        "SUBMISSION: a .py file or a folder) and show every results.json in a table",
    )
    parser.add_argument("--keep", type=Path, metavar="DIR", help=KEEP_HELP)
    args = read_options(BundleOptions, parser.parse_args(argv))
    from grader.commands.instructor import instructor_tools
    from solvers.cliargs import print_error

    if args.keep is not None and not args.test:
        return print_error("--keep DIR needs --test SUBMISSION...: it keeps the results.json of those runs", console)
    if args.keep is not None and args.keep.exists() and not args.keep.is_dir():
        return print_error(f"--keep {args.keep}: not a folder", console)

    bundle = instructor_tools("python -m grader gradescope-bundle")
    need_source_checkout("gradescope-bundle")
    if not args.problems.is_dir():
        return print_error(f"--problems {args.problems}: not a folder", console)
    refusal = bundle.seed_refusal(args.problems, args.public_hook_cases, args.unseeded_agent_games)
    if refusal:
        return print_error(refusal, console)
    if not args.out.resolve().parent.is_dir():
        return print_error(f"{args.out}: the folder {args.out.resolve().parent} does not exist", console)
    count = bundle.write_gradescope_bundle(KIT_ROOT, args.problems, args.out)
    console.print(f"wrote {args.out} ({count} files): upload it as the Gradescope autograder")
    from rich.text import Text

    for warning in bundle.gradescope_time_warnings(args.problems):
        console.print(Text(f"warning: {warning}", style="yellow"))
    if args.test:
        from grader.commands.bundletest import check_bundle

        return check_bundle(args.out, args.test, console, args.keep)
    return 0


def _gradescope_test(argv: list[str], console: Console) -> int:
    parser = OneLineParser(prog="python -m grader gradescope-test", description="Run a Gradescope autograder zip on submissions as Gradescope does.")
    add_version(parser)
    parser.add_argument("zip", type=Path, metavar="AUTOGRADER.zip")
    parser.add_argument("submissions", type=Path, nargs="+", metavar="SUBMISSION", help="a .py file or a folder")
    parser.add_argument("--keep", type=Path, metavar="DIR", help=KEEP_HELP)
    args = read_options(BundleTestOptions, parser.parse_args(argv))
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


def _goldens(argv: list[str], console: Console) -> int:
    parser = OneLineParser(
        prog="python -m grader goldens", description="Rebuild the hook test cases (grader/scoring/hook_cases.yaml) from the reference."
    )
    add_version(parser)
    parser.parse_args(argv)
    from grader.reference import require_answer_key

    require_answer_key("python -m grader goldens")
    need_source_checkout("goldens")  # an installed copy's cases would be rewritten where nobody commits them
    from grader.scoring.hookcases import CASES_FILE, write_cases

    count = write_cases()
    console.print(f"wrote {count} hook test cases to {CASES_FILE}")
    return 0


COMMANDS = {
    "check": _check,
    "release": _release,
    "gradescope-bundle": _bundle,
    "goldens": _goldens,
    "gradescope-test": _gradescope_test,
    "prairielearn": _prairielearn,
    "similarity": _similarity,
    "insights": _insights,
    "reexport": _reexport,
}


def main(argv: list[str] | None = None) -> int:
    stopping.install()  # Ctrl-C, SIGTERM and SIGHUP alike; the handler takes no lock
    try:
        from rich.console import Console

        console = Console()
    except KeyboardInterrupt:  # before anything started (and before a console to say so): as the signal's default would
        return stopping.exit_status()
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    try:
        status = command(argv[1:], console) if command else grade_command(argv, console)
        stopping.hold()  # done: a signal from here on (as the process exits) changes nothing
        return status
    except (UserError, UsageError) as error:
        from solvers.cliargs import print_error

        return print_error(str(error), console)
    except KeyboardInterrupt:
        from grader.sandbox.host import interrupt
        from solvers.cliargs import print_error

        interrupt()
        print_error(f"interrupted ({stopping.asked()}): the workers were stopped and nothing was written", console)
        return stopping.exit_status()
