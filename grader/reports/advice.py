"""Reasons grouped by cause, and what to do next: read alike by the terminal, the feedback
files, the class CSV and Gradescope, so that a student sees one cause once and one next
step, whichever of them they read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.hooktable import BY_NAME, HOOKS, Part
from grader.reports.results import ItemResult, Report
from grader.reports.shown import shown_report

#: What ends a reason cut short.
MORE = " …"
#: A measured time in a reason ("used 2.1 s of CPU").
MEASURED = re.compile(r"\b\d+\.\d+ s\b")


def label(item: ItemResult) -> str:
    """A short name for an item: hooks/NAME, SET/ID, efficiency, or a hidden item's own
    ("hidden problem 1": no file)."""
    if item.kind == "hook":
        return f"hooks/{item.name}"
    if item.kind == "problem" and item.file:
        return f"{Path(item.file).stem}/{item.name}"
    return item.name


@dataclass(frozen=True)
class ReasonGroup:
    """Items that lost points for one cause: reasons alike but for their numbers."""

    status: str
    members: list[ItemResult]

    @property
    def message(self) -> str:
        """The first member's reason, saying so when the others differ in their numbers
        (measured times aside: whether they differ must not depend on the machine)."""
        first = self.members[0].message
        differ = len({MEASURED.sub("N s", m.message) for m in self.members}) > 1
        return first + (" (for the first; the others alike)" if differ else "")

    def headline(self, limit: int) -> str:
        """The reason's first line within `limit` characters, cut between clauses or words."""
        return shortened((self.message.splitlines() or [self.status])[0], limit)

    def who(self, graded: int, listed: int = 3) -> str:
        """ "all 64 items", or the first names and how many more."""
        if len(self.members) == graded > 1:
            return f"all {graded} items"
        names = ", ".join(label(i) for i in self.members[:listed])
        return names + (f" and {len(self.members) - listed} more" if len(self.members) > listed else "")


