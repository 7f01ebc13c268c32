"""The same student files graded in the four places a grade comes from, side by side.

    python bench/places.py FILE... [--problems DIR] [--inline MODULE.py ...] [--markdown]

Each FILE is handed in alone as `hooks.py` (with each `--inline` module it imports built in,
for files that import a helper such as tests/student_files/model_answer.py) and graded

1. in a fresh student copy: `python -m grader release` from this kit, then
   `python -m grader problems/ --solver hooks.py` inside the copy, as its student runs it;
2. on the instructor's command line: `python -m grader PROBLEMS --solver hooks.py`;
3. by Gradescope: the `gradescope-bundle` zip's `setup.sh` and `run_autograder` in a
   scratch /autograder, as `gradescope-bundle --test` runs them, its results.json read;
4. by PrairieLearn: the `prairielearn` question's entry point in a scratch /grade, as
   tests/test_prairielearn.py runs it, its results.json read.

It prints, for each file and place, the score out of the maximum and the "Next step"
line (PrairieLearn's `gradable` too). Everything is written in a scratch folder, removed
at the end: the problem folder is copied there first, because `release` writes the
private seeds into its grading.yaml (the other three places then grade with them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.commands.bundletest import bare_env, bundle_secrets, run_one, unpack  # noqa: E402

PLACES = ("student copy", "command line", "Gradescope", "PrairieLearn")
#: Printed by the grader's terminal report after the table: what to do next, or that nothing is left.
LAST_WORDS = ("Next step:", "Full marks", "Not graded:", "error:")
#: Start-up code for the student copy: an editable install of this kit would otherwise
#: lend the copy the full kit's modules (the answer key among them).
NO_EDITABLE = 'import sys\nsys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]\n'
SECONDS = 1800  # for any one command: the grader's own limits end a run long before


@dataclass(frozen=True)
class Graded:
    """One file graded in one place: its score, what the student is told to do next, and
    for PrairieLearn whether it was gradable."""

    score: str
    step: str
    gradable: str = ""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: FILE..., --problems DIR, --inline MODULE.py, --markdown."""
    parser = argparse.ArgumentParser(prog="python bench/places.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE", help="student files, each handed in as hooks.py")
    parser.add_argument(
        "--problems", type=Path, default=ROOT / "problems", help="the problem folder to grade with (copied first; default: the kit's problems/)"
    )
    parser.add_argument(
        "--inline",
        type=Path,
        action="append",
        default=[],
        metavar="MODULE.py",
        help="a module some files import, built into each submission that imports it (repeatable)",
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    missing = [path for path in (*args.files, *args.inline) if not path.is_file()]
    if missing:
        parser.error(f"{missing[0]}: no such file")
    if not args.problems.is_dir():
        parser.error(f"--problems {args.problems}: not a folder")
    return args


def submission_text(file: Path, inline: list[Path]) -> str:
    """`file`'s text with each module of `inline` that it imports built in under its own
    name (a file that imports none is handed in as it is, its line numbers kept)."""
    text = file.read_text(encoding="utf-8")
    used = [module for module in inline if re.search(rf"^\s*(from|import)\s+{re.escape(module.stem)}\b", text, re.M)]
    prelude = "".join(
        f"import sys as _sys, types as _types\n_module = _types.ModuleType({module.stem!r})\n"
        f"exec({module.read_text(encoding='utf-8')!r}, _module.__dict__)\n"
        f"_sys.modules[{module.stem!r}] = _module\n"
        for module in used
    )
    return prelude + text


def run(command: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A command's run, its output as text (no terminal: Rich writes lines unwrapped)."""
    environment = {**(env if env is not None else os.environ), "COLUMNS": "10000"}
    environment.pop("FORCE_COLOR", None)
    return subprocess.run([str(part) for part in command], cwd=cwd, env=environment, capture_output=True, text=True, timeout=SECONDS, check=False)


def grader(*args: str | Path) -> list[str | Path]:
    return [sys.executable, "-m", "grader", *args]


def terminal_grade(ran: subprocess.CompletedProcess[str], report: Path) -> Graded:
    """The score from a --json report and the last words of the terminal report."""
    lines = [line.strip() for line in ran.stdout.splitlines()]
    step = next((line for line in reversed(lines) if line.startswith(LAST_WORDS)), f"(exit {ran.returncode})")
    if not report.is_file():
        said = (ran.stdout + ran.stderr).strip().splitlines()
        return Graded("no report", said[-1] if said else step)
    data = json.loads(report.read_text(encoding="utf-8"))
    score = "not graded" if data["score"] is None else f"{data['score']:g}/{data['max_score']:g}"
    return Graded(score, step)


def next_step(message: str) -> str:
    """The "Next step" line of a results.json message, or what stands for it."""
    return next((line.strip() for line in message.splitlines() if line.startswith("Next step:")), "(no next step)")


class Places:
    """The scratch folder with the problems, the student copy, the Gradescope autograder
    (set up once) and the PrairieLearn question, and the grading of one file in each."""

    def __init__(self, scratch: Path, problems: Path):
        self.scratch = scratch
        self.problems = scratch / "problems"
        shutil.copytree(problems, self.problems)
        self.copy, self.autograder, self.question = scratch / "copy", scratch / "autograder", scratch / "prairielearn"
        self._make(grader("release", self.copy, "--problems", self.problems))
        (scratch / "startup").mkdir()
        (scratch / "startup" / "sitecustomize.py").write_text(NO_EDITABLE, encoding="utf-8")
        self._make(grader("gradescope-bundle", scratch / "autograder.zip", "--problems", self.problems))
        self._make(grader("prairielearn", self.question, "--problems", self.problems, "--image", "bench/places:local"))
        unpack(scratch / "autograder.zip", self.autograder)
        setup = run(["bash", self.autograder / "source" / "setup.sh"], self.autograder / "source", bare_env(self.autograder))
        if setup.returncode != 0:
            raise RuntimeError(f"the autograder's setup.sh failed: {(setup.stdout + setup.stderr).strip()[-400:]}")
        self.secrets = bundle_secrets(self.autograder / "source" / "kit")

    def _make(self, command: list[str | Path]) -> None:
        made = run(command, ROOT)
        if made.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, command[2:]))}: {(made.stdout + made.stderr).strip()}")

    def in_copy(self, hooks: Path) -> Graded:
        report = hooks.parent.with_name(f"{hooks.parent.name}-copy.json")
        env = {**os.environ, "PYTHONPATH": f"{self.copy}{os.pathsep}{self.scratch / 'startup'}"}
        return terminal_grade(run(grader("problems/", "--solver", hooks, "--json", report), self.copy, env), report)

    def on_command_line(self, hooks: Path) -> Graded:
        report = hooks.parent.with_name(f"{hooks.parent.name}-kit.json")
        return terminal_grade(run(grader(self.problems, "--solver", hooks, "--json", report), ROOT), report)

    def on_gradescope(self, hooks: Path) -> Graded:
        ran = run_one(self.autograder, hooks.parent, self.secrets)
        if ran.results is None:
            return Graded("no results.json", f"(exit {ran.status}) {ran.said.splitlines()[-1] if ran.said else ''}")
        top = sum(test.get("max_score", 0) for test in ran.results.get("tests", []))
        return Graded(f"{ran.results.get('score', 0):g}/{top:g}", next_step(str(ran.results.get("output", ""))))

    def on_prairielearn(self, hooks: Path) -> Graded:
        root = Path(tempfile.mkdtemp(prefix="grade-", dir=self.scratch))
        os.chmod(root, 0o755)
        info = json.loads((self.question / "questions" / "minesweeper-csp" / "info.json").read_text(encoding="utf-8"))
        options = info["externalGradingOptions"]
        for name in options["serverFilesCourse"]:
            shutil.copytree(self.question / "serverFilesCourse" / name, root / "serverFilesCourse" / name)
        (root / "student").mkdir()
        shutil.copyfile(hooks, root / "student" / "hooks.py")
        (root / "data").mkdir()
        (root / "data" / "data.json").write_text('{"params": {}, "submitted_answers": {}}', encoding="utf-8")
        subprocess.run(["chmod", "-R", "a+rX", str(root)], check=True)
        entry = options["entrypoint"].replace("/grade/", f"{root}/", 1)
        ran = run(["bash", entry], root, {**bare_env(root), "GRADE_ROOT": str(root), "GRADER_PYTHON": sys.executable})
        results = root / "results" / "results.json"
        if not results.is_file():
            said = (ran.stdout + ran.stderr).strip().splitlines()
            return Graded("no results.json", f"(exit {ran.returncode}) {said[-1] if said else ''}", "-")
        data = json.loads(results.read_text(encoding="utf-8"))
        if not data.get("gradable", True):
            return Graded("-", next(iter(data.get("format_errors", [])), ""), "false")
        points = sum(test["points"] for test in data["tests"])
        top = sum(test["max_points"] for test in data["tests"])
        return Graded(f"{points:g}/{top:g} ({data['score']:.3f})", next_step(data.get("message", "")), "true")

    def grade(self, hooks: Path) -> list[Graded]:
        return [self.in_copy(hooks), self.on_command_line(hooks), self.on_gradescope(hooks), self.on_prairielearn(hooks)]


