"""What graded code may import is one rule in every isolation mode: Python's standard
library, the student's own files and the kit modules the handout lists, never an
installed package. Graded through the real CLI under `bwrap`, `user` and `none`
(limits only, as in a student's own copy):

- a correct file that imports numpy does not load, and every item's reason names the rule
  in one line (the same line in every mode); PrairieLearn calls it not gradable;
- one that puts the folders of installed packages on `sys.path` first gets the same;
- a hook that imports numpy when called loses that hook, with the same line;
- the standard library, and a folder submission's own module and package, load;
- a file that prints the rule's words and raises a ModuleNotFoundError of its own
  naming a standard module is graded as any file that raises while loading.

And on the same road: `gradescope-test --keep DIR` keeps each run's results.json, and
the student copy ships `constraints.txt`, which its README's set-up line uses.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import (
    ROOT,
    STUDENT_FILES,
    Kit,
    attacker,
    copy_kit,
    entries,
    grade,
    grader_env,
    isolation_unavailable,
    needed,
    run_grader,
    timings_aside,
)
from test_gradescope_selftest import fake_zip

from grader.reports.rerunhint import hint_text
from grader.sandbox.importrule import RULE, outside_rule
from grader.sandbox.wire import BadMessage, Missing, Raised, read_ready, read_reply

#: One worker a run: what a file may import does not depend on how many items are graded at once.
ONE_WORKER = ("--jobs", "1")

#: Each mode's report of each student, to compare across modes (timings aside).
SEEN: dict[str, dict[str, list[tuple[str, str, float, str]]]] = {}


@pytest.fixture(scope="module", params=["bwrap", "user", "none"])
def place(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Kit:
    """The kit graded under one isolation mode (`user` from a copy closed to other users)."""
    needed(f"--isolation {request.param}", isolation_unavailable(request.param))
    if request.param != "user":
        return Kit(request.param, ROOT)
    closed = tmp_path_factory.mktemp("closed")
    os.chmod(closed, 0o700)
    return Kit("user", copy_kit(closed / "kit"))


def line_of(student: Path, marker: str) -> int:
    """The line of the student's file that holds `marker`."""
    text = student.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(text, start=1) if marker in line)


def hints_aside(entry: dict) -> str:
    """`entry`'s reason with each rerun hint it shows (from its typed `reruns`) cut to the case it reruns."""
    message = str(entry["message"])
    for argv in entry.get("reruns", ()):
        assert hint_text(argv) in message, (argv, message)
        message = message.replace(hint_text(argv), f"<rerun --case {argv[-1]}>")
    return message


def graded_alike(name: str, kit: Kit, report: dict) -> None:
    """`report` grades student `name` as every other mode graded it so far: the same
    items, scores and reasons (a rerun hint names the paths of its own run: each mode's
    kit and student are in folders of their own, so a hint is compared by the case it reruns)."""
    seen = [(e["id"], e["status"], e["score"], timings_aside(hints_aside(e))) for e in entries(report).values()]
    for mode, other in SEEN.setdefault(name, {}).items():
        assert seen == other, (name, mode, kit.mode)
    SEEN[name][kit.mode] = seen


@pytest.mark.parametrize(("name", "package"), [("imports_numpy", "numpy"), ("imports_site", "yaml")])
def test_an_installed_package_is_refused_in_one_line_naming_the_rule(place: Kit, tmp_path: Path, name: str, package: str) -> None:
    """A correct file that imports an installed package (plainly, or from the folders of
    installed packages it puts on `sys.path` itself): 0 points, every item's reason the
    same line naming the rule, in every mode; PrairieLearn: not gradable."""
    site = Path(importlib.util.find_spec("yaml").origin).parents[1]  # type: ignore[arg-type, union-attr]
    student = attacker(tmp_path / "s", name, SITE=str(site))
    report = grade(place, student, tmp_path / "report.json", *ONE_WORKER)
    line = line_of(student, "IMPORT_LINE")
    expected = f"cannot load {student.name}: {student.name} line {line} imports {package}: {RULE}"
    assert report["score"] == 0 and report["max_score"] > 0
    assert {e["message"] for e in entries(report).values()} == {expected}, report
    graded_alike(name, place, report)
    out = tmp_path / "pl.json"
    ran = place.run(place.course, "--solver", student, "--format", "prairielearn", "--output", out, "--timeout", "3", *ONE_WORKER)
    assert ran.returncode == 0 and "Traceback" not in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["gradable"] is False and results["message"] == expected, results


