"""The PrairieLearn course files of `python -m grader prairielearn OUT_DIR` (the command
and what OUT_DIR holds: `grader/commands/prairielearn.py`): the question, the kit with its
answer key, the hidden problems and grading.yaml, the entry point `grade.sh` (from
`templates/`) and the grader image's Dockerfile.
"""

from __future__ import annotations

import json
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from .bundle import INSTALL_FILES
from .kit import kit_packages, kit_requirements, kit_version
from .scripts import script

QUESTION = "minesweeper-csp"
FILES = "minesweeper_grader"  # the folder in the course's serverFilesCourse
GRADER_PYTHON = "/opt/grader/bin/python"  # where the image installs Python with the kit's dependencies
DEFAULT_IMAGE = "yourdockerhubaccount/minesweeper-csp-grader:{version}"  # a placeholder until --image names one

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
    """What `write_course` wrote: the question's uuid, the image name, how many files, and
    the question's and the course files' folders in OUT_DIR."""

    uuid: str
    image: str
    files: int
    question: str = f"questions/{QUESTION}"
    course_files: str = f"serverFilesCourse/{FILES}"


def write_course(source: Path, problems: Path, out: Path, image: str | None, timeout: int, question_uuid: str | None) -> Course:
    """Write the question, the course files and the image definition for the kit at
    `source` with the problem folder `problems` into the new folder `out` (the image
    named `image`, else DEFAULT_IMAGE)."""
    packages = kit_packages(source)
    version = kit_version(source)
    image = image or DEFAULT_IMAGE.format(version=version)
    names = {
        "version": version,
        "files": FILES,
        "question": QUESTION,
        "image": image,
        "timeout": timeout,
        "python": GRADER_PYTHON,
        "venv": str(Path(GRADER_PYTHON).parents[1]),
    }
    files = out / "serverFilesCourse" / FILES
    kit = files / "kit"
    kit.mkdir(parents=True)
    for part in (*INSTALL_FILES, *packages):
        if (source / part).is_dir():
            shutil.copytree(source / part, kit / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(source / part, kit / part)
    shutil.copytree(problems, kit / "problems", ignore=shutil.ignore_patterns("__pycache__"))
    (files / "grade.sh").write_text(script("grade.sh", python=GRADER_PYTHON, files=FILES), encoding="utf-8")
    (files / "grade.sh").chmod(0o755)
    question = out / "questions" / QUESTION
    question.mkdir(parents=True)
    chosen = question_uuid or str(uuid.uuid4())
    info = {
        "uuid": chosen,
        "title": "Minesweeper CSP: the search hooks",
        "topic": "Constraint satisfaction",
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "image": image,
            "entrypoint": f"/grade/serverFilesCourse/{FILES}/grade.sh",
            "serverFilesCourse": [f"{FILES}/"],
            "timeout": timeout,
        },
    }
    (question / "info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    (question / "question.html").write_text(QUESTION_HTML, encoding="utf-8")
    image_dir = out / "image"
    image_dir.mkdir()
    (image_dir / "Dockerfile").write_text(DOCKERFILE % names, encoding="utf-8")
    (image_dir / "requirements.txt").write_text(kit_requirements(source), encoding="utf-8")
    shutil.copyfile(source / "constraints.txt", image_dir / "constraints.txt")
    (out / "README.md").write_text(README % names, encoding="utf-8")
    count = sum(1 for path in out.rglob("*") if path.is_file())
    return Course(chosen, image, count)
