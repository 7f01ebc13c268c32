"""Reruns the student can trust: `--case` asks a case as grading asked it (after the cases
before it, in one process), says so when a hook's state or randomness makes the answer
differ, and a case drawn from the course's private seed is rerun from the case itself,
which its hint carries, in any copy.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import PRIVATE_SEED, Kit, attacker, grader_env, run_grader, self_contained, student_copy

from grader.reports.gradescope import gradescope_results
from grader.reports.prairielearn import prairielearn_results
from grader.reports.results import Report, report_from_data
from grader.sandbox.tasks import Outcome
from grader.scoring.case import Case
from grader.scoring.hookcases import build_cases, load_cases
from grader.scoring.hookitems import HookAnswers, score_hook
from grader.scoring.rerun import unpack

ROOT = Path(__file__).resolve().parents[1]
HOOK = "select_variable"
NUMBERED = re.compile(rf"--case {HOOK}:(\d+)")
PACKED = re.compile(r"--case='([^']*)'", re.S)


def flat(text: str) -> str:
    """Text with every run of whitespace one space (the terminal wraps long lines)."""
    return " ".join(text.split())


def returned(text: str) -> str:
    """The `returned:` line of a case's description."""
    return next(line.strip() for line in text.splitlines() if line.strip().startswith("returned:"))


def test_a_stateful_hook_is_rerun_as_graded(kit: Kit, tmp_path: Path) -> None:
    """A select_variable that keeps a table in a global is graded wrong on a case only
    because of the cases before it; `--case` on that case answers as graded (wrong, with the
    same answer) and says the hook keeps state, where it used to say `right`."""
    student = attacker(tmp_path / "s", "rerun_stateful_select")
    out = tmp_path / "report.json"
    kit.run(kit.course, "--solver", student, "--only", HOOK, "--json", out)
    item = next(h for h in json.loads(out.read_text(encoding="utf-8"))["hooks"] if h["id"] == HOOK)
    assert item["status"] == "fail", item
    number = NUMBERED.search(item["message"])
    assert number is not None, item["message"]
    rerun = kit.run(kit.course, "--solver", student, "--case", f"{HOOK}:{number.group(1)}")
    shown = flat(rerun.stdout)
    assert rerun.returncode == 1 and rerun.stdout.split()[-1] == "wrong", rerun.stdout + rerun.stderr
    assert returned(rerun.stdout) == returned(item["message"])
    assert "asked alone, in a fresh process, your hook" in shown and "(right)" in shown, shown
    before = int(number.group(1)) - 1  # the cases asked before it, named
    assert "keeps state between calls" in shown and ('case 1 ("' if before == 1 else f'cases 1-{before} ("') in shown


def test_a_hook_that_answers_at_random_is_not_reproduced_rather_than_right(tmp_path: Path) -> None:
    """Hostile: a select_variable drawing from os.urandom gives other answers to the same
    calls; the rerun of its last case says it could not reproduce it, and why."""
    student = student_copy(tmp_path / "s", "rerun_random_select")
    last = len(load_cases()[HOOK])
    rerun = run_grader("problems/course.yaml", "--solver", student, "--case", f"{HOOK}:{last}")
    shown = flat(rerun.stdout)
    assert rerun.returncode == 1 and shown.endswith("not reproduced"), rerun.stdout + rerun.stderr
    assert "do not depend on its input alone" in shown and "right" not in shown.split()[-3:]


def test_a_memo_in_constraint_bounds_is_rerun_in_the_searches_order(tmp_path: Path) -> None:
    """The grader asks constraint_bounds about its searches in one item, board after board;
    a hook that remembers each scope's bounds is wrong there only on a later call, and
    `--case constraint_bounds@BOARD:N` asks the calls before it too (it used to ask the
    call alone, and say `right`)."""
    student = student_copy(tmp_path / "s", "rerun_memo_bounds")
    selection = ("--only", "constraint_bounds,nctu-1")
    graded = run_grader("problems/course.yaml", "--solver", student, *selection)
    hint = re.search(r"--case (constraint_bounds@nctu-1:\d+)", graded.stdout)
    assert hint is not None, graded.stdout
    rerun = run_grader("problems/course.yaml", "--solver", student, *selection, "--case", hint.group(1))
    shown = flat(rerun.stdout)
    assert rerun.returncode == 1 and shown.endswith("wrong"), rerun.stdout + rerun.stderr
    assert "keeps state between calls" in shown and "in the graded order it came after calls 1-" in shown, shown


def private_hints(text: str) -> list[tuple[str, int, Case, dict]]:
    """Every private case a text's hints carry, unpacked; the text must have no numbered hint."""
    assert not NUMBERED.search(text), text
    return [unpack(hinted.split(":", 1)[1]) for hinted in PACKED.findall(text)]


