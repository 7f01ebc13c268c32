"""The seccomp filter is an allowlist: every system call it does not name is refused, the
calls it names only in their safe forms, and what honest students do still works.

- the filter's program, run on every system call number of both machines it knows;
- the sweep itself, in a confined process and in a real graded item under each mode;
- a student that imports much of the standard library and uses threads: full marks;
- a student whose answers depend on file locks other workers hold: one grade whatever
  `--jobs` (the locks are refused).
"""

from __future__ import annotations

import errno
import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, Kit, attacker, class_folder, entries, grade, read_rows

from grader.sandbox.confine import (
    ALLOW,
    ARCHITECTURES,
    JUMP_IF_EQUAL,
    JUMP_IF_SET,
    KILL,
    LOAD,
    ONLY_WITH,
    RETURN,
    X32_SYSCALL,
    allowed,
    program,
)

PID = 4242
REFUSED, NOT_THERE = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS


def verdict(machine: str, arch: int, number: int, args: tuple[int, ...] = ()) -> int:
    """What `machine`'s filter (for process PID) answers to system call `number` with
    `args`, made on architecture `arch`: a small interpreter of the four instructions it uses."""
    data = {0: number, 4: arch, **{16 + 8 * i: value & 0xFFFFFFFF for i, value in enumerate(args)}}
    steps, at, accumulator = program(machine, PID), 0, 0
    while True:
        code, if_true, if_false, value = steps[at]
        if code == RETURN:
            return value
        if code == LOAD:
            accumulator = data.get(value, 0)
            at += 1
        else:
            assert code in (JUMP_IF_EQUAL, JUMP_IF_SET)
            taken = accumulator == value if code == JUMP_IF_EQUAL else bool(accumulator & value)
            at += 1 + (if_true if taken else if_false)


@pytest.mark.parametrize("machine", list(ARCHITECTURES))
def test_every_call_the_filter_does_not_name_is_refused(machine: str) -> None:
    """On both machines: of the numbers 0..1023 only the allowlist passes (clone3 fails with
    ENOSYS); the named calls pass in their safe forms only; another architecture or the
    x32 ABI kills."""
    arch, names = ARCHITECTURES[machine], allowed(machine)
    free = {number for name, number in names.items() if name not in (*ONLY_WITH, "clone", "kill", "tgkill")}
    for number in range(1024):
        expected = ALLOW if number in free else NOT_THERE if number == 435 else None
        if expected is not None:
            assert verdict(machine, arch, number) == expected, number
        elif number not in names.values():
            assert verdict(machine, arch, number) == REFUSED, number
    thread = 0x3D0F00  # the flags the C library makes a thread with
    for flags, expected in (
        (thread, ALLOW),
        (17, REFUSED),
        (thread | 0x10000000, REFUSED),
        (thread | 0x20000, REFUSED),
        (0x4000 | 0x100 | 17, REFUSED),
        (thread & ~0x10000, REFUSED),
        (thread | 0x2000, REFUSED),
    ):
        assert verdict(machine, arch, names["clone"], (flags,)) == expected, hex(flags)
    for name, (index, values) in ONLY_WITH.items():
        for value in (*values, 5, 6, 7, 37, 38, 3, 9, 20, 21, 0x5412, PID):  # lock commands, page-out advice, TIOCSTI
            args = tuple(value if i == index else 0 for i in range(index + 1))
            assert verdict(machine, arch, names[name], args) == (ALLOW if value in values else REFUSED), (name, value)
    for name in ("kill", "tgkill"):
        assert verdict(machine, arch, names[name], (PID, PID)) == ALLOW
        assert [verdict(machine, arch, names[name], (pid, pid)) for pid in (1, 0, -1, PID + 1)] == [REFUSED] * 4
    other = next(a for m, a in ARCHITECTURES.items() if m != machine)
    assert verdict(machine, other, names["read"]) == KILL
    assert verdict(machine, arch, X32_SYSCALL | names["read"]) == KILL


def sweeper(folder: Path) -> Path:
    """The sweeping student file, told which calls this machine's filter allows."""
    return attacker(folder, "seccomp_sweep", ALLOWED=json.dumps(allowed(platform.machine())))


@pytest.mark.skipif(platform.machine() not in ARCHITECTURES, reason="no filter for this machine")
def test_a_confined_process_is_refused_every_other_call(tmp_path: Path) -> None:
    """The sweep run for real, in a process confined as an item's is: every number
    0..1023 not on the allowlist, and the allowed calls' dangerous forms (fork, namespaces,
    flock and fcntl locks, page-out advice, signals to others), fail with EPERM (clone3:
    ENOSYS); threads still start."""
    sweeper(tmp_path)
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from grader.sandbox.confine import confine\n"
        "assert confine() is None\nsys.path.insert(0, sys.argv[2]); import seccomp_sweep\n"
        "print(json.dumps(seccomp_sweep.sweep()))"
    )
    ran = subprocess.run([sys.executable, "-I", "-S", "-c", script, str(ROOT), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == []


def test_a_graded_item_is_refused_every_other_call(kit: Kit, tmp_path: Path) -> None:
    """The same sweep from inside a real graded item, under each isolation mode: the hook
    that swept answers right (it raises, naming them, if any call was not refused)."""
    report = grade(kit, sweeper(tmp_path / "s"), tmp_path / "report.json", "--only", "constraint_bounds")
    assert entries(report)["constraint_bounds"]["status"] == "pass", entries(report)["constraint_bounds"]


def test_the_standard_library_and_threads_still_work(kit: Kit, tmp_path: Path) -> None:
    """A student that imports a broad set of the standard library and answers through a
    thread pool, a queue and a lock, with timing, random numbers and a scratch file: full marks."""
    report = grade(kit, attacker(tmp_path / "s", "seccomp_stdlib"), tmp_path / "report.json")
    assert report["score"] == report["max_score"] > 0, [(e["id"], e["message"]) for e in entries(report).values() if e["status"] != "pass"]


def test_file_locks_carry_nothing_between_workers(kit: Kit, tmp_path: Path) -> None:
    """Two students whose hooks fail while another process holds a lock on the standard
    library's os.py, and who take that lock themselves in every item: with locks refused
    they get full marks with --jobs 1 and --jobs 2 alike (graded at the same time, they
    lost points before), and so do their neighbours."""
    folder = class_folder(tmp_path, kit, {"mmm_locker": ("seccomp_locks", {}), "nnn_locker": ("seccomp_locks", {})})
    rows = {}
    for jobs in ("1", "2"):
        grades = tmp_path / f"grades-{jobs}.csv"
        result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", jobs, "--timeout", "3")
        assert result.returncode == 0, result.stdout + result.stderr
        rows[jobs] = read_rows(grades)
    for student in ("aaa_honest", "mmm_locker", "nnn_locker", "zzz_honest"):
        assert rows["1"][student]["score"] == rows["2"][student]["score"] == rows["1"][student]["max_score"], (rows["1"][student], rows["2"][student])
