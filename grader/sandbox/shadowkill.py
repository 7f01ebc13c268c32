"""Kill every process of a worker's user at once: run as root by file path
(`python -I -S shadowkill.py UID SHADOW`) by `cleanup.kill_user`, the guardian included.

It takes the `SHADOW` id as its real and saved user ids and group, the worker's `UID` as its
effective one, and sends SIGKILL to -1: every process the kernel lets it signal, those of
`UID` (whose real or saved id matches its effective one), at once, while no process of
`UID` can signal it back (see `cleanup`). Ids of root are refused: as root's effective id,
-1 is every process. Standard library only.
"""

from __future__ import annotations

import os
import signal
import sys


class Refused(ValueError):
    """The arguments are not two user ids, neither root's."""


def ids(argv: list[str]) -> tuple[int, int]:
    """The worker's id and its shadow from the arguments; Refused unless there are two,
    both whole numbers above 0."""
    if len(argv) != 2 or not all(word.isdigit() for word in argv):
        raise Refused(f"usage: shadowkill.py UID SHADOW, not {argv}")
    uid, shadow = int(argv[0]), int(argv[1])
    if uid == 0 or shadow == 0:
        raise Refused("root's id is never killed from")
    return uid, shadow


def kill_as(uid: int, shadow: int) -> None:
    """Become `uid` with `shadow` as real and saved ids, then SIGKILL every process `uid` has."""
    os.setgroups([])
    os.setresgid(shadow, shadow, shadow)
    os.setresuid(shadow, uid, shadow)
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:  # no process left to signal
        pass


def main(argv: list[str]) -> int:
    try:
        uid, shadow = ids(argv)
    except Refused as error:
        print(error, file=sys.stderr)
        return 2
    kill_as(uid, shadow)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
