"""A hook's calls in the grader's searches, graded a board a case: each board's calls
(`Searched`), how a board stands (`verdict`), and the hook's share of the boards
(`SearchShare`), with the lines that say what was wrong or could not be checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from grader.inputs.problemset import Problem
from grader.reports.caserecord import case_text
from grader.reports.rerunhint import RerunCommand
from grader.sandbox.tasks import Outcome
from grader.scoring.case import Case, Reply
from grader.scoring.hookcases import case_record, group_indices
from grader.scoring.rerun import Hint, search_call_hint
from grader.scoring.searchcheck import Divergence, HookCalls


@dataclass(frozen=True)
class Searched:
    """One hook's calls in the search of one board. `unfinished`: the outcome of the task
    that was to ask them when it did not run to its end (no call of it was graded)."""

    problem: Problem
    calls: HookCalls
    unfinished: Outcome[Any] | None = None
    divergence: Divergence | None = None  # where the student's search of the board first parted from the model answer's


#: How a board stands for a hook: every call right; a call wrong (or a question left
#: unanswered); right as far as the student copy can check, the calls it cannot check
#: coming after the search had parted from the model answer's path ("after": counted as
#: right there); calls the copy has no answers for at all ("unknown": not counted).
Verdict = Literal["right", "wrong", "after", "unknown"]


def verdict(searched: Searched) -> Verdict:
    if searched.calls.wrong or searched.unfinished is not None:
        return "wrong"
    if not searched.calls.unchecked:
        return "right"
    return "after" if searched.divergence is not None else "unknown"


def _boards(boards: list[Searched]) -> str:
    """ "K boards (ids)"."""
    ids = ", ".join(s.problem.id for s in boards[:4]) + (", ..." if len(boards) > 4 else "")
    return f"{len(boards)} board{'s' * (len(boards) != 1)} ({ids})"


def _calls_on(boards: list[Searched]) -> str:
    """ "N calls on K boards (ids)"."""
    calls = sum(s.calls.unchecked for s in boards)
    return f"{calls} call{'s' * (calls != 1)} on {_boards(boards)}"


class SearchShare:
    """A hook's calls in the grader's searches, graded a board a case: a board is right
    when every call on it was; boards are grouped so that no input-independent answer
    gets a group right (`group_indices`). In the student copy, a board whose calls after
    the search parted from the model answer's path cannot be checked counts as right, and
    a board it has no answers for as wrong: `lower` and `upper` bound the course's share."""

    def __init__(self, searched: Sequence[Searched]):
        """A board whose questions did not all get an answer (`unfinished`) is wrong: an
        unanswered call never earns what a right one does."""
        self.boards = [s for s in searched if s.calls.calls or s.unfinished is not None]
        verdicts = [verdict(s) for s in self.boards]
        groups = group_indices([s.calls.trivial for s in self.boards])

        def passing(counted: set[str]) -> int:
            return sum(all(verdicts[i] in counted for i in group) for group in groups)

        self.groups, self.passed = len(groups), passing({"right", "after"})
        self.passed_lower, self.passed_upper = passing({"right"}), passing({"right", "after", "unknown"})
        self.wrong = [s for s in self.boards if s.calls.wrong]
        self.unfinished = [s for s in self.boards if s.unfinished is not None]
        self.after = [s for s, v in zip(self.boards, verdicts) if v == "after"]
        self.unknown = [s for s, v in zip(self.boards, verdicts) if v == "unknown"]

    def _share(self, passed: int) -> float:
        return passed / self.groups if self.groups else 1.0

    @property
    def share(self) -> float:
        return self._share(self.passed)

    @property
    def lower(self) -> float:
        """The share if every call the student copy could not check were wrong."""
        return self._share(self.passed_lower)

    @property
    def upper(self) -> float:
        """The share if every call the student copy could not check were right."""
        return self._share(self.passed_upper)

    def summary(self) -> str:
        """Counts of the visible boards only (how many calls a hidden search made, or how
        many were wrong, could carry what the student's code saw of a hidden board); the
        groups count every board, as the points do."""
        shown = [s for s in self.boards if not s.problem.hidden]
        wrong = [s for s in shown if s.calls.wrong]
        right = sum(verdict(s) in ("right", "after") for s in shown)
        text = f"in the grader's searches, {right}/{len(shown)} visible boards right" if shown else "in the grader's searches (of hidden boards only)"
        if self.after:
            text += f" ({len(self.after)} of them as far as this copy can check)"
        if self.unknown:
            text += f", {len(self.unknown)} not checked here"
        if wrong:
            unchecked = sum(s.calls.unchecked for s in wrong)
            text += (
                f" ({sum(s.calls.wrong for s in wrong)} of its {sum(s.calls.calls for s in shown)} calls on them "
                "answered otherwise than the rule" + (f", {unchecked} more not checked here)" if unchecked else ")")
            )
        if self.wrong or self.unfinished:
            hidden = " (hidden boards included)" if len(shown) < len(self.boards) else ""
            text += f"; {self.passed}/{self.groups} groups of boards right{hidden}"
        return text

    def first_wrong(self, hook: str, command: RerunCommand, evidence: Sequence[tuple[Case, Reply]] = ()) -> Hint:
        """The first wrong call on a visible board, as a case with a command that reruns it
        (of a hidden board, only that there was one, and no command). `evidence`: the hook's
        named cases and its answers, which a mistake named must fit too."""
        shown = next((s for s in self.wrong if not s.problem.hidden), None)
        if shown is None:  # a hidden board left unanswered reads as one answered wrong: nothing tells them apart
            hidden = any(s.problem.hidden for s in self.wrong + self.unfinished)
            return Hint(["  the wrong calls in searches were on hidden boards (details hidden)"] if hidden else [], ())
        call = shown.calls.first_wrong
        assert call is not None
        where = f"{Path(shown.problem.file).stem}/{shown.problem.id}"
        case = replace(call.case, name=f"call {call.call} of {hook} in the search of {where}")
        hint = search_call_hint(hook, shown.problem.id, call.call, command)
        record = replace(case_record(hook, None, case, call.returned, evidence), rerun=hint.argv)
        return Hint([f"  the first wrong call in a search is {case_text(record)}", *hint.lines], hint.argv, record)

    def unchecked_lines(self, unverified: float, unchecked: float) -> list[str]:
        """What the student copy could not check, and the points that rest on it: counted
        (`unverified`, calls after the search parted from the model answer's path) or not
        (`unchecked`, boards it has no answers for)."""
        lines = []
        if self.after:
            first = next(s for s in self.after if s.divergence is not None)
            assert first.divergence is not None
            lines.append(
                f"  checked only by the course's grader: {_calls_on(self.after)} came after the search had "
                f"parted from the model answer's path ({first.divergence.describe(first.problem.id)}); this "
                "copy knows the model answer's answers only along that path and counts them as right"
                + (f": {unverified:g} points rest on them" if unverified else "")
            )
        if self.unknown:
            lines.append(
                f"  not checked here: {_boards(self.unknown)}: this copy has no model answer's answers for "
                "their calls" + (f"; these {unchecked:g} points are not counted here" if unchecked else "")
            )
        return lines

    def unfinished_lines(self) -> list[str]:
        """Why visible boards counted as wrong without a wrong answer: the questions about
        them did not run to their end (hidden boards are told of as wrong, in `first_wrong`)."""
        shown = [s for s in self.unfinished if not s.problem.hidden]
        if not shown:
            return []
        outcome = shown[0].unfinished
        assert outcome is not None
        boards = f"{len(shown)} visible board{'s' * (len(shown) != 1)}"
        why = outcome.message if outcome.status == "not_run" else f"{outcome.status}: {outcome.message}"
        return [f"  asked about the searches of {boards}, it did not finish ({why}): each of them counts as a wrong board"]
