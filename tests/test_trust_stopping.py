"""SIGTERM and Ctrl-C stop a grading at any moment, and leave nothing of it behind.

The signal handler takes no lock (a handler runs in the main thread, between two
bytecodes of whatever it interrupted: a lock that code holds is never released) and
raises nowhere a worker may be half started or stopped (`grader.sandbox.stopping`).
A class run is stopped at points stepped across it, by SIGTERM and by SIGINT, under
`bwrap` and under `user`: once it has returned, no process of it is left (it runs under
a subreaper, tests/subreaper.py, so that every process it leaves behind, a double
fork's included, stays a descendant there), no lock it took on a file (a user-id lease)
is held, no control group of it is left, it exits with 128 + the signal's number, and the
CSV lists every student, graded or `not graded: the run was interrupted`. How soon it
stops is measured by bench/stop_latency.py, not asserted here.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import EVERY_HOOK_AND_NCTU_1, ROOT, Kit, attacker, read_rows

from grader.commands import cli
from grader.sandbox import host, stopping
from grader.sandbox.cgroup import RUN_PREFIX


@pytest.fixture(autouse=True)
def fresh_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop asked in one test is not asked in the next (the record is the process's)."""
    monkeypatch.setattr(stopping, "_STOP", stopping._Stop())


class HeldLock:
    """A lock the interrupted code holds: waiting for it would never end, so trying fails the test."""

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        raise AssertionError("the signal handler waited for a lock the code it interrupted holds")

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.fixture
def handlers() -> object:
    """The kit's handlers installed for the test, Python's put back after it."""
    before = {number: signal.getsignal(number) for number in stopping.SIGNALS}
    stopping.install()
    yield
    for number, handler in before.items():
        signal.signal(number, handler)
    os.close(signal.set_wakeup_fd(-1))
    os.close(stopping.wakeup_fd())  # type: ignore[arg-type]


def test_a_signal_while_the_worker_registry_is_locked_is_written_down_not_waited_on(monkeypatch: pytest.MonkeyPatch, handlers: object) -> None:
    """The grading process that hung (main): SIGTERM landed while `Worker.stop` held
    `host._live_lock`, and its handler waited for that lock. Here the code interrupted
    holds it (a stand-in that fails the test when anyone waits for it) while it polls:
    the handler writes the stop down and returns; a second signal changes nothing; the
    code's next check raises."""
    monkeypatch.setattr(host, "_live_lock", HeldLock())
    with stopping.polled():
        signal.raise_signal(signal.SIGTERM)
        assert stopping.asked() == "SIGTERM"
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGHUP)
        assert stopping.asked() == "SIGTERM"
        wakeup = stopping.wakeup_fd()
        assert wakeup is not None and select.select([wakeup], [], [], 0)[0], "a wait on descriptors is not woken"
        with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
            stopping.woken()
        assert not select.select([wakeup], [], [], 0)[0]  # emptied: no wait wakes again for nothing
    assert stopping.exit_status() == 128 + signal.SIGTERM


def test_a_signal_where_nothing_polls_raises_at_once_and_only_once(monkeypatch: pytest.MonkeyPatch, handlers: object) -> None:
    """Outside a polled block (no worker alive) the handler raises KeyboardInterrupt as
    Python does for Ctrl-C, still taking no lock; once the stop is under way, a later
    signal does not cut its cleaning up short."""
    monkeypatch.setattr(host, "_live_lock", HeldLock())
    with pytest.raises(KeyboardInterrupt, match="SIGINT"):
        signal.raise_signal(signal.SIGINT)
    signal.raise_signal(signal.SIGTERM)  # no exception: the first stop is being cleaned up
    assert stopping.asked() == "SIGINT" and stopping.exit_status() == 128 + signal.SIGINT


def test_a_signal_once_the_command_is_done_is_only_written_down(handlers: object) -> None:
    """A signal that lands once a command's work is done (while the process returns its
    status, or the interpreter exits) is written down, not raised: raised there it would
    end the process as an uncaught KeyboardInterrupt, killed by SIGINT (status -2), after
    the class's CSV was written whole."""
    assert cli.main(["check", str(ROOT / "problems" / "course.yaml")]) == 0
    signal.raise_signal(signal.SIGINT)  # no exception
    assert stopping.asked() == "SIGINT"


def test_a_stop_asked_stops_a_worker_before_it_starts() -> None:
    """A worker asked for once a stop was asked is never started: KeyboardInterrupt, no process."""
    stopping.ask("SIGTERM")
    with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
        host.Worker(None, Path("never.py"), host.Limits())  # type: ignore[arg-type]


# --- a class run stopped at points stepped across it -------------------------------------

#: The fractions of an unstopped run's time at which a run is stopped, each by the signal beside it.
POINTS = tuple(zip((0.02, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9), (signal.SIGTERM, signal.SIGINT) * 3 + (signal.SIGTERM,), strict=True))
STUDENTS = ("aaa_honest", "bbb_honest", "ccc_honest", "zzz_honest")


@dataclass(frozen=True)
class Ended:
    """A class run under the reaper: its exit status, what it printed, and what it left."""

    code: int
    output: str
    left: list[list[object]]
    locks: list[str]
    seen: list[int]
    seconds: float


