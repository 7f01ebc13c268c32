"""What a worker sees under bubblewrap is found by a probe that loads every extension module
of the standard library without running it (`grader/sandbox/mapsprobe.py`, run by
`visible._probe`): nothing a module maps when it is really imported may be missing from what
the probe finds, or a student's import of it would fail in the sandbox. The
import-every-module probe compared with is the peer bench/run_overhead.py times
(`IMPORTING`)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import mapsprobe, visible
from grader.sandbox.isolation import python_for

ROOT = Path(__file__).resolve().parents[1]


def importing_way() -> str:
    """bench/run_overhead.py's peer: how it tells the probe to import each extension module."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    way: str = importlib.import_module("bench.run_overhead").IMPORTING
    return way


@pytest.mark.slow
def test_the_probe_finds_every_file_a_real_import_of_each_extension_maps() -> None:
    python = python_for(None)
    assert python is not None
    found = visible._probe(python)
    peer = importing_way()
    assert peer in mapsprobe.WAYS and peer != "load"
    imported = visible._probe(python, peer)
    assert len(imported.files) > 10, imported.files
    assert sorted(set(imported.files) - set(found.files)) == []
    assert os.path.realpath(python) in found.files


def test_the_probe_runs_by_path_with_nothing_but_the_standard_library(tmp_path: Path) -> None:
    """As `visible._probe` runs it (-I -S, from /): the standard library's folder first, then
    mapped files, the interpreter's extension modules among them; no kit module is needed."""
    ran = subprocess.run(
        [sys.executable, "-I", "-S", mapsprobe.__file__], capture_output=True, text=True, timeout=60, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}
    )
    assert ran.returncode == 0, ran.stderr
    stdlib, *files = ran.stdout.splitlines()
    assert Path(stdlib) == Path(os.__file__).parent
    dynload = [f for f in files if "/lib-dynload/" in f]
    assert dynload and all(f.endswith(".so") for f in dynload), files


@pytest.mark.parametrize("argv", [["load", "load"], ["unload"], ["--import"]])
def test_the_probe_refuses_a_way_it_does_not_know(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert mapsprobe.main(argv) == 2
    assert capsys.readouterr().out == ""


def test_mapped_files_are_the_paths_of_the_maps_lines() -> None:
    """A path with spaces stays whole; anonymous mappings, [heap] and [vdso] are not files;
    each file once, sorted."""
    lines = [
        "7f00-7f01 r--p 00000000 08:01 42    /usr/lib/x86_64-linux-gnu/libc.so.6\n",
        "7f01-7f02 r-xp 00001000 08:01 42    /usr/lib/x86_64-linux-gnu/libc.so.6\n",
        "7f02-7f03 rw-p 00000000 00:00 0 \n",
        "5600-5601 rw-p 00000000 00:00 0    [heap]\n",
        "7ffd-7ffe r-xp 00000000 00:00 0    [vdso]\n",
        "7f03-7f04 r--p 00000000 08:01 77    /opt/my python/lib/a b.so\n",
    ]
    assert mapsprobe.mapped(lines) == ["/opt/my python/lib/a b.so", "/usr/lib/x86_64-linux-gnu/libc.so.6"]


def test_extension_modules_are_the_shared_objects_of_the_folder(tmp_path: Path) -> None:
    for name in ("_b.cpython-311-x86_64-linux-gnu.so", "_a.abi3.so", "notes.txt", "x.py"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert mapsprobe.extension_modules(str(tmp_path)) == [str(tmp_path / "_a.abi3.so"), str(tmp_path / "_b.cpython-311-x86_64-linux-gnu.so")]
    assert mapsprobe.extension_modules(str(tmp_path / "absent")) == []
