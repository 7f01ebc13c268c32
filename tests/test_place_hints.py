"""Every rerun hint runs as printed: for every hook of the hook table and every kind of
case (a public case, a case of a private `hook_seed`, a call of a search), the command a
report keeps (`ItemResult.reruns`, shown in the reason as `hint_text` renders it) asks the
same case again, with the same answer and the same verdict; and for a file that answers it
right, says right.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, grader_env, lone, no_traceback, run_grader

from grader.hooktable import HOOKS
from grader.reports.rerunhint import hint_text
from grader.scoring.hookcases import HOOK_NAMES

#: Wrong files whose first wrong cases and calls, together, are of every hook with cases,
#: public and private, and of every hook the grader's searches grade (the last raises).
WRONG = ("bounds_skip_decided", "reversed_values", "small_inputs_mrv", "guesses", "advice_crashing_bounds")
ONLY = ",".join([*HOOK_NAMES, "nctu-1"])
#: The lines of a case's description that say what the hook did and what was expected.
SAID = ("returned:", "expected:", "your hook:", "first difference:")


def kind(argv: list[str]) -> str:
    """The kind of case a hint reruns: public (`HOOK:N`), private (`HOOK:TOKEN`) or a call
    of a search (`HOOK@BOARD:N`)."""
    case = argv[-1]
    return "call" if "@" in case.split(":", 1)[0] else "public" if case.rpartition(":")[2].isdigit() else "private"


def said(text: str) -> list[str]:
    """What a case's description says the hook did and what was expected, line by line."""
    return [line.strip() for line in text.splitlines() if line.strip().startswith(SAID)]


#: The runs of hint commands so far, by their words: a command asked twice is run once.
Ran = dict[tuple[str, ...], subprocess.CompletedProcess[str]]


def rerun(ran: Ran, argv: list[str], solver: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a hint's command as printed (with `solver`, another file in the place of the one
    it names), unless `ran` holds a run of the very same words already."""
    assert argv[:3] == ["python", "-m", "grader"], argv
    words = list(argv[3:])
    if solver is not None:
        words[words.index("--solver") + 1] = str(solver)
    if tuple(words) not in ran:
        wide = grader_env(columns=5000)  # no line wrapped: each line of the case as the reason has it
        ran[tuple(words)] = subprocess.run([sys.executable, "-m", "grader", *words], cwd=ROOT, env=wide, capture_output=True, text=True, timeout=180)
    result = ran[tuple(words)]
    no_traceback(result)
    return result


@pytest.fixture(scope="module")
def graded(private_course: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict]]:
    """Each wrong file graded on the public and the private course: (its name, each hook item)."""
    out = tmp_path_factory.mktemp("graded")
    items = []
    for course in (Path("problems/course.yaml"), private_course):
        for name in WRONG:
            report = out / f"{name}-{len(items)}.json"
            no_traceback(run_grader(course, "--solver", lone(name), "--only", ONLY, "--json", report))
            items += [(name, item) for item in json.loads(report.read_text(encoding="utf-8"))["hooks"]]
    return items


def test_every_hook_and_every_kind_of_case_has_hints_to_run(graded: list[tuple[str, dict]]) -> None:
    """The files graded give hints of every kind for every hook with cases (of a call in a
    search only for the hooks the searches grade); a hook with no cases gives none."""
    kinds = {(item["id"], kind(argv)) for _, item in graded for argv in item.get("reruns", [])}
    for spec in HOOKS:
        expected = {"public", "private"} | ({"call"} if spec.in_searches else set()) if spec.name in HOOK_NAMES else set()
        assert {k for hook, k in kinds if hook == spec.name} == expected, spec.name


def test_every_hint_reruns_its_case_with_the_same_answer_and_verdict(graded: list[tuple[str, dict]]) -> None:
    """Each kept command is the one the reason shows, whole; run as printed, it describes
    the case with what the reason said the hook did (exit 1, `wrong`); run with the model
    answer's file in the place of the student's, the hook returns what was expected (`right`).
    A command asked again word for word (the same case of two files, with the model
    answer's file in their place) is run once."""
    hints = [(name, item, argv) for name, item in graded for argv in item.get("reruns", [])]
    ran: Ran = {}
    assert len(hints) >= 12 and any(said_line.startswith("your hook:") for _, i, _ in hints for said_line in said(i["message"])), hints
    for name, item, argv in hints:
        message = item["message"]
        shown = hint_text(argv)
        assert shown in message, (shown, message)
        before = message.split(shown, 1)[0]
        graded_said = said(before.rsplit("the first wrong", 1)[1])
        assert graded_said, (name, argv[-1], message)
        again = rerun(ran, argv)
        notes = [line for line in again.stdout.splitlines() if "not reproduced" in line]
        assert (again.returncode, again.stdout.split()[-1]) == (1, "wrong"), (name, argv[-1], notes, again.stderr)
        assert said(again.stdout) == graded_said, (name, argv[-1], again.stdout, graded_said)
        right = rerun(ran, argv, lone("correct"))
        assert (right.returncode, right.stdout.split()[-1]) == (0, "right"), (name, argv[-1], right.stdout + right.stderr)
        returned, expected = said(right.stdout)  # a right answer has no first difference
        assert returned.removeprefix("returned:") == expected.removeprefix("expected:"), (name, argv[-1], right.stdout)
        assert expected in graded_said or graded_said[0].startswith("your hook:"), (name, argv[-1], graded_said)
