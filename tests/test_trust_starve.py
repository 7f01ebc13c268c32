"""A busy machine is ours, a stalled item the student's: who owns the wall-clock backstop.

- every worker is born in a cpu control group of its own, each with the same weight, so
  a neighbour's busy threads take no more of the CPU than one thread would;
- past the backstop, an item that spent most of it waiting for a core (its worker ready
  to run, with a CPU share of its own) is a failure of ours: retried, then "ungraded";
- an item that slept or stopped itself there is the student's timeout, on a busy machine
  too: stopped and asleep are not ready, its own threads waiting for each other are its
  own, and it can change neither its priority nor its scheduling.

A busy machine is stood for by a CPU quota on the worker's own group (a share of one
core), so that no outcome depends on how fast or how loaded the machine is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import Kit, attacker, cpu_quota, entries, isolation_unavailable, needed, running_with

from grader.sandbox import budget, host
from grader.sandbox.budget import Budget
from grader.sandbox.cgroup import CPU_SHARES, CPU_WEIGHT, Group, Tree, open_tree
from grader.sandbox.confine import ARCHITECTURES, allowed
from grader.sandbox.host import Limits, start_worker, stop_worker
from grader.sandbox.isolation import open_sandbox
from grader.sandbox.tasks import Outcome, run_tasks
from grader.sandbox.usage import scheduled
from grader.scoring.hookcalls import TASK_FAILURES
from grader.scoring.hookcases import load_cases
from grader.scoring.hookitems import hook_task

BACKSTOP = 6.0  # the wall-clock backstop in the in-process tests (the item's limit left at 30 s)
QUOTA = 0.25  # the share of one core a "busy machine" leaves a worker
POLLS = 2000  # readings of a process's counts before a test gives up on it
LOOK_EVERY = 0.02  # seconds between two looks at a worker's processes (its hook waits 3 s)


@pytest.fixture
def tree() -> Iterator[Tree]:
    """A folder of control groups, with the cpu controller, as a grader makes one."""
    found = open_tree()
    needed("cpu control groups", found if isinstance(found, str) else found.unshared if found.cpu is None else None)
    assert isinstance(found, Tree)
    yield found
    found.close()


def weight(cpu: Path) -> int:
    """A cpu group's weight (v1's shares or v2's weight)."""
    shares = cpu / "cpu.shares"
    return int((shares if shares.exists() else cpu / "cpu.weight").read_text(encoding="ascii"))


def throttle(group: Group | None, share: float = QUOTA) -> None:
    """Leave `group` `share` of one core, as a machine busy with other work would."""
    assert group is not None and group.cpu is not None
    cpu_quota(group.cpu, share)


def spinner(group: Group | None = None) -> subprocess.Popen[bytes]:
    """A process that keeps a core busy, put in `group` when given."""
    process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    if group is not None:
        group.place(process.pid)
    return process


def until(condition: Callable[[], bool], what: str) -> None:
    """Poll until `condition` holds (a count, not a clock, bounds the wait)."""
    for _ in range(POLLS):
        if condition():
            return
        time.sleep(0.01)
    pytest.fail(f"never: {what}")


# The decision, from a budget's figures


def test_an_item_that_mostly_waited_for_a_core_is_ours() -> None:
    """A worker thread that waited 50 s of a 61 s backstop for a core while it ran 0.5 s:
    most of the backstop was the machine's, so the failure is ours."""
    item = Budget(1.0, 0.0)
    item.read_threads({7: (0.0, 0.0)}, 0.0, now=0.0)
    item.read_threads({7: (0.5, 50.0)}, 0.5, now=61.0)
    assert round(item.wall) == 61 and item.starved == 50.0
    assert item.starved_most()


def test_an_item_that_mostly_slept_is_the_students() -> None:
    """A worker that slept 58 s of the backstop and never waited for a core: the
    student's timeout."""
    item = Budget(1.0, 0.0)
    item.read_threads({7: (0.0, 0.0)}, 0.0, now=0.0)
    item.asleep = 58.0
    item.read_threads({7: (0.2, 0.0)}, 0.2, now=61.0)
    assert item.starved == 0.0 and not item.starved_most()