def run_class(kit: Kit, folder: Path, grades: Path, output: Path, stop: tuple[float, signal.Signals] | None = None) -> Ended:
    """Grade `folder` (`--jobs 2`) under the reaper; with `stop`, send its signal that many seconds in."""
    command = kit.command(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "10", "--only", EVERY_HOOK_AND_NCTU_1)
    reaper = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("subreaper.py")), *command],
        cwd=kit.root,
        env={**kit.env(), "GRADER_OUTPUT": str(output)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reaper.stdout is not None
    try:
        pid = int(reaper.stdout.readline())
        started = time.monotonic()
        if stop is not None:
            time.sleep(stop[0])
            try:
                os.kill(pid, stop[1])
            except ProcessLookupError:  # it ended first
                pass
        said = json.loads(reaper.stdout.readline())
        seconds = time.monotonic() - started
        reaper.wait(timeout=60)
    finally:
        reaper.kill()
    return Ended(said["code"], output.read_text(encoding="utf-8", errors="replace"), said["left"], said["locks"], said["seen"], seconds)


def run_folders(pids: list[int]) -> list[str]:
    """Control-group folders of a run of one of `pids` (`grader-<namespace>-<pid>-<n>`)
    left anywhere (other graders' folders come and go meanwhile: a folder gone is no error)."""
    taken = {str(pid) for pid in pids}
    found = []
    for folder, folders, _ in os.walk("/sys/fs/cgroup", onerror=lambda error: None):
        for name in folders:
            parts = name.removeprefix(RUN_PREFIX).split("-")  # namespace, pid, number
            if name.startswith(RUN_PREFIX) and len(parts) == 3 and parts[1] in taken:
                found.append(f"{folder}/{name}")
    return found


@pytest.fixture(scope="module")
def stopped_class(kit: Kit, tmp_path_factory: pytest.TempPathFactory) -> tuple[Kit, Path, float]:
    """The class, and how long it takes when nobody stops it (checked clean too)."""
    tmp = tmp_path_factory.mktemp(f"stopped-{kit.mode}")
    folder = tmp / "class"
    for student in STUDENTS:
        attacker(folder, "correct").rename(folder / f"{student}.py")
    grades = tmp / "whole.csv"
    whole = run_class(kit, folder, grades, tmp / "whole.txt")
    assert whole.code == 0, whole.output
    assert whole.left == [] and whole.locks == [], (whole.left, whole.locks)
    rows = read_rows(grades)
    assert list(rows) == list(STUDENTS) and all(float(row["score"]) == float(row["max_score"]) > 0 for row in rows.values()), rows
    return kit, folder, whole.seconds


@pytest.mark.parametrize("fraction, number", POINTS, ids=[f"{f:.2f}-{n.name}" for f, n in POINTS])
def test_a_class_stopped_at_any_point_leaves_no_process_lease_or_group(
    stopped_class: tuple[Kit, Path, float], tmp_path: Path, fraction: float, number: signal.Signals
) -> None:
    kit, folder, seconds = stopped_class
    grades = tmp_path / "g.csv"
    ended = run_class(kit, folder, grades, tmp_path / "out.txt", (fraction * seconds, number))
    assert ended.left == [], f"processes of the run outlived it: {ended.left}"
    assert ended.locks == [], f"locks the run took are still held: {ended.locks}"
    assert run_folders(ended.seen) == []
    assert "Traceback" not in ended.output, ended.output
    if ended.code == 0:  # it ended before the signal came (a slow start made the run shorter than the point)
        assert "interrupted" not in ended.output, ended.output
        return
    if ended.output == "" and ended.code in (-number, 128 + number):  # before the grader had a console: killed by the
        return  # signal (its default action) or ended with its status, silently, before anything was started
    assert ended.code == 128 + number, ended.output
    assert f"interrupted ({number.name})" in ended.output, ended.output
    if grades.exists():
        rows = read_rows(grades)
        assert list(rows) == list(STUDENTS), ended.output
        for row in rows.values():
            graded = row["score"] != "" and float(row["score"]) == float(row["max_score"]) > 0
            assert graded or row["note"] == "not graded: the run was interrupted", row
    else:  # stopped before grading began
        assert "nothing was written" in ended.output, ended.output


@pytest.mark.slow  # starts Python
def test_a_signal_while_python_unloads_its_modules_leaves_the_exit_status(tmp_path: Path) -> None:
    """Python puts back each handled signal's default action as it exits, before it
    unloads its modules: a SIGINT landing there (here sent by an object unloaded with its
    module) killed the process by SIGINT (-2) instead of letting it exit with its status,
    which a class stopped as it ended showed. After the exit handlers, the signals are ignored."""
    program = (
        "import os, signal, time\n"
        "from grader.sandbox import stopping\n"
        "stopping.install()\n"
        "class Late:\n"
        "    def __del__(self):\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        time.sleep(0.05)\n"
        "late = Late()\n"
        "stopping.exit_with(3)\n"
    )
    (tmp_path / "late_signal.py").write_text(program, encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "late_signal"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert ran.returncode == 3


@pytest.mark.slow  # starts Python twice
def test_a_program_run_with_dash_m_exits_with_its_status_after_a_caught_interrupt(tmp_path: Path) -> None:
    """A signal's KeyboardInterrupt can land in code run from text (a dataclass being made
    as a module loads); caught and answered with 128 + the signal, the status must be that
    one, not a death by SIGINT (-2), which is what Python 3.11 under `-m` gives it unless
    the program leaves through `stopping.exit_with`, as the grader and its grading
    processes do. Both entry points are checked to leave that way."""
    program = "import sys\ntry:\n    exec('raise KeyboardInterrupt')\nexcept KeyboardInterrupt:\n    pass\n"
    (tmp_path / "stopped_with.py").write_text(program + "from grader.sandbox.stopping import exit_with\nexit_with(143)\n", encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "stopped_with"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert ran.returncode == 143
    for entry in (ROOT / "grader" / "__main__.py", ROOT / "grader" / "commands" / "gradejob.py"):
        assert entry.read_text(encoding="utf-8").rstrip().endswith("exit_with(main())"), entry
