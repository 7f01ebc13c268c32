"""What a worker sees under bubblewrap is found by a probe that loads every extension module
of the standard library without running it (`visible._probe`): nothing a module maps when
it is really imported may be missing from what the probe finds, or a student's import of
it would fail in the sandbox."""

from __future__ import annotations

import os
import subprocess

import pytest

from grader.sandbox import visible
from grader.sandbox.isolation import python_for

#: Imports every extension module of the standard library, then names every file mapped.
IMPORTS_EVERY_EXTENSION = """
import importlib, os, sysconfig
dynload = os.path.join(sysconfig.get_path("platstdlib"), "lib-dynload")
for name in sorted(os.listdir(dynload)):
    if name.endswith(".so"):
        try:
            importlib.import_module(name.split(".")[0])
        except Exception:
            pass
with open("/proc/self/maps") as maps:
    print(*sorted({line.split(None, 5)[5].strip() for line in maps if len(line.split(None, 5)) == 6}), sep="\\n")
"""


@pytest.mark.slow
def test_the_probe_finds_every_file_a_real_import_of_each_extension_maps() -> None:
    python = python_for(None)
    assert python is not None
    found = visible._probe(python)
    ran = subprocess.run([python, "-I", "-S", "-c", IMPORTS_EVERY_EXTENSION], capture_output=True, text=True, timeout=120, check=True)
    imported = {os.path.realpath(path) for path in ran.stdout.splitlines() if path.startswith("/") and os.path.isfile(path)}
    assert len(imported) > 10, imported
    assert sorted(imported - set(found.files)) == []
    assert os.path.realpath(python) in found.files
