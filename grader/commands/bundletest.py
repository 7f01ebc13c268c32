"""`python -m grader gradescope-bundle OUT.zip --test SUBMISSION...` and
`python -m grader gradescope-test OUT.zip SUBMISSION...`: run an autograder zip the way
Gradescope runs it, before students do.

The zip is unpacked into a scratch folder laid out like Gradescope's /autograder
(`source/`, `submission/`, `results/`); `setup.sh` runs there on a bare Python (the
machine's `python3`, found on the system's PATH only: no virtual environment, no
PYTHONPATH, none of the developer's packages), then `run_autograder` runs once per
submission, each a `.py` file or a folder of files as a student would upload it: setup.sh
once, as Gradescope runs it once per image, never per submission. A live line shows the
step under way and its time; each step ends with a line of its own (its seconds). Each
`results.json` is checked against Gradescope's format and for hidden data (a hidden
problem's id, a private seed) in what the student reads, and the runs are shown in one
table that fits 80 columns (each submission by its shortest name that tells it apart,
never its absolute path), then where the time went; with `--keep DIR`, each run's
results.json is kept as DIR/<submission>.json, as the student would read it. The scratch
folder is removed afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from grader.inputs.intake import scan_folder
from grader.inputs.names import digest, file_names, shown_name, student_names
from grader.sandbox.wire import clean_text
from solvers.cliargs import print_error

SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SETUP_SECONDS = 1800  # setup.sh: a venv and a pip install (apt-get too, on a bare image)
RUN_SECONDS = 1800  # one run_autograder: the grader's own limits end it long before
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


@dataclass(frozen=True)
class Secrets:
    """What a student must never read: the hidden problems' ids and the private seeds."""

    hidden_ids: tuple[str, ...]
    seeds: tuple[str, ...]

    def shown_in(self, text: str) -> list[str]:
        """The secrets that appear in `text` (as whole words)."""
        found = [f"hidden problem {name}" for name in self.hidden_ids if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]
        return found + [f"seed {seed}" for seed in self.seeds if re.search(rf"(?<!\d){seed}(?!\d)", text)]


@dataclass
class Run:
    """One submission's run of run_autograder."""

    submission: str
    status: int
    results: dict[str, Any] | None
    said: str  # the last lines run_autograder printed
    problems: list[str]  # what is wrong with results.json (format, hidden data shown)
    seconds: float = 0.0  # run_autograder's wall time


def bare_env(root: Path, **extra: str) -> dict[str, str]:
    """What Gradescope's harness gives its scripts: the system's PATH, no virtual
    environment, no PYTHONPATH; AUTOGRADER_ROOT points the scripts at `root`."""
    env = {"PATH": SYSTEM_PATH, "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", "AUTOGRADER_ROOT": str(root)}
    if os.environ.get("GRADER_ISOLATION"):
        env["GRADER_ISOLATION"] = os.environ["GRADER_ISOLATION"]
    env.update(extra)
    return env


def unpack(archive: Path, root: Path) -> None:
    """The zip into root/source, its scripts executable, run_autograder copied to the
    root (as Gradescope does); ValueError when it is not an autograder zip."""
    with zipfile.ZipFile(archive) as bundle:
        names = set(bundle.namelist())
        missing = [name for name in ("setup.sh", "run_autograder") if name not in names]
        if missing:
            raise ValueError(f"{archive.name} has no {' nor '.join(missing)} at its root: not an autograder zip")
        bundle.extractall(root / "source")  # zipfile drops absolute paths and '..' parts
    for script in ("setup.sh", "run_autograder"):
        os.chmod(root / "source" / script, 0o755)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", 0o755)


def bundle_secrets(kit: Path) -> Secrets:
    """The hidden problems' ids and the private seeds of the unpacked kit at `kit`."""
    from grader.inputs.config import load_config
    from grader.inputs.problemset import CONFIG_FILE, load_problems

    problems, _ = load_problems(kit / "problems") if (kit / "problems").is_dir() else ([], [])
    config, _ = load_config(kit / "problems" / CONFIG_FILE if (kit / "problems" / CONFIG_FILE).is_file() else None)
    seeds = [config.hook_seed, config.agent.seed if config.agent else None]
    return Secrets(tuple(p.id for p in problems if p.hidden), tuple(str(s) for s in seeds if s is not None))


