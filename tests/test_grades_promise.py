"""A grade is a promise: the same class gets the same grades whatever --jobs, the machine's
load and the order of the batch, and a failure of the grader's is never a student's zero.

The class holds a correct student, every common mistake, a slow but correct student, a
student that sleeps in a hook, one that works in a thread, crashing, looping, exiting and
unloadable files, and a hook that keeps state between calls. It is graded with --jobs 1 on an idle machine,
then with --jobs 2 on a busy one, so that submissions finish in another order and wait
for the CPU as among other work: every score and every reason (its measured times aside)
must be the same. The busy machine is a control group's CPU quota (`loaded_machine`), as
tests/test_trust_starve.py makes one: the grader and everything it starts get three
quarters of a core between them, and no process burns the rest; where no such group can
be made, two busy processes per core.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from conftest import COURSE, STUDENT_FILES, cpu_quota, grader_env, run_grader, self_contained, timings_aside

#: Every kind of student; the test checks that each gets what it deserves in the first run.
CLASS = {
    "standalone_correct": "full",
    "correct_reexport": "full",
    "slow_correct": "full",
    "lazy_upper": "partial",
    "off_by_one_bounds": "partial",
    "reversed_values": "partial",
    "flips_values": "partial",
    "crash": "partial",
    "loops": "partial",
    "loop_bounds": "partial",
    "exits": "partial",
    "os_exit_bounds": "partial",
    "sys_exit": "partial",
    "segfault_bounds": "partial",
    "syntax": "zero",
    "import_raises": "zero",
    "wrong_types": "partial",
    "returns_set": "partial",
    "constant_answers": "zero",
    "sat_off_by_one": "partial",
    "parallel_buggy": "partial",
    "stateful": "partial",
    "sleeps_in_hooks": "partial",
    "huge_alloc": "partial",
    "threaded_work": "full",
}


#: The CPU the loaded run's grader and every process it starts get between them, in cores
#: (a quota per the kernel's default period, see `cpu_quota`). Beside two busy processes
#: per core (two cores) a student's workers got 0.26 s of CPU a second of its grading;
#: under this quota, 0.19 to 0.22.
RATION = 0.75


def cpu_group() -> Path | None:
    """This process's group in a cgroup v1 cpu hierarchy (None where none is mounted)."""
    own = [
        path
        for _, names, path in (line.split(":", 2) for line in Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines())
        if "cpu" in names.split(",")
    ]
    for line in Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines():
        before, _, after = line.partition(" - ")
        fields, kind = before.split(), after.split()
        if own and kind[0] == "cgroup" and "cpu" in kind[2].split(","):
            return Path(fields[4]) / os.path.relpath(own[0], fields[3])
    return None


def ration_group() -> Path | None:
    """A new group in this process's cpu hierarchy whose processes get RATION cores
    between them, a CFS quota the kernel enforces (None where none can be made: no cgroup
    v1 cpu hierarchy, or not root)."""
    home = cpu_group()
    if home is None:
        return None
    group = home / f"grades-promise-{os.getpid()}"
    try:
        group.mkdir()
        cpu_quota(group, RATION)
    except OSError:
        if group.is_dir():
            group.rmdir()
        return None
    return group


@dataclass
class Load:
    """What held the loaded run back: `throttled`, the seconds the kernel kept its group's
    processes from running for the quota (None beside busy processes instead)."""

    throttled: float | None = None