def show(rows: list[tuple[str, list[Graded]]], markdown: bool) -> None:
    """A table per file, a row per place; a place whose score or next step differs from
    the command line's is marked."""
    header = ["place", "score", "gradable", "next step", "as the command line"]
    for name, grades in rows:
        base = grades[1]
        lines = [
            [
                place,
                got.score,
                got.gradable,
                got.step.removeprefix("Next step: "),
                "-" if got is base else "same" if (got.score.split(" ")[0], got.step) == (base.score, base.step) else "differs",
            ]
            for place, got in zip(PLACES, grades)
        ]
        if markdown:
            print(f"\n`{name}`\n\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
            for line in lines:
                print("| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |")
            continue
        from rich.console import Console
        from rich.table import Table

        table = Table(*header, title=name, title_justify="left")
        for line in lines:
            table.add_row(*line)
        Console(width=max(160, shutil.get_terminal_size().columns)).print(table)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="places-"))
    try:
        try:
            places = Places(scratch, args.problems)
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        rows = []
        for number, file in enumerate(args.files, start=1):
            hooks = scratch / "submissions" / f"{number}" / "hooks.py"
            hooks.parent.mkdir(parents=True)
            hooks.write_text(submission_text(file, args.inline), encoding="utf-8")
            print(f"grading {file} ...", file=sys.stderr)
            rows.append((file.name, places.grade(hooks)))
        show(rows, args.markdown)
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
