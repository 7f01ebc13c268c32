"""The house rules, checked like everything else: ruff (its checks and its format) and mypy
clean on the whole tree (their settings are in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import LONGEST_FIRST, SLOW_MODULES

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "solvers", "grader", "play", "assignment", "answerkey", "bench", "tests")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_ruff_format_changes_nothing() -> None:
    """The whole tree is as `ruff format` writes it (the hook table's layout is kept by
    its `# fmt: off`): a reformatting never hides inside a change."""
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_mypy_finds_nothing() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_the_hook_stubs_examples_hold_for_the_model_answer() -> None:
    """Every >>> example in assignment/hooks.py, run with the hooks of a correct student
    (tests/student_files/model_answer.py) in place of the stubs."""
    import doctest
    import importlib.util

    import assignment.hooks as stubs

    spec = importlib.util.spec_from_file_location("model_answer", ROOT / "tests" / "student_files" / "model_answer.py")
    assert spec is not None and spec.loader is not None
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    from grader.hooktable import SOLVER_HOOK_NAMES

    answers = {name: getattr(model, name) for name in SOLVER_HOOK_NAMES}
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in doctest.DocTestFinder().find(stubs) if t.examples]
    assert len(tests) >= 6
    for test in tests:
        test.globs.update(answers)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_handouts_node_counting_script_runs_as_written(tmp_path: Path) -> None:
    """The handout's `nodes.py`, run from a kit whose hooks are written: four variants per
    course board, and forward checking with MRV never pops more than plain backtracking."""
    import re
    import shutil

    from conftest import STUDENT_FILES, copy_kit, grader_env

    kit = copy_kit(tmp_path / "kit")
    shutil.copyfile(STUDENT_FILES / "model_answer.py", kit / "assignment" / "hooks.py")
    handout = (ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8")
    script = handout.split("Save this as `nodes.py`", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (kit / "nodes.py").write_text(script, encoding="utf-8")
    result = subprocess.run([sys.executable, "nodes.py"], cwd=kit, env=grader_env(kit), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = re.findall(r"^(\S+)\s+(.+?)\s+(\d+) solutions\s+(\d+) nodes$", result.stdout, re.M)
    assert len(rows) == 3 * 4, result.stdout
    nodes = {(board, variant): int(popped) for board, variant, _, popped in rows}
    for board in {board for board, _ in nodes}:
        assert nodes[(board, "FC, MRV")] <= nodes[(board, "no FC, row-major")]
    assert len({(board, count) for board, _, count, _ in rows}) == 3  # every variant finds the same number


def test_the_handouts_scoring_table_is_the_graders() -> None:
    """Section 5's table of hook points, named and random cases and groups is what the
    grader uses on the shipped cases, and its search rule names the grader's numbers."""
    import re

    from grader.inputs.config import GradingConfig
    from grader.scoring.hookcases import HOOKS_WITH_CASES, load_cases
    from grader.scoring.probes import PROBES

    handout = (ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\s*\| `(\w+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", handout, re.M)
    cases, points = load_cases(), GradingConfig().hook_points
    expected = []
    for spec in HOOKS_WITH_CASES:
        mine = cases[spec.name]
        named = sum(1 for case in mine if not case.name.startswith("random"))
        expected.append((spec.name, f"{points[spec.name]:g}", str(named), str(len(mine) - named), str(len({case.group for case in mine}))))
    assert rows == expected
    assert f"the first {PROBES} nodes of the model answer's search" in " ".join(handout.split())


def test_the_modules_conftest_names_are_test_modules() -> None:
    """SLOW_MODULES and LONGEST_FIRST name test modules that exist: a renamed module would
    otherwise lose its mark or its early start without a word."""
    modules = {path.stem for path in Path(__file__).parent.glob("test_*.py")}
    assert set(SLOW_MODULES) <= modules, set(SLOW_MODULES) - modules
    assert set(LONGEST_FIRST) <= modules and len(set(LONGEST_FIRST)) == len(LONGEST_FIRST), set(LONGEST_FIRST) - modules