@contextmanager
def loaded_machine() -> Iterator[Load]:
    """For as long as the block runs, this process and every process it starts (the
    grader, its workers) are in a `ration_group`: they wait for the CPU as on a machine
    others keep busy, and no process of ours burns what the quota holds back (it goes to
    the machine's other work). Where no such group can be made, two busy processes per
    core instead."""
    group, load = ration_group(), Load()
    if group is None:
        with busy_machine():
            yield load
        return
    try:
        (group / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
        yield load
    finally:
        (group.parent / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
        stat = dict(line.split() for line in (group / "cpu.stat").read_text(encoding="ascii").splitlines())
        load.throttled = int(stat["throttled_time"]) / 1e9
        group.rmdir()  # empty: the grader's run is over, and its processes with it


@contextmanager
def busy_machine(per_core: int = 2) -> Iterator[None]:
    """Two busy processes per core for as long as the block runs."""
    count = per_core * (os.cpu_count() or 1)
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def single_file(name: str) -> str:
    """tests/student_files/NAME.py as one file (the model answer built in when it imports it)."""
    text = (STUDENT_FILES / f"{name}.py").read_text(encoding="utf-8")
    return self_contained(name) if "model_answer" in text else text


def class_folder(folder: Path) -> Path:
    """The class, each student a single file."""
    folder.mkdir()
    for name in CLASS:
        (folder / f"{name}.py").write_text(single_file(name), encoding="utf-8")
    return folder


def grades(tmp_path: Path, run: str, jobs: int) -> dict[str, dict[str, str]]:
    """Grade the class; each student's CSV row (times in reasons replaced by N, without the
    columns of grading seconds, which measure the run, not the work)."""
    folder = class_folder(tmp_path / run)
    out = tmp_path / f"{run}.csv"
    result = run_grader(COURSE, "--submissions", folder, "--csv", out, "--jobs", str(jobs), "--timeout", "2", timeout=900)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout[-3000:]
    with out.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {
        row["student"]: {key: str(timings_aside(value)) for key, value in row.items() if key not in ("student", "cpu_seconds", "wall_seconds")}
        for row in rows
    }


def test_the_same_class_gets_the_same_grades_whatever_jobs_and_load(tmp_path: Path) -> None:
    quiet = grades(tmp_path, "quiet", 1)
    assert sorted(quiet) == sorted(CLASS)
    for student, kind in CLASS.items():
        score, full = float(quiet[student]["score"]), float(quiet[student]["max_score"])
        assert {"full": score == full, "partial": 0 < score < full, "zero": score == 0}[kind], (student, quiet[student])
    assert "asleep" in quiet["sleeps_in_hooks"]["lost"] and "ran out of time" in quiet["loop_bounds"]["lost"]
    with loaded_machine() as load:
        loaded = grades(tmp_path, "loaded", 2)
    print(f"the loaded run: {load}")
    assert load.throttled is None or load.throttled > 0, "the quota never held the loaded run back"
    assert loaded == quiet


def test_a_worker_that_cannot_start_is_retried_then_not_graded_never_zero(tmp_path: Path) -> None:
    """A bubblewrap that fails to start workers (a failure of the machine's): after a
    failure, the student is graded as usual; when it never starts, the student is
    'not graded', with no score in the CSV and exit status 3."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.py").write_text(single_file("standalone_correct"), encoding="utf-8")
    fake = Path(tempfile.mkdtemp(prefix="fake-bwrap-"))  # bubblewrap runs as an unprivileged user when we are root
    os.chmod(fake, 0o755)
    counter = fake / "failures-left"
    real = subprocess.run(["sh", "-c", "command -v bwrap"], capture_output=True, text=True).stdout.strip()
    # fails for workers (never for the start-up probe) while the counter is above zero
    (fake / "bwrap").write_text(
        "#!/bin/sh\n"
        f'left=$(cat "{counter}")\n'
        'case "$*" in *grader.sandbox.child*) if [ "$left" -gt 0 ]; then\n'
        f'  echo $((left - 1)) > "{counter}"; echo "bwrap: Creating new namespace failed: Resource temporarily unavailable" >&2; exit 1\n'
        "fi;; esac\n"
        f'exec {real} "$@"\n',
        encoding="utf-8",
    )
    os.chmod(fake / "bwrap", 0o755)
    env = grader_env(PATH=f"{fake}:{os.environ['PATH']}")

    def graded(failures: int) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
        counter.write_text(str(failures), encoding="utf-8")
        os.chmod(counter, 0o666)
        out = tmp_path / f"grades-{failures}.csv"
        result = subprocess.run(
            [sys.executable, "-m", "grader", COURSE, "--submissions", folder, "--csv", out, "--isolation", "bwrap"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert "Traceback" not in result.stdout + result.stderr, result.stdout
        with out.open(newline="", encoding="utf-8") as handle:
            return result, next(csv.DictReader(handle))

    try:
        result, row = graded(1)  # a worker fails to start: it is tried again, and the grade is whole
        assert result.returncode == 0 and row["score"] == row["max_score"] and not row["note"], row
        result, row = graded(10_000)
        assert result.returncode == 3, result.stdout
        assert row["score"] == "" and row["note"].startswith("not graded: ") and "could not start" in row["note"], row
        assert all(value == "" for key, value in row.items() if "/" in key), row  # no item scored either
        assert "not graded" in result.stdout
    finally:
        shutil.rmtree(fake)
