"""`python -m grader prairielearn OUT_DIR`: what a PrairieLearn course needs to grade the
hooks with this kit, through PrairieLearn's external grading.

OUT_DIR holds three things to copy into the course repository, and a README saying how:

- `questions/minesweeper-csp/`: the question: `info.json` (external grading: the image,
  the entry point, the course files the job gets, the time limit) and `question.html`
  (the student uploads `hooks.py`, and `agent.py` if the course grades an agent; the
  results panel shows each graded item);
- `serverFilesCourse/minesweeper_grader/`: the kit (its packages, the answer key
  included, and the problem folder with the hidden problems and grading.yaml) and
  `grade.sh`, the entry point. PrairieLearn copies it into every grading job, at
  /grade/serverFilesCourse/minesweeper_grader; it stays in the course repository, which
  only the course staff can read;
- `image/`: the grader image's Dockerfile: Python with the kit's dependencies at the
  exact versions of constraints.txt (a grading job has no network, so nothing can be
  installed then). The image holds nothing private: images are pulled from Docker Hub.

For every submission `grade.sh` (as root in the container) closes the job's course files
to other users, then grades /grade/student with the kit under `user` isolation (or
bubblewrap where the container allows it) into /grade/results/results.json
(`grader/reports/prairielearn.py`). When the grader cannot grade, it writes no
results.json and the job fails: PrairieLearn records no score and charges no attempt.

Like the Gradescope bundle, it is built only when the grading config holds its private
seeds, unless the instructor accepts grading without them. The files are written by the
answer key's `answerkey/instructor/prairielearn.py` (`grade.sh` from its templates).
"""

from __future__ import annotations

import uuid
from pathlib import Path

from rich.console import Console
from rich.text import Text

MAX_TIMEOUT = 600  # seconds: the longest grading job PrairieLearn allows


def command(argv: list[str], console: Console) -> int:
    """`python -m grader prairielearn OUT_DIR`."""
    from grader.commands.options import PrairieLearnOptions
    from grader.inputs.submission import KIT_ROOT
    from solvers.cliargs import OneLineParser, add_version, read_options

    parser = OneLineParser(prog="python -m grader prairielearn", description="Write a PrairieLearn question, its course files and its grader image.")
    add_version(parser)
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument(
        "--problems", type=Path, default=KIT_ROOT / "problems", help="the problem folder to grade with (hidden problems and grading.yaml included)"
    )
    parser.add_argument("--image", help="the grader image's Docker Hub name (default: yourdockerhubaccount/minesweeper-csp-grader:VERSION)")
    parser.add_argument(
        "--job-timeout",
        type=int,
        default=MAX_TIMEOUT,
        metavar="SECONDS",
        help=f"the grading job's time limit in seconds (default and most: {MAX_TIMEOUT})",
    )
    parser.add_argument("--uuid", help="the question's uuid (keep the one of an earlier build; default: a new one)")
    parser.add_argument(
        "--public-hook-cases", action="store_true", help="build even though grading.yaml has no private hook_seed (see gradescope-bundle --help)"
    )
    parser.add_argument(
        "--unseeded-agent-games",
        action="store_true",
        help="build even though the agent section of grading.yaml has no seed (see gradescope-bundle --help)",
    )
    args = read_options(PrairieLearnOptions, parser.parse_args(argv))
    from grader.commands.common import need_source_checkout
    from grader.commands.instructor import instructor_tools
    from solvers.cliargs import print_error

    tools = instructor_tools("python -m grader prairielearn")

    need_source_checkout("prairielearn")
    if not args.problems.is_dir():
        return print_error(f"--problems {args.problems}: not a folder", console)
    if not 1 <= args.job_timeout <= MAX_TIMEOUT:
        return print_error(f"--job-timeout {args.job_timeout}: PrairieLearn allows 1 to {MAX_TIMEOUT} seconds", console)
    question_uuid = args.uuid
    if question_uuid is not None:
        try:
            question_uuid = str(uuid.UUID(question_uuid))
        except ValueError:
            return print_error(f"--uuid {args.uuid}: not a uuid", console)
    refusal = tools.seed_refusal(args.problems, args.public_hook_cases, args.unseeded_agent_games)
    if refusal:
        return print_error(refusal, console)
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        return print_error(f"{args.out}: exists and is not an empty folder; choose a new one", console)
    if not args.out.resolve().parent.is_dir():
        return print_error(f"{args.out}: the folder {args.out.resolve().parent} does not exist", console)
    course = tools.write_prairielearn_course(KIT_ROOT, args.problems, args.out, args.image, args.job_timeout, question_uuid)
    console.print(
        Text(
            f"wrote {args.out} ({course.files} files): {course.question}, {course.course_files} and "
            f"image/ (Docker image {course.image}); {args.out / 'README.md'} says how to add them to a course"
        )
    )
    if args.image is None:
        console.print(Text("note: --image names the image you will push to Docker Hub; info.json names a placeholder until then", style="yellow"))
    for warning in tools.prairielearn_time_warnings(args.problems, args.job_timeout):
        console.print(Text(f"warning: {warning}", style="yellow"))
    return 0
