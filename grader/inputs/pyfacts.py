"""What the grader learns from a student's Python file without running it: which of some
wanted names it defines at top level, which of its top-level functions among them are
more than a stub, and which of those call which by name.

Files are parsed in a process of their own (`python -I -S`, the standard library only)
under a memory and a CPU limit the kernel keeps. A syntax tree too deep for Python
(RecursionError, MemoryError), a file too costly for the limits, NUL bytes, an
undecodable encoding or binary bytes cost that one reading, never the grader: such a
file defines nothing as far as the grader can tell, and `Facts.unread` says why (the
sandbox, loading it, tells the student). Files are read as bytes, so that a coding
cookie or a UTF-8 BOM is honoured as Python honours it. A reading is kept for the
process's life, by the file's identity (device, inode, size, modification time).
"""

from __future__ import annotations

import ast
import json
import os
import resource
import subprocess
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

READ_MEMORY = 1 << 30  # bytes of address space of the reading process
READ_SECONDS = 20  # seconds of CPU it may use
WALL_SECONDS = 120  # then it is stopped, however loaded the machine
READ_BYTES = 5 << 20  # a longer file is not read (the intake's limit)
TOO_COSTLY = "is too costly to read"


@dataclass(frozen=True)
class Facts:
    """One file, as far as the wanted names go: those it defines at top level, its
    top-level functions that are more than a stub (in file order), and (caller, callee)
    for each call by name of one to another; `unread`: why it could not be read ("" when
    it was), to be read after the file's name."""

    names: frozenset[str] = frozenset()
    written: tuple[str, ...] = ()
    calls: frozenset[tuple[str, str]] = frozenset()
    unread: str = ""


_kept: dict[tuple[tuple[int, ...], frozenset[str]], Facts] = {}
_lock = threading.Lock()


def facts(paths: Iterable[Path], wanted: frozenset[str]) -> dict[Path, Facts]:
    """Each file's facts about the `wanted` names (read once per process, by as few
    reading processes as the files allow)."""
    found: dict[Path, Facts] = {}
    keys: dict[Path, tuple[int, ...]] = {}
    for path in paths:
        try:
            info = path.stat()
        except OSError as error:
            found[path] = Facts(unread=f"cannot be read ({error.strerror})")
            continue
        keys[path] = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    with _lock:
        found.update({path: _kept[(key, wanted)] for path, key in keys.items() if (key, wanted) in _kept})
    todo = [path for path in keys if path not in found]
    while todo:  # each round reads at least one file: the one a reading process dies on is too costly
        answered = _read_elsewhere(todo, wanted)
        found.update(answered)
        rest = [path for path in todo if path not in answered]
        if rest:
            found[rest[0]] = Facts(unread=f"{TOO_COSTLY} (more than {READ_MEMORY >> 20} MB or {READ_SECONDS} s of CPU)")
        todo = rest[1:]
    with _lock:
        _kept.update({(key, wanted): found[path] for path, key in keys.items()})
    return found


def facts_of(path: Path, wanted: frozenset[str]) -> Facts:
    return facts([path], wanted)[path]


def _read_elsewhere(paths: list[Path], wanted: frozenset[str]) -> dict[Path, Facts]:
    """The facts of the files a reading process answered for, in order, before it ended."""
    asked = json.dumps({"paths": [os.path.abspath(p) for p in paths], "wanted": sorted(wanted), "memory": READ_MEMORY, "seconds": READ_SECONDS})
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", __file__], input=asked, capture_output=True, text=True, timeout=WALL_SECONDS, check=False, cwd="/"
        )
        said = done.stdout
    except subprocess.TimeoutExpired as stopped:
        said = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout or ""
    answered: dict[Path, Facts] = {}
    for line, path in zip(said.splitlines(), paths):
        try:
            raw = json.loads(line)
        except ValueError:  # a line cut short as the process died
            break
        answered[path] = Facts(frozenset(raw["names"]), tuple(raw["written"]), frozenset((a, b) for a, b in raw["calls"]), raw["unread"])
    return answered


# --- the reading process: the standard library only ------------------------------------


def read(path: str, wanted: frozenset[str]) -> dict[str, object]:
    """The facts of one file, as JSON-ready values."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(handle, "rb") as file:
            data = file.read(READ_BYTES + 1)
        if len(data) > READ_BYTES:
            return _unread(f"is larger than {READ_BYTES >> 20} MB")
        tree = ast.parse(data)
    except SyntaxError as error:
        return _unread(f"is not valid Python ({error.msg}{f', line {error.lineno}' if error.lineno else ''})")
    except (RecursionError, MemoryError) as error:
        return _unread(f"is nested too deeply or too large for Python to read ({type(error).__name__})")
    except OSError as error:
        return _unread(f"cannot be read ({error.strerror})")
    except ValueError as error:  # NUL bytes, an undecodable encoding
        return _unread(f"is not Python text ({type(error).__name__}: {str(error)[:100]})")
    names: set[str] = set()
    written: list[str] = []
    calls: set[tuple[str, str]] = set()
    for node in tree.body:
        names |= top_level_names(node)
        if isinstance(node, ast.FunctionDef) and node.name in wanted:
            if not is_stub(node):
                written.append(node.name)
            called = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
            calls |= {(node.name, other) for other in called & wanted if other != node.name}
    return {"names": sorted(names & wanted), "written": written, "calls": sorted(calls), "unread": ""}


def _unread(why: str) -> dict[str, object]:
    return {"names": [], "written": [], "calls": [], "unread": why}


def top_level_names(node: ast.stmt) -> set[str]:
    """The names a top-level statement defines (functions, classes, assignments, imports)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return set()


def is_stub(function: ast.FunctionDef) -> bool:
    """True when the function only raises NotImplementedError (after its docstring)."""
    body = (
        function.body[1:]
        if function.body and isinstance(function.body[0], ast.Expr) and isinstance(function.body[0].value, ast.Constant)
        else function.body
    )
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def main() -> None:
    """Read the files asked on stdin, one JSON line each, under the kernel's limits."""
    asked = json.loads(sys.stdin.read())
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (asked["memory"], asked["memory"]))
    resource.setrlimit(resource.RLIMIT_CPU, (asked["seconds"], asked["seconds"] + 1))
    wanted = frozenset(asked["wanted"])
    for path in asked["paths"]:
        print(json.dumps(read(path, wanted)), flush=True)


if __name__ == "__main__":
    main()
