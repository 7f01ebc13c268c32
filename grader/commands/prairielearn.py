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
seeds, unless the instructor accepts grading without them.
"""

from __future__ import annotations

import json
import shutil
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

QUESTION = "minesweeper-csp"
FILES = "minesweeper_grader"  # the folder in the course's serverFilesCourse
GRADER_PYTHON = "/opt/grader/bin/python"  # where the image installs Python with the kit's dependencies
MAX_TIMEOUT = 600  # seconds: the longest grading job PrairieLearn allows

GRADE_SH = """#!/usr/bin/env bash
# PrairieLearn runs this for every submission, as root in the grader image (the question's
# externalGradingOptions.entrypoint). Only the grader writes results.json. When it cannot
# grade a submission (its own failure, or the machine's), it writes none and this script
# fails: PrairieLearn then records a failed grading job (no score, no attempt charged).
set -uo pipefail
grade="${GRADE_ROOT:-/grade}"
python="${GRADER_PYTHON:-%(python)s}"
kit="$grade/serverFilesCourse/%(files)s/kit"
results="$grade/results/results.json"
mkdir -p "$grade/results"
chmod 755 "$grade/results"
rm -f "$results"
# Student code runs as an unprivileged user: it must read and write none of the course's files.
for private in "$grade/serverFilesCourse" "$grade/tests" "$grade/data"; do
  [ ! -e "$private" ] || chmod -R go-rwx "$private"
done
cd "$grade/results"
PYTHONPATH="$kit" "$python" -P -m grader "$kit/problems/" --solver "$grade/student" --jobs 2 \\
  --isolation "${GRADER_ISOLATION:-auto}" --format prairielearn --output "$results"
status=$?
if [ ! -s "$results" ]; then
  rm -f "$results"
  echo "grade.sh: this submission was not graded (exit status $status): no score is recorded; grade it again" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
