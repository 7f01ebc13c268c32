"""Run the command of its arguments as a child of a subreaper (this process) and report
what it leaves behind. Used by test_trust_stopping.py.

Prints the child's pid, samples the pids of its descendants until it ends (a process it
leaves behind, a double fork's included, stays a descendant here), then prints one JSON
line: {"code", "left": [[pid, command line]], "locks": [/proc/locks lines taken by one of
them], "seen": [pids]}, and kills and reaps what was left. The child's output goes to the
file named by GRADER_OUTPUT. Processes are found as bench/stop_latency.py finds them.
"""

import ctypes
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from stop_latency import PR_SET_CHILD_SUBREAPER, descendants, reap  # noqa: E402


def command(pid: int) -> str:
    """`pid`'s command line ("?" once it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as line:
            return line.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def main(argv: list[str]) -> None:
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    with open(os.environ["GRADER_OUTPUT"], "wb") as output:
        child = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)
    print(child.pid, flush=True)
    seen = {child.pid}
    while child.poll() is None:
        seen |= descendants()
        time.sleep(0.02)
    left = sorted(descendants())
    taken = {str(pid) for pid in seen}
    with open("/proc/locks", encoding="ascii") as table:
        locks = [line.strip() for line in table if len(line.split()) > 4 and line.split()[4] in taken]
    print(json.dumps({"code": child.returncode, "left": [[pid, command(pid)] for pid in left], "locks": locks, "seen": sorted(seen)}), flush=True)
    reap()


if __name__ == "__main__":
    main(sys.argv[1:])
