"""The instructor's commands (answerkey/instructor/): the shell scripts the autograders run
are package data that bash reads as written, the autograders are written from them, and
the grader reaches the commands through one typed facade (`grader.reference`), which a
student copy answers in one line."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest
from conftest import ROOT

from answerkey.instructor.bundle import write_bundle
from answerkey.instructor.prairielearn import FILES, GRADER_PYTHON, write_course
from answerkey.instructor.scripts import SCRIPTS, script, template
from grader.commands.cli import main

TEMPLATES = ROOT / "answerkey" / "instructor" / "templates"


def filled(name: str) -> str:
    """The script `name` with a sample value for each of its placeholders."""
    return script(name, **{key: f"sample-{key}" for key in template(name).get_identifiers()})


def bash_reads(text: str, path: Path) -> subprocess.CompletedProcess[str]:
    """`bash -n` (read, run nothing) on `text` written at `path`."""
    path.write_text(text, encoding="utf-8")
    return subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, timeout=60)


def problems(folder: Path) -> Path:
    """A problem folder with the public course set and a hook seed."""
    folder.mkdir()
    (folder / "course.yaml").write_bytes((ROOT / "problems" / "course.yaml").read_bytes())
    (folder / "grading.yaml").write_text("hook_seed: 7\n", encoding="utf-8")
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_parses_with_bash_once_filled(name: str, tmp_path: Path) -> None:
    """Each template, its placeholders filled, is a bash script bash reads without a
    syntax error, with no placeholder left."""
    text = filled(name)
    assert text.startswith("#!/usr/bin/env bash\n") and "@{" not in text
    run = bash_reads(text, tmp_path / name)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_the_bash_check_sees_a_broken_script(tmp_path: Path) -> None:
    """The check above can fail: a template that lost the `fi` of its last `if` is refused."""
    broken = filled("run_autograder.sh").replace("\nfi\n", "\n")
    run = bash_reads(broken, tmp_path / "broken.sh")
    assert run.returncode != 0 and "syntax error" in run.stderr


def test_every_template_is_named_and_installed() -> None:
    """The templates folder holds exactly SCRIPTS, and pyproject's package-data installs
    each of them (the kit an autograder installs, not editable, writes them too)."""
    assert sorted(path.name for path in TEMPLATES.iterdir()) == sorted(SCRIPTS)
    with open(ROOT / "pyproject.toml", "rb") as file:
        patterns = tomllib.load(file)["tool"]["setuptools"]["package-data"]["answerkey.instructor"]
    assert [name for name in SCRIPTS if not any(fnmatch(f"templates/{name}", p) for p in patterns)] == []


def test_a_missing_placeholder_value_is_refused() -> None:
    """A script is never written with a placeholder left in it: filling grade.sh without
    the image's Python is a KeyError naming it."""
    assert template("grade.sh").get_identifiers() == ["python", "files"]
    with pytest.raises(KeyError, match="python"):
        script("grade.sh", files=FILES)


def test_the_gradescope_zip_runs_the_templates_and_ships_them(tmp_path: Path) -> None:
    """The zip's setup.sh and run_autograder are the templates as written, executable, and
    the kit it installs holds the templates with its answer key."""
    zip_path = tmp_path / "autograder.zip"
    write_bundle(ROOT, problems(tmp_path / "problems"), zip_path)
    with zipfile.ZipFile(zip_path) as archive:
        for name, source in (("setup.sh", "setup.sh"), ("run_autograder", "run_autograder.sh")):
            assert archive.read(name).decode("utf-8") == script(source)
            assert archive.getinfo(name).external_attr >> 16 == 0o755
        shipped = set(archive.namelist())
    assert {f"kit/answerkey/instructor/templates/{name}" for name in SCRIPTS} <= shipped


def test_the_prairielearn_entry_point_is_its_template_filled(tmp_path: Path) -> None:
    """grade.sh names the image's Python and the course files' folder, nothing left to fill."""
    write_course(ROOT, problems(tmp_path / "problems"), tmp_path / "course", None, 300, None)
    entry = tmp_path / "course" / "serverFilesCourse" / FILES / "grade.sh"
    text = entry.read_text(encoding="utf-8")
    assert text == script("grade.sh", python=GRADER_PYTHON, files=FILES) and "@{" not in text
    assert f'python="${{GRADER_PYTHON:-{GRADER_PYTHON}}}"' in text and f"serverFilesCourse/{FILES}/kit" in text
    assert entry.stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize(
    "command", [["check", "problems/course.yaml"], ["release", "OUT"], ["gradescope-bundle", "OUT.zip"], ["prairielearn", "OUT"]]
)
def test_a_student_copy_names_the_missing_command_in_one_line(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the answer key, each instructor's command stops with the one line that
    names it, writes nothing and exits 2."""
    import importlib.util
    import signal

    real = importlib.util.find_spec
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # the command's handlers stay out of the test process
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "answerkey" else real(name, *rest))
    argv = [str(tmp_path / word) if word.startswith("OUT") else word for word in command]
    code = main(argv)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert code == 2 and lines == [f"error: python -m grader {command[0]} belongs to the instructor's kit: this student copy has no answer key"]
    assert list(tmp_path.iterdir()) == []


#: Calls of the facade that mypy must refuse, each on its own line (the line's comment says why).
WRONG_CALLS = """\
from pathlib import Path
from grader.commands.instructor import instructor_tools
tools = instructor_tools("python -m grader gradescope-bundle")
tools.write_gradescope_bundle(Path("."), Path("problems"))  # no OUT.zip
count: str = tools.write_gradescope_bundle(Path("."), Path("problems"), Path("a.zip"))  # it counts files
tools.prairielearn_time_warnings(Path("problems"), "600")  # seconds are a number
tools.seed_refusal(Path("problems"), True)  # both seeds are said
"""


@pytest.mark.slow
def test_mypy_checks_the_calls_into_the_instructors_commands(tmp_path: Path) -> None:
    """The facade is typed: mypy finds every wrong call of it, on its line (a facade that
    handed out modules would let each one through as Any)."""
    (tmp_path / "calls.py").write_text(WRONG_CALLS, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", str(tmp_path / "calls.py")], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    lines = sorted({int(found) for found in re.findall(r"calls\.py:(\d+): error", run.stdout)})
    assert lines == [4, 5, 6, 7], run.stdout