"""

DOCKERFILE = """# The grader image of the Minesweeper CSP kit's PrairieLearn question, written by
# `python -m grader prairielearn` (kit %(version)s). It holds Python and the kit's
# dependencies at the exact versions the kit was tested with (constraints.txt): grading
# jobs have no network, so nothing can be installed then. It holds nothing private: the
# kit, its answer key, the hidden problems and grading.yaml come with every grading job
# from the course's serverFilesCourse/%(files)s.
#
#   docker build --platform linux/amd64 -t %(image)s .
#   docker push %(image)s
FROM python:3.11-slim-bookworm
RUN apt-get update \\
 && apt-get install -y --no-install-recommends bubblewrap \\
 && rm -rf /var/lib/apt/lists/*
COPY requirements.txt constraints.txt /tmp/kit/
RUN python -m venv %(venv)s \\
 && %(venv)s/bin/pip install --no-cache-dir --disable-pip-version-check -r /tmp/kit/requirements.txt -c /tmp/kit/constraints.txt \\
 && rm -rf /tmp/kit
"""

QUESTION_HTML = """<pl-question-panel>
  <p>
    Implement the search hooks of <code>assignment/hooks.py</code> (their contracts are in
    <code>assignment/HANDOUT.md</code> and in each hook's docstring), check them on your machine with
    <code>python -m grader problems/</code>, then upload your <code>hooks.py</code>.
    If the course grades a playing agent, upload your <code>agent.py</code> too.
  </p>
  <p>
    Every graded item is listed with its points and, for a lost point, the reason. Hidden problems
    show their points only.
  </p>
  <pl-file-upload file-names="hooks.py" optional-file-names="agent.py"></pl-file-upload>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""

README = """# The Minesweeper CSP kit on PrairieLearn

Written by `python -m grader prairielearn` (kit %(version)s). Three folders go into your
course repository:

1. `serverFilesCourse/%(files)s/` into the course's `serverFilesCourse/`. It holds the
   kit with its answer key, your hidden problems and your grading.yaml with its private
   seeds: the course repository must stay private to the course staff.
2. `questions/%(question)s/` into the course's `questions/` (rename the folder as you
   like; keep the `uuid` of its `info.json` when you rebuild, so that PrairieLearn sees
   the same question: `--uuid`). Its topic, "Constraint satisfaction", must be one of the
   topics of the course's `infoCourse.json`: add it there, or name one of yours in
   `info.json`.
3. `image/` is the grader image. Build it for PrairieLearn's platform, push it to Docker
   Hub under the name `info.json` gives (`%(image)s`; `--image NAME` sets another), then
   sync it on the course's "Sync" page, under "Docker images":

       cd image && docker build --platform linux/amd64 -t %(image)s . && docker push %(image)s

Add the question to an assessment as any other question. Each submission is graded in a
fresh container: `grade.sh` grades `/grade/student` with the kit and writes
`/grade/results/results.json`: the score (points over the maximum), one test per graded
item with its points and reason, hidden problems as "hidden problem N" with their points
only. A file that defines no hook or cannot be loaded (a syntax error) is "not gradable":
no attempt is charged. When the grader itself fails, the grading job fails: no score is
recorded, and regrading the submission grades it.

A grading job may take %(timeout)s s (`--job-timeout`; PrairieLearn allows 600 at most).
Rebuild these folders (with the same `--uuid` and `--image`) after changing the kit, the
problems or grading.yaml; build and push the image again only when the kit's dependencies
(`constraints.txt`) change.
"""


@dataclass(frozen=True)
class Course:
    """What `write_course` wrote: the question's uuid, the image name and how many files."""

    uuid: str
    image: str
    files: int


def kit_version(source: Path) -> str:
    with open(source / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def requirements(source: Path) -> str:
    """The kit's dependencies as pyproject gives them (ranges): what the image installs,
    pinned by constraints.txt."""
    with open(source / "pyproject.toml", "rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    return "".join(f"{line}\n" for line in dependencies)


def write_course(source: Path, problems: Path, out: Path, image: str, timeout: int, question_uuid: str | None) -> Course:
    """Write the question, the course files and the image definition for the kit at
    `source` with the problem folder `problems` into the new folder `out`."""
    from grader.reference import instructor_tool

    bundle = instructor_tool("bundle", "python -m grader prairielearn")
    packages = instructor_tool("kit", "python -m grader prairielearn").kit_packages(source)
    version = kit_version(source)
    names = {"version": version, "files": FILES, "question": QUESTION, "image": image, "timeout": timeout,
             "python": GRADER_PYTHON, "venv": str(Path(GRADER_PYTHON).parents[1])}
    files = out / "serverFilesCourse" / FILES
    kit = files / "kit"
    kit.mkdir(parents=True)
    for part in (*bundle.INSTALL_FILES, *packages):
        if (source / part).is_dir():
            shutil.copytree(source / part, kit / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(source / part, kit / part)
    shutil.copytree(problems, kit / "problems", ignore=shutil.ignore_patterns("__pycache__"))
    (files / "grade.sh").write_text(GRADE_SH % names, encoding="utf-8")
    (files / "grade.sh").chmod(0o755)
    question = out / "questions" / QUESTION
    question.mkdir(parents=True)
    chosen = question_uuid or str(uuid.uuid4())
    info = {"uuid": chosen, "title": "Minesweeper CSP: the search hooks", "topic": "Constraint satisfaction",
            "type": "v3", "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": {"image": image, "entrypoint": f"/grade/serverFilesCourse/{FILES}/grade.sh",
                                       "serverFilesCourse": [f"{FILES}/"], "timeout": timeout}}
    (question / "info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    (question / "question.html").write_text(QUESTION_HTML, encoding="utf-8")
    image_dir = out / "image"
    image_dir.mkdir()
    (image_dir / "Dockerfile").write_text(DOCKERFILE % names, encoding="utf-8")
    (image_dir / "requirements.txt").write_text(requirements(source), encoding="utf-8")
    shutil.copyfile(source / "constraints.txt", image_dir / "constraints.txt")
    (out / "README.md").write_text(README % names, encoding="utf-8")
    count = sum(1 for path in out.rglob("*") if path.is_file())
    return Course(chosen, image, count)


def command(argv: list[str], console: Console) -> int:
    """`python -m grader prairielearn OUT_DIR`."""
    from grader.inputs.submission import KIT_ROOT
    from solvers.cliargs import OneLineParser, add_version

    parser = OneLineParser(prog="python -m grader prairielearn",
                           description="Write a PrairieLearn question, its course files and its grader image.")
    add_version(parser)
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument("--problems", type=Path, default=KIT_ROOT / "problems",
                        help="the problem folder to grade with (hidden problems and grading.yaml included)")
    parser.add_argument("--image", help="the grader image's Docker Hub name (default: "
                        "yourdockerhubaccount/minesweeper-csp-grader:VERSION)")
    parser.add_argument("--job-timeout", type=int, default=MAX_TIMEOUT, metavar="SECONDS",
                        help=f"the grading job's time limit in seconds (default and most: {MAX_TIMEOUT})")
    parser.add_argument("--uuid", help="the question's uuid (keep the one of an earlier build; default: a new one)")
    parser.add_argument("--public-hook-cases", action="store_true",
                        help="build even though grading.yaml has no private hook_seed (see gradescope-bundle --help)")
    parser.add_argument("--unseeded-agent-games", action="store_true",
                        help="build even though the agent section of grading.yaml has no seed (see gradescope-bundle --help)")
    args = parser.parse_args(argv)
    from grader.commands.cli import _need_source_checkout
    from grader.reference import instructor_tool
    from solvers.cliargs import print_error

    bundle = instructor_tool("bundle", "python -m grader prairielearn")

    _need_source_checkout("prairielearn")
    if not args.problems.is_dir():
        return print_error(f"--problems {args.problems}: not a folder", console)
    if not 1 <= args.job_timeout <= MAX_TIMEOUT:
        return print_error(f"--job-timeout {args.job_timeout}: PrairieLearn allows 1 to {MAX_TIMEOUT} seconds", console)
    if args.uuid is not None:
        try:
            args.uuid = str(uuid.UUID(args.uuid))
        except ValueError:
            return print_error(f"--uuid {args.uuid}: not a uuid", console)
    refusal = bundle.seed_refusal(args.problems, args.public_hook_cases, args.unseeded_agent_games)
    if refusal:
        return print_error(refusal, console)
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        return print_error(f"{args.out}: exists and is not an empty folder; choose a new one", console)
    if not args.out.resolve().parent.is_dir():
        return print_error(f"{args.out}: the folder {args.out.resolve().parent} does not exist", console)
    image = args.image or f"yourdockerhubaccount/minesweeper-csp-grader:{kit_version(KIT_ROOT)}"
    course = write_course(KIT_ROOT, args.problems, args.out, image, args.job_timeout, args.uuid)
    console.print(Text(f"wrote {args.out} ({course.files} files): questions/{QUESTION}, serverFilesCourse/{FILES} and "
                       f"image/ (Docker image {course.image}); {args.out / 'README.md'} says how to add them to a course"))
    if args.image is None:
        console.print(Text("note: --image names the image you will push to Docker Hub; info.json names a placeholder "
                           "until then", style="yellow"))
    cost = instructor_tool("agentcost", "python -m grader prairielearn")
    for warning in cost.agent_time_warnings(args.problems, cost.prairielearn(args.job_timeout)):
        console.print(Text(f"warning: {warning}", style="yellow"))
    return 0
