"""Two promises of the third round of attacks.

- A question the grader asks about a real search and gets no answer to is not a right
  answer: a constraint_bounds that sleeps whenever it is probed about a real board (it
  tells those calls by the shape of their arguments) loses what a wrong answer loses.
- The gradebook pairs a submission with a roster line by its exact name (NFC): a
  look-alike name is no match, two submissions never share one student's line, and a
  graded student the gradebook leaves out is named and makes the batch exit with 1.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, Kit, attacker, entries, grade

from grader.inputs.problemset import Problem
from grader.reports.gradebook import Graded, RosterError, Student, match, read_roster
from grader.sandbox.tasks import Outcome
from grader.scoring.case import Case
from grader.scoring.grading import model_answer
from grader.scoring.hookcases import load_cases
from grader.scoring.hookitems import HookAnswers, Probes, score_hook
from grader.scoring.searchcheck import HookCalls
from grader.scoring.searchshare import Searched
from solvers.board import board_from_rows

KELVIN = "\u212a"  # KELVIN SIGN: casefolds to "k", and NFC makes it "K"


# --- probes that do not finish ---------------------------------------------------------


def test_a_constraint_bounds_that_sleeps_when_probed_loses_its_searches_share(kit: Kit, tmp_path: Path) -> None:
    """Graded through the real CLI: the dodger answers every named case right and sleeps
    on every probe of a real board; its constraint_bounds earns nothing from the searches
    (so nothing at all), the reason says the probes did not finish, and nothing else it
    wrote loses a point. An honest file keeps full marks."""
    dodger = attacker(tmp_path / "dodger", "probes_dodge", DODGE="yes")
    found = entries(grade(kit, dodger, tmp_path / "dodger.json", "--timeout", "1"))  # each probe sleeps until it runs out of time
    bounds = found["constraint_bounds"]
    assert (bounds["status"], bounds["score"]) == ("fail", 0), bounds
    groups = len({case.group for case in load_cases()["constraint_bounds"]})
    assert f"{groups}/{groups} groups of cases right" in bounds["message"], bounds
    assert "it did not finish (timeout: ran out of time" in bounds["message"], bounds
    assert "each of them counts as a wrong board" in bounds["message"] and "not graded" not in bounds["message"]
    assert all(item["score"] == item["max_score"] for name, item in found.items() if name != "constraint_bounds"), found
    honest = grade(kit, attacker(tmp_path / "honest", "correct"), tmp_path / "honest.json")
    assert honest["score"] == honest["max_score"] > 0, honest


def _bounds_cases() -> list[Case]:
    return [Case("a", "a", {"scope": [0, 1], "domains": {0: [0, 1], 1: [1]}}, expected=[1, 2], group=1)]


def _problem(name: str, visibility: str = "visible") -> Problem:
    return Problem("sets/probes.yaml", name, board_from_rows([[None, 1, None], [None, None, None]], mines=1), visibility=visibility)


def test_an_unfinished_probe_task_leaves_every_board_of_its_part_unanswered() -> None:
    """Whatever stopped it (a timeout, a crash, a chain's "not run"), the part's boards are
    kept with that outcome, none left out."""
    visible, hidden = [_problem("v1"), _problem("v2")], [_problem("h1", "hidden")]
    probes = Probes("constraint_bounds", visible, hidden, model_answer(), 3.0)
    stopped = Outcome("error", None, "the worker died (signal 11)")
    probes.take(False, [stopped])
    probes.take(True, [Outcome("not_run", None, "not run: constraint_bounds ran out of time on hooks/constraint_bounds")])
    assert [(s.problem.id, s.unfinished.status if s.unfinished else None) for s in probes.calls] == [
        ("v1", "error"),
        ("v2", "error"),
        ("h1", "not_run"),
    ]


def test_unfinished_hidden_probes_cost_the_hook_and_tell_nothing_of_the_board() -> None:
    """Right named cases and a right visible board; the hidden part did not finish: the hook
    loses the hidden board's group, and its reason reads as for a hidden board answered
    wrong (neither the failure's text nor its kind, nor that it did not finish)."""
    answered = Outcome("ok", HookAnswers([{"value": [1, 2]}]))
    searched = [
        Searched(_problem("v1"), HookCalls(calls=3)),
        Searched(_problem("h1", "hidden"), HookCalls(), Outcome("timeout", None, "ran out of time: SECRET")),
    ]
    result = score_hook("constraint_bounds", 2, _bounds_cases(), answered, searched)
    assert result.status == "fail" and result.score < 2, result
    assert "1/1 visible boards right" in result.message
    assert "the wrong calls in searches were on hidden boards (details hidden)" in result.message
    assert not any(word in result.message for word in ("SECRET", "timeout", "finish")), result.message


def test_probes_that_failed_by_our_fault_leave_the_hook_not_graded() -> None:
    """A probe task that failed twice by the grader's or the machine's failure is ours: the
    item is ungraded (so is the submission), never a wrong board and never a pass."""
    answered = Outcome("ok", HookAnswers([{"value": [1, 2]}]))
    ours = Outcome("ungraded", None, "the worker could not start (tried twice)")
    result = score_hook("constraint_bounds", 2, _bounds_cases(), answered, [Searched(_problem("v1"), HookCalls(), ours)])
    assert (result.status, result.score) == ("ungraded", 0.0), result
    assert "could not be asked: the worker could not start (tried twice)" in result.message


# --- the gradebook ------------------------------------------------------------------------


def _class(tmp_path: Path, names: list[str], roster: str) -> tuple[Path, Path]:
    """A class folder of untouched stubs (graded fast, 0 points: a score all the same) and its
    roster. The gradebook is the subject, not the isolation: the classes are graded under bwrap."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in names:
        shutil.copyfile(ROOT / "assignment" / "hooks.py", folder / f"{name}.py")
    (tmp_path / "roster.csv").write_text(roster, encoding="utf-8")
    return folder, tmp_path / "roster.csv"


def _batch(kit: Kit, tmp_path: Path, folder: Path, roster: Path) -> tuple[int, str, list[list[str]]]:
    """Grade the class with a Canvas gradebook: the exit status, what was said, the gradebook's rows."""
    result = kit.run(
        kit.course, "--submissions", folder, "--csv", tmp_path / "grades.csv", "--roster", roster, "--gradebook", "canvas", "--jobs", "2", timeout=600
    )
    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    with (tmp_path / "grades-canvas.csv").open(encoding="utf-8", newline="") as handle:
        return result.returncode, " ".join(said.split()), list(csv.reader(handle))[2:]


def test_a_look_alike_name_is_not_the_roster_students(tmp_path: Path) -> None:
    """`kim` and `Kim` spelt with the Kelvin sign: only `kim` is the roster's kim; the other
    is left out, named with the character that tells it apart, and the batch exits 1."""
    folder, roster = _class(tmp_path, ["kim", f"{KELVIN}im"], "submission,id,name\nkim,1001,Kim Lee\n")
    status, said, rows = _batch(Kit("bwrap", ROOT), tmp_path, folder, roster)
    assert [row[:2] for row in rows] == [["Kim Lee", "1001"]], rows
    assert status == 1, said
    assert f"not in grades-canvas.csv: {KELVIN}im (\\u212aim) (graded 0/" in said and "matches no roster line" in said


def test_two_submissions_never_share_one_roster_line(tmp_path: Path) -> None:
    """`Kim` and `Kim` with the Kelvin sign are one name once in NFC: neither is chosen for
    the roster's Kim, one line names both, and the batch exits 1."""
    folder, roster = _class(tmp_path, ["Kim", f"{KELVIN}im"], "submission,id,name\nKim,1001,Kim Lee\n")
    status, said, rows = _batch(Kit("bwrap", ROOT), tmp_path, folder, roster)
    assert rows == [] and status == 1, (rows, said)
    line = next(line for line in said.split("! ") if "match the same roster line" in line)
    assert line.startswith("not in grades-canvas.csv: Kim (graded 0/") and f"and {KELVIN}im (\\u212aim) (graded 0/" in line
    assert "match the same roster line, Kim Lee (1001, Kim): none is written" in line


def test_a_roster_that_names_the_files_fills_the_gradebook(tmp_path: Path) -> None:
    """A roster whose submission column holds `ada.py`, as the class folder shows the files:
    `ada.py` means `ada`, every student is in the gradebook, and the batch exits 0."""
    folder, roster = _class(tmp_path, ["ada", "bob", "cy"], "submission,id,name\nada.py,1,Ada\nbob.py,2,Bob\ncy,3,Cy\n")
    status, said, rows = _batch(Kit("bwrap", ROOT), tmp_path, folder, roster)
    assert sorted(row[1] for row in rows) == ["1", "2", "3"], (rows, said)
    assert status == 0 and "not in grades-canvas.csv" not in said, said


def test_matching_is_by_exact_name_in_nfc(tmp_path: Path) -> None:
    """Case is not folded; canonical equivalents (é as one character or as e and an accent)
    are one name; `.py` on either side is the file's."""
    students = [Student("jos\u00e9", "1"), Student("Ann.py", "2"), Student("bo", "3")]
    book = match([Graded("jose\u0301", 5.0, 9.0), Graded("ann", 4.0, 9.0), Graded("Ann", 3.0, 9.0), Graded("BO", 2.0, 9.0)], students)
    assert [(s.id, score) for s, score in book.rows] == [("1", 5.0), ("2", 3.0)]
    assert [g.submission for g in book.unmatched] == ["ann", "BO"] and [s.id for s in book.absent] == ["3"]
    assert [g.submission for g in book.left_out()] == ["ann", "BO"]
    (tmp_path / "roster.csv").write_text("submission,id\nbob.py,1\nbob,2\n", encoding="utf-8")
    with pytest.raises(RosterError, match="lines 2 and 3 both name the submission"):
        read_roster(tmp_path / "roster.csv")