def submit(source: Path, target: Path) -> None:
    """Lay out one submission in `target` as Gradescope does: a `.py` file as itself, a
    folder as its plain files (ValueError when it holds a link or is too large)."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    if source.is_file():
        shutil.copyfile(source, target / source.name)
        return
    scan = scan_folder(source, source.parent)
    if scan.refusal:
        raise ValueError(scan.refusal)
    for file in scan.files:
        destination = target / file.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, destination)


def spec_problems(results: Any) -> list[str]:
    """What in `results` does not follow Gradescope's results.json format."""
    if not isinstance(results, dict):
        return ["results.json is not an object"]
    kinds: tuple[tuple[str, tuple[type, ...], str], ...] = (
        ("score", (int, float), "a number"),
        ("output", (str,), "text"),
        ("tests", (list,), "a list"),
    )
    problems = [f"`{key}` missing or not {what}" for key, kind, what in kinds if not isinstance(results.get(key), kind)]
    for number, test in enumerate(results.get("tests") or [], start=1):
        if not isinstance(test, dict) or not {"name", "score", "max_score", "status", "output", "visibility"} <= set(test):
            problems.append(f"test {number} lacks a field")
        elif test["visibility"] not in VISIBILITIES or not 0 <= test["score"] <= test["max_score"]:
            problems.append(f"test {number} has a bad visibility or score")
    if "execution_time" in results:
        problems.append("execution_time is given (the student's code chooses it, hidden problems included)")
    return problems


def student_text(results: dict[str, Any]) -> str:
    """Everything of results.json a student may read, sooner or later: the output and every
    test, whatever its visibility (an `after_due_date` test is read after the due date, and
    a hidden item's test carries only its status and points: `grader.reports.shown`)."""
    tests = [t for t in results.get("tests", []) if isinstance(t, dict)]
    return "\n".join([str(results.get("output", "")), *(f"{t.get('name', '')}\n{t.get('output', '')}" for t in tests)])


def kept_names(submissions: Sequence[Path]) -> list[str]:
    """A file name for each submission's kept results.json: its name (a `.py` file's
    without the suffix), or, when another submission has that name too, its path as given
    joined by `-` (`again/bob` is `again-bob`); made a file name by `file_names`, one to one."""
    bases = [submission.stem if submission.suffix == ".py" else submission.name for submission in submissions]
    wanted = [base if bases.count(base) == 1 else "-".join([*_folders(submission), base]) for submission, base in zip(submissions, bases)]
    paths = [str(submission.resolve()) for submission in submissions]
    keys = [f"{path}\0{paths[:index].count(path)}" for index, path in enumerate(paths)]  # one path given twice: two runs
    return [f"{name}.json" for name in file_names(student_names(list(zip(wanted, keys))))]


def shown_names(submissions: Sequence[Path]) -> list[str]:
    """A short name for each submission, for a table of 80 columns: its path relative to
    the working folder when it lies under it, cut to its last parts, as few as tell it
    from the others' (`reference/hooks.py` beside `stub/hooks.py`, `hooks.py` alone), on
    one line; a part with a control character is shown without it, and the name then
    marked with ` #` and digits of its path (`grader.inputs.names.digest`), so it never
    shows as another's. A path given twice is named alike."""
    here = Path.cwd().resolve()
    paths = [submission.resolve() for submission in submissions]
    parts = {path: path.relative_to(here).parts if path.is_relative_to(here) and path != here else path.parts[1:] or (path.anchor,) for path in paths}
    names: dict[Path, str] = {}
    for path, own in parts.items():
        others = [other for key, other in parts.items() if key != path]
        cut = next((count for count in range(1, len(own) + 1) if all(other[-count:] != own[-count:] for other in others)), len(own))
        shown = [shown_name(part) for part in own[-cut:]]
        marked = "" if shown == list(own[-cut:]) else f" #{digest(str(path))}"  # it showed otherwise: told apart
        names[path] = "/".join(shown) + marked
    return [names[path] for path in paths]


def _folders(path: Path) -> tuple[str, ...]:
    """The folders of `path` as given (its root left out)."""
    return path.parts[1 if path.anchor else 0 : -1]


