"""The hook items: each hook asked its cases (`hook_task`), a probed hook asked about the
grader's searches (`Probes`, as `HookSpec.probe` says), and each hook's credit, its cases
and its calls in the grader's searches together (`score_hook`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.hooktable import BY_NAME
from grader.inputs.problemset import Problem
from grader.reports.caserecord import case_text
from grader.reports.rerunhint import RerunCommand
from grader.reports.results import ItemResult, ItemStatus, failed_item, measured
from grader.sandbox.host import Asker, StudentRaised
from grader.sandbox.tasks import Outcome, Task
from grader.scoring.case import Case, Reply
from grader.scoring.hookcalls import Hooks
from grader.scoring.hookcases import as_data, board_of, case_record
from grader.scoring.probes import board_probes, probe_calls
from grader.scoring.rerun import case_hint
from grader.scoring.searchcheck import HookCalls, unchecked_board
from grader.scoring.searchshare import Searched, SearchShare
from grader.scoring.storedanswers import AnswerTable, Model, OffPath


def same_reply(one: Reply, two: Reply) -> bool:
    """Whether two answers to a question are the same: the same value, or the same error,
    the same exception's type raised at the same line (`where`) whatever its words (they
    name the file, which a student copy names otherwise than the course's grader)."""
    if "error" in one and "error" in two and one.get("where") and two.get("where"):
        return bool(one["where"] == two["where"])
    return one == two


@dataclass(frozen=True)
class HookAnswers:
    """The answer of a task that asks a hook questions (cases, probes, scopes): each
    question's `Reply`, in order."""

    results: list[Reply]


def ask_each(questions: list[Any], ask: Callable[[Any], Any]) -> HookAnswers:
    """Each question's answer, {"value": data} or {"error": why}. A fatal failure (not
    implemented, an exit, out of memory) ends the task."""
    results: list[Reply] = []
    for question in questions:
        try:
            results.append({"value": ask(question)})
        except StudentRaised as raised:
            if raised.fatal:
                raise
            results.append(Reply(error=raised.message, where=list(raised.where)) if raised.where else Reply(error=raised.message))
        except TypeError as wrong:  # as_data: not what the contract allows
            results.append({"error": str(wrong)})
    return HookAnswers(results)


def hook_task(name: str, cases: list[Case], limit: float, hidden: bool = False, item: str = "") -> Task[HookAnswers]:
    """Ask hook `name` every case, as one batch (no case's input depends on an answer;
    it ends at a fatal failure, as asking them one by one would). Only the inputs go out:
    the expected outputs never leave the grader. `hidden`: cases from hidden boards (run
    apart, after the rest)."""

    def run(asker: Asker) -> HookAnswers:
        hooks = Hooks(asker)
        wire = BY_NAME[name].wire_arguments
        replies = iter(hooks.call_all([(name, wire(case.args), board_of(case) if case.board is not None else None) for case in cases], "fatal"))
        return ask_each(cases, lambda case: as_data(name, hooks.answered(next(replies))))

    return Task(run, limit, item or f"hooks/{name}", "hooks", frozenset({name}), hidden)


class Probes:
    """A probed hook (`HookSpec.probe`) asked about the grader's searches (`board_probes`):
    one task for the visible boards, one for the hidden boards (run with the hidden part)."""

    def __init__(self, hook: str, visible: list[Problem], hidden: list[Problem], model: Model | AnswerTable, limit: float):
        """A board whose probes the student copy does not carry (None) is a board it cannot check."""
        self.hook = hook
        self.parts = {part: [(p, _probes(hook, p, model)) for p in problems] for part, problems in ((False, visible), (True, hidden))}
        self.limit = limit
        self.calls: list[Searched] = []

    def tasks(self, hidden: bool) -> list[Task[HookAnswers]]:
        """The part's task (none when it has no board)."""
        cases = [case for _, probes in self.parts[hidden] for case in probes or ()]
        return [hook_task(self.hook, cases, self.limit, hidden, f"hooks/{self.hook} in searches")] if cases else []

    def take(self, hidden: bool, outcomes: list[Outcome[HookAnswers]]) -> None:
        """Each board's calls from the part's outcome. A task that did not run to its end
        answered for none of its boards: each is kept with that outcome (`Searched.unfinished`)."""
        unknown = [Searched(problem, unchecked_board()) for problem, probes in self.parts[hidden] if probes is None]
        asked = [(problem, probes) for problem, probes in self.parts[hidden] if probes is not None]
        self.calls += unknown
        if not outcomes:
            return
        if not outcomes[0].ok:
            self.calls += [Searched(problem, HookCalls(), outcomes[0]) for problem, _ in asked]
            return
        results = iter(outcomes[0].answered.results)
        for problem, probes in asked:
            self.calls.append(Searched(problem, probe_calls(self.hook, probes, [next(results) for _ in probes])))