def test_a_hook_that_imports_a_package_when_called_loses_that_hook(place: Kit, tmp_path: Path) -> None:
    """select_variable imports numpy inside: the file loads, the other hooks keep their
    points, and select_variable's reason is the rule's line, in every mode."""
    student = attacker(tmp_path / "s", "imports_in_hook")
    report = grade(place, student, tmp_path / "report.json", "--only", "constraint_bounds,select_variable", *ONE_WORKER)
    hooks = {e["id"]: e for e in report["hooks"]}
    assert hooks["constraint_bounds"]["score"] == hooks["constraint_bounds"]["max_score"] > 0, hooks
    chosen = hooks["select_variable"]
    assert chosen["score"] == 0, chosen
    assert f"{student.name} line {line_of(student, 'IMPORT_LINE')} imports numpy: {RULE}" in chosen["message"], chosen
    graded_alike("imports_in_hook", place, report)


def test_the_standard_library_and_a_folders_own_modules_load(place: Kit, tmp_path: Path) -> None:
    """A file using itertools, functools, collections and heapq, and a folder submission
    whose hooks come from its own module and its own package (no __init__.py): full
    marks on the hooks, in every mode."""
    single = attacker(tmp_path / "s", "imports_stdlib")
    folder = tmp_path / "own"
    shutil.copytree(STUDENT_FILES / "imports_own_package", folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "model_answer.py")
    for student, name in ((single, "imports_stdlib"), (folder, "imports_own_package")):
        report = grade(
            place,
            student,
            tmp_path / f"{name}.json",
            "--only",
            "constraint_bounds,forward_check,select_variable,order_values,course.yaml",
            *ONE_WORKER,
        )
        assert report["score"] == report["max_score"] > 0, (name, report)
        graded_alike(name, place, report)


def test_a_forged_rule_is_graded_as_any_exception_at_import(place: Kit, tmp_path: Path) -> None:
    """A file that prints the rule's words and raises ModuleNotFoundError(name="json") by
    hand: the grader sees that json is in the standard library, so the reason is the
    exception's own line, as for any file that raises while loading; 0 points alike."""
    student = attacker(tmp_path / "s", "imports_forged")
    report = grade(place, student, tmp_path / "report.json", *ONE_WORKER)
    line = line_of(student, "FORGED_LINE")
    expected = f"cannot load {student.name}: ModuleNotFoundError: No module named 'json' ({student.name}, line {line}, in <module>)"
    assert report["score"] == 0
    assert all(e["message"].startswith(expected) and RULE not in e["message"] for e in entries(report).values()), report
    graded_alike("imports_forged", place, report)


# --- the grader words the reason from typed fields ---------------------------------------------


def test_the_grader_decides_from_the_missing_modules_name() -> None:
    """Standard modules (a forged name, or one this machine lacks) keep the exception's
    words; anything else is the rule's line, where the student's file asked for it."""
    assert outside_rule(Missing("json", "hooks.py", 3)) is None
    assert outside_rule(Missing("os.nothing_here", "hooks.py", 3)) is None
    assert outside_rule(Missing("numpy.linalg", "helpers.py", 7)) == f"helpers.py line 7 imports numpy.linalg: {RULE}"
    assert outside_rule(Missing("answerkey")) == f"it imports answerkey: {RULE}"


@pytest.mark.parametrize(
    "missing",
    [
        ["numpy"],
        ["numpy; rm", "hooks.py", 1],
        ["numpy.", "hooks.py", 1],
        ["numpy", "../../etc/passwd", 1],
        ["numpy", "hooks.py", -1],
        ["numpy", "hooks.py", True],
        ["numpy", "hooks.py", "3"],
        ["numpy", "hooks\n.py", 1],
        "numpy",
    ],
)
def test_a_malformed_missing_module_is_a_bad_message(missing: object) -> None:
    """A worker's `missing` field is a dotted name, a `.py` file's name (no folder, no
    control character) and a line number, or the message is refused, in the load report
    and in a call's reply alike; a file name a student may well have is kept, cleaned."""
    with pytest.raises(BadMessage):
        read_ready(json.dumps({"ready": False, "why": "x", "missing": missing}).encode())
    with pytest.raises(BadMessage):
        read_reply(json.dumps({"raised": "x", "fatal": False, "kind": "raised", "missing": missing}).encode())
    assert read_ready(b'{"ready": false, "why": "x", "missing": ["numpy", "hooks.py", 3]}').missing == Missing("numpy", "hooks.py", 3)
    downloaded = json.dumps({"raised": "x", "fatal": False, "kind": "raised", "missing": ["numpé.linalg", "hooks (1)\u202e.py", 3]}).encode()
    assert read_reply(downloaded) == Raised("x", False, Missing("numpé.linalg", "hooks (1).py", 3))  # without the override


