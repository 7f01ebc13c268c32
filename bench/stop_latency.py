"""How soon a class run stops on SIGTERM or Ctrl-C (SIGINT), at points stepped across it,
and what it leaves: `python -m grader problems/course.yaml --submissions CLASS` of
correct students, stopped under `bwrap` and `user`.

    python bench/stop_latency.py                      # 16 points per mode, 4 students, --jobs 2
    python bench/stop_latency.py --points 30 --jobs 1 --modes bwrap --json stop.json
    python bench/stop_latency.py --peer ../main       # and another checkout, at the same points

This script is a subreaper (what a run leaves behind, a double fork's included, stays its
descendant). For each mode it grades the class once unstopped (its wall time T), then
once per point: the signal (SIGTERM and SIGINT in turn) is sent T * (i + 0.5) / points
seconds in, and the script times, from the signal, the run's return (its exit) and the
last of its processes gone (every descendant of this script; a run still leaving some
after `--wait` seconds counts as "never"). At the run's return it also counts the
processes still there and the flock locks (user-id leases) still held that a process of
the run took (its pids sampled every 0.1 s until the signal). Medians and maxima per
mode; a run that ended before its signal came is left out of them. With `--peer`, the
other checkout's run at each point follows this one's, so that both see the same load.
`user` needs root and a kit closed to other users: the script copies each kit into a
private folder for it.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches beside this one
from grading_overhead import closed_kit  # noqa: E402  (one way to close a kit to other users)

STUDENT = ROOT / "tests" / "student_files" / "model_answer.py"
PR_SET_CHILD_SUBREAPER = 36
SAMPLE_SECONDS = 0.1  # how often the run's processes are listed until the signal (the listing costs CPU the run could use)
WATCH_SECONDS = 0.005  # how often the run's exit, then its last process, are looked for once signalled


@dataclass(frozen=True)
class Stop:
    """One stopped run: the signal, when it was sent, and what was measured from it."""

    signal: str
    at: float  # seconds into the run
    code: int | None  # exit status (negative: killed by that signal)
    returned: float | None  # seconds from the signal to the run's exit (None: it ended before the signal)
    gone: float | None  # seconds from the signal to its last process gone (None: never, within --wait)
    left_at_return: int  # processes of the run still there when it returned
    leases_at_return: int  # locks taken by a process of the run still held when it returned


def descendants() -> set[int]:
    """Every live process below this one (zombies aside)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] not in ("Z", "X"):
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def held_locks(pids: set[int]) -> int:
    """Locks in /proc/locks taken by one of `pids` and still held."""
    taken = {str(pid) for pid in pids}
    with open("/proc/locks", encoding="ascii") as table:
        return sum(1 for line in table if len(line.split()) > 4 and line.split()[4] in taken)


def reap() -> None:
    """Kill what an earlier run left below this script, and reap every child."""
    for pid in descendants():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                if not descendants():
                    return
                time.sleep(WATCH_SECONDS)
        except ChildProcessError:
            return


def one_run(command: list[str], kit: Path, stop: tuple[float, signal.Signals] | None, wait: float) -> tuple[float, Stop | None]:
    """Run `command` in `kit`; with `stop`, send that signal that many seconds in. (Its
    wall time, what the stop measured.)"""
    started = time.monotonic()
    grader = subprocess.Popen(command, cwd=kit, env={**os.environ, "PYTHONPATH": str(kit)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {grader.pid}
    sent: float | None = None
    sampled = 0.0
    while grader.poll() is None:
        now = time.monotonic()
        if stop is not None and sent is None and now - started >= stop[0]:
            grader.send_signal(stop[1])
            sent = now
        if sent is None and now - sampled >= SAMPLE_SECONDS:
            seen |= descendants()
            sampled = now
        time.sleep(WATCH_SECONDS if sent is not None else min(SAMPLE_SECONDS, max(0.0, started + (stop[0] if stop else 1e9) - now)))
    returned = time.monotonic()
    left, leases = descendants(), held_locks(seen)
    at_return = len(left)
    gone: float | None = returned
    while left:
        if time.monotonic() - returned > wait:
            gone = None
            break
        time.sleep(WATCH_SECONDS)
        left = descendants()
        gone = time.monotonic()
    reap()
    if stop is None:
        return returned - started, None
    measured = Stop(
        stop[1].name,
        round(stop[0], 3),
        grader.returncode,
        None if sent is None else round(returned - sent, 3),
        None if sent is None or gone is None else round(gone - sent, 3),
        at_return,
        leases,
    )
    return returned - started, measured


def summary(stops: list[Stop]) -> dict[str, object]:
    """Medians and maxima over the runs the signal reached."""
    reached = [s for s in stops if s.returned is not None]
    returned = [s.returned for s in reached if s.returned is not None]
    gone = [s.gone for s in reached if s.gone is not None]
    return {
        "stopped": len(reached),
        "return median": statistics.median(returned) if returned else None,
        "return max": max(returned) if returned else None,
        "gone median": statistics.median(gone) if gone else None,
        "gone max": max(gone) if len(gone) == len(reached) and gone else None,  # None: some run never got there
        "never gone": len(reached) - len(gone),
        "runs leaving processes at return": sum(1 for s in reached if s.left_at_return),
        "runs leaving leases at return": sum(1 for s in reached if s.leases_at_return),
        "exit 128+N": sum(1 for s in reached if s.code == 128 + signal.Signals[s.signal].value),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=16, help="stopped runs per mode")
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--modes", default="bwrap,user")
    parser.add_argument("--peer", type=Path, help="another checkout of the kit, stopped at the same points")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds after the return to wait for the last process")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    roots = {"this": ROOT, **({"peer": args.peer.resolve()} if args.peer else {})}
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as private:
        folder = Path(private) / "class"
        folder.mkdir()
        for number in range(args.students):
            shutil.copyfile(STUDENT, folder / f"student{number:02d}.py")
        for mode in args.modes.split(","):
            if mode == "user" and os.geteuid() != 0:
                print("user: needs root, left out")
                continue
            kits = {
                name: closed_kit(Path(tempfile.mkdtemp(prefix=f"user-{name}-", dir=private)), root) if mode == "user" else root
                for name, root in roots.items()
            }
            command = [sys.executable, "-m", "grader", "problems/course.yaml", "--submissions", str(folder), "--csv", str(Path(private) / "g.csv")]
            command += ["--jobs", str(args.jobs), "--isolation", mode]
            wholes = {name: one_run(command, kit, None, args.wait)[0] for name, kit in kits.items()}
            stops: dict[str, list[Stop]] = {name: [] for name in kits}
            for point in range(args.points):
                number = (signal.SIGTERM, signal.SIGINT)[point % 2]
                for name, kit in kits.items():
                    _, stop = one_run(command, kit, (wholes["this"] * (point + 0.5) / args.points, number), args.wait)
                    assert stop is not None
                    stops[name].append(stop)
                    print(mode, name, json.dumps(asdict(stop)), flush=True)
            for name in kits:
                key = f"{mode} {name}"
                results[key] = {"unstopped seconds": round(wholes[name], 2), **summary(stops[name]), "runs": [asdict(s) for s in stops[name]]}
                shown = {k: v for k, v in results[key].items() if k != "runs"}
                print(f"{key} (--jobs {args.jobs}, {args.students} students): {json.dumps(shown)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
