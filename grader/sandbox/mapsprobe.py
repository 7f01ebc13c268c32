"""What a worker's interpreter maps: run by that interpreter, by file path (`python -I -S
mapsprobe.py [import]`: no site-packages, no kit on its path), for `visible.bound`.

It prints the interpreter's standard library, then every file it maps once it has loaded
each extension module of the standard library with the libraries it needs (failures
ignored). Loaded, not imported: no module is initialised (initialising _asyncio alone
imports the asyncio package, two thirds of the probe's time), and the files mapped are
the same (`tests/test_visible_probe.py` compares them on the machine with the peer that
imports each one, `import`, which bench/run_overhead.py times). Standard library only.
"""

from __future__ import annotations

import os
import sys
import sysconfig

#: How the probe opens each extension module: its own way, or its benchmark peer's.
WAYS = ("load", "import")


def extension_modules(folder: str) -> list[str]:
    """The extension modules (shared objects) in `folder`, sorted; none when it is not a folder."""
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".so")] if os.path.isdir(folder) else []


def load(path: str) -> None:
    """Map the extension module at `path` and the libraries it needs, without running it."""
    import ctypes

    try:
        ctypes.CDLL(path, mode=os.RTLD_NOW)
    except OSError:
        pass


def import_module(path: str) -> None:
    """Import the extension module at `path` (the peer's way: its initialisation runs)."""
    import importlib

    try:
        importlib.import_module(os.path.basename(path).split(".")[0])
    except Exception:  # a module that cannot start here has mapped what it needed so far
        pass


def mapped(maps: list[str]) -> list[str]:
    """The files named in lines of /proc/PID/maps, sorted, each once (their paths may hold
    spaces; anonymous mappings and pseudo-files like [heap] are left out)."""
    fields = [line.split(None, 5) for line in maps]
    return sorted({f[5].strip() for f in fields if len(f) == 6 and f[5].startswith("/")})


def main(argv: list[str]) -> int:
    """Print the standard library's folder, then each file mapped after every extension
    module was opened the way `argv` names (`load` when empty); 2 for another argument."""
    if argv[1:] or (argv and argv[0] not in WAYS):
        print(f"usage: mapsprobe.py [{'|'.join(WAYS)}]", file=sys.stderr)
        return 2
    opening = import_module if argv == ["import"] else load
    for path in extension_modules(os.path.join(sysconfig.get_path("platstdlib"), "lib-dynload")):
        opening(path)
    with open("/proc/self/maps") as maps:
        files = mapped(maps.readlines())
    print(sysconfig.get_path("stdlib"))
    print(*files, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