# --- gradescope-test --keep, and the copy's pins ----------------------------------------------

WRITES_RESULTS = """root="$AUTOGRADER_ROOT"
mkdir -p "$root/results"
name="$(ls "$root/submission")"
echo "{\\"score\\": 1, \\"output\\": \\"graded $name\\", \\"tests\\": []}" > "$root/results/results.json"
"""


def test_keep_saves_each_submissions_results(tmp_path: Path) -> None:
    """`gradescope-test ZIP A.py folder/ --keep DIR` (a new DIR): DIR/A.json and
    DIR/folder.json are the results.json each run wrote, byte for byte; two submissions
    of one name are kept apart."""
    archive = fake_zip(tmp_path / "fake.zip", "exit 0\n", WRITES_RESULTS)
    (tmp_path / "alice.py").write_text("x = 1\n", encoding="utf-8")
    for folder in ("bob", "again/bob"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / f"{folder.replace('/', '_')}.py").write_text("x = 1\n", encoding="utf-8")
    keep = tmp_path / "kept" / "results"
    result = run_grader("gradescope-test", archive, "alice.py", "bob", "again/bob", "--keep", keep, cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    kept = {path.name: json.loads(path.read_text(encoding="utf-8"))["output"] for path in keep.iterdir()}
    assert kept == {"alice.json": "graded alice.py", "bob.json": "graded bob.py", "again-bob.json": "graded again_bob.py"}
    assert f"kept {len(kept)} results.json" in " ".join(result.stdout.split())


def test_keep_into_a_file_is_one_line(tmp_path: Path) -> None:
    """--keep naming a file: one line, nothing run."""
    archive = fake_zip(tmp_path / "fake.zip", "exit 0\n", WRITES_RESULTS)
    (tmp_path / "alice.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "taken").write_text("", encoding="utf-8")
    result = run_grader("gradescope-test", archive, "alice.py", "--keep", "taken", cwd=tmp_path)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stdout + result.stderr
    assert lines[0].startswith("error: --keep taken: ") and lines[0].endswith("nothing was run"), lines


def test_the_student_copy_ships_the_pins_its_readme_installs_with(tmp_path: Path) -> None:
    """The copy holds the kit's constraints.txt as it is, and its README's set-up line
    installs with `-c constraints.txt`."""
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(ROOT / "problems" / "course.yaml", problems / "course.yaml")
    out = tmp_path / "copy"
    made = run_grader("release", out, "--problems", problems, env=grader_env(ROOT), timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    assert (out / "constraints.txt").read_bytes() == (ROOT / "constraints.txt").read_bytes()
    setup = [line for line in (out / "README.md").read_text(encoding="utf-8").splitlines() if "pip install" in line]
    assert setup and all("-c constraints.txt" in line for line in setup), setup


def test_the_worker_refuses_what_its_interpreter_did_not_start_with() -> None:
    """The worker's import rule, asked directly: its roots and the student's folder are
    allowed, installed packages inside them are not, and nothing else is."""
    from grader.sandbox.child import OwnFilesAndStandardLibrary

    stdlib = os.path.dirname(os.__file__)
    rule = OwnFilesAndStandardLibrary([stdlib], str(STUDENT_FILES))
    assert rule.allows(os.__file__) and rule.allows(str(STUDENT_FILES / "correct.py"))
    assert rule.allows(str(STUDENT_FILES / "site-packages" / "mine.py"))  # the student's own folder, whatever its name
    assert not rule.allows(os.path.join(stdlib, "site-packages", "yaml", "__init__.py"))
    assert not rule.allows(str(ROOT / "answerkey" / "__init__.py"))
    assert not rule.allows("/usr/lib/python3/dist-packages/yaml/__init__.py")