def _probes(hook: str, problem: Problem, model: Model | AnswerTable) -> list[Case] | None:
    """The board's probes, or None when the student copy does not carry them."""
    try:
        return board_probes(hook, problem.board, model)
    except OffPath:
        return None


def score_hook(
    spec_name: str,
    points: float,
    cases: list[Case],
    outcome: Outcome[HookAnswers],
    searched: Sequence[Searched] = (),
    private: bool = False,
    command: RerunCommand = RerunCommand.copy(),
) -> ItemResult:
    """Credit by groups of cases: a group counts when every case in it is right (the groups
    are built so that no input-independent answer gets a group right). The hook's calls in
    the grader's searches (`searched`) are graded alike, a board a case: the hook earns the
    smaller of the two shares, so right answers on the named cases alone earn nothing.
    `private`: the cases come from the course's private seed (see `case_hint`); `command`:
    how the hints' commands start."""
    if not outcome.ok:
        return failed_item("hook", spec_name, points, outcome)
    ours = next((s for s in searched if s.unfinished is not None and s.unfinished.status == "ungraded"), None)
    if ours is not None:
        return _searches_ungraded(spec_name, points, ours)
    wrong = [
        (number, case, result)
        for number, (case, result) in enumerate(zip(cases, outcome.answered.results), start=1)
        if "error" in result or result["value"] != case.expected
    ]
    groups = {number if case.group is None else case.group for number, case in enumerate(cases, start=1)}
    lost = {number if case.group is None else case.group for number, case, _ in wrong}
    passed = len(groups) - len(lost)
    in_searches = SearchShare(searched)
    cases_share = passed / len(groups)
    score = round(points * min(cases_share, in_searches.share), 2)
    unverified = round(score - round(points * min(cases_share, in_searches.lower), 2), 2)
    unchecked = round(round(points * min(cases_share, in_searches.upper), 2) - score, 2)
    counts = f"{passed}/{len(groups)} groups of cases right ({len(cases) - len(wrong)}/{len(cases)} cases)"
    counts += f"; {in_searches.summary()}" if in_searches.boards else ""
    evidence = list(zip(cases, outcome.answered.results))
    in_search = in_searches.first_wrong(spec_name, command, evidence)
    hints = [in_search] if in_search.argv else []
    lines = in_search.lines + in_searches.unfinished_lines()
    first: dict[str, Any] = {}
    if wrong:
        number, case, result = wrong[0]
        hint = case_hint(spec_name, number, case, result, private, command)
        record = replace(case_record(spec_name, number, case, result, evidence), rerun=hint.argv)
        counts += f"; the first wrong one is {case_text(record)}"
        lines[0:0], hints[0:0] = hint.lines, [replace(hint, case=record)]
        first = {"first_wrong": case.name, "mistake": record.mistake}
    first["reruns"] = tuple(hint.argv for hint in hints)
    first["cases"] = tuple(hint.case for hint in hints if hint.case is not None)
    message = "\n".join([counts, *lines, *in_searches.unchecked_lines(unverified, unchecked)])
    status: ItemStatus = "pass" if not wrong and in_searches.share == 1 else "fail"
    return ItemResult("hook", spec_name, status, score, points, message, unchecked=unchecked, unverified=unverified, **first, **measured(outcome))


def _searches_ungraded(spec_name: str, points: float, searched: Searched) -> ItemResult:
    """The hook's item when the grader's questions about a search failed by a failure of
    the grader's or the machine's (of a hidden board, only that)."""
    assert searched.unfinished is not None
    why = "on a hidden board" if searched.problem.hidden else searched.unfinished.message
    return ItemResult("hook", spec_name, "ungraded", 0.0, points, f"its calls in the grader's searches could not be asked: {why}")
