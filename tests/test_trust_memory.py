"""Memory and processes bounded by the kernel, through the real CLI under `bwrap` and `user`.

- each worker's processes are born in a control group of their own, with the memory and
  task limits set;
- a reading of a worker counts what its control group holds, a daemon that left its
  tree included;
- memory no process's resident size shows (unread socket buffers, a tmpfs of its own,
  files in /dev/shm and /tmp) stops the item as the student's memory error, the grader
  lives, and the whole run stays within the cap plus the grader's own share;
- a student who floods /dev/shm with empty files costs honest classmates in the same
  class run nothing;
- where no control group can be made, the report says so and the grader's own count
  (a worker's own files in RAM-backed folders only) still holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Kit, attacker, class_folder, entries, needed, read_rows, running_with

from grader.sandbox import usage
from grader.sandbox.cgroup import Group, Tree, held, open_tree
from grader.sandbox.host import Limits

CAP_MB = 256  # the worker's memory in these tests' config
GRADER_SHARE_MB = 400  # what the grader itself may hold beside its workers
LOOK_EVERY = 0.02  # seconds between two looks at the worker's processes (a hook waits 3 s)


@pytest.fixture(scope="module")
def tree() -> Iterator[Tree]:
    """A folder of control groups for running a grader inside one, as the machine would."""
    found = open_tree()
    needed("control groups", found if isinstance(found, str) else None)
    assert isinstance(found, Tree)
    yield found
    found.close()


def config(folder: Path) -> Path:
    """A grading config in `folder` that caps each worker's memory at CAP_MB."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "grading.yaml"
    path.write_text(f"memory_mb: {CAP_MB}\n", encoding="utf-8")
    return path