def shortened(line: str, limit: int) -> str:
    """`line` within `limit` characters: whole when it fits, else cut after its last clause
    ("; " or ". ") that fits, or else its last word, never inside parentheses when a cut
    outside them fits, and ending in an ellipsis. The full reason is in the report."""
    if len(line) <= limit:
        return line
    room = limit - len(MORE)
    clause = word = loose = depth = 0
    for index, char in enumerate(line[: room + 1]):
        depth += (char == "(") - (char == ")" and depth > 0)
        if char == " ":
            loose = index
            if depth == 0:
                word = index
                clause = index if line[index - 1] in ";." else clause
    cut = next((at for at in (clause, word) if at >= room // 3), loose or room)
    return line[:cut].rstrip(" ,;:") + MORE


def reason_groups(items: list[ItemResult]) -> list[ReasonGroup]:
    """The items that lost points, grouped by status and reason (numbers aside)."""
    groups: dict[tuple[str, str], list[ItemResult]] = {}
    for item in items:
        if item.score < item.max_score:
            groups.setdefault((item.status, re.sub(r"\d+", "#", item.message)), []).append(item)
    return [ReasonGroup(status, members) for (status, _), members in groups.items()]


@dataclass(frozen=True)
class NextStep:
    """One thing to do next, and for a search that ran out of time, where its time went:
    (hook, calls, seconds waiting for its answers) on the boards that ran out of time."""

    text: str
    times: list[tuple[str, int, float]] = field(default_factory=list)


#: The parts of the handout, in the order a student should finish them.
PARTS: tuple[Part, ...] = ("csp", "sat", "agent")
PRACTICE_STUB = (
    "write your agent: choose_move in assignment/agent.py is still the stub (part 3: it plays for practice "
    "here, for no points, and its games show how it would be graded)."
)


def part_of(item: ItemResult) -> Part:
    """The part of the handout an item grades: the boards and efficiency are part 1's."""
    if item.kind == "hook":
        return BY_NAME[item.name].part
    if item.kind in ("sat", "agent"):
        return "sat" if item.kind == "sat" else "agent"
    return "csp"


def next_step(report: Report, show_hidden: bool = False) -> NextStep | None:
    """What the student should do first, or None when nothing they can act on is left;
    read from the report as it may be shown (`shown_report`: of a hidden item, its status
    and points only).

    Part 1 before part 2 before part 3: a part's step comes only when the parts before it
    lose nothing. Within a part, a hook not written yet comes first (in the handout's
    order), then the hook that loses the most points (`Report.stakes`: its own tests and
    every board lost to it). A practice agent that is still the stub is the last step."""
    report = shown_report(report, show_hidden)
    if report.ungraded:
        return None
    items = report.items
    lost = [i for i in items if round(i.score + i.unchecked, 2) < i.max_score]
    if lost and all(i.hidden for i in lost):  # nothing the student can read about
        return None
    unloadable = report.unloadable() if lost else None
    if unloadable is not None:
        return NextStep(_load_fix(Path(report.solver).name, unloadable.load_reason))
    stakes = report.stakes()
    for part in PARTS:
        in_part = [i for i in lost if part_of(i) == part]
        if any(not i.hidden for i in in_part) or any(BY_NAME[h].part == part for h in stakes):
            return _part_step(report, items, part, in_part, stakes)
    return NextStep(PRACTICE_STUB) if report.agent_stub else None


def _part_step(report: Report, items: list[ItemResult], part: Part, lost: list[ItemResult], stakes: dict[str, float]) -> NextStep:
    """The step for a part that loses points (`lost`: its items that do)."""
    hooks = tuple(spec.name for spec in HOOKS if spec.part == part)
    unwritten = report.next_hook_to_implement(hooks)
    if unwritten:
        return NextStep(
            f"implement {unwritten} in assignment/hooks.py ({_summary(unwritten)}); its docstring gives the exact contract and an example."
        )
    worth = {hook: fix_worth(report, hook, stakes) for hook in hooks if stakes.get(hook, 0) > 0}
    ranked = sorted(worth, key=lambda hook: -sum(points for _, points in worth[hook]))
    if ranked:
        hook = ranked[0]
        timed_out = [i for i in report.items if i.lost_to == hook and i.score < i.max_score and i.status == "timeout"]
        own = [i for i in report.items if i.lost_to == hook or (i.kind == "hook" and i.name == hook)]
        if timed_out and all(i.status in ("timeout", "not_run") or i.score == i.max_score for i in own):
            step = _faster(lost)
            if step is not None:
                return step
        return _fix(report, items, hook, stakes[hook], worth[hook])
    step = _faster(lost) or (_agent(lost) if part == "agent" else None)
    if step is not None:
        return step
    first = next(i for i in lost if not i.hidden)
    return NextStep(f"{label(first)}: {first.message.splitlines()[0]}")


def _load_fix(name: str, why: str) -> str:
    """Fix the file first: "fix hooks.py so that it loads (TabError: ..., line 6)", `why`
    being the item's typed `load_reason` (empty in results kept before it existed)."""
    because = f" ({why})" if why else ""
    return f"fix {name} so that it loads{because}; until it does, nothing in it can be graded."


def _summary(hook: str) -> str:
    return BY_NAME[hook].summary


def fix_worth(report: Report, hook: str, stakes: dict[str, float]) -> list[tuple[str, float]]:
    """What fixing `hook` is worth, hook by hook: its own stake, then the lost tests of each
    hook of the student's that calls it (`Report.calls`) whose first wrong case raised the
    same error at the same line as `hook`'s (`CaseRecord.raised`: the same fault)."""
    raised = {i.name: i.cases[0].raised for i in report.items if i.kind == "hook" and i.cases and i.score < i.max_score}
    worth = [(hook, stakes[hook])]
    if raised.get(hook) is None:
        return worth
    for caller, callee in sorted(set(report.calls)):
        item = next((i for i in report.items if i.kind == "hook" and i.name == caller), None)
        if callee == hook and caller != hook and item is not None and raised.get(caller) == raised[hook]:
            worth.append((caller, round(item.max_score - item.score - item.unchecked, 2)))
    return worth


def _worth_text(worth: list[tuple[str, float]]) -> str:
    """ "up to 0.46 points depend on it (0.25 in constraint_bounds, 0.21 in forward_check's tests: ...)"."""
    total = round(sum(points for _, points in worth), 2)
    if len(worth) == 1:
        return f"up to {total:g} points depend on it"
    (hook, own), *callers = worth
    shared = ", ".join(f"{points:g} in the tests of {caller}, which calls it" for caller, points in callers)
    return f"up to {total:g} points depend on it ({own:g} lost to {hook}, {shared} and raised the same error at the same line)"


def _fix(report: Report, items: list[ItemResult], hook: str, points: float, worth: list[tuple[str, float]]) -> NextStep:
    """Fix `hook`, or first a failing hook of the student's that it calls."""
    failing = {i.name for i in items if i.kind == "hook" and i.score < i.max_score}
    underneath = _failing_callee(hook, dict_of(report.calls), failing)
    if underneath is not None:
        return NextStep(
            f"fix {underneath} first: your {hook} calls it, and the tests of {underneath} fail too (up to {points:g} points depend on {hook})."
        )
    return NextStep(f"fix {hook} in assignment/hooks.py: {_worth_text(worth)}.")


def dict_of(pairs: tuple[tuple[str, str], ...]) -> dict[str, set[str]]:
    calls: dict[str, set[str]] = {}
    for caller, callee in pairs:
        calls.setdefault(caller, set()).add(callee)
    return calls


def _failing_callee(hook: str, calls: dict[str, set[str]], failing: set[str]) -> str | None:
    """The deepest failing hook under `hook` in the student's own calls, if any."""
    seen, below = {hook}, None
    frontier = [hook]
    while frontier:
        callee = next((c for c in sorted(calls.get(frontier.pop(), ())) if c in failing and c not in seen), None)
        if callee is not None:
            seen.add(callee)
            below = callee
            frontier.append(callee)
    return below


def _faster(lost: list[ItemResult]) -> NextStep | None:
    """For a search that ran out of time: the hook that took most of its time. The items
    not run after it (status not_run) are counted apart: they did not run out of time."""
    slow = [i for i in lost if i.status == "timeout" and not i.hidden]
    if not slow:
        return None
    totals: dict[str, tuple[int, float]] = {}
    for item in slow:
        for hook, calls, seconds in item.calls_timed:
            before = totals.get(hook, (0, 0.0))
            totals[hook] = (before[0] + calls, before[1] + seconds)
    times = sorted(((hook, calls, seconds) for hook, (calls, seconds) in totals.items()), key=lambda row: -row[2])
    boards = "1 item" if len(slow) == 1 else f"{len(slow)} items"
    skipped = sum(i.status == "not_run" and not i.hidden for i in lost)
    if skipped:
        boards += f" ran out of time and {skipped} more {'was' if skipped == 1 else 'were'} not run after them"
    else:
        boards += " ran out of time"
    if not times:
        return NextStep(f"make your code faster: {boards}.")
    return NextStep(
        f"make {times[0][0]} faster: {boards}; most of that time went to waiting for {times[0][0]} (the calls the grader made, below).", times
    )


def _agent(lost: list[ItemResult]) -> NextStep | None:
    """When the agent is what is left: its games, from its own reason."""
    agent = next((i for i in lost if i.kind == "agent" and not i.hidden), None)
    if agent is None:
        return None
    return NextStep(f"your agent: {agent.message.splitlines()[0]}")
