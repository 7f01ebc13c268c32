"""Shared test helpers: the grader run as a subprocess, and student files as a grader sees them."""

from __future__ import annotations

import ast
import atexit
import compileall
import csv
import dis
import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import NoReturn

import pytest
import yaml
from browser import Offline, chromium, offline_page
from playwright.sync_api import Page

from answerkey.instructor.kit import kit_packages
from grader.hooktable import SAT_ENCODING, SOLVER_HOOK_NAMES

ROOT = Path(__file__).resolve().parents[1]
STUDENT_FILES = Path(__file__).resolve().parent / "student_files"
KIT_PARTS = (*kit_packages(ROOT), "problems", "pyproject.toml", "README.md", "LICENSE", "constraints.txt")
COURSE = ROOT / "problems" / "course.yaml"

#: Variables that would make Rich write colours or redraw as if on a terminal.
TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def grader_env(*pythonpath: Path | str, columns: int = 200, **extra: str) -> dict[str, str]:
    """This environment as a grader run sees it: Rich writes to a plain `columns`-wide pipe, and
    PYTHONPATH holds `pythonpath` (the kit at ROOT unless told) and nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in (*TERMINAL_VARIABLES, "PYTHONPATH")}
    env.update(PYTHONPATH=os.pathsep.join(map(str, pythonpath or (ROOT,))), COLUMNS=str(columns), **extra)
    return env


def run_grader(
    *args: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 180, columns: int = 200
) -> subprocess.CompletedProcess[str]:
    """`python -m grader ARGS` in a subprocess from `cwd`, its output captured as text.

    `env` defaults to grader_env(columns=columns): the kit at ROOT, no terminal.
    """
    return subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)],
        cwd=cwd,
        env=grader_env(columns=columns) if env is None else env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    """The run ended without a Python traceback (a grader bug) on either stream."""
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr


def json_report(path: Path, result: subprocess.CompletedProcess[str] | None = None) -> dict:
    """The --json report at `path` (`result`, the run that should have written it, explains its absence)."""
    assert path.is_file(), "no JSON report" + (f"; the grader said:\n{result.stdout}\n{result.stderr}" if result else "")
    return json.loads(path.read_text(encoding="utf-8"))


def grade_json(
    problems: str | Path, solver: str | Path, out: Path, *extra: str | Path, timeout: float = 180, columns: int = 200
) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Grade `solver` on `problems` with `--json out` (then `extra`); the run, with no traceback, and its report."""
    result = run_grader(problems, "--solver", solver, "--json", out, *extra, timeout=timeout, columns=columns)
    no_traceback(result)
    return result, json_report(out, result)


def timings_aside(value: object) -> object:
    """A reason with its measured times ("used 2.1 s of CPU") replaced by "N s": what must
    not depend on load, jobs or order is everything else."""
    return re.sub(r"\b\d+\.\d+ s\b", "N s", value) if isinstance(value, str) else value


def by_id(report: dict) -> dict[str, dict]:
    """Every graded item of a --json report by id: hooks, problems, then the other items."""
    return {e["id"]: e for e in report["hooks"] + report["problems"] + report.get("other", [])}


def copy_kit(target: Path) -> Path:
    """A copy of the kit's packages, problems and project files in `target`, its modules
    compiled (see `pytest_configure`)."""
    for part in KIT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / part)
    compile_packages(target)
    return target


def compile_packages(root: Path) -> Path:
    """`root` with each Python package directly in it (the kit's, a student copy's)
    byte-compiled in this process, so that the grader runs a test starts there read
    compiled modules even where PYTHONDONTWRITEBYTECODE (or a worker) keeps Python from
    writing them: each run loads the modules instead of compiling them again. No behaviour
    changes: Python uses a compiled module only while its source is unchanged."""
    for init in sorted(root.glob("*/__init__.py")):
        compileall.compile_dir(init.parent, quiet=2)
    return root


@functools.cache
def _tree_of(source: str) -> ast.Module:
    return ast.parse(source)


