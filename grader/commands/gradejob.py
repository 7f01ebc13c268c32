"""One submission of a class, graded in a grader process of its own.

`python -m grader --submissions DIR` starts one of these per submission (`--jobs` at a
time): nothing is shared between submissions graded at the same time (no thread, no
library's global state, no cache), a crash of the grader costs one try of one
submission, and an interrupted run stops every one of them at once.

    python -m grader.commands.gradejob PARENT_PID < JOB.json

JOB holds the problems to grade (by file and id), the config, the isolation mode the
parent chose (and what it found of the machine, not probed again here), the time limit, the submission (hooks file, scope, agent file) and where
to write the report (`grader.reports.results.report_data`), and beside it (`cpu_file`) the
CPU seconds of this process and the workers it waited for. Exit status 0 when the report
is written; anything else is a failure of the grader's, which the parent retries. It
stops (its workers with it) when the parent dies, however the parent dies.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.commands.launch import kit_process
from grader.inputs.problemset import Problem
from grader.sandbox import stopping
from grader.sandbox.host import describe_exit, kill_orphans
from grader.sandbox.isolation import Scope
from solvers.errortext import describe_exception

if TYPE_CHECKING:
    from grader.reports.results import Report

STOP_SECONDS = 1.5  # after SIGTERM, a grading process has this long before SIGKILL
ERROR_KEPT = 300  # characters of a failed grading process's last words


@dataclass(frozen=True)
class Job:
    """What a grading process needs to grade one submission."""

    problems: list[tuple[str, str]]  # (file, id) of each problem, in order
    config: str | None
    mode: str
    timeout: float | None
    solver: str
    scope: Scope
    agent: str | None
    out: str
    probed: dict[str, Any] | None = None  # what the class run's grader found of the machine (`Probed`)
    only: list[str] | None = None  # the items --only grades (None: every item)
    base: str = "."  # the class run's working folder: what the problem and config paths are relative to (this process's is another)

    def to_json(self) -> bytes:
        return json.dumps(asdict(self)).encode()

    @staticmethod
    def from_json(data: bytes) -> Job:
        raw: dict[str, Any] = json.loads(data)
        raw["problems"] = [tuple(pair) for pair in raw["problems"]]
        return Job(**raw)


def problem_keys(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(problem.file, problem.id) for problem in problems]


def _problems(keys: list[tuple[str, str]], base: Path) -> list[Problem]:
    """The problems named by (file, id), read again from their files (relative to `base`),
    in the same order and named as the class run named them."""
    from grader.inputs.problemset import load_problem_file

    found: dict[tuple[str, str], Problem] = {}
    for file in dict.fromkeys(file for file, _ in keys):
        for problem in load_problem_file(base / file)[0]:
            found[(file, problem.id)] = replace(problem, file=file)
    missing = [key for key in keys if key not in found]
    if missing:
        raise ValueError(f"the problem {missing[0][1]} of {missing[0][0]} changed while the class was graded")
    return [found[key] for key in keys]


def run(job: Job) -> None:
    """Grade the job's submission and write its report."""
    from grader.inputs.config import load_config
    from grader.reports.results import report_data
    from grader.sandbox.isolation import Probed, open_sandbox
    from grader.scoring.grading import grade

    problems = _problems(job.problems, Path(job.base))
    config_path = Path(job.base, job.config) if job.config else None
    config, _ = load_config(config_path)
    secrets = [Path(job.base, p.file) for p in problems] + ([config_path] if config_path else [])
    probed = Probed.from_data(job.probed) if job.probed is not None else None
    with stopping.polled():  # a signal is written down; the workers' waits check for it (see `stopping`)
        sandbox = open_sandbox(job.mode, secrets, workers=2, probed=probed)
        try:
            stopping.check()
            only = frozenset(job.only) if job.only is not None else None
            report = grade(job.solver, problems, config, 1, job.timeout, job.agent, sandbox, job.scope, only)
        finally:
            sandbox.close()
        stopping.check()
    Path(job.out).write_text(json.dumps(report_data(report)), encoding="utf-8")
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu_file(job).write_text(repr(sum(u.ru_utime + u.ru_stime for u in usage)), encoding="utf-8")


def cpu_file(job: Job) -> Path:
    """Where the grading process of `job` writes its CPU seconds."""
    return Path(job.out).with_suffix(".cpu")


def cpu_seconds(job: Job) -> float | None:
    """The CPU seconds the grading process of `job` spent (its workers' included), None when unknown."""
    try:
        return float(cpu_file(job).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class Runner:
    """Starts grading processes and stops them all at once (from any thread); `spared`:
    processes of our own that are no grading process (a sandbox's guardian)."""

    def __init__(self, spared: frozenset[int] = frozenset()) -> None:
        self.spared = spared
        self.live: set[subprocess.Popen[bytes]] = set()
        self.lock = threading.Lock()
        self.stopping = False

    def grade(self, job: Job) -> Report | str:
        """The job's report, or why the grading process failed."""
        from grader.reports.results import report_from_data

        with self.lock:
            if self.stopping or stopping.asked():
                return "the run was interrupted"
            argv, cwd, env = kit_process("grader.commands.gradejob", str(os.getpid()))
            process = subprocess.Popen(
                argv,
                cwd=cwd,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            self.live.add(process)
        try:
            _, said = process.communicate(job.to_json())
        finally:
            with self.lock:
                self.live.discard(process)
                kill_orphans(self.spared | {p.pid for p in self.live})  # what it left, once it is gone
        if self.stopping:
            return "the run was interrupted"
        if process.returncode == 0:
            try:
                return report_from_data(json.loads(Path(job.out).read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError) as error:
                return f"its report could not be read ({error})"
        last = (said.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1][:ERROR_KEPT]
        return f"the grading process failed ({describe_exit(process.returncode)}: {last})"

    def stop(self) -> None:
        """SIGTERM to every grading process, SIGKILL to those still there STOP_SECONDS
        later (all of them together). Never from a signal handler: it takes the lock."""
        with self.lock:
            self.stopping = True
            processes = list(self.live)
        for process in processes:
            _signal(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal(process, signal.SIGKILL)


def _signal(process: subprocess.Popen[bytes], number: int) -> None:
    try:
        os.killpg(process.pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _die_with(parent: int) -> None:
    """SIGTERM when the process that started this one dies, however it dies."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux
        pass
    if os.getppid() != parent:  # it died before we asked
        raise KeyboardInterrupt("SIGTERM")


def main() -> int:
    stopping.install()  # SIGTERM from the parent (or from its death), and SIGINT and SIGHUP alike
    try:
        _die_with(int(sys.argv[1]))
        run(Job.from_json(sys.stdin.buffer.read()))
    except KeyboardInterrupt:
        return stopping.exit_status("SIGTERM")
    except Exception as error:  # the parent retries, then reports this line
        print(describe_exception(error), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    stopping.exit_with(main())
