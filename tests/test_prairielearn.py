"""`python -m grader prairielearn OUT_DIR`: a PrairieLearn question, its course files and
its grader image, and the grading job simulated as PrairieLearn runs it.

The simulation lays out a scratch `/grade` as PrairieLearn's external grading does
(`serverFilesCourse/` with the folders info.json lists, `student/` with the uploaded
files, `data/data.json`; no `results/`), open to other users as a container's files
are, and runs info.json's entry point with the Python of a fresh "image": a venv of the
machine's python3 with the image's requirements installed from its constraints file,
as the Dockerfile does. Then it reads /grade/results/results.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, STUDENT_FILES, compile_packages, isolation_unavailable, quick_hidden_set, run_grader, self_contained

from grader.reports.prairielearn import prairielearn_results
from grader.reports.results import ItemResult, Report

HOOK_SEED = "555000111"
UUID = "0b7c7a52-3a47-4a53-9d3e-0c7d3a1f5e11"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#: The keys PrairieLearn's info.json schema allows in externalGradingOptions.
EXTERNAL_KEYS = {"comment", "enabled", "image", "entrypoint", "serverFilesCourse", "timeout", "enableNetworking", "environment"}


def problem_folder(folder: Path, config: str = f"hook_seed: {HOOK_SEED}\ntimeout: 10\n") -> Path:
    folder.mkdir(parents=True)
    quick_hidden_set(folder / "hidden.yaml")  # public and hidden boards: all a job here needs
    (folder / "grading.yaml").write_text(config, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("prairielearn")
    made = run_grader(
        "prairielearn",
        work / "course",
        "--problems",
        problem_folder(work / "problems"),
        "--image",
        "example/minesweeper-grader:test",
        "--uuid",
        UUID,
        "--job-timeout",
        "300",
    )
    assert made.returncode == 0, made.stdout + made.stderr
    compile_packages(work / "course" / "serverFilesCourse" / "minesweeper_grader" / "kit")  # each job copies it: compiled once here
    return work / "course"


def info(course: Path) -> dict:
    return json.loads((course / "questions" / "minesweeper-csp" / "info.json").read_text(encoding="utf-8"))


def bare(**extra: str) -> dict[str, str]:
    return {"PATH": SYSTEM_PATH, "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", **extra}


@pytest.fixture(scope="module")
def image_python(course: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The image's Python: the machine's python3 in a fresh venv, with the image's
    requirements installed from its constraints file, as the Dockerfile installs them."""
    python = shutil.which("python3", path=SYSTEM_PATH)
    assert python is not None, "no python3 on the system's PATH"
    venv = tmp_path_factory.mktemp("image") / "venv"
    image = course / "image"
    for command in (
        [python, "-m", "venv", str(venv)],
        [
            str(venv / "bin" / "pip"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(image / "requirements.txt"),
            "-c",
            str(image / "constraints.txt"),
        ],
    ):
        made = subprocess.run(command, env=bare(), capture_output=True, text=True, timeout=900)
        assert made.returncode == 0, made.stdout + made.stderr
    return str(venv / "bin" / "python")


@pytest.fixture(params=["bwrap", "user"])
def isolation(request: pytest.FixtureRequest) -> str:
    why = isolation_unavailable(request.param)
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"--isolation {request.param} must be tested in CI: {why}")
        pytest.skip(why)
    return request.param