def test_its_own_threads_waiting_for_each_other_are_not_starvation() -> None:
    """Threads of one worker that take turns on a core (two busy ones, or a hundred that
    wake at once, or threads that ended after running) wait for each other: none of that
    is counted. A thread that waits while none of its own runs is, up to the time between
    readings; a new thread (or a reused id) counts from its start."""
    pair = Budget(1.0, 0.0)
    pair.read_threads({1: (0.0, 0.0), 2: (0.0, 0.0)}, 0.0, now=0.0)
    pair.read_threads({1: (30.0, 30.0), 2: (30.0, 30.0)}, 60.0, now=60.0)
    herd = Budget(1.0, 0.0)
    herd.read_threads({}, 0.0, now=0.0)
    herd.read_threads({thread: (0.01, 0.5) for thread in range(100)}, 1.0, now=60.0)
    ended = Budget(1.0, 0.0)
    ended.read_threads({1: (0.0, 0.0)}, 0.0, now=0.0)
    ended.read_threads({1: (0.0, 10.0)}, 10.0, now=60.0)  # 10 s of CPU by threads gone since
    assert pair.starved == herd.starved == ended.starved == 0.0
    lone = Budget(1.0, 0.0)
    lone.read_threads({1: (5.0, 100.0)}, 5.0, now=0.0)
    lone.read_threads({1: (1.0, 2.0), 2: (0.0, 90.0)}, 6.0, now=60.0)  # 1 reused, 2 new: counted from zero
    assert lone.starved == 60.0  # 89 s of waiting less 1 s of its own running, no more than the 60 s between


# The kernel's counts


def test_a_kept_open_wait_count_is_always_the_reading_threads_own() -> None:
    """`CoreWait` keeps the schedstat file of the thread that last read open: read from
    another thread (a grader's task moving to another job thread), or from a thread that
    ended, it reads the calling thread's own count, never the other's."""
    reader = budget.CoreWait()
    reader.read()
    found: list[tuple[float, float, float, str]] = []

    def elsewhere() -> None:
        before = budget.waited_for_a_core()
        count = reader.read()
        found.append((before, count, budget.waited_for_a_core(), f"/task/{threading.get_native_id()}/"))

    for _ in range(2):  # the second thread's reader holds the first (ended) thread's file
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
    for before, count, after, _ in found:
        assert before <= count <= after
    assert found[0][3] != found[1][3]
    main = reader.read()
    assert reader._file is not None and f"/task/{threading.get_native_id()}/" in os.readlink(f"/proc/self/fd/{reader._file.fileno()}")
    assert main <= budget.waited_for_a_core()


