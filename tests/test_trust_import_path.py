"""The working folder is never an import path: a class graded from inside its own folder
(`cd class && python -m grader ../course.yaml --submissions . --csv ../grades.csv`, as
README says) runs nothing of its students' outside a worker, under `bwrap` and `user`.

The class holds files named like modules the grader imports (`yaml.py`, `rich.py`,
`solvers.py`, `sitecustomize.py`, and `grader.py` in the run started with `-P`, the one
name no code of the kit's can defend) and a folder submission holding such files beside
its hooks. Each leaves a mark in a folder of root's alone when it is imported, then loads
the real module in its place (an attacker who wants the run to go on unnoticed); a
worker cannot write there, so a mark is code of a student's run by the grader.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COURSE, Kit, no_traceback, read_rows, self_contained

from grader.commands import launch

#: Imported by the grader (or by Python as it starts) if the working folder were on its path.
BAIT = ("yaml", "rich", "solvers", "sitecustomize")

#: At the top of every bait file: the mark, then the real module in its place.
MARK = """import os as _o, sys as _s
try:
    open(_o.path.join({marks!r}, f"{{__name__}}-{{_o.getpid()}}"), "w").write(" ".join(_s.argv))
    import importlib.machinery as _m, importlib.util as _u
    _here = _o.path.dirname(_o.path.abspath(__file__))
    _spec = _m.PathFinder.find_spec(__name__, [p for p in _s.path if _o.path.abspath(p or ".") != _here])
    if _spec is not None and __name__ != "__main__":
        _real = _u.module_from_spec(_spec)
        _s.modules[__name__] = _real
        _spec.loader.exec_module(_real)
except Exception:
    pass
"""


def hostile_class(folder: Path, marks: Path, bait: tuple[str, ...]) -> list[str]:
    """A class of correct students, those named like `bait` and a folder holding bait
    beside its hooks among them; the students' names."""
    marks.mkdir(mode=0o700)
    correct = self_contained("correct_reexport")
    mark = MARK.format(marks=str(marks))
    (folder / "carol").mkdir(parents=True)
    (folder / "ana.py").write_text(correct, encoding="utf-8")
    (folder / "carol" / "hooks.py").write_text(correct, encoding="utf-8")
    for name in bait:
        (folder / f"{name}.py").write_text(mark + correct, encoding="utf-8")
        (folder / "carol" / f"{name}.py").write_text(mark, encoding="utf-8")
    return ["ana", "carol", *bait]


@pytest.mark.slow
def test_the_bait_runs_when_it_is_imported(tmp_path: Path) -> None:
    """The marks can appear: Python started in the class folder with that folder on its
    path (`python -c`) imports every bait file, which leaves its mark."""
    marks = tmp_path / "marks"
    hostile_class(tmp_path / "class", marks, (*BAIT, "grader"))
    code = "import yaml, rich, solvers, sitecustomize, grader"
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "class", capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert sorted(p.name.split("-")[0] for p in marks.iterdir()) == sorted([*BAIT, "grader"])


@pytest.mark.parametrize("flags", [(), ("-P",)], ids=["python", "python -P with grader.py"])
def test_a_class_graded_from_its_own_folder_runs_nothing_of_it_outside_a_worker(kit: Kit, tmp_path: Path, flags: tuple[str, ...]) -> None:
    """No mark, from the batch or from any grading process (--jobs 2); every student,
    the bait ones too (their hooks are correct), has full marks; the CSV is written."""
    marks = tmp_path / "marks"
    bait = (*BAIT, "grader") if flags else BAIT
    students = hostile_class(tmp_path / "class", marks, bait)
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "course.yaml").write_bytes(COURSE.read_bytes())
    command = [sys.executable, *flags, *kit.command("../problems/course.yaml", "--submissions", ".", "--csv", "../grades.csv")[1:]]
    command += ["--jobs", "2", "--only", "forward_check,nctu-1"]
    result = subprocess.run(command, cwd=tmp_path / "class", env=kit.env(), capture_output=True, text=True, timeout=900)
    no_traceback(result)
    assert sorted(p.name for p in marks.iterdir()) == [], result.stdout[-2000:]
    grades = tmp_path / "grades.csv"
    assert grades.is_file(), result.stdout[-3000:] + result.stderr[-3000:]
    rows = read_rows(grades)
    assert sorted(rows) == sorted(students), rows
    for student, row in rows.items():
        assert float(row["score"]) == float(row["max_score"]) > 0, (student, row)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_the_working_folder_leaves_the_path_unless_it_is_the_kit(tmp_path: Path) -> None:
    """`''`, `'.'` and the folder by its name leave; the kit's root, when it is the
    working folder, stays (a checkout run in place)."""
    folder = tmp_path / "class"
    folder.mkdir()
    (tmp_path / "link").symlink_to(folder)
    path = ["", ".", str(folder), str(tmp_path / "link"), str(tmp_path), launch.KIT_ROOT, "/usr/lib/python3"]
    assert launch.forget_working_folder(path, str(folder)) == [str(tmp_path), launch.KIT_ROOT, "/usr/lib/python3"]
    assert launch.forget_working_folder(path, launch.KIT_ROOT) == path
    others = launch.forget_working_folder(path, str(tmp_path / "other"))  # another working folder: only '' and '.' name it
    assert others == path[2:]


def test_a_process_of_the_kit_has_no_path_of_the_callers(monkeypatch: pytest.MonkeyPatch) -> None:
    """`kit_process`: -P, no PYTHON* variable of the caller's (PYTHONPATH, PYTHONSTARTUP,
    PYTHONHOME...), the kit's root on PYTHONPATH when the kit is not installed, started
    from /; only the variables it is given are added."""
    monkeypatch.setenv("PYTHONPATH", ".")
    monkeypatch.setenv("PYTHONSTARTUP", "/tmp/x.py")
    monkeypatch.setenv("PYTHONINSPECT", "1")
    argv, cwd, env = launch.kit_process("grader.commands.gradejob", "7", env={"PYTHONHASHSEED": "0"})
    assert argv[0] == sys.executable and "-P" in argv[1 : argv.index("-m")] and argv[argv.index("-m") :] == ["-m", "grader.commands.gradejob", "7"]
    assert cwd == "/"
    assert {k: v for k, v in env.items() if k.startswith("PYTHON")} == {"PYTHONPATH": launch.KIT_ROOT, "PYTHONHASHSEED": "0"}
    assert env["PATH"] == os.environ["PATH"]
    assert launch._installed([launch.KIT_ROOT]) and not launch._installed([str(Path(launch.KIT_ROOT) / "grader")])


SCRIPTS = Path(__file__).resolve().parents[1] / "answerkey" / "instructor" / "templates"


@pytest.mark.parametrize("name", ["run_autograder.sh", "grade.sh"])
def test_the_autograders_start_the_grader_on_a_path_of_their_own(name: str) -> None:
    """Gradescope's run_autograder and PrairieLearn's grade.sh start the grader with -I, or
    -P -s with every PYTHON* variable but the kit's unset, from a folder they cd to."""
    text = (SCRIPTS / name).read_text(encoding="utf-8")
    starts = [line for line in text.splitlines() if "-m grader" in line and not line.lstrip().startswith("#")]
    assert len(starts) == 1, starts
    assert " -I -m grader" in starts[0] or (" -P -s -m grader" in starts[0] and "unset" in text), starts[0]
    assert 'cd "$' in text.split(starts[0])[0]
