"""The machine's counters and the host's details: what a `bwrap` worker reads of what
other gradings do.

Two students graded at the same time share the machine: its thread count and load, its
CPU time, free memory and pressure, the free space of its file systems, the host's paths
in a mount table. A sender that holds threads on a hidden board and a receiver that reads
the thread count make a channel. Under `bwrap` a worker has no /proc and no /sys, and its
filter refuses `sysinfo` and `statfs`:

- two workers started as the grader starts them, each in a sandbox of its own: one moves
  threads, memory, CPU and files in its /tmp and /dev/shm in steps, the other, confined
  as a graded item is, reads every counter between the steps: nothing it reads moves,
  and nothing it can read of /proc holds a host path;
- the same two students graded by the real grader with `--jobs 2`, between two honest
  ones: the reader's hooks fail if anything they read moves; everyone gets full marks.

What stays open (timing the CPU a neighbour leaves free; under `user`, the machine's own
/proc) is measured by bench/counter_channels.py, never asserted here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, Kit, attacker, bench_module, class_folder, isolation_unavailable, needed, read_rows

from grader.sandbox import isolation, visible

READER = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from grader.sandbox.confine import confine
assert confine() is None
import counters_reader
for line in sys.stdin:
    print(json.dumps({"readings": counters_reader.readings(), "host": counters_reader.host_text()}), flush=True)
"""

MOVER = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from grader.sandbox.confine import confine
assert confine() is None
import counters_mover
for line in sys.stdin:
    counters_mover.hold(line.strip() == "1", strong=True)
    print("held", flush=True)
"""


def load_bench() -> ModuleType:
    """bench/counter_channels.py as a module: it starts workers as the grader does."""
    return bench_module("counter_channels")


def ask(started: object, line: str) -> str:
    process = started.process  # type: ignore[attr-defined]
    process.stdin.write(line + "\n")
    process.stdin.flush()
    answer = process.stdout.readline()
    assert answer, process.stderr.read()
    return str(answer)


def host_paths(sandboxes: list[isolation.Sandbox]) -> list[str]:
    """What of the host a worker must never read: each sandbox's folder, each private
    copy's folder and name (in /dev/shm), and the grader's pid as those names hold it."""
    found = [str(sandbox.root) for sandbox in sandboxes] + ["/dev/shm/", "grader-stdlib-", visible._holder_prefix(os.getpid())]
    for sandbox in sandboxes:
        copy = visible._COPIES.get(str(sandbox.root))
        if copy is not None:
            found += [os.path.basename(os.path.dirname(copy)), os.path.basename(copy)]
    return found


@pytest.mark.slow  # starts workers
def test_a_worker_reads_nothing_a_worker_graded_beside_it_moves(tmp_path: Path) -> None:
    """Two bwrap workers of two sandboxes (two students graded at once): while one holds
    100 threads, 128 MB, two busy threads and 16 MB files in its /tmp and /dev/shm, and
    then none, in turn, the other reads /proc's counters, /sys's, `sysinfo`, the load
    average and the free space of every file system it sees: each reads the same (or
    fails the same way) at every step; and nothing it can read of /proc names the host's
    folders, the standard library's copy or the grader's pid."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    bench = load_bench()
    files = [attacker(tmp_path / "r", "counters_reader"), attacker(tmp_path / "m", "counters_mover")]
    sandboxes = [bench.open_sandbox("bwrap"), bench.open_sandbox("bwrap")]
    started = []
    try:
        reader = bench.start(sandboxes[0], READER, [], files[:1])
        started.append(reader)
        mover = bench.start(sandboxes[1], MOVER, [], files[1:])
        started.append(mover)
        steps = []
        for on in (0, 1, 0, 1, 0):
            assert ask(mover, str(on)).strip() == "held"
            steps.append(json.loads(ask(reader, "read")))
        forbidden = host_paths(sandboxes)
    finally:
        for worker in started:
            worker.output()  # its standard input closed: it ends
        for sandbox in sandboxes:
            sandbox.close()
    first = steps[0]["readings"]
    assert len(first) >= 30, first
    moved = {name: [step["readings"][name][:120] for step in steps] for name in first if any(step["readings"][name] != first[name] for step in steps)}
    assert moved == {}
    shown = {path: [line[:200] for line in step["host"].splitlines() if path in line][:3] for step in steps for path in forbidden}
    assert {path: lines for path, lines in shown.items() if lines} == {}


@pytest.fixture(scope="module")
def bwrap_kit() -> Kit:
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    return Kit("bwrap", ROOT)


def test_a_reader_graded_beside_a_mover_and_its_neighbours_get_full_marks(bwrap_kit: Kit, tmp_path: Path) -> None:
    """A class under bwrap with --jobs 2: a student that holds 10 threads, 64 MB and files
    through every item, one whose hooks fail when anything machine-wide they read moves
    within 0.4 s, and two honest students around them: all four get full marks (the
    reader's items, graded beside the mover's, read nothing that moves)."""
    folder = class_folder(tmp_path, bwrap_kit, {"mmm_mover": ("counters_mover", {}), "nnn_reader": ("counters_reader", {})})
    grades = tmp_path / "grades.csv"
    result = bwrap_kit.run(bwrap_kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    rows = read_rows(grades)
    for student in ("aaa_honest", "mmm_mover", "nnn_reader", "zzz_honest"):
        assert rows[student]["score"] == rows[student]["max_score"], rows[student]