def test_a_throttled_process_waits_a_stopped_or_sleeping_one_does_not(tree: Tree) -> None:
    """As `scheduled` reads the kernel: a busy process held to a quarter of a core is
    ready and waiting most of the time (starved, for a budget); one that stopped itself
    or sleeps waits for no core, and a budget counts it no starvation."""
    group = tree.group(256 << 20, 16)
    throttle(group)
    busy = spinner(group)
    stopped = subprocess.Popen([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"])
    asleep = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        until(lambda: Path(f"/proc/{stopped.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T", "the process stopped itself")
        until(lambda: Path(f"/proc/{asleep.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "S", "the process fell asleep")
        budgets = {process.pid: Budget(1.0, 0.0) for process in (busy, stopped, asleep)}
        first = {pid: scheduled((pid,)) for pid in budgets}
        for pid, item in budgets.items():
            item.read_threads(first[pid], sum(ran for ran, _ in first[pid].values()), now=0.0)
        until(lambda: sum(scheduled((busy.pid,))[busy.pid]) - sum(first[busy.pid][busy.pid]) > 1.0, "the busy process ran or waited a second")
        for pid, item in budgets.items():
            now = scheduled((pid,))
            item.read_threads(now, sum(ran for ran, _ in now.values()), now=1e6)
        ((busy_ran, busy_waited),) = scheduled((busy.pid,)).values()
        assert busy_waited - first[busy.pid][busy.pid][1] > busy_ran - first[busy.pid][busy.pid][0]
        assert budgets[busy.pid].starved > 0.5
        assert scheduled((stopped.pid,)) == first[stopped.pid]
        assert budgets[stopped.pid].starved == budgets[asleep.pid].starved == 0.0
    finally:
        for process in (busy, stopped, asleep):
            process.kill()
            process.wait()
        group.remove()


def test_no_student_can_change_its_priority_or_scheduling() -> None:
    """The seccomp allowlist names no call that changes a priority, a scheduling policy
    or where a thread runs, on any machine it knows; a confined process that tries gets
    a refusal (and may still stop itself: stopped is not ready)."""
    refused = {"setpriority", "sched_setscheduler", "sched_setparam", "sched_setattr", "sched_setaffinity", "nice", "ioprio_set", "ptrace"}
    for machine in ARCHITECTURES:
        assert not refused & set(allowed(machine)), machine
    probe = (
        "import os, sys\nfrom grader.sandbox.confine import confine\nassert confine() is None\nrefused = 0\n"
        "for attempt in (lambda: os.nice(-5), lambda: os.nice(5), lambda: os.setpriority(os.PRIO_PROCESS, 0, 10),\n"
        "                lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)),\n"
        "                lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1)),\n"
        "                lambda: os.sched_setaffinity(0, {0})):\n"
        "    try:\n        attempt()\n    except PermissionError:\n        refused += 1\n"
        "print(refused)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert result.stdout.strip() == "6", result.stdout + result.stderr


# The groups a grader makes


def test_every_workers_group_has_the_same_cpu_weight(tree: Tree) -> None:
    """Each new group has a cpu group of its own, with the same weight as every other, and
    a process placed in it is in it."""
    first, second = tree.group(256 << 20, 16), tree.group(256 << 20, 16)
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        first.place(process.pid)
        assert first.cpu is not None and second.cpu is not None and first.cpu != second.cpu
        assert weight(first.cpu) == weight(second.cpu) == (CPU_WEIGHT if tree.v2 else CPU_SHARES)
        assert str(process.pid) in (first.cpu / "cgroup.procs").read_text(encoding="ascii").split()
    finally:
        process.kill()
        process.wait()
        first.remove()
        second.remove()


def test_two_sandboxes_of_one_process_each_get_their_groups(tree: Tree) -> None:
    """A second sandbox opened while the first is open (one process grading twice) gets a
    run folder of its own, not the weaker fallback."""
    second = open_tree()
    assert isinstance(second, Tree), second
    try:
        assert second.memory != tree.memory and second.cpu is not None and second.cpu != tree.cpu
    finally:
        second.close()
    assert not second.memory.exists() and tree.memory.is_dir()


def cpu_group_of(table: str) -> str:
    """A process's cpu group, from its /proc/PID/cgroup (v2's one group where no v1 cpu)."""
    found = ""
    for line in table.splitlines():
        _, controllers, where = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return where
        if not controllers:
            found = where
    return found


def cpu_folder(group: str) -> Path:
    v1 = Path("/sys/fs/cgroup/cpu") / group.lstrip("/")
    return v1 if v1.is_dir() else Path("/sys/fs/cgroup") / group.lstrip("/")


def test_a_workers_processes_are_born_in_a_cpu_group_of_their_own(kit: Kit, tmp_path: Path) -> None:
    """Seen from outside while a hook waits: every process of the worker (bubblewrap, the
    worker, the item's fork) is in one cpu group that is not the grader's, with the same
    weight as every worker's; the report's header says nothing is left unshared."""
    name = f"starve_waits_{uuid.uuid4().hex[:12]}"
    student = attacker(tmp_path / "s", "memory_waits", SECONDS="3").rename(tmp_path / "s" / f"{name}.py")
    out = tmp_path / "report.json"
    seen: dict[int, str] = {}
    weights: dict[str, int] = {}

    def watch(grading: subprocess.Popen[str]) -> None:
        last: dict[int, str] = {}
        grader = Path(f"/proc/{grading.pid}/cmdline").read_bytes()
        while grading.poll() is None:
            for pid in set(running_with(name)) - {grading.pid}:
                try:
                    command = Path(f"/proc/{pid}/cmdline").read_bytes()
                    # not yet released, or a fork of the grader's that has not yet run its command
                    if command.startswith(b"/bin/sh\0") or command == grader:
                        continue
                    now = cpu_group_of(Path(f"/proc/{pid}/cgroup").read_text(encoding="ascii"))
                    if last.get(pid) == now:  # the same at two looks: not a process on its way out
                        seen[pid] = now
                        weights.setdefault(now, weight(cpu_folder(now)))
                except (OSError, ValueError):
                    continue
                last[pid] = now
            time.sleep(LOOK_EVERY)

    grading = subprocess.Popen(
        kit.command(kit.course, "--solver", student, "--json", out, "--timeout", "30", "--only", "forward_check"),
        cwd=kit.root,
        env=kit.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watcher = threading.Thread(target=watch, args=(grading,))
    watcher.start()
    grader_group = cpu_group_of(Path(f"/proc/{grading.pid}/cgroup").read_text(encoding="ascii"))
    stdout, _ = grading.communicate(timeout=300)
    watcher.join()
    assert len(seen) >= 2, seen  # the worker and the item's fork (and bubblewrap)
    groups = set(seen.values())
    assert len(groups) == 1 and grader_group not in groups, (groups, grader_group)
    assert set(weights.values()) <= {CPU_SHARES, CPU_WEIGHT} and len(weights) == 1, weights
    assert "CPU not shared" not in stdout, stdout
    assert entries(json.loads(out.read_text(encoding="utf-8")))["forward_check"]["status"] == "pass"


# Past the backstop, in a grader's own process


def backstop_outcome(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, hook: str, share: float | None) -> Outcome:
    """The outcome of one constraint_bounds item whose body is `hook`, with the backstop
    brought down to BACKSTOP seconds and each item's worker left `share` of a core."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    monkeypatch.setattr(budget, "WALL_FACTOR", 0.0)
    monkeypatch.setattr(budget, "WALL_EXTRA", BACKSTOP - 30.0)  # max(30 x 0, 30 - 24) = 6 s on the wall clock
    if share is not None:
        begin = host.Worker.begin

        def busy_begin(worker: host.Worker, limit: float) -> None:
            throttle(worker.group, share)
            begin(worker, limit)

        monkeypatch.setattr(host.Worker, "begin", busy_begin)
    student = tmp_path / "stalls.py"
    student.write_text(f"import os, signal, time\n\ndef constraint_bounds(scope, domains):\n    {hook}\n    return 0, 0\n", encoding="utf-8")
    sandbox = open_sandbox("bwrap", [], workers=1)
    try:
        if sandbox.tree is None or sandbox.tree.cpu is None:
            pytest.fail(f"no cpu group: {sandbox.unbounded}")
        task = hook_task("constraint_bounds", load_cases()["constraint_bounds"][:1], 30.0)
        start = start_worker(sandbox, sandbox.submission(student), Limits())
        (outcome,) = run_tasks(start, stop_worker, [task], 1, TASK_FAILURES)
    finally:
        sandbox.close()
    return outcome


@pytest.mark.slow
def test_a_worker_starved_by_a_busy_machine_is_ours(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A hook that computes on a machine that leaves its worker a quarter of a core: most
    of the backstop is spent ready and waiting, so the failure is the grader's, tried
    again and then "ungraded", never the student's timeout."""
    outcome = backstop_outcome(monkeypatch, tmp_path, "while True: pass", QUOTA)
    assert outcome.status == "ungraded" and "busy machine" in outcome.message, outcome


@pytest.mark.slow
@pytest.mark.parametrize("hook", ["os.kill(os.getpid(), signal.SIGSTOP)", "time.sleep(60)"], ids=["stops", "sleeps"])
def test_a_worker_that_stops_or_sleeps_on_a_busy_machine_is_the_students(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, hook: str) -> None:
    """The same busy machine, a hook that stops itself or sleeps: stopped and asleep are
    not ready, so the backstop is the student's timeout, a recorded outcome."""
    outcome = backstop_outcome(monkeypatch, tmp_path, hook, QUOTA)
    assert outcome.status == "timeout" and "of wall-clock time" in outcome.message, outcome