def test_private_cases_are_named_private_and_rerun_from_their_input_in_a_copy(private_course: Path, tmp_path: Path) -> None:
    """With a private hook_seed, no hint on the terminal, in the JSON or in the feedback
    files names a case number the student's copy would read as another case: each says
    private and carries the case graded; run in a released copy, it asks that very case and
    says why its answer there differs from the graded one."""
    student = student_copy(tmp_path / "s", "rerun_stateful_select")
    out = tmp_path / "report.json"
    graded = run_grader(private_course / "course.yaml", "--solver", student, "--only", HOOK, "--json", out, columns=80)
    message = next(h for h in json.loads(out.read_text(encoding="utf-8"))["hooks"] if h["id"] == HOOK)["message"]
    ((hook, number, case, result),) = private_hints(message)
    graded_case = build_cases(PRIVATE_SEED)[HOOK][number - 1]
    assert hook == HOOK and case.input_text() == graded_case.input_text() and case.name == graded_case.name
    assert case == replace(graded_case, group=None)  # read back exactly, its integer keys as integers
    assert "this is a private case" in message and "its input is above in full" in message
    assert [hint[2] for hint in private_hints(graded.stdout)] == [case]  # wrapped at 80 columns, still whole
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(self_contained("rerun_stateful_select"), encoding="utf-8")
    run_grader(private_course / "course.yaml", "--submissions", folder, "--only", HOOK, "--csv", tmp_path / "g.csv")
    feedback = sorted((tmp_path / "g-feedback").glob("*ann*.*"))
    assert {path.suffix for path in feedback} == {".md", ".html"}, feedback
    for path in feedback:
        assert [hint[2] for hint in private_hints(html.unescape(path.read_text(encoding="utf-8")))] == [case]

    copy = tmp_path / "copy"
    assert run_grader("release", copy, "--problems", private_course).returncode == 0
    token = "".join(PACKED.search(graded.stdout).group(1).split())  # type: ignore[union-attr]
    rerun = run_grader("problems/", "--solver", student, f"--case={token}", cwd=copy, env=grader_env(copy))
    shown = flat(rerun.stdout)
    assert f'case {number}, "{case.name}"' in shown and returned(message) in flat(message), rerun.stdout
    described = flat(message.split("the first wrong one is ", 1)[1].split("returned:")[0])
    assert described in shown  # the very case graded: its title, board, domains and unassigned variables
    assert "when graded, your hook returned" in shown and "keeps state between calls" in shown, shown


def test_every_writer_shows_a_private_case_whole() -> None:
    """Gradescope's and PrairieLearn's results carry a private case's hint as the reason
    makes it: the case, packed, unpacks to the case graded."""
    cases = build_cases(PRIVATE_SEED)[HOOK][:2]
    answers = [{"value": case.expected} for case in cases[:1]] + [{"value": -1}]
    item = score_hook(HOOK, 2, cases, Outcome("ok", HookAnswers(answers)), private=True)
    report = Report("ann.py", items=[item])
    for results in (gradescope_results(report, []), prairielearn_results(report)):
        tokens = PACKED.findall(html.unescape(json.dumps(results, ensure_ascii=False)))  # Gradescope's is HTML
        assert tokens and {unpack(t.split(":", 1)[1])[2].name for t in tokens} == {cases[1].name}, results


def test_a_damaged_case_says_so_in_one_line() -> None:
    """A token cut short or edited is refused with a reason, never run as some other case."""
    item = score_hook(HOOK, 2, build_cases(PRIVATE_SEED)[HOOK][:1], Outcome("ok", HookAnswers([{"value": -1}])), private=True)
    token = PACKED.search(item.message).group(1).split(":", 1)[1]  # type: ignore[union-attr]
    assert unpack(token[:40] + "\n  " + token[40:])[0] == HOOK  # a wrapped token is still whole
    for damaged in (token[:-5], token[:20] + "A" + token[21:], "eyJob29rIjoxfQ"):
        with pytest.raises(ValueError, match="copy it again"):
            unpack(damaged)
    refused = run_grader("problems/course.yaml", "--case", f"{HOOK}:{token[:-5]}")
    assert refused.returncode == 2 and "Traceback" not in refused.stdout + refused.stderr, refused.stdout + refused.stderr
    assert refused.stdout.count("\n") == 1 and "copy it again" in refused.stdout, refused.stdout


def test_the_same_error_in_a_file_named_otherwise_is_told_the_same(private_course: Path, tmp_path: Path) -> None:
    """A constraint_bounds that raises on an empty domain, graded in a class as ann.py: the
    hint its kept result holds, run in a released copy where the file is hooks.py, fails
    with the same error at the same line, and says it is the same error (it used to say the
    hook's answer does not depend on its input alone, the words naming another file). A
    file changed since, raising the same exception a line lower, is told apart."""
    folder = tmp_path / "class"
    folder.mkdir()
    code = self_contained("bounds_raises_on_empty")
    (folder / "ann.py").write_text(code, encoding="utf-8")
    run_grader(private_course / "course.yaml", "--submissions", folder, "--only", "constraint_bounds", "--csv", tmp_path / "g.csv")
    kept = json.loads((tmp_path / "g-results" / "ann.json").read_text(encoding="utf-8"))["report"]
    item = next(item for item in report_from_data(kept).items if item.name == "constraint_bounds")
    (argv,) = item.reruns
    assert "(ann.py, line " in item.message
    copy = tmp_path / "copy"
    assert run_grader("release", copy, "--problems", private_course).returncode == 0
    changed = "# changed since\n" + code
    for text, told in ((code, "failed with the same error here (ValueError, line "), (changed, "If you have not changed it since")):
        (copy / "assignment" / "hooks.py").write_text(text, encoding="utf-8")
        rerun = run_grader(*argv[3:], cwd=copy, env=grader_env(copy))
        shown = flat(rerun.stdout)
        assert rerun.returncode == 1 and shown.endswith("wrong") and "(hooks.py, line " in shown, rerun.stdout + rerun.stderr
        assert told in shown, shown
        assert ("does not depend on its input alone" in shown) == (text != code), shown