def run_one(root: Path, submission: Path, secrets: Secrets, keep: Path | None = None, name: str | None = None) -> Run:
    """Submit `submission` and run run_autograder once; its results.json copied to
    `keep` when given, as it was written. `name`: how the run names the submission (its
    path as given, on one line, unless told)."""
    name = name if name is not None else clean_text(str(submission), 80).replace("\n", " ")
    started = time.monotonic()
    run = _run_one(root, submission, secrets, keep, name)
    run.seconds = time.monotonic() - started
    return run


def _run_one(root: Path, submission: Path, secrets: Secrets, keep: Path | None, name: str) -> Run:
    try:
        submit(submission, root / "submission")
    except (OSError, ValueError) as error:
        return Run(name, -1, None, f"cannot be submitted: {error}", ["not submitted"])
    results_file = root / "results" / "results.json"
    results_file.unlink(missing_ok=True)
    try:
        ran = subprocess.run(
            ["bash", str(root / "run_autograder")],
            cwd=root,
            env=bare_env(root),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=RUN_SECONDS,
        )
        status, said = ran.returncode, ran.stdout + ran.stderr
    except subprocess.TimeoutExpired:
        status, said = -1, f"run_autograder did not end within {RUN_SECONDS} s"
    last = "\n".join(clean_text(said).strip().splitlines()[-3:])
    if not results_file.is_file():
        return Run(name, status, None, last, [])
    if keep is not None:
        shutil.copyfile(results_file, keep)
    try:
        results = json.loads(results_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return Run(name, status, None, last, [f"results.json cannot be read: {error}"])
    problems = spec_problems(results)
    if not problems:
        problems += [f"{secret} shown to the student" for secret in secrets.shown_in(student_text(results))]
    return Run(name, status, results, last, problems)


OK_MARK = "✓"
TABLE_NOTE = f"{OK_MARK}: results.json in Gradescope's format, no hidden data shown"


def runs_table(runs: list[Run], title: str) -> Table:
    """One row per run: its exit status, isolation, score, tests (visible + hidden), the
    check of its results.json (✓, or ✗ and the problems listed under the table by
    `run_problems`) and its seconds; narrow enough for 80 columns."""
    table = Table(
        title=Text(title),
        title_justify="left",
        caption=Text(TABLE_NOTE),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("submission", overflow="fold", min_width=min(30, max((len(run.submission) for run in runs), default=10)))
    table.add_column("exit", justify="right", no_wrap=True)
    table.add_column("isolation", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("tests", no_wrap=True)
    table.add_column("results.json", no_wrap=True)
    table.add_column("s", justify="right", no_wrap=True)
    for run in runs:
        exit_text = Text(str(run.status), style="green" if run.status == 0 else "red")
        check = Text("✗ see below", style="red") if run.problems or run.results is None else Text(OK_MARK, style="green")
        if run.results is None:
            table.add_row(Text(run.submission), exit_text, "-", "-", "-", check, f"{run.seconds:.0f}")
            continue
        tests = [t for t in run.results.get("tests", []) if isinstance(t, dict)]
        top = sum(t.get("max_score", 0) for t in tests)
        visible = sum(t.get("visibility") == "visible" for t in tests)
        isolation = re.search(r"isolated: (\w+)", str(run.results.get("output", "")))
        score = f"{run.results.get('score', 0):g}/{top:g}"
        table.add_row(
            Text(run.submission),
            exit_text,
            isolation.group(1) if isolation else "?",
            score,
            f"{visible} + {len(tests) - visible} hidden",
            check,
            f"{run.seconds:.0f}",
        )
    return table


def run_problems(run: Run) -> str | None:
    """What is wrong with a run's results.json, in one line (None when nothing is)."""
    if run.results is None:
        return "wrote no results.json: no score is recorded" + (f" ({'; '.join(run.problems)})" if run.problems else "")
    return "; ".join(run.problems) if run.problems else None


def run_setup(root: Path) -> tuple[int, str]:
    """setup.sh as Gradescope runs it, once: its exit status and what it printed."""
    try:
        setup = subprocess.run(
            ["bash", str(root / "source" / "setup.sh")],
            cwd=root / "source",
            env=bare_env(root),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=SETUP_SECONDS,
        )
        return setup.returncode, setup.stdout + setup.stderr
    except subprocess.TimeoutExpired:
        return -1, f"setup.sh did not end within {SETUP_SECONDS} s"


def steps(console: Console) -> Progress:
    """The live line, on a terminal: the step under way, the steps done of all, the time so
    far (elsewhere only the line of each step done is written)."""
    columns = (TextColumn("{task.description}"), BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


def timing(setup: float, runs: list[Run]) -> str:
    """Where the time went, in one line: setup.sh once, then each run."""
    each = ", ".join(f"{run.seconds:.1f}" for run in runs)
    total = setup + sum(run.seconds for run in runs)
    return f"time: setup.sh {setup:.1f} s (once, as Gradescope runs it per image); run_autograder {each} s; {total:.1f} s in all"


def _run_all(root: Path, named: list[tuple[Path, str, str]], keep: Path | None, console: Console) -> tuple[float, list[Run]] | None:
    """setup.sh once, then run_autograder on each (submission, shown name, kept file name),
    under the live line, with a line of its own for each step done; setup.sh's seconds and
    the runs, or None (its last lines shown) when setup.sh failed."""
    runs: list[Run] = []
    with steps(console) as progress:
        task = progress.add_task("setup.sh (once): installing the kit", total=len(named) + 1)
        started = time.monotonic()
        status, said = run_setup(root)
        setup_seconds = time.monotonic() - started
        progress.advance(task)
        lines = clean_text(said).strip().splitlines()
        if status != 0:
            progress.stop()
            console.print(Text(f"setup.sh failed (exit {status}) after {setup_seconds:.1f} s; its last lines:", style="red"))
            console.print(Text("\n".join(lines[-15:])))
            return None
        done = next((line for line in reversed(lines) if line.startswith("setup.sh:")), "setup.sh: done")
        progress.console.print(Text(f"{done} ({setup_seconds:.1f} s)"))
        secrets = bundle_secrets(root / "source" / "kit")
        for number, (submission, name, kept) in enumerate(named, start=1):
            progress.update(task, description=f"run_autograder {number}/{len(named)}: {name}")
            run = run_one(root, submission, secrets, keep / kept if keep is not None else None, name)
            runs.append(run)
            progress.advance(task)
            progress.console.print(Text(f"ran {name} ({number}/{len(named)}): exit {run.status}, {run.seconds:.1f} s"))
    return setup_seconds, runs


def check_bundle(archive: Path, submissions: Sequence[Path], console: Console, keep: Path | None = None) -> int:
    """Run the autograder zip `archive` as Gradescope does on each of `submissions`; 0 when
    setup.sh succeeded and every run wrote a results.json that follows the format and
    shows no hidden data, else 1. With `keep`, a folder (made if need be) where each
    run's results.json is kept (see `kept_names`)."""
    missing = [s for s in (archive, *submissions) if not s.exists()]
    if missing:
        return print_error(f"{missing[0]}: does not exist; nothing was run", console)
    if keep is not None:
        try:
            keep.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return print_error(f"--keep {keep}: {error.strerror or error}; nothing was run", console)
    root = Path(tempfile.mkdtemp(prefix="autograder-test-"))
    try:
        try:
            unpack(archive, root)
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            return print_error(f"{archive}: {error}", console)
        console.print(Text(f"testing {archive} as Gradescope runs it, in {root}: setup.sh on the system's python3, then run_autograder"))
        names, kept_as = shown_names(submissions), kept_names(submissions)
        ran = _run_all(root, list(zip(submissions, names, kept_as)), keep, console)
        if ran is None:
            return 1
        setup_seconds, runs = ran
        console.print(runs_table(runs, f"{archive.name}: run_autograder on {len(runs)} submission(s)"))
        console.print(Text(timing(setup_seconds, runs)))
        if keep is not None:
            kept = [name for name in kept_as if (keep / name).is_file()]
            console.print(Text(f"kept {len(kept)} results.json in {keep} ({', '.join(kept) or 'none written'}): what each student will read"))
        for run in runs:
            if (problem := run_problems(run)) is not None:
                console.print(Text.assemble(("✗ ", "red"), f"{run.submission}: {problem}"))
            if run.results is None and run.said:
                console.print(Text(f"{run.submission}: {run.said}"))
        bad = [run for run in runs if run.results is None or run.problems]
        if bad:
            console.print(Text(f"{len(bad)} of {len(runs)} run(s) wrote no results.json or a wrong one", style="red"))
            return 1
        console.print(Text("every run wrote a results.json in Gradescope's format with no hidden data shown", style="green"))
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)