def python_tree(path: Path) -> ast.Module:
    """The syntax tree of the Python file at `path`, parsed once per test process for each
    text it has: the house tests walk every module of the kit (its layers, its doors, who
    reads YAML or writes CSV), about half a second of CPU a parse of the whole kit. Shared
    between tests: read it, never change it."""
    return _tree_of(path.read_text(encoding="utf-8"))


#: --only for every hook and the SAT item, graded on one course board (nctu-1): what a
#: class run needs when its tests read the hooks and that board alone.
EVERY_HOOK_AND_NCTU_1 = ",".join([*SOLVER_HOOK_NAMES, SAT_ENCODING, "nctu-1"])

#: The hidden boards of tests/student_files/hidden_set/hidden.yaml: (mines, solutions) once
#: given a mine count (see `quick_hidden_set`).
QUICK_HIDDEN = {"secret-1": (8, 18), "secret-2": (8, 8)}


def quick_hidden_set(target: Path) -> Path:
    """tests/student_files/hidden_set/hidden.yaml written to `target` with a mine count on
    its two hidden boards (18 and 8 solutions instead of 144 and 376): the same ids, boards,
    visibilities (hidden, after_due_date) and public boards, whose searches (every hook
    call of which a run grades) take a fraction of the time. What a platform's tests check
    of hidden problems (they are graded and counted, nothing of them is shown) does not
    depend on how many solutions they have."""
    data = yaml.safe_load((STUDENT_FILES / "hidden_set" / "hidden.yaml").read_text(encoding="utf-8"))
    hidden = [problem for problem in data["problems"] if problem.get("visibility") in ("hidden", "after_due_date")]
    assert [problem["id"] for problem in hidden] == list(QUICK_HIDDEN), hidden
    for problem in hidden:
        problem["mines"], problem["expect"] = QUICK_HIDDEN[problem["id"]]
    target.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return target


def pytest_configure(config: pytest.Config) -> None:
    compile_packages(ROOT)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> object:
    """While the test modules are imported, pytest writes down their assertion-rewritten
    code (tests/__pycache__) even where PYTHONDONTWRITEBYTECODE is set: otherwise every
    run, and every xdist worker of it, rewrites all of them again, about 7 s of CPU each
    (the quick loop's two workers took 57 s of CPU, 34 s once the rewrites were kept).
    The rewritten code is used only while its source is unchanged."""
    kept = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = kept


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker for each core this process may run on (or what
    PYTEST_XDIST_AUTO_NUM_WORKERS says), and one more when slow tests run. About a fifth
    of the full suite's time goes on students that sleep or run out of wall-clock time,
    and on processes starting: the extra worker keeps the cores busy meanwhile (two
    cores: 566 s with two workers, 479 s with three). The quick loop (`-m "not slow"`)
    waits for nothing, so there it would only collect the tests once more."""
    asked = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if asked.isdigit():
        return int(asked)
    return len(os.sched_getaffinity(0)) + (not quick_loop(config))


def quick_loop(config: pytest.Config) -> bool:
    """This run is the quick loop: `-m "not slow"`."""
    return config.option.markexpr.replace(" ", "") == "notslow"


def live_processes() -> dict[int, list[bytes]]:
    """Every live process (zombies aside) and its command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("Z", "X"):
                found[int(entry.name)] = argv
    return found


def sleepers(tag: str) -> list[int]:
    """Live processes whose command line is `sleep TAG` (what `pgrep -f 'sleep TAG'` would see)."""
    return [pid for pid, argv in live_processes().items() if argv[:2] == [b"sleep", tag.encode()]]


def running_with(word: str) -> list[int]:
    """Live processes whose command line holds `word` (a student file's unique name, say:
    the processes of its worker, forks and daemons included)."""
    return [pid for pid, argv in live_processes().items() if any(word.encode() in arg for arg in argv)]


def student_copy(folder: Path, name: str, **constants: str) -> Path:
    """Copy tests/student_files/NAME.py (with the model answer it imports) into `folder`,
    replacing each `{{KEY}}` in it by `constants[KEY]`; the copy's path.

    Student code sees neither the environment nor the tests' files, so whatever a test
    wants to tell it (a unique tag, a mode) is written into its copy.
    """
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "model_answer.py")
    text = (STUDENT_FILES / f"{name}.py").read_text(encoding="utf-8")
    for key, value in constants.items():
        text = text.replace("{{" + key + "}}", value)
    target = folder / f"{name}.py"
    target.write_text(text, encoding="utf-8")
    return target


