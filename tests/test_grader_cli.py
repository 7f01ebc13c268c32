"""The grader's command line, run as students and instructors run it: `python -m grader ...`.

Every run is a real subprocess (the grader itself starts `python -m grader.worker`), from
the repository root, with the repository on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import no_traceback, run_grader

from grader.hooktable import SOLVER_HOOK_NAMES

ROOT = Path(__file__).resolve().parents[1]


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("error:")]


def entries(report: dict) -> list[dict]:
    return report["hooks"] + report["problems"]


# --- grading the reference and the stubs ---


def test_reference_gets_full_marks_on_every_problem_set(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run_grader("problems/", "--solver", "reference", "--json", out)
    no_traceback(result)
    assert result.returncode == 0, result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["max_score"] > 0
    assert report["score"] == report["max_score"]
    assert report["errors"] == []
    assert [h["id"] for h in report["hooks"]] == list(SOLVER_HOOK_NAMES)
    assert len(report["problems"]) >= 40  # every file of problems/ is graded
    for entry in entries(report):
        assert {"id", "status", "score", "max_score", "message"} <= set(entry), entry
        assert entry["status"] == "pass", entry
        assert entry["score"] == entry["max_score"]
    for entry in report["problems"]:
        assert "file" in entry and Path(entry["file"]).suffix == ".yaml", entry
    assert {Path(p["file"]).name for p in report["problems"]} == {p.name for p in (ROOT / "problems").glob("*.yaml") if p.name != "grading.yaml"}
    assert "Full marks." in result.stdout


def test_stubs_score_zero_and_point_to_the_first_hook(tmp_path: Path) -> None:
    out = tmp_path / "stubs.json"
    result = run_grader("problems/course.yaml", "--solver", "assignment", "--json", out)
    no_traceback(result)
    assert result.returncode == 1
    text = " ".join(result.stdout.split())  # Rich wraps long lines
    assert "Next step: implement constraint_bounds" in text
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["score"] == 0 and report["max_score"] > 0
    assert report["solver"] == str(ROOT / "assignment" / "hooks.py")
    for hook in report["hooks"]:
        assert hook["status"] == "error"
        assert f"{hook['id']} is not implemented yet" in hook["message"]
    for problem in report["problems"]:
        assert problem["status"] == "error" and "not implemented yet" in problem["message"]


def test_default_solver_is_the_assignment() -> None:
    result = run_grader("problems/sat-examples.yaml")
    no_traceback(result)
    assert result.returncode == 1
    assert "Next step: implement constraint_bounds" in " ".join(result.stdout.split())


# --- check ---


def test_check_counts_solutions(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    result = run_grader("check", "problems/", "--json", out)
    no_traceback(result)
    assert result.returncode == 0, result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["errors"] == []
    assert data["problems"]
    for row in data["problems"]:
        assert {"file", "id", "solutions"} <= set(row), row
        assert row["ok"] is True
    by_id = {row["id"]: row for row in data["problems"]}
    assert by_id["nctu-1"]["solutions"] == 8
    assert by_id["nctu-1-as-printed"]["solutions"] == 0
    assert by_id["nctu-2"]["solutions"] == 2


def test_check_flags_a_wrong_expect(tmp_path: Path) -> None:
    problems = tmp_path / "wrong.yaml"
    problems.write_text(
        textwrap.dedent("""\
        problems:
          - id: row
            expect: 3
            board: |
              ? 1 ? 2 ?
        """),
        encoding="utf-8",
    )
    out = tmp_path / "c.json"
    result = run_grader("check", problems, "--json", out)
    no_traceback(result)
    assert result.returncode == 1
    row = json.loads(out.read_text(encoding="utf-8"))["problems"][0]
    assert (row["solutions"], row["expect"], row["ok"]) == (1, 3, False)


# --- bad problem files: one error line each, the good problems still graded ---

GOOD = """\
  - id: good-same
    expect: 1
    board: |
      ? 1 ? 2 ?