@pytest.fixture
def grade_root() -> Iterator[Path]:
    """A scratch /grade, open to other users as a container's files are."""
    root = Path(tempfile.mkdtemp(prefix="grade-"))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def job(
    course: Path,
    root: Path,
    python: str,
    files: dict[str, str],
    isolation: str = "auto",
) -> tuple[dict | None, subprocess.CompletedProcess[str]]:
    """One grading job: the course files info.json lists, the student's `files`, the
    entry point run; results.json (None when none was written) and the run."""
    options = info(course)["externalGradingOptions"]
    for name in options["serverFilesCourse"]:
        shutil.copytree(course / "serverFilesCourse" / name, root / "serverFilesCourse" / name)
    (root / "student").mkdir()
    for name, text in files.items():
        (root / "student" / name).write_text(text.replace("{{GRADE}}", str(root)), encoding="utf-8")
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text('{"params": {}, "submitted_answers": {}}', encoding="utf-8")
    subprocess.run(["chmod", "-R", "a+rX", str(root)], check=True)
    entrypoint = options["entrypoint"].replace("/grade/", f"{root}/", 1)
    run = subprocess.run(
        ["bash", entrypoint],
        cwd=root,
        env=bare(GRADE_ROOT=str(root), GRADER_PYTHON=python, GRADER_ISOLATION=isolation),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr
    results = root / "results" / "results.json"
    return (json.loads(results.read_text(encoding="utf-8")) if results.exists() else None), run


def check_format(results: dict) -> None:
    """PrairieLearn's results format, as its external-grading documentation gives it."""
    if results.get("gradable") is False:
        assert results["format_errors"] and all(isinstance(e, str) for e in results["format_errors"])
        return
    assert isinstance(results["score"], float) and 0 <= results["score"] <= 1
    assert isinstance(results["message"], str) and results["tests"]
    for test in results["tests"]:
        assert set(test) == {"name", "points", "max_points", "message", "output"}, test
        assert 0 <= test["points"] <= test["max_points"] and all(isinstance(test[k], str) for k in ("name", "message", "output"))
    assert len(json.dumps(results)) < 1 << 20
    top = sum(t["max_points"] for t in results["tests"])
    assert abs(results["score"] - sum(t["points"] for t in results["tests"]) / top) < 1e-6


def nothing_hidden(results: dict) -> None:
    text = json.dumps(results)
    for secret in ("secret-1", "secret-2", HOOK_SEED, "hook_seed"):
        assert secret not in text, secret
    hidden = [t for t in results["tests"] if t["name"].startswith("hidden problem")]
    assert [t["name"] for t in hidden] == ["hidden problem 1", "hidden problem 2"]
    assert all(t["output"] == "" and t["message"].startswith("details hidden") for t in hidden)


# --- what the command writes ----------------------------------------------------------------


def test_the_question_the_course_files_and_the_image(course: Path) -> None:
    data = info(course)
    assert {"uuid", "type", "title", "topic"} <= set(data) and data["uuid"] == UUID and data["type"] == "v3"
    options = data["externalGradingOptions"]
    assert data["gradingMethod"] == "External" and set(options) <= EXTERNAL_KEYS
    assert options["image"] == "example/minesweeper-grader:test" and options["timeout"] == 300
    assert options["serverFilesCourse"] == ["minesweeper_grader/"]
    assert options["entrypoint"] == "/grade/serverFilesCourse/minesweeper_grader/grade.sh"
    assert "enableNetworking" not in options  # off: the image has all it needs
    html = (course / "questions" / "minesweeper-csp" / "question.html").read_text(encoding="utf-8")
    assert '<pl-file-upload file-names="hooks.py"' in html and "<pl-external-grader-results>" in html
    kit = course / "serverFilesCourse" / "minesweeper_grader" / "kit"
    assert (kit / "problems" / "hidden.yaml").is_file() and HOOK_SEED in (kit / "problems" / "grading.yaml").read_text()
    assert (kit / "answerkey" / "strategies.py").is_file() and (kit / "grader" / "__main__.py").is_file()
    image = course / "image"
    assert sorted(p.name for p in image.iterdir()) == ["Dockerfile", "constraints.txt", "requirements.txt"]  # nothing private
    assert (image / "constraints.txt").read_text() == (ROOT / "constraints.txt").read_text()
    with open(ROOT / "pyproject.toml", "rb") as handle:
        assert (image / "requirements.txt").read_text().split() == tomllib.load(handle)["project"]["dependencies"]
    dockerfile = (image / "Dockerfile").read_text(encoding="utf-8")
    assert "-r /tmp/kit/requirements.txt -c /tmp/kit/constraints.txt" in dockerfile and "/opt/grader/bin/pip" in dockerfile
    assert "/opt/grader/bin/python" in (kit.parent / "grade.sh").read_text()
    assert "serverFilesCourse/minesweeper_grader" in (course / "README.md").read_text()


@pytest.mark.parametrize(
    "config, args, words",
    [
        ("timeout: 10\n", (), "--public-hook-cases"),
        (f"hook_seed: {HOOK_SEED}\n", ("--uuid", "nope"), "not a uuid"),
        (f"hook_seed: {HOOK_SEED}\n", ("--job-timeout", "900"), "1 to 600"),
    ],
)
def test_refusals_are_one_line_and_write_nothing(tmp_path: Path, config: str, args: tuple[str, ...], words: str) -> None:
    problems = problem_folder(tmp_path / "problems", config)
    refused = run_grader("prairielearn", tmp_path / "out", "--problems", problems, *args)
    assert refused.returncode == 2 and "Traceback" not in refused.stdout + refused.stderr
    assert len(refused.stdout.strip().splitlines()) == 1 and words in refused.stdout, refused.stdout
    assert not (tmp_path / "out").exists()


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("keep\n")
    refused = run_grader("prairielearn", tmp_path / "out", "--problems", problem_folder(tmp_path / "problems"))
    assert refused.returncode == 2 and "not an empty folder" in refused.stdout
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["mine.txt"]


# --- the grading job, simulated ---------------------------------------------------------------


def test_the_reference_gets_full_marks_and_sees_nothing_hidden(course: Path, image_python: str, grade_root: Path, isolation: str) -> None:
    results, run = job(course, grade_root, image_python, {"hooks.py": self_contained("correct")}, isolation)
    assert run.returncode == 0 and results is not None, run.stdout + run.stderr
    check_format(results)
    assert results["gradable"] is True and results["score"] == 1.0, results["message"]
    assert f"isolated: {isolation}" in results["message"]
    nothing_hidden(results)


def test_the_stubs_get_zero_and_the_next_step(course: Path, image_python: str, grade_root: Path) -> None:
    results, run = job(course, grade_root, image_python, {"hooks.py": (ROOT / "assignment" / "hooks.py").read_text()})
    assert run.returncode == 0 and results is not None, run.stderr
    check_format(results)
    assert results["score"] == 0.0 and "Next step: implement constraint_bounds" in results["message"]
    assert any("not implemented yet" in t["message"] for t in results["tests"])
    nothing_hidden(results)


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_hostile_file_cannot_forge_its_result_nor_read_the_course_files(course: Path, image_python: str, grade_root: Path, isolation: str) -> None:
    source = course / "serverFilesCourse" / "minesweeper_grader"
    hostile = (STUDENT_FILES / "pl_forger.py").read_text(encoding="utf-8")
    results, run = job(course, grade_root, image_python, {"hooks.py": hostile}, isolation)
    assert run.returncode == 0 and results is not None, run.stderr
    check_format(results)
    assert results["score"] == 0.0 and "FORGED" not in json.dumps(results)  # written by the grader, graded as it is
    printed = {t["output"] for t in results["tests"] if t["output"]}
    assert printed == {"READ nothing\n"}, printed  # the course files and the job's data were closed to it
    nothing_hidden(results)
    assert fingerprint(grade_root / "serverFilesCourse" / "minesweeper_grader") == fingerprint(source)


@pytest.mark.parametrize(
    "files, words",
    [
        ({"notes.txt": "I ran out of time\n"}, "no Python file that defines the hooks"),
        ({"hooks.py": (STUDENT_FILES / "syntax.py").read_text()}, "SyntaxError"),
    ],
    ids=["no hooks file", "syntax error"],
)
def test_a_submission_that_cannot_be_graded_is_marked_so(
    course: Path, image_python: str, grade_root: Path, files: dict[str, str], words: str
) -> None:
    results, run = job(course, grade_root, image_python, files)
    assert run.returncode == 0 and results is not None, run.stderr
    check_format(results)
    assert results["gradable"] is False and "score" not in results and words in results["format_errors"][0]


def test_the_graders_failure_fails_the_job_and_records_nothing(course: Path, grade_root: Path, tmp_path: Path) -> None:
    dying = tmp_path / "python"
    dying.write_text("#!/bin/sh\nkill -9 $$\n", encoding="utf-8")
    dying.chmod(0o755)
    results, run = job(course, grade_root, str(dying), {"hooks.py": self_contained("correct")})
    assert results is None and run.returncode != 0
    assert "was not graded" in run.stderr and "no score is recorded" in run.stderr


# --- the results writer -------------------------------------------------------------------------


def test_the_writer_reports_the_items_gradescope_gets_with_hidden_ones_masked() -> None:
    from grader.reports.gradescope import gradescope_results

    report = Report(
        "hooks.py",
        [
            ItemResult("hook", "constraint_bounds", "pass", 2, 2, "all right", output="hello\n"),
            ItemResult("problem", "nctu-1", "fail", 0, 1, "1 of 8 solutions missing", file="course.yaml"),
            ItemResult("problem", "top-secret", "fail", 0, 1, "wrong on top-secret", file="exam.yaml", visibility="hidden"),
        ],
        "user",
    )
    results = prairielearn_results(report)
    gradescope = gradescope_results(report, [])
    assert [t["name"] for t in results["tests"]] == [t["name"] for t in gradescope["tests"][:2]] + ["hidden problem 1"]
    assert [t["points"] for t in results["tests"]] == [t["score"] for t in gradescope["tests"]]
    assert results["score"] == 0.5 and results["message"] == gradescope["output"]
    assert results["tests"][0]["output"] == "hello\n" and "top-secret" not in json.dumps(results)