@functools.cache
def lone(name: str) -> Path:
    """tests/student_files/NAME.py in a folder of its own, beside the files of that folder
    it imports (the model answer, mostly), as a student's folder holds it: graded from
    tests/student_files itself, every worker would copy the folder's hundred-odd other
    files (about 0.2 s of CPU a grading). Made once per test process, removed at its exit."""
    folder = Path(tempfile.mkdtemp(prefix=f"student-{name}-"))
    atexit.register(shutil.rmtree, folder, True)
    todo = [name]
    while todo:
        source = STUDENT_FILES / f"{todo.pop()}.py"
        shutil.copyfile(source, folder / source.name)
        todo += [m for m in _imported(source) if (STUDENT_FILES / f"{m}.py").is_file() and not (folder / f"{m}.py").exists()]
    return folder / f"{name}.py"


def _imported(path: Path) -> set[str]:
    """The modules the Python file at `path` imports by name (none when it is not Python)."""
    try:
        tree = python_tree(path)
    except SyntaxError:
        return set()
    nodes = list(ast.walk(tree))
    return {a.name for n in nodes if isinstance(n, ast.Import) for a in n.names} | {
        n.module for n in nodes if isinstance(n, ast.ImportFrom) and n.module
    }


def self_contained(name: str) -> str:
    """The text of tests/student_files/NAME.py with the model answer it imports built in,
    for a submission that is a single file among other students' files."""
    model = (STUDENT_FILES / "model_answer.py").read_text(encoding="utf-8")
    prelude = (
        "import sys as _sys, types as _types\n"
        "_model = _types.ModuleType('model_answer')\n"
        f"exec({model!r}, _model.__dict__)\n"
        "_sys.modules['model_answer'] = _model\n"
    )
    return prelude + (STUDENT_FILES / f"{name}.py").read_text(encoding="utf-8")


GRADESCOPE_VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


def check_gradescope_spec(results: dict) -> None:
    """results.json has the shape Gradescope expects."""
    for key, kind in (("score", (int, float)), ("output", str), ("tests", list)):
        assert isinstance(results.get(key), kind), (key, results.get(key))
    for test in results["tests"]:
        assert {"name", "number", "score", "max_score", "status", "output", "visibility"} <= set(test), test
        assert isinstance(test["name"], str) and test["name"] and isinstance(test["number"], str), test
        assert isinstance(test["output"], str), test
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"], test
        assert test["status"] in ("passed", "failed") and test["visibility"] in GRADESCOPE_VISIBILITIES, test
        assert test.get("output_format", "simple_format") in ("text", "html", "simple_format", "md", "ansi"), test


# --- attackers graded by the real CLI, under `bwrap` and under `user` --------------------


