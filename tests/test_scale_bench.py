"""bench/scale_boards.py runs end to end on small sizes and writes its JSON."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location("scale_boards", ROOT / "bench" / "scale_boards.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_scale_bench_smoke(tmp_path, capsys):
    bench = load_bench()
    out = tmp_path / "scale.json"
    argv = ["--boards", "1", "--repeats", "1", "--status-size", "12", "--classic-size", "16", "--only", "status", "--only", "classic"]
    assert bench.main([*argv, "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {row["scenario"] for row in data["rows"]} == {"status", "classic"}
    assert {row["path"] for row in data["rows"]} == {"components", "sat"}
    assert set(data["summary"]) == {"status", "classic"}
    assert "target" in capsys.readouterr().out


def test_scale_bench_cases_are_seeded():
    bench = load_bench()
    first = bench.cases(1, 10, 12)
    assert first == bench.cases(1, 10, 12)
    assert [c.scenario for c in first] == ["status"] + ["classic"] * 3 + ["expert"] * 3 + ["scattered"]
    assert all(c.mines == 99 for c in first if c.scenario in ("expert", "scattered"))
