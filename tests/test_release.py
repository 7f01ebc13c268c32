"""`python -m grader release`: an instructor's solved hooks never reach students by accident."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import STUDENT_FILES, copy_kit, grader_env, run_grader

ROOT = Path(__file__).resolve().parents[1]
def release(kit: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_grader("release", out, *extra, cwd=kit, env=grader_env(kit), timeout=300)


def test_solved_hooks_are_not_published_unless_asked(tmp_path: Path) -> None:
    kit = copy_kit(tmp_path / "kit")
    shutil.copyfile(STUDENT_FILES / "model_answer.py", kit / "assignment" / "hooks.py")
    refused = release(kit, tmp_path / "out")
    assert refused.returncode == 2 and "Traceback" not in refused.stdout + refused.stderr
    assert "hooks.py: constraint_bounds" in refused.stdout and "--allow-solutions" in refused.stdout
    assert not (tmp_path / "out").exists()
    allowed = release(kit, tmp_path / "out", "--allow-solutions")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert (tmp_path / "out" / "assignment" / "hooks.py").read_text() == (STUDENT_FILES / "model_answer.py").read_text()


def test_the_stubs_are_published_as_they_are(tmp_path: Path) -> None:
    made = release(ROOT, tmp_path / "out")
    assert made.returncode == 0, made.stdout + made.stderr
    assert (tmp_path / "out" / "assignment" / "hooks.py").read_text() == (ROOT / "assignment" / "hooks.py").read_text()


def test_the_student_copy_explains_its_problems_to_students(tmp_path: Path) -> None:
    assert release(ROOT, tmp_path / "out").returncode == 0
    readme = (tmp_path / "out" / "problems" / "README.md").read_text(encoding="utf-8")
    assert "python -m grader problems/" in readme and "hidden" in readme
    assert "grading.yaml" not in readme and "hook_seed" not in readme  # the instructor's document stays home


def scan(kit: Path, tmp_path: Path) -> str:
    """What tests/scan_for_hooks.py finds in `kit`: functions that do a hook's job."""
    import json

    from grader.scoring.hookcases import load_cases

    found = tmp_path / f"found-{kit.name}.txt"
    found.write_text("", encoding="utf-8")
    scratch = tmp_path / f"scratch-{kit.name}"  # whatever the functions write lands here
    scratch.mkdir()
    cases = json.dumps(load_cases(), default=list)
    run = subprocess.run([sys.executable, str(Path(__file__).with_name("scan_for_hooks.py")), str(kit), str(found)],
                         input=cases, cwd=scratch, capture_output=True, text=True, timeout=900,
                         env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(kit), "COLUMNS": "80"})
    assert run.returncode == 0, run.stderr[-2000:]
    return found.read_text(encoding="utf-8")


def test_no_module_of_the_student_copy_does_a_hooks_job(tmp_path: Path) -> None:
    """Every function of every module in the student copy, tried as each search hook on the
    hook cases: none gets a single group of cases right. The same scan of the full kit
    finds the reference hooks, so the scan can see them."""
    out = tmp_path / "copy"
    assert release(ROOT, out).returncode == 0
    assert scan(out, tmp_path) == ""
    full = scan(copy_kit(tmp_path / "full"), tmp_path)
    assert "answerkey.strategies.constraint_bounds gets" in full and "answerkey.strategies.forward_check_once gets" in full


def test_an_installed_copy_says_which_commands_need_a_source_checkout(tmp_path: Path) -> None:
    """Installed from a wheel or `pip install .` (the packages without pyproject.toml), the
    publishing commands and goldens refuse in one line and write nothing; grading works."""
    kit = copy_kit(tmp_path / "installed")
    (kit / "pyproject.toml").unlink()
    cases = (kit / "grader" / "scoring" / "hook_cases.yaml").read_bytes()
    for command in (["release", tmp_path / "out"], ["gradescope-bundle", tmp_path / "out.zip"], ["goldens"]):
        result = run_grader(*command, cwd=tmp_path, env=grader_env(kit))
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout.strip() == f"error: {command[0]} needs a source checkout of the kit (this one is installed without its pyproject.toml)"
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.zip").exists()
    assert (kit / "grader" / "scoring" / "hook_cases.yaml").read_bytes() == cases
    graded = run_grader(ROOT / "problems" / "course.yaml", "--solver", "reference", cwd=tmp_path, env=grader_env(kit))
    assert graded.returncode == 0 and "Full marks." in graded.stdout