"""

# name -> (bad file text, problem id or None, field or None, words the error must contain)
BAD_FILES = {
    "malformed-yaml": ("problems:\n  - id: broken\n    board: [1, 2\n  - id: other\n", None, None, ["is not valid YAML"]),
    "ragged-rows": (
        "problems:\n" + GOOD + "  - id: ragged\n    board: |\n      . 1 .\n      . . . .\n",
        "ragged",
        "board",
        ["row 2", "has 4 cells, expected 3"],
    ),
    "unknown-token": ("problems:\n" + GOOD + "  - id: token\n    board: |\n      . 1 .\n      . x .\n", "token", "board", ["r2c2", "'x'"]),
    "clue-out-of-range": (
        "problems:\n" + GOOD + "  - id: big-clue\n    board: |\n      . 9 .\n      . . .\n",
        "big-clue",
        "board",
        ["clue 9", "out of range"],
    ),
    "too-many-mines": (
        "problems:\n" + GOOD + "  - id: crowded\n    mines: 7\n    board: |\n      . 1 .\n      . . .\n",
        "crowded",
        "mines",
        ["7 mines do not fit", "5 cells"],
    ),
    "duplicate-id": ("problems:\n" + GOOD + "  - id: good-same\n    board: |\n      ? 1 ?\n", "good-same", "id", ["duplicate id", "line 2"]),
    "missing-board": ("problems:\n" + GOOD + "  - id: boardless\n    mines: 1\n", "boardless", "board", ["is missing"]),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_problem_file_gives_one_error_line(tmp_path: Path, case: str) -> None:
    text, pid, field, words = BAD_FILES[case]
    folder = tmp_path / "problems"
    folder.mkdir()
    bad = folder / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    (folder / "other.yaml").write_text("problems:\n" + GOOD.replace("good-same", "good-other"), encoding="utf-8")
    out = tmp_path / "out.json"
    result = run_grader(folder, "--solver", "reference", "--json", out)
    no_traceback(result)
    assert result.returncode != 0
    lines = error_lines(result)
    assert len(lines) == 1, result.stdout
    line = lines[0]
    assert str(bad) in line
    if pid is not None:
        assert f"problem {pid!r}" in line
    if field is not None:
        assert f"field {field!r}" in line
    for word in words:
        assert word in line
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["errors"] == [line.removeprefix("error: ")]  # the whole message, on that one line
    # the bad problem is left out (of a duplicate id, the second one); the rest of a readable file still loads
    loaded = ["good-other"] if case == "malformed-yaml" else ["good-other", "good-same"]
    assert sorted((p["id"], p["status"]) for p in report["problems"]) == [(name, "pass") for name in loaded]
    # the check command reports the same single error
    checked = run_grader("check", folder)
    no_traceback(checked)
    assert checked.returncode != 0
    assert error_lines(checked) == [line]


def test_error_lines_name_the_line_of_the_mistake(tmp_path: Path) -> None:
    bad = tmp_path / "lines.yaml"
    bad.write_text(BAD_FILES["unknown-token"][0], encoding="utf-8")
    result = run_grader(bad, "--solver", "reference")
    [line] = error_lines(result)
    wrong_row = bad.read_text(encoding="utf-8").splitlines().index("      . x .") + 1
    assert line.startswith(f"error: {bad}:{wrong_row}: ")


def test_missing_path_is_one_error(tmp_path: Path) -> None:
    result = run_grader(tmp_path / "nowhere", "--solver", "reference")
    no_traceback(result)
    assert result.returncode != 0
    [line] = error_lines(result)
    assert "does not exist" in line


# Problem files are instructors' text: whatever they contain must be shown as written,
# never interpreted as Rich console markup (which drops it or crashes the grader).
MARKUP_FILES = {
    "token-with-closing-tag": ("  - id: tagged\n    board: |\n      . [/x] .\n", "'[/x]'"),
    "token-like-a-tag": ("  - id: tagged\n    board: |\n      . [x] .\n", "'[x]'"),
}


@pytest.mark.parametrize("case", list(MARKUP_FILES))
def test_markup_like_text_in_an_error_is_shown_verbatim(tmp_path: Path, case: str) -> None:
    problem, shown = MARKUP_FILES[case]
    bad = tmp_path / "markup.yaml"
    bad.write_text("problems:\n" + GOOD + problem, encoding="utf-8")
    result = run_grader(bad, "--solver", "reference")
    no_traceback(result)
    assert result.returncode == 1
    [line] = error_lines(result)
    assert "problem 'tagged'" in line and shown in line


@pytest.mark.parametrize("command", [["--solver", "reference"], ["check"]])
def test_markup_like_problem_id_is_shown_verbatim(tmp_path: Path, command: list[str]) -> None:
    problems = tmp_path / "ids.yaml"
    problems.write_text('problems:\n  - id: "[/oops]"\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n', encoding="utf-8")
    args = ["check", problems] if command == ["check"] else [problems, *command]
    result = run_grader(*args)
    no_traceback(result)
    assert result.returncode == 0
    assert "[/oops]" in result.stdout


def test_nan_points_are_rejected(tmp_path: Path) -> None:
    problems = tmp_path / "nan.yaml"
    problems.write_text("problems:\n" + GOOD + "  - id: nan-points\n    points: .nan\n    board: |\n      ? 1 ?\n", encoding="utf-8")
    out = tmp_path / "out.json"
    result = run_grader(problems, "--solver", "reference", "--json", out)
    no_traceback(result)
    lines = error_lines(result)
    assert len(lines) == 1, result.stdout
    assert "problem 'nan-points'" in lines[0] and "field 'points'" in lines[0]
    assert result.returncode != 0
    json.loads(out.read_text(encoding="utf-8"), parse_constant=lambda name: pytest.fail(f"the JSON report holds {name}"))


# --- bad command lines ---


def test_unknown_solver_file_is_one_line_and_exit_2() -> None:
    result = run_grader("problems/", "--solver", "does_not_exist.py")
    no_traceback(result)
    assert result.returncode == 2
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "does_not_exist.py" in lines[0]


def test_solver_that_is_not_a_python_file_is_refused(tmp_path: Path) -> None:
    text_file = tmp_path / "hooks.txt"
    text_file.write_text("def constraint_bounds(s, d): return 0, 0\n", encoding="utf-8")
    result = run_grader("problems/", "--solver", text_file)
    no_traceback(result)
    assert result.returncode == 2
    assert "hooks.txt" in result.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["--timeout", "nan"], "positive, finite number of seconds"),
        (["--timeout", "inf"], "positive, finite number of seconds"),
        (["--timeout", "-1"], "positive, finite number of seconds"),
        (["--jobs", "0"], "expected a positive whole number"),
        (["--json", "/tmp"], "is a folder"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_options_are_one_line_and_nothing_is_graded(args: list[str], words: str) -> None:
    result = run_grader("problems/course.yaml", "--solver", "reference", *args)
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    [line] = error_lines(result)
    assert words in line and "Grading with" not in result.stdout


def test_every_command_has_a_version_and_a_help_that_changes_nothing() -> None:
    before = (ROOT / "grader" / "scoring" / "hook_cases.yaml").read_bytes()
    for command in ([], ["check"], ["release"], ["gradescope-bundle"], ["goldens"]):
        version = run_grader(*command, "--version")
        assert version.returncode == 0 and "0." in version.stdout, command
        helped = run_grader(*command, "--help")
        assert helped.returncode == 0 and "usage:" in helped.stdout, command
    assert "gradescope-bundle OUT" in run_grader("--help").stdout  # the subcommands are listed
    assert (ROOT / "grader" / "scoring" / "hook_cases.yaml").read_bytes() == before


def test_the_readme_examples_run_as_written_on_the_files_that_ship() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line.split("#")[0].split() for line in readme.splitlines() if line.startswith("python -m solvers ")]
    assert len(commands) >= 3
    for command in commands:
        ran = subprocess.run(
            [sys.executable, *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}
        )
        assert ran.returncode == 0 and "Traceback" not in ran.stderr, (command, ran.stdout[-500:], ran.stderr[-500:])


def test_nothing_a_user_reads_names_the_source_documents() -> None:
    leaks = []
    for folder in ("assignment", "grader", "play", "problems", "solvers"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md", ".yaml") and re.search(r"seeds? 00[0-4]|\.\./shared", path.read_text("utf-8")):
                leaks.append(str(path.relative_to(ROOT)))
    assert not re.search(r"seeds? 00[0-4]|\.\./shared", (ROOT / "README.md").read_text("utf-8"))
    assert leaks == []
