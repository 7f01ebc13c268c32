"""What a worker's start costs is kept small without changing what it sees.

- The student-facing library in a sandbox's view comes with the kit's compiled form of
  each module when that form was made from the module as it is: a worker loads it
  instead of compiling the library again; a stale or hash-stamped one is left behind,
  and made again where Python may write bytecode (as importing the module would).
- Under bubblewrap, the private copy of the standard library holds its extension modules
  (new files, one mount for all) where the copy's folder may run code; where it may not
  (a folder in memory mounted `noexec`), the machine's are bound onto empty files. Either
  way a worker loads them.

What the cost is, is measured by bench/run_overhead.py, never asserted here.
"""

from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import isolation_unavailable, needed

from grader.sandbox import isolation, visible


def test_a_compiled_form_is_taken_only_when_made_from_the_source_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "module.py"
    source.write_text("ANSWER = 42\n", encoding="utf-8")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # nothing compiled here: only what is found is taken
    assert isolation._fresh_bytecode(source) is None  # never compiled
    py_compile.compile(str(source), doraise=True)
    assert isolation._fresh_bytecode(source) is not None
    source.write_text("ANSWER = 4242\n", encoding="utf-8")  # changed since: its size tells
    assert isolation._fresh_bytecode(source) is None
    py_compile.compile(str(source), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    assert isolation._fresh_bytecode(source) is None  # stamped by hash: a worker would never check it


def test_a_missing_or_stale_compiled_form_is_made_where_bytecode_may_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As importing the module would: an editable install's kit gets its cache on the
    first grading run, and each later one copies it."""
    source = tmp_path / "module.py"
    source.write_text("ANSWER = 42\n", encoding="utf-8")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled = isolation._fresh_bytecode(source)
    assert compiled is not None and compiled == isolation._stamped(source)
    py_compile.compile(str(source), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    assert isolation._stamped(source) is None
    assert isolation._fresh_bytecode(source) is not None and isolation._stamped(source) is not None  # a hash-stamped one is replaced


@pytest.mark.slow  # starts an interpreter
def test_a_worker_loads_the_views_compiled_library_instead_of_compiling_it(tmp_path: Path) -> None:
    """The kit is compiled (tests/conftest.py does it, as a setup would): a worker's
    interpreter, unable to write anything, finds every module of the view compiled."""
    view = tmp_path / "view"
    isolation._write_view(view)
    python = isolation.python_for(None)
    assert python is not None
    modules = [name.removesuffix(".py").replace("/", ".").removesuffix(".__init__") for name in isolation.STUDENT_API]
    ran = subprocess.run(
        [python, "-B", "-I", "-S", "-v", "-c", f"import sys; sys.path[:0] = [{str(view)!r}]; import {', '.join(modules)}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    compiled = {line.split(" matches ")[1] for line in ran.stderr.splitlines() if " matches " in line}
    assert {str(view / name) for name in isolation.STUDENT_API} <= compiled, ran.stderr[-3000:]


@pytest.fixture
def noexec_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory from which nothing may run (as /dev/shm is in many containers)."""
    if os.geteuid() != 0:
        needed("a noexec mount", "mounting a file system needs root")
    folder = tmp_path / "noexec"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "noexec,size=128m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.mark.slow  # starts bubblewrap
@pytest.mark.parametrize("where", ["runs code", "noexec"])
def test_a_worker_loads_extension_modules_whether_or_not_its_copy_may_run_code(
    where: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    base = request.getfixturevalue("noexec_folder") if where == "noexec" else tmp_path / "memory"
    base.mkdir(exist_ok=True)
    monkeypatch.setattr(visible, "_SHARED_MEMORY", str(base))
    python = isolation.python_for(None)
    assert python is not None
    seen = visible.bound(python)
    extensions = [path for path in seen.files if path.startswith(seen.stdlib + "/")]
    assert len(extensions) > 10, extensions
    assert not set(extensions) & set(seen.bound_from_machine(None))  # no copy: the machine's library is bound whole
    root = tmp_path / "sandbox"
    root.mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    argv = isolation._bwrap_argv(python, empty, empty, root)
    try:
        copy = Path(visible._COPIES[str(root)])
        assert copy.is_relative_to(base)
        bound = {argv[i + 1] for i, flag in enumerate(argv) if flag == "--ro-bind"}
        for path in extensions:
            copied = copy / os.path.relpath(path, seen.stdlib)
            if where == "noexec":  # the machine's, bound onto an empty file of the copy
                assert copied.stat().st_size == 0 and path in bound
            else:  # a file of the copy's own, bound with it
                assert copied.read_bytes() == Path(path).read_bytes() and path not in bound
                assert (copied.stat().st_dev, copied.stat().st_ino) != (os.stat(path).st_dev, os.stat(path).st_ino)
        ran = subprocess.run(
            [*argv, python, "-I", "-S", "-c", "import _decimal, _sqlite3, _ssl, _ctypes, zlib, _json; print('loaded')"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert ran.stdout.strip() == "loaded", ran.stderr[-2000:]
    finally:
        visible.release(root)
