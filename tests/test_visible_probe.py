"""What a worker sees under bubblewrap is found by a probe that loads every extension module
of the standard library without running it (`visible._probe`): nothing a module maps when
it is really imported may be missing from what the probe finds, or a student's import of
it would fail in the sandbox. The import-every-module probe compared with is the peer
bench/run_overhead.py times (`IMPORTING`)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

from grader.sandbox import visible
from grader.sandbox.isolation import python_for

ROOT = Path(__file__).resolve().parents[1]


def importing_probe() -> str:
    """bench/run_overhead.py's peer: the probe's script with each extension module imported."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.run_overhead").IMPORTING


@pytest.mark.slow
def test_the_probe_finds_every_file_a_real_import_of_each_extension_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    python = python_for(None)
    assert python is not None
    found = visible._probe(python)
    peer = importing_probe()
    assert "import_module" in peer and peer != visible._PROBE
    monkeypatch.setattr(visible, "_PROBE", peer)
    imported = visible._probe(python)
    assert len(imported.files) > 10, imported.files
    assert sorted(set(imported.files) - set(found.files)) == []
    assert os.path.realpath(python) in found.files