@dataclass(frozen=True)
class Kit:
    """Where the grader runs from, and how it is isolated."""

    mode: str
    root: Path

    @property
    def course(self) -> Path:
        return self.root / "problems" / "course.yaml"

    def run(self, *args: str | Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(*args), cwd=self.root, env=self.env(), capture_output=True, text=True, timeout=timeout)

    def command(self, *args: str | Path) -> list[str]:
        return [sys.executable, "-m", "grader", *map(str, args), "--isolation", self.mode]

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FORCE_COLOR", "TTY_"))}
        env.update(PYTHONPATH=str(self.root), COLUMNS="200")
        return env

    def fingerprint(self) -> dict[str, str]:
        """Every file of the kit (what a grading run could reach) and its hash."""
        files = [p for part in KIT_PARTS for p in sorted((self.root / part).rglob("*")) or [self.root / part]]
        return {
            str(p.relative_to(self.root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file() and "__pycache__" not in p.parts
        }


def cpu_quota(cpu: Path, share: float) -> None:
    """Leave the processes of the cpu control group at `cpu` (v1's or v2's folder) `share`
    of one core between them, per the kernel's default period (100 ms): a CFS quota, which
    the kernel enforces, as a machine busy with other work would leave them."""
    period = 100_000
    if (cpu / "cpu.max").exists():
        (cpu / "cpu.max").write_text(f"{int(period * share)} {period}", encoding="ascii")
    else:
        (cpu / "cpu.cfs_period_us").write_text(str(period), encoding="ascii")
        (cpu / "cpu.cfs_quota_us").write_text(str(int(period * share)), encoding="ascii")


def needed(what: str, why: str | None) -> None:
    """Skip the test when `why` says `what` is missing here; under CI=true fail instead:
    CI must test every part, so a missing one is a gap, not a skip."""
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} must be tested in CI: {why}")
        pytest.skip(why)


def isolation_unavailable(mode: str) -> str | None:
    if mode == "bwrap" and shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    if mode == "user" and os.geteuid() != 0:
        return "user isolation needs the grader to run as root"
    return None


@pytest.fixture(scope="module", params=["bwrap", "user"])
def kit(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Kit:
    needed(f"--isolation {request.param}", isolation_unavailable(request.param))
    if request.param == "bwrap":
        return Kit("bwrap", ROOT)
    closed = tmp_path_factory.mktemp("closed")  # pytest's folders are closed to other users
    os.chmod(closed, 0o700)
    copy_kit(closed / "kit")
    shutil.copyfile(STUDENT_FILES / "hidden_set" / "hidden.yaml", closed / "kit" / "problems" / "zz-hidden.yaml")
    return Kit("user", closed / "kit")


def attacker(folder: Path, name: str, **constants: str) -> Path:
    """A self-contained copy of tests/student_files/NAME.py with its {{KEY}}s filled in."""
    folder.mkdir(parents=True, exist_ok=True)
    text = self_contained(name)
    for key, value in constants.items():
        text = text.replace("{{" + key + "}}", value)
    path = folder / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return path


def grade(kit: Kit, student: Path, out: Path, *extra: str) -> dict:
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "3", *extra)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert out.is_file(), result.stdout + result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["isolation"] == kit.mode
    return report


def agent_entry(kit: Kit, folder: Path, agent: Path, games: int) -> dict:
    """The JSON entry of the agent item of `agent`, graded by the CLI alone (`--only
    agent`) on `games` games, each move within 0.5 s."""
    config = folder / "grading.yaml"
    config.write_text(f"agent:\n  games: {games}\n  move_timeout: 0.5\n  thresholds: [[0.5, 1.0]]\n", encoding="utf-8")
    out = folder / "report.json"
    run = kit.run(kit.course, "--solver", lone("correct"), "--agent", agent, "--config", config, "--only", "agent", "--json", out)
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr
    return next(e for e in json.loads(out.read_text(encoding="utf-8"))["other"] if e["id"] == "agent")


def entries(report: dict) -> dict[str, dict]:
    return {e["id"]: e for e in report["hooks"] + report["problems"] + report.get("other", [])}


def class_folder(tmp_path: Path, kit: Kit, attackers: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """A submissions folder: two honest students around the attackers."""
    folder = tmp_path / "class"
    attacker(folder, "correct").rename(folder / "aaa_honest.py")
    for student, (name, constants) in attackers.items():
        attacker(folder, name, **constants).rename(folder / f"{student}.py")
    attacker(folder, "correct").rename(folder / "zzz_honest.py")
    return folder


def read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


#: Names whose use makes a test slow: it starts a grading, a worker or another process.
SLOW_NAMES = frozenset(
    {
        "run_grader",
        "grade_json",
        "grade",
        "grades",
        "Kit",
        "kit",
        "subprocess",
        "run_test",
        "run_grader_in",
        "self_contained",
        "student_copy",
        "copy_kit",
        "busy_machine",
        "browser",
        "offline_browser",
        "find_submissions",
        "pyfacts",
    }
)


LOAD_GLOBAL = dis.opmap["LOAD_GLOBAL"]

#: Modules whose tests grade, sandbox or drive the game's screen almost all of the time.
SLOW_MODULES = frozenset(
    {
        "test_classroom_batch",
        "test_classroom_config",
        "test_classroom_gradescope",
        "test_classroom_hidden",
        "test_classroom_parallel",
        "test_fair_scores",
        "test_gradebook",
        "test_grader_agent",
        "test_grader_cli",
        "test_grader_sat",
        "test_gradescope_bundle",
        "test_grades_promise",
        "test_hostile",
        "test_hostile_round_two",
        "test_misbehaving_students",
        "test_place_agent",
        "test_place_copy",
        "test_place_imports",
        "test_place_rerun",
        "test_play_app",
        "test_prairielearn",
        "test_release",
        "test_similarity",
        "test_trace",
    }
)


@functools.cache  # many tests share their helpers: each is read once
def globals_used(code: CodeType) -> frozenset[str]:
    """The global names `code` reads (not the attributes it looks up: `runner.run` is no
    call of a `run` helper), read straight from its bytecode (3.11 on: two bytes an
    instruction, LOAD_GLOBAL's argument shifted by one bit; `dis` is ten times slower)."""
    names, extended, raw = set(), 0, code.co_code
    for at in range(0, len(raw), 2):
        operation, argument = raw[at], raw[at + 1] | extended
        extended = argument << 8 if operation == dis.EXTENDED_ARG else 0
        if operation == LOAD_GLOBAL:
            names.add(code.co_names[argument >> 1])
    return frozenset(names)


def names_reached(item: pytest.Item) -> set[str]:
    """The names a test's code uses, with those of the fixtures it asks for and of the
    functions of its own module that these call, however deep (a helper that runs the
    grader makes the test that calls the helper slow)."""
    module = getattr(item, "module", None)
    known = vars(module) if module is not None else {}
    fixtures = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    codes = [
        definition.func.__code__
        for definitions in fixtures.values()
        for definition in definitions
        if getattr(definition.func, "__module__", None) == getattr(module, "__name__", "")
    ]
    codes.append(getattr(getattr(item, "function", None), "__code__", None))
    names: set[str] = set(getattr(item, "fixturenames", ()))
    seen: set[CodeType] = set()
    while codes:
        code = codes.pop()
        if not isinstance(code, CodeType) or code in seen:
            continue
        seen.add(code)
        names.update(code.co_names)
        codes.extend(const for const in code.co_consts if isinstance(const, CodeType))
        codes.extend(
            known[name].__code__
            for name in globals_used(code)
            if isinstance(known.get(name), FunctionType) and known[name].__module__ == module.__name__
        )
    return names


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `slow` every test of SLOW_MODULES and every test whose code (or a fixture or
    helper of its module that it reaches) names a slow helper, so that
    `python -m pytest -m "not slow" -n auto` is the quick loop while editing. A test that
    takes seconds of CPU on its own (a broad property or differential test), or whose code
    under test starts a process, carries `@pytest.mark.slow`."""
    for item in items:
        if item.path.stem in SLOW_MODULES or names_reached(item) & SLOW_NAMES:
            item.add_marker(pytest.mark.slow)
    items[:] = longest_first(items, quick_loop(config))


#: The modules that keep one worker busy for a minute or more (measured with junit's times):
#: xdist hands a worker whole modules in collection order, so these go first and no worker
#: is left alone with one of them at the end while the others are idle. Longest first is
#: the order that measured fastest here.
LONGEST_FIRST = (
    "test_grades_promise",
    "test_hostile_round_two",
    "test_misbehaving_students",
    "test_hostile",
    "test_trust_seccomp",
    "test_gradescope_bundle",
    "test_release",
    "test_trust_classguard",
)


#: The quick loop's heaviest modules, a second of CPU or more of tests not marked slow
#: each (measured with each test's CPU time): in the quick loop they start first, so that
#: neither worker is left with one of them at the end (test_play_agent, which started
#: last, was 5 of its worker's 16 s of CPU).
QUICK_LONGEST_FIRST = ("test_play_agent", "test_scale_components", "test_bounded_yaml", "test_exact_paths", "test_wire_properties", "test_frontier")


def longest_first(items: list[pytest.Item], quick: bool = False) -> list[pytest.Item]:
    """`items` module by module: LONGEST_FIRST's (QUICK_LONGEST_FIRST's in the quick loop,
    `quick`), then the modules with the most slow tests (which start processes), then the
    quick ones, which fill the workers' last minutes; the tests of a module keep their order."""
    slow: dict[str, int] = {}
    for item in items:
        slow[item.path.stem] = slow.get(item.path.stem, 0) + (item.get_closest_marker("slow") is not None)
    first = QUICK_LONGEST_FIRST if quick else LONGEST_FIRST

    def rank(item: pytest.Item) -> tuple[int, int]:
        stem = item.path.stem
        return (first.index(stem), 0) if stem in first else (len(first), -slow[stem])

    return sorted(items, key=rank)


# --- the quick loop starts no process ----------------------------------------------------

#: Every way Python starts a process (subprocess, multiprocessing, os.system and the forks).
PROCESS_STARTERS = (
    ("os", "fork"),
    ("os", "forkpty"),
    ("os", "posix_spawn"),
    ("os", "posix_spawnp"),
    ("os", "system"),
    ("subprocess", "_fork_exec"),
    ("_posixsubprocess", "fork_exec"),
)


#: What a quick test tried to start, kept to fail it even when its code caught the error.
PROCESSES_TRIED = pytest.StashKey[list[str]]()


class ProcessStarted(BaseException):
    """A test not marked slow started a process (a BaseException, so that no `except
    Exception` in the code under test can hide it)."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """While a test that is not `slow` runs (set-up and tear-down included), starting a
    process raises ProcessStarted and fails the test: the quick loop cannot quietly grow a
    subprocess. The fix is `@pytest.mark.slow`, or doing the work in-process."""
    if item.get_closest_marker("slow"):
        return (yield)
    tried: list[str] = []

    def refuse(name: str) -> Callable[..., NoReturn]:
        def refused(*args: object, **kwargs: object) -> NoReturn:
            tried.append(name)
            raise ProcessStarted(
                f"{item.nodeid} is not marked slow but starts a process ({name}): "
                "mark it @pytest.mark.slow (or name its helper in SLOW_NAMES), or do the work in-process"
            )

        return refused

    item.stash[PROCESSES_TRIED] = tried
    with pytest.MonkeyPatch.context() as patch:
        for module, name in PROCESS_STARTERS:
            if hasattr(sys.modules.get(module), name):
                patch.setattr(sys.modules[module], name, refuse(f"{module}.{name}"))
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    """A quick test that tried to start a process fails, even if its code caught the error."""
    report: pytest.TestReport = yield
    tried = item.stash.get(PROCESSES_TRIED, [])
    if tried and report.passed:
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid} is not marked slow but tried to start a process ({', '.join(sorted(set(tried)))})"
    tried.clear()
    return report


@pytest.fixture(scope="module")
def offline_browser() -> Iterator[Offline]:
    """A headless chromium driven by playwright, one page, every request recorded and none
    but a local file's let through (tests/browser.py); skipped, saying why, on a machine
    without chromium, and a failure under CI=true."""
    executable = chromium()
    needed("a headless browser", None if executable else "chromium is not installed (Debian: apt-get install chromium)")
    assert executable is not None
    with offline_page(executable) as opened:
        yield opened


@pytest.fixture(scope="module")
def browser(offline_browser: Offline) -> Page:
    """The headless browser's page (playwright's), 1280x900."""
    return offline_browser.page


@pytest.fixture(scope="module")
def requested(offline_browser: Offline) -> list[str]:
    """Every URL the browser's page asked for since the module's first test opened it."""
    return offline_browser.requested


#: The private hook_seed of `private_course` (the tests that unpack its cases build them with it).
PRIVATE_SEED = 4711


@pytest.fixture(scope="module")
def private_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course's problems with a private hook_seed (`PRIVATE_SEED`) in their grading.yaml."""
    problems = tmp_path_factory.mktemp("private") / "problems"
    problems.mkdir()
    (problems / "course.yaml").write_text(COURSE.read_text(encoding="utf-8"), encoding="utf-8")
    (problems / "grading.yaml").write_text(f"hook_seed: {PRIVATE_SEED}\ntimeout: 10\n", encoding="utf-8")
    return problems


def bench_module(name: str) -> ModuleType:
    """bench/NAME.py as a module (its helpers, as the bench itself uses them)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
