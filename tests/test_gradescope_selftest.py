"""`python -m grader gradescope-bundle OUT.zip --test SUBMISSION...` (and `gradescope-test`):
the instructor's local run of the autograder zip, as Gradescope runs it.

The real one runs setup.sh on the machine's bare python3 (a pip install) and grades the
reference and a stub; the others use made-up zips whose scripts do what a broken
autograder would, to show that the table says so.
"""

from __future__ import annotations

import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, STUDENT_FILES, quick_hidden_set, run_grader, self_contained

HIDDEN = STUDENT_FILES / "hidden_set" / "hidden.yaml"


def problem_folder(folder: Path) -> Path:
    folder.mkdir(parents=True)
    quick_hidden_set(folder / "hidden.yaml")  # public and hidden boards: all the runs here need
    (folder / "grading.yaml").write_text("hook_seed: 424242\ntimeout: 10\n", encoding="utf-8")
    return folder


ROW = re.compile(
    r"(?P<name>\S+) +(?P<exit>-?\d+) +(?P<isolation>\S+) +(?P<score>\S+) +"
    r"(?P<visible>\d+) \+ (?P<hidden>\d+) hidden +(?P<check>✓|✗ see below) +(?P<seconds>\d+)"
)


def row(output: str, name: str) -> dict[str, str]:
    """The cells of the table row of the submission shown as `name` (the table names each by
    its shortest telling part of its path: `reference/hooks.py`, never an absolute path)."""
    [line] = [line for line in output.splitlines() if line.startswith(f"{name} ")]
    found = ROW.fullmatch(line.rstrip())
    assert found, line
    return found.groupdict()


def scratch_roots(output: str) -> list[Path]:
    return [Path(found) for found in re.findall(r"in\s+(/\S*autograder-test-\w+)", output)]


def test_the_bundle_is_run_as_gradescope_runs_it_on_the_reference_and_a_stub(tmp_path: Path) -> None:
    if os.geteuid() != 0 and shutil.which("bwrap") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI runs as root, or with bubblewrap")
        pytest.skip("run_autograder needs root (user isolation) or bubblewrap")
    problems = problem_folder(tmp_path / "problems")
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "hooks.py").write_text(self_contained("correct"), encoding="utf-8")
    (tmp_path / "stub").mkdir()
    shutil.copyfile(ROOT / "assignment" / "hooks.py", tmp_path / "stub" / "hooks.py")
    result = run_grader(
        "gradescope-bundle",
        "autograder.zip",
        "--problems",
        problems,
        "--test",
        tmp_path / "reference" / "hooks.py",  # absolute: the table names it short all the same
        "stub/hooks.py",
        cwd=tmp_path,
        timeout=1500,
        columns=80,
    )
    said = result.stdout + result.stderr
    assert result.returncode == 0 and "Traceback" not in said, said
    flat = " ".join(said.split())  # lines wrap at 80 columns
    assert "setup.sh: installed the kit with Python 3." in flat and "pinned by constraints.txt" in flat
    assert len(set(scratch_roots(said))) == 1
    reference, stub = row(result.stdout, "reference/hooks.py"), row(result.stdout, "stub/hooks.py")
    score, top = reference["score"].split("/")
    assert reference["exit"] == "0" and score == top and float(top) > 0, reference
    assert stub["exit"] == "0" and stub["score"] == f"0/{top}", stub
    for cells in (reference, stub):  # two hidden problems in hidden.yaml, and none of them shown
        assert cells["hidden"] == "2" and cells["check"] == "✓", cells
        assert cells["isolation"] in ("bwrap", "user"), cells  # never without isolation
    assert "✓: results.json in Gradescope's format, no hidden data shown" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines()), result.stdout  # the table at 80 columns
    assert re.search(r"^ran reference/hooks.py \(1/2\): exit 0, \d+\.\d s$", result.stdout, re.M), result.stdout  # a line per run
    assert re.search(r"time: setup.sh \d+\.\d s \(once, .*\); run_autograder \d+\.\d, \d+\.\d s; ", " ".join(result.stdout.split()))
    assert "every run wrote a results.json" in result.stdout
    assert all(not root.exists() for root in scratch_roots(said))  # nothing left behind


def fake_zip(path: Path, setup: str, run: str) -> Path:
    """An autograder zip with these scripts and the hidden problems in its kit."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("setup.sh", "#!/usr/bin/env bash\n" + setup)
        archive.writestr("run_autograder", "#!/usr/bin/env bash\n" + run)
        archive.write(HIDDEN, "kit/problems/hidden.yaml")
        archive.writestr("kit/problems/grading.yaml", "hook_seed: 31337\n")
    return path


def submission(tmp_path: Path) -> Path:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "hooks.py").write_text("def constraint_bounds(scope, domains):\n    return (0, 0)\n", encoding="utf-8")
    return folder


def test_a_setup_that_fails_is_shown_with_its_last_lines(tmp_path: Path) -> None:
    archive = fake_zip(tmp_path / "broken.zip", "echo 'pip: no such package: minesweeper-csp-kit' >&2\nexit 1\n", "exit 0\n")
    result = run_grader("gradescope-test", archive, submission(tmp_path), cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert "setup.sh failed (exit 1)" in result.stdout and "no such package" in result.stdout


LEAKY = """root="$AUTOGRADER_ROOT"
[ -f "$root/submission/hooks.py" ] || exit 7  # the submission is laid out as Gradescope does
case "$(ls "$root/submission")" in *student*) exit 8;; esac
mkdir -p "$root/results"
echo '{"score": 1, "output": "seed 31337 and secret-1 are yours", "tests": [
  {"name": "a", "score": 1, "max_score": 1, "status": "passed", "output": "", "visibility": "visible"},
  {"name": "secret-2", "score": 0, "max_score": 1, "status": "failed", "output": "", "visibility": "hidden"}]}' \\
  > "$root/results/results.json"
"""


def test_hidden_data_in_what_a_student_reads_fails_the_test(tmp_path: Path) -> None:
    archive = fake_zip(tmp_path / "leaky.zip", "exit 0\n", LEAKY)
    # a terminal wide enough for no cell to wrap, however long pytest's folder's name
    result = run_grader("gradescope-test", archive, submission(tmp_path), cwd=tmp_path, columns=1000)
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr, result.stdout
    line = " ".join(result.stdout.split())
    assert "hidden problem secret-1 shown to the student" in line and "seed 31337 shown" in line
    assert "hidden problem secret-2 shown" in line  # a hidden test is read too (after the due date, say)
    assert "1 of 1 run(s) wrote no results.json or a wrong one" in line


def test_a_run_that_writes_no_results_is_shown_as_not_graded(tmp_path: Path) -> None:
    archive = fake_zip(tmp_path / "silent.zip", "exit 0\n", "echo 'run_autograder: this submission was not graded' >&2\nexit 3\n")
    result = run_grader("gradescope-test", archive, submission(tmp_path), cwd=tmp_path)
    assert result.returncode == 1 and "exit 3" in result.stdout
    assert "no score is recorded" in result.stdout and "was not graded" in result.stdout


def test_not_an_autograder_zip_is_one_line(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:
        archive.writestr("hello.txt", "hi\n")
    result = run_grader("gradescope-test", tmp_path / "other.zip", submission(tmp_path), cwd=tmp_path)
    assert result.returncode == 2 and "not an autograder zip" in result.stdout and "Traceback" not in result.stderr
