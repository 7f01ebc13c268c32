"""Hidden problems (visibility: hidden / after_due_date) and the student copy of the kit.

tests/student_files/hidden_set/hidden.yaml has two public boards (open-1, open-2) and
two hidden ones (secret-1: hidden, secret-2: after_due_date). The student
hidden_peek.py fails both hidden boards and prints their clues (PEEK ...).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import attacker, compile_packages, grader_env, lone, run_grader

from grader.hooktable import CSP_HOOKS

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
HIDDEN_SET = FILES / "hidden_set"
PEEK = FILES / "hidden_peek.py"
#: What a student must not learn about the hidden boards without --show-hidden.
SECRET_REASON = "claims there is no solution"
SECRET_ROWS = ["1 . . . . 0", ". . . . 1 1", ". 2 2 2 1 .", "3 . 4 . . ."]


def copy_env(copy: Path) -> dict[str, str]:
    """The environment for the student copy of the kit at `copy`: it sees nothing of the full kit."""
    return grader_env(copy, FILES / "only_this_copy")


def assert_no_secrets(text: str) -> None:
    assert SECRET_REASON not in text, text
    assert "PEEK" not in text, text
    for row in SECRET_ROWS:
        assert row not in text, (row, text)


def test_hidden_problems_count_but_keep_their_details(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = run_grader(HIDDEN_SET, "--solver", PEEK, "--json", out)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    problems = {p["id"]: p for p in report["problems"]}
    assert list(problems) == ["open-1", "open-2", "hidden problem 1", "hidden problem 2"]  # not even their ids
    assert problems["hidden problem 1"]["visibility"] == "hidden"
    assert problems["hidden problem 2"]["visibility"] == "after_due_date"
    for secret in ("hidden problem 1", "hidden problem 2"):  # graded and counted...
        assert problems[secret]["status"] == "fail" and problems[secret]["score"] == 0
        assert problems[secret]["max_score"] == 1
    others = report["hooks"] + report.get("other", [])  # everything but the four problems
    [fc] = [item for item in others if item["id"] == "forward_check"]  # wrong on the hidden boards' calls only
    assert fc["status"] == "fail" and 0 < fc["score"] < fc["max_score"]  # right on the visible boards' calls
    assert "the wrong calls in searches were on hidden boards (details hidden)" in fc["message"]
    assert all(item["status"] == "pass" for item in others if item is not fc), others
    assert report["max_score"] == sum(item["max_score"] for item in others) + 4
    assert report["score"] == report["max_score"] - 2 - (fc["max_score"] - fc["score"])
    assert_no_secrets(result.stdout + result.stderr)  # ...but nothing about them is shown
    assert_no_secrets(out.read_text(encoding="utf-8"))
    assert "details hidden" in result.stdout and "secret-" not in result.stdout + out.read_text(encoding="utf-8")

    shown_json = tmp_path / "shown.json"
    shown = run_grader(HIDDEN_SET, "--solver", PEEK, "--json", shown_json, "--show-hidden")
    assert f"{SECRET_REASON}, but the board has 144" in " ".join(shown.stdout.split())
    assert "PEEK" in shown.stdout
    shown_report = json.loads(shown_json.read_text(encoding="utf-8"))
    messages = {p["id"]: p["message"] for p in shown_report["problems"]}
    assert messages["secret-1"] == f"{SECRET_REASON}, but the board has 144"
    assert messages["secret-2"] == f"{SECRET_REASON}, but the board has 376"


def test_gradescope_tests_carry_the_visibility(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    result = run_grader(HIDDEN_SET, "--solver", PEEK, "--format", "gradescope", "--output", output)
    assert result.returncode == 0
    results = json.loads(output.read_text(encoding="utf-8"))
    visibility = {t["name"]: t["visibility"] for t in results["tests"]}
    assert visibility["hidden problem 1"] == "hidden"  # an after_due_date test is read by students too
    assert visibility["hidden problem 2"] == "after_due_date"
    assert visibility["hidden/open-1"] == visibility["hidden/open-2"] == "visible"
    forward_check = next(t for t in results["tests"] if t["name"] == "hooks/forward_check")
    lost = forward_check["max_score"] - forward_check["score"]
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) - 2 - lost
    assert_no_secrets(results["output"])
    assert_no_secrets(forward_check["output"])
    assert "secret" not in json.dumps(results)
    assert_no_secrets(result.stdout)


def test_release_is_a_working_student_copy_without_the_reference(tmp_path: Path) -> None:
    out = tmp_path / "student-copy"
    problems = shutil.copytree(HIDDEN_SET, tmp_path / "problems")  # release writes the private seeds there
    made = run_grader("release", out, "--problems", problems)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "2 public problems" in made.stdout
    compile_packages(out)  # the runs below load the copy's modules instead of compiling them each time

    stubs = (out / "assignment" / "hooks.py").read_text(encoding="utf-8")
    for hook in (spec.name for spec in CSP_HOOKS):
        assert f'raise NotImplementedError("{hook}")' in stubs, hook
    assert not (out / "solvers" / "strategies.py").exists()
    assert (out / "play" / "evaluate.py").exists() and (out / "assignment" / "agent.py").exists()
    assert not (out / "play" / "agent.py").exists()  # the reference agent stays with the instructor
    released = sorted(p.name for p in (out / "problems").iterdir())
    assert released == ["README.md", "hidden.yaml"]  # the problems and a README written for students
    text = (out / "problems" / "hidden.yaml").read_text(encoding="utf-8")
    assert "secret" not in text
    for row in SECRET_ROWS:
        assert row not in text
    data = yaml.safe_load(text)
    assert [p["id"] for p in data["problems"]] == ["open-1", "open-2"]
    assert {p["id"]: p.get("expect") for p in data["problems"]} == {"open-1": 1, "open-2": 2}

    # inside the copy, only the copy is importable: no reference anywhere
    probe = subprocess.run(
        [sys.executable, "-c", "import answerkey.strategies"], cwd=out, env=copy_env(out), capture_output=True, text=True, timeout=60
    )
    assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr

    stubbed_json = out / "stubs.json"
    stubbed = run_grader("problems/", "--json", stubbed_json, cwd=out, env=copy_env(out))
    assert stubbed.returncode == 1, stubbed.stdout + stubbed.stderr
    assert "Traceback" not in stubbed.stdout + stubbed.stderr
    report = json.loads(stubbed_json.read_text(encoding="utf-8"))
    assert report["score"] == 0 and report["max_score"] > 0
    assert len(report["problems"]) == 2
    assert "Next step: implement constraint_bounds" in " ".join(stubbed.stdout.split())

    correct_json = out / "correct.json"
    correct = run_grader("problems/", "--solver", lone("standalone_correct"), "--json", correct_json, cwd=out, env=copy_env(out))
    assert correct.returncode == 0, correct.stdout + correct.stderr
    report = json.loads(correct_json.read_text(encoding="utf-8"))
    assert report["score"] == report["max_score"] > 0
    assert [p["status"] for p in report["problems"]] == ["pass", "pass"]
    assert "Full marks." in correct.stdout

    reference = run_grader("problems/", "--solver", "reference", cwd=out, env=copy_env(out))
    assert reference.returncode != 0
    lines = [line for line in (reference.stdout + reference.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error:") and "reference" in lines[0] and "student copy" in lines[0]

    # the handout's other commands: instructor-only ones say so; the game and its bench run
    goldens = run_grader("goldens", cwd=out, env=copy_env(out))
    assert goldens.returncode == 2 and "instructor's kit" in goldens.stdout and "Traceback" not in goldens.stderr

    def play(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "play", *args], cwd=out, env=copy_env(out), capture_output=True, text=True, timeout=120)

    assert play("--help").returncode == 0
    stub = play("bench", "--games", "2")
    assert stub.returncode == 2 and "implement choose_move in assignment/agent.py" in stub.stdout + stub.stderr
    shutil.copyfile(FILES / "agent_guesses.py", out / "assignment" / "agent.py")
    mine = play("bench", "--games", "20", "--level", "beginner")
    assert mine.returncode == 0 and "Your agent (assignment/agent.py)" in mine.stdout, mine.stdout + mine.stderr
    shown = " ".join(mine.stdout.split())  # how the games were lost, and no made-up guess count
    assert "lost 9 of 20: 9 opened a mine game 1 (seed 0) at move 8: opened r6c1, a mine game 3 (seed 2)" in shown, shown
    assert "replay one in the game, your agent on the h key: python -m play --level beginner --rules classic --seed 0" in shown
    assert "not counted" in shown and "guesses: not counted for your agent" in shown


def test_release_of_the_course_problems(tmp_path: Path) -> None:
    out = tmp_path / "copy"
    problems = shutil.copytree(ROOT / "problems", tmp_path / "problems")  # release writes the private seeds there
    made = run_grader("release", out, "--problems", problems)
    assert made.returncode == 0, made.stdout + made.stderr
    published = sorted(p.name for p in (ROOT / "problems").glob("*.yaml") if p.name != "grading.yaml")
    assert sorted(p.name for p in (out / "problems").glob("*.yaml")) == published
    assert not (out / "problems" / "grading.yaml").exists()
    for path in (out / "problems").glob("*.yaml"):
        for problem in yaml.safe_load(path.read_text(encoding="utf-8"))["problems"]:
            assert problem.get("expect") is not None, (path.name, problem.get("id"))
    again = run_grader("release", out, "--problems", problems)
    assert again.returncode != 0 and "not empty" in again.stdout + again.stderr


def test_what_a_hook_does_on_hidden_boards_shows_only_in_its_points(tmp_path: Path) -> None:
    """Two students who answer otherwise than the rule on a hidden board as many times as
    a hidden clue's value (clue 0 or clue 7, which differ) are told the same of their
    searches: the hook items count the visible boards' calls only (the named cases, which
    the attack also answers by INDEX, may differ)."""
    reports = []
    for index in (0, 7):
        solver = attacker(tmp_path / f"leak{index}", "hostile_search_count", INDEX=str(index))
        out = tmp_path / f"leak{index}.json"
        result = run_grader(HIDDEN_SET, "--solver", solver, "--json", out)
        assert "Traceback" not in result.stdout + result.stderr
        report = json.loads(out.read_text(encoding="utf-8"))
        searches = {
            h["id"]: re.search(r"in the grader's searches[^;\n]*(; \d+/\d+ groups[^;\n]*)?", h["message"])
            for h in report["hooks"]
            if h["id"] in ("forward_check", "order_values")
        }
        assert all(searches.values()), report["hooks"]
        assert "hidden boards included" in searches["forward_check"][0]  # the calls were seen, and cost points
        reports.append({hook: found[0] for hook, found in searches.items()})
    assert reports[0] == reports[1]
