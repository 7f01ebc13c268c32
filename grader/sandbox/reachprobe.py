"""What of some paths a user can reach: run as that user, its source given on standard
input (`python -I -S - PATH...`), for `isolation.exposed` before `user` isolation is chosen.

The source comes on standard input, not as a file the user opens: the kit is among the
paths the user must not read, so a file of it is one this probe could not run. It prints
"read PATH" for each path the user can list or open, "write PATH" for each it may write
to. Standard library only.
"""

from __future__ import annotations

import os
import sys


def reached(path: str) -> list[str]:
    """What this process can do with `path`: ["read", "write"], either, or neither."""
    found = []
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").close()
        found.append("read")
    except OSError:
        pass
    if os.access(path, os.W_OK):
        found.append("write")
    return found


def main(paths: list[str]) -> int:
    """Print a line "read PATH" or "write PATH" for each way each of `paths` is reached."""
    for path in paths:
        for action in reached(path):
            print(action, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