def run_in_group(kit: Kit, group: Group, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """The grader run with `args`, born in `group` (like a container's memory limit)."""
    process = subprocess.Popen(
        held(kit.command(*args)), cwd=kit.root, env=kit.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    group.place(process.pid)
    stdout, stderr = process.communicate("\n", timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def groups_of(table: str) -> tuple[str, str]:
    """(memory group, pids group) of a process, from its /proc/PID/cgroup (one group in v2)."""
    found: dict[str, str] = {}
    for line in table.splitlines():
        _, controllers, where = line.split(":", 2)
        for name in controllers.split(",") if controllers else ["memory", "pids"]:
            found.setdefault(name, where)
    return found.get("memory", ""), found.get("pids", "")


def limits_of(memory: str, pids: str) -> tuple[int | None, int | None, int | None]:
    """(memory, memory with swap, tasks) limits of a process's groups: v1's memory and
    pids hierarchies, or v2's one group (no separate swap figure then)."""

    def number(path: Path) -> int | None:
        try:
            return int(path.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    v1 = Path("/sys/fs/cgroup/memory") / memory.lstrip("/")
    if v1.is_dir():
        return (
            number(v1 / "memory.limit_in_bytes"),
            number(v1 / "memory.memsw.limit_in_bytes"),
            number(Path("/sys/fs/cgroup/pids") / pids.lstrip("/") / "pids.max"),
        )
    v2 = Path("/sys/fs/cgroup") / memory.lstrip("/")
    return number(v2 / "memory.max"), None, number(v2 / "pids.max")


def test_memory_outside_every_process_stops_the_item(kit: Kit, tree: Tree, tmp_path: Path) -> None:
    """Socket buffers nobody reads, a private tmpfs, files in /dev/shm and /tmp, then its
    heap: 1.5 GB tried against a cap of 256 MB, in a grader run held to 1 GiB. The item
    ends as the student's memory error, the grader writes its report, and the run's peak
    (the grader and its workers) stays within the cap plus the grader's own share."""
    name = f"memory_hog_{uuid.uuid4().hex[:12]}"
    student = attacker(tmp_path / "s", "memory_hog", TARGET_MB="1536").rename(tmp_path / "s" / f"{name}.py")
    out = tmp_path / "report.json"
    machine = tree.group(1 << 30, 512)
    try:
        result = run_in_group(
            kit,
            machine,
            kit.course,
            "--solver",
            student,
            "--json",
            out,
            "--timeout",
            "10",
            "--only",
            "forward_check",
            "--config",
            config(tmp_path / "c"),
        )
        peak = machine.peak()
    finally:
        machine.remove()
    assert out.is_file(), result.stdout + result.stderr  # the grader lived
    found = entries(json.loads(out.read_text(encoding="utf-8")))
    item = found["forward_check"]
    assert item["score"] == 0 and item["status"] == "error", item
    assert f"used more than {CAP_MB} MB of memory" in item["message"] or "ran out of memory" in item["message"], item
    assert peak is not None and peak <= (CAP_MB + GRADER_SHARE_MB) << 20, peak
    assert running_with(name) == []


def test_a_workers_processes_are_born_in_a_group_of_their_own(kit: Kit, tmp_path: Path) -> None:
    """Seen from outside while a hook waits: every process of the worker (bubblewrap,
    the worker, the item's fork) is in one memory control group that is not the grader's,
    limited to the config's memory (swap included where counted) and to Limits.tasks tasks."""
    name = f"memory_waits_{uuid.uuid4().hex[:12]}"
    student = attacker(tmp_path / "s", "memory_waits", SECONDS="3").rename(tmp_path / "s" / f"{name}.py")
    out = tmp_path / "report.json"
    seen: dict[int, str] = {}

    def watch(grading: subprocess.Popen[str]) -> None:
        last: dict[int, str] = {}
        grader = Path(f"/proc/{grading.pid}/cmdline").read_bytes()
        while grading.poll() is None:
            for pid in set(running_with(name)) - {grading.pid}:  # the grader names the file too
                try:
                    command = Path(f"/proc/{pid}/cmdline").read_bytes()
                    # not yet released, or a fork of the grader's that has not yet run its command
                    if command.startswith(b"/bin/sh\0") or command == grader:
                        continue
                    now = Path(f"/proc/{pid}/cgroup").read_text(encoding="ascii")
                except OSError:
                    continue
                if last.get(pid) == now:  # the same at two looks: not a process on its way out (it leaves its groups)
                    seen[pid] = now
                last[pid] = now
            time.sleep(LOOK_EVERY)

    grading = subprocess.Popen(
        kit.command(kit.course, "--solver", student, "--json", out, "--timeout", "30", "--only", "forward_check", "--config", config(tmp_path / "c")),
        cwd=kit.root,
        env=kit.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watcher = threading.Thread(target=watch, args=(grading,))
    watcher.start()
    grader_group = groups_of(Path(f"/proc/{grading.pid}/cgroup").read_text(encoding="ascii"))
    limits: dict[tuple[str, str], tuple[int | None, int | None, int | None]] = {}
    while watcher.is_alive():  # read while the groups exist
        for groups in {groups_of(text) for text in seen.values()} - set(limits):
            limits[groups] = limits_of(*groups)
        watcher.join(0.05)
    grading.communicate(timeout=300)
    assert len(seen) >= 2, seen  # the worker and the item's fork (and bubblewrap)
    both = {groups_of(text) for text in seen.values()}
    assert len(both) == 1, both
    ((memory, pids),) = both
    assert memory != grader_group[0] and pids != grader_group[1], (both, grader_group)
    assert limits[(memory, pids)] in ((CAP_MB << 20, CAP_MB << 20, Limits().tasks), (CAP_MB << 20, None, Limits().tasks))
    assert entries(json.loads(out.read_text(encoding="utf-8")))["forward_check"]["status"] == "pass"


def test_a_dev_shm_flood_costs_classmates_nothing(kit: Kit, tmp_path: Path) -> None:
    """25,000 empty files in /dev/shm from one student, two honest classmates in the same
    class run, --jobs 2: they get full marks. Under bwrap its /dev/shm is its own; under
    user (no private /tmp or /dev/shm) the class is graded one student at a time, and
    what each leaves there is removed before the next starts."""
    student = f"mmm_flood_{uuid.uuid4().hex[:12]}"
    folder = class_folder(tmp_path, kit, {student: ("memory_shm_flood", {"FILES": "25000"})})
    grades = tmp_path / "grades.csv"
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("one student at a time" in result.stdout) == (kit.mode == "user"), result.stdout
    rows = read_rows(grades)
    for name in ("aaa_honest", "zzz_honest"):
        assert float(rows[name]["score"]) == float(rows[name]["max_score"]) > 0, rows[name]
    assert [entry for entry in os.listdir("/dev/shm") if entry.startswith(student)] == []


def test_without_control_groups_the_report_says_so(kit: Kit, tmp_path: Path) -> None:
    """A grader that can make no control group (here: none mounted where it looks, as in
    a container without them) grades as before, counting memory and processes itself,
    and its header and JSON say that the kernel kept no limits."""
    student = attacker(tmp_path / "s", "correct")
    out = tmp_path / "report.json"
    hidden = ["unshare", "--mount", "--propagation", "private", "sh", "-c", 'mount -t tmpfs none /sys/fs/cgroup && exec "$@"', "sh"]
    result = subprocess.run(
        [*hidden, *kit.command(kit.course, "--solver", student, "--json", out, "--only", "constraint_bounds")],
        cwd=kit.root,
        env=kit.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.is_file(), result.stdout + result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["isolation"] == kit.mode and "no control group" in report["unbounded"], report
    assert "counted by the grader, not the kernel" in " ".join(result.stdout.split())
    assert report["score"] == report["max_score"] > 0


def test_the_count_of_files_in_memory_is_the_workers_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no control group counts them: another user's entries, past the budget of
    entries looked at, cost a worker nothing; its own count, in folders it could write to."""
    if os.geteuid() != 0:
        pytest.skip("files of other users are made as root")
    worker, other = 1_900_099_001, 1_900_099_002
    monkeypatch.setattr(usage, "FILE_BUDGET", 10)
    for number in range(30):
        flood = tmp_path / f"flood-{number}"
        flood.touch()
        os.chown(flood, other, other)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o1777)
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    for folder in (tmp_path, shared, closed):
        own = folder / "own"
        own.write_bytes(b"x" * 8192)
        os.chown(own, worker, worker)
    os.chown(closed, other, other)
    assert usage.files_in_memory(worker, [str(tmp_path)]) == 2 * (tmp_path / "own").stat().st_blocks * 512
    for number in range(11):
        mine = shared / f"mine-{number}"
        mine.touch()
        os.chown(mine, worker, worker)
    assert usage.files_in_memory(worker, [str(tmp_path)]) == 1 << 62  # past the budget of its own entries


#: Starts a daemon (a child in a session of its own forks it and exits, so that its parent
#: is gone), says its pid once the child is reaped, then waits.
DETACHES = """
import os, sys, time
reader, writer = os.pipe()
if os.fork() == 0:
    os.setsid()
    daemon = os.fork()
    if daemon == 0:
        time.sleep(60)
    os.write(writer, str(daemon).encode())
    os._exit(0)
os.wait()
print(os.read(reader, 32).decode(), flush=True)
time.sleep(60)
"""


def test_a_process_that_left_the_workers_tree_still_counts_through_its_group(tree: Tree) -> None:
    """A reading of a worker counts what its control group holds: a daemon that left the
    tree (its parent gone, a session of its own) is still the worker's, and the group is
    all a reading needs to find it (without it, only the tree counts)."""
    group = tree.group(256 << 20, 64)
    process = subprocess.Popen(held(["python3", "-I", "-c", DETACHES]), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        group.place(process.pid)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("\n")
        process.stdin.flush()
        daemon = int(process.stdout.readline())
        assert set(group.processes()) == {process.pid, daemon}
        assert [p.pid for p in usage.members(process.pid)] == [process.pid]
        assert {p.pid for p in usage.members(process.pid, grouped=group.processes())} == {process.pid, daemon}
        assert usage.usage(process.pid, grouped=group.processes()).processes == 2
    finally:
        group.remove()
        process.wait()


def test_a_reading_through_a_group_reads_its_processes_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a group, a reading reads the group's processes and the worker's own, not every
    process of the machine (a walk that costs milliseconds five times a second); those
    gone meanwhile are left out."""
    child = subprocess.Popen(["sleep", "60"])
    gone = subprocess.Popen(["true"])
    gone.wait()

    def walked() -> Iterator[usage._Process]:
        raise AssertionError("every process of the machine was read")

    try:
        monkeypatch.setattr(usage, "_processes", walked)
        found = usage.members(os.getpid(), grouped=[child.pid, gone.pid])
        assert sorted(p.pid for p in found) == sorted([os.getpid(), child.pid])
        assert next(p for p in found if p.pid == child.pid).parent == os.getpid()
        assert usage.usage(os.getpid(), grouped=[child.pid]).processes == 2
    finally:
        child.kill()
        child.wait()
