"""What the `user` sandbox's cleanup walk costs when /tmp holds a big tree of root's:
`cleanup.remove_files` (it looks at files only in folders the worker's user could write to
or that are not root's) beside a peer that looks at every entry, as the walk did before.

Run as root from the repository root::

    python bench/cleanup_walk.py [--files 0,10000,50000] [--repeats 5] [--json FILE]

For each size, a fresh folder like /tmp (mode 1777) holds that many files of root's in
folders of mode 755 (a clone, a virtual environment), and one folder anyone may write to
with 20 files of the worker's (a user id no account has), which both walks must remove.
Each walk's CPU seconds (this process's, `time.process_time`) are the median of
`--repeats` runs, the worker's files put back before each; the ratio is the peer's over
the walk's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.sandbox.cleanup import remove_files  # noqa: E402

WORKER = 4_100_000_001
LEFT = 20  # the worker's files, in the folder anyone may write to


def every_entry(top: str, uids: frozenset[int]) -> None:
    """The peer: every entry under `top` stat'ed (no link followed), the files of `uids`
    removed (the tree built here gives them no folder of their own)."""
    for folder, folders, files in os.walk(top):
        for name in folders:
            os.lstat(os.path.join(folder, name))
        for name in files:
            path = os.path.join(folder, name)
            if os.lstat(path).st_uid in uids:
                os.unlink(path)


def build(top: Path, files: int) -> Path:
    """`top` as /tmp with `files` of root's in closed folders; the folder anyone may write to."""
    top.mkdir()
    os.chmod(top, 0o1777)
    per_folder = 100
    for number in range(0, files, per_folder):
        folder = top / "clone" / f"package{number // per_folder}"
        folder.mkdir(parents=True)
        for name in range(min(per_folder, files - number)):
            (folder / f"module{name}.py").write_bytes(b"")
    drop = top / "drop"
    drop.mkdir()
    os.chmod(drop, 0o777)
    return drop


def leave(drop: Path) -> None:
    for name in range(LEFT):
        path = drop / f"left{name}.bin"
        path.write_bytes(b"left")
        os.chown(path, WORKER, WORKER)


def timed(walk: Callable[[str, frozenset[int]], None], top: Path, drop: Path, repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        leave(drop)
        started = time.process_time()
        walk(str(top), frozenset({WORKER}))
        runs.append(time.process_time() - started)
        assert not list(drop.iterdir()), "a walk left a file of the worker's"
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="0,10000,50000")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: the worker's files are given to another user")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for size in (int(n) for n in args.files.split(",")):
            top = Path(scratch) / f"tmp{size}"
            drop = build(top, size)
            walk, peer = timed(remove_files, top, drop, args.repeats), timed(every_entry, top, drop, args.repeats)
            rows.append({"files": size, "walk_s": round(walk, 4), "every_entry_s": round(peer, 4), "ratio": round(peer / walk, 1)})
            print(f"{size:>7} files of root's: walk {walk:.4f} s CPU, every entry {peer:.4f} s, ratio {peer / walk:.1f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
