"""The Gradescope autograder, installed and run the way Gradescope does it.

As root: the zip built by `python -m grader gradescope-bundle` is unpacked into a scratch
/autograder-like root, `setup.sh` runs there with a fresh venv and none of the developer's
environment (no PYTHONPATH, no venv on PATH), then `run_autograder` grades one submission
after another, under `bwrap` and under `user` isolation. Every results.json comes from the
grader, the installed autograder never changes, and nothing hidden reaches what a student
sees.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import check_gradescope_spec, quick_hidden_set, run_grader, self_contained

from solvers.csp import build_csp

ROOT = Path(__file__).resolve().parents[1]
HOOK_SEED = "987654321"


@dataclass(frozen=True)
class Autograder:
    root: Path
    setup_output: str


def _bare_env(root: Path, **extra: str) -> dict[str, str]:
    """What Gradescope's harness gives its scripts: no virtual environment, no PYTHONPATH."""
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        "AUTOGRADER_ROOT": str(root),
    }
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Autograder:
    if os.geteuid() != 0:
        if os.environ.get("CI") == "true":
            pytest.fail("the Gradescope bundle must be tested as root in CI")
        pytest.skip("Gradescope runs its scripts as root; run this test as root")
    work = tmp_path_factory.mktemp("gradescope")
    problems = work / "problems"
    problems.mkdir()
    quick_hidden_set(problems / "hidden.yaml")  # public and hidden boards: all each run here needs
    (problems / "grading.yaml").write_text(f"hook_seed: {HOOK_SEED}\ntimeout: 10\n", encoding="utf-8")
    archive = work / "autograder.zip"
    built = run_grader("gradescope-bundle", archive, "--problems", problems, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    root = work / "autograder"
    with zipfile.ZipFile(archive) as bundle:
        assert {"setup.sh", "run_autograder", "kit/pyproject.toml", "kit/play/view.py", "kit/problems/grading.yaml"} <= set(bundle.namelist())
        bundle.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        os.chmod(root / "source" / script, 0o755)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope does
    os.chmod(root / "run_autograder", 0o755)
    setup = subprocess.run(
        ["bash", str(root / "source" / "setup.sh")], cwd=root / "source", env=_bare_env(root), capture_output=True, text=True, timeout=900
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    assert not list((root / "venv" / "lib").glob("python3*/site-packages/__editable__*"))  # installed, not linked
    return Autograder(root, setup.stdout + setup.stderr)


def fingerprint(root: Path) -> dict[str, str]:
    """Every file of the installed autograder (scripts, kit, venv) and its hash."""
    files = [root / "run_autograder", *sorted((root / "source").rglob("*")), *sorted((root / "venv").rglob("*"))]
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts}


def run_autograder(grader: Autograder, isolation: str, files: dict[str, str]) -> tuple[dict, subprocess.CompletedProcess[str]]:
    """Submit `files` ({name: student file in tests/student_files, made self-contained}),
    run run_autograder as Gradescope does; results.json and the run."""
    submission = grader.root / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    submission.mkdir()
    for name, student in files.items():
        text = self_contained(student).replace("{{ROOT}}", str(grader.root))
        text = text.replace("{{KIT}}", str(grader.root / "source" / "kit"))
        (submission / name).write_text(text, encoding="utf-8")
    run = subprocess.run(
        ["bash", str(grader.root / "run_autograder")],
        cwd=grader.root,
        capture_output=True,
        text=True,
        timeout=600,
        env=_bare_env(grader.root, GRADER_ISOLATION=isolation),
    )
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr
    results = json.loads((grader.root / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_spec(results)
    return results, run


def full(results: dict) -> float:
    return sum(t["max_score"] for t in results["tests"])


@pytest.fixture(params=["bwrap", "user"])
def isolation(request: pytest.FixtureRequest) -> str:
    if request.param == "bwrap" and shutil.which("bwrap") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("bubblewrap must be installed in CI")
        pytest.skip("bubblewrap is not installed")
    return request.param


def test_setup_installs_on_a_bare_machine_and_closes_the_grading_data(autograder: Autograder) -> None:
    assert "setup.sh: installed the kit with Python 3." in autograder.setup_output
    for folder in (autograder.root / "source", autograder.root / "venv"):
        assert folder.stat().st_mode & 0o077 == 0, oct(folder.stat().st_mode)


def test_correct_submissions_get_full_marks_whatever_their_names(autograder: Autograder, isolation: str) -> None:
    results, run = run_autograder(autograder, isolation, {"hooks.py": "correct"})
    assert run.returncode == 0 and results["score"] == full(results) > 0, results["output"]
    assert f"isolated: {isolation}" in results["output"]
    renamed, _ = run_autograder(autograder, isolation, {"my_hooks.py": "correct", "agent.py": "agent_naive"})
    assert renamed["score"] == full(renamed), renamed["output"]


@pytest.mark.parametrize("student", ["gs_reexport", "gs_scanner"])
def test_the_answer_key_is_out_of_reach(autograder: Autograder, isolation: str, student: str) -> None:
    results, _ = run_autograder(autograder, isolation, {"hooks.py": student})
    assert results["score"] <= full(results) / 2, [(t["name"], t["output"][:80]) for t in results["tests"]]


@pytest.mark.parametrize("student", ["gs_forger", "gs_rewriter", "hostile_tamper"])
def test_only_the_grader_writes_results_and_the_autograder_never_changes(autograder: Autograder, isolation: str, student: str) -> None:
    before = fingerprint(autograder.root)
    results, run = run_autograder(autograder, isolation, {"hooks.py": student})
    assert results["score"] != 999 and results["tests"], results  # written by the grader
    assert results["score"] == full(results), results["output"]  # the model answer's hooks: kills are refused
    assert fingerprint(autograder.root) == before


def test_nothing_hidden_reaches_what_a_student_sees(autograder: Autograder, isolation: str) -> None:
    results, _ = run_autograder(autograder, isolation, {"hooks.py": "gs_hidden_printer"})
    assert results["score"] == full(results)
    visible = results["output"] + "".join(t["output"] + t["name"] for t in results["tests"] if t["visibility"] == "visible")
    assert "SEEN" in visible  # what it printed on visible items is shown...
    from grader.inputs.problemset import load_problem_file

    problems, _ = load_problem_file(autograder_problem(autograder))
    for problem in (p for p in problems if p.hidden):
        csp = build_csp(problem.board)
        assert repr(csp.constraints) not in visible and problem.id not in visible  # ...and nothing of a hidden board
    assert HOOK_SEED not in json.dumps(results)


def autograder_problem(grader: Autograder) -> Path:
    return grader.root / "source" / "kit" / "problems" / "hidden.yaml"


def test_an_empty_submission_is_told_what_to_submit(autograder: Autograder, isolation: str) -> None:
    shutil.rmtree(autograder.root / "submission", ignore_errors=True)
    (autograder.root / "submission").mkdir()
    (autograder.root / "submission" / "notes.txt").write_text("I ran out of time\n", encoding="utf-8")
    run = subprocess.run(
        ["bash", str(autograder.root / "run_autograder")],
        cwd=autograder.root,
        capture_output=True,
        text=True,
        timeout=120,
        env=_bare_env(autograder.root, GRADER_ISOLATION=isolation),
    )
    results = json.loads((autograder.root / "results" / "results.json").read_text(encoding="utf-8"))
    assert run.returncode == 0 and results["score"] == 0
    assert "submit a .py file defining constraint_bounds" in results["output"] and "staff" not in results["output"]


def test_a_dead_grader_leaves_no_score_and_a_failed_run(autograder: Autograder, tmp_path: Path) -> None:
    """The grader's death is not the student's zero: no results.json, so Gradescope records
    no score and shows the run as failed."""
    broken = tmp_path / "root"
    shutil.copytree(autograder.root / "source", broken / "source", symlinks=True)
    shutil.copyfile(autograder.root / "run_autograder", broken / "run_autograder")
    (broken / "venv" / "bin").mkdir(parents=True)
    (broken / "venv" / "bin" / "python").write_text("#!/bin/sh\nkill -9 $$\n", encoding="utf-8")
    os.chmod(broken / "venv" / "bin" / "python", 0o755)
    (broken / "submission").mkdir()
    run = subprocess.run(["bash", str(broken / "run_autograder")], cwd=broken, capture_output=True, text=True, timeout=60, env=_bare_env(broken))
    assert run.returncode != 0 and not (broken / "results" / "results.json").exists()
    assert "was not graded" in run.stderr and "no score is recorded" in run.stderr


# --- the bundle is built only with private seeds, unless the instructor accepts otherwise ----

SEEDLESS = {  # grading.yaml (None: absent): the flags that accept building without its seeds
    None: ("--public-hook-cases",),
    "timeout: 10\n": ("--public-hook-cases",),
    "hook_seed: 5\nagent:\n  games: 3\n": ("--unseeded-agent-games",),
    "agent:\n  games: 3\n": ("--public-hook-cases", "--unseeded-agent-games"),
}


@pytest.mark.parametrize("config", SEEDLESS, ids=["absent", "no hook_seed", "no agent.seed", "neither"])
def test_the_bundle_needs_the_private_seeds_unless_asked(tmp_path: Path, config: str | None) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(ROOT / "problems" / "course.yaml", problems / "course.yaml")
    if config is not None:
        (problems / "grading.yaml").write_text(config, encoding="utf-8")
    archive = tmp_path / "autograder.zip"
    flags = SEEDLESS[config]
    refused = run_grader("gradescope-bundle", archive, "--problems", problems)
    assert refused.returncode == 2 and not archive.exists(), refused.stdout + refused.stderr
    lines = refused.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "`python -m grader release" in lines[0], lines
    assert all(flag in lines[0] for flag in flags)
    if len(flags) > 1:  # one flag of two is not enough
        assert run_grader("gradescope-bundle", archive, "--problems", problems, flags[0]).returncode == 2
    built = run_grader("gradescope-bundle", archive, "--problems", problems, *flags)
    assert built.returncode == 0 and archive.is_file(), built.stdout + built.stderr


def test_the_bundle_refuses_a_broken_grading_config_in_one_line(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(ROOT / "problems" / "course.yaml", problems / "course.yaml")
    (problems / "grading.yaml").write_text("hook_seed: [1\n", encoding="utf-8")
    refused = run_grader("gradescope-bundle", tmp_path / "a.zip", "--problems", problems, "--public-hook-cases")
    assert "Traceback" not in refused.stdout + refused.stderr
    assert refused.returncode == 2 and len(refused.stdout.strip().splitlines()) == 1
    assert refused.stdout.startswith("error: fix the grading config first:")
    assert not (tmp_path / "a.zip").exists()
