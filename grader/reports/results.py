"""What grading produces: one result per graded item, and the report that holds them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, get_args

from grader.errors import ErrorKind
from grader.reports.caserecord import CaseRecord, record_data, record_from_data
from grader.sandbox.tasks import Outcome
from grader.sandbox.wire import clean_text

MESSAGE_LIMIT = 4000  # characters of one reason, the mark of a cut included
CUT_MARK = 40  # characters kept for clean_text's mark of a cut ("[... N more characters cut]")

ItemKind = Literal["hook", "problem", "sat", "efficiency", "agent"]
#: not_run: not started, its hook having run out of time on earlier items; ungraded: the grader's failure, not the student's
ItemStatus = Literal["pass", "fail", "error", "timeout", "not_run", "ungraded"]
#: The items graded by asking the student's hooks (efficiency is computed from the problems; the agent may be another file).
ASKING_HOOKS = frozenset({"hook", "problem", "sat"})


@dataclass
class ItemResult:
    """The grade of one item: a hook test or a problem run."""

    kind: ItemKind
    name: str
    status: ItemStatus
    score: float
    max_score: float
    message: str = ""
    file: str | None = None
    nodes: int | None = None
    seconds: float | None = None
    output: str = ""
    visibility: str = "visible"
    cause: str = ""  # for a lost board: where the student's search first parted from the model answer's
    facts: tuple[tuple[str, str], ...] = ()  # a short table of what was measured (the agent's games)
    calls_timed: tuple[tuple[str, int, float], ...] = ()  # (hook, calls, seconds waiting for them), the slowest first
    error_kind: ErrorKind | None = None  # how the student's code failed, as the grader saw it (None: it did not)
    load_reason: str = ""  # when the file did not load: why, without the file's name or what it printed
    lost_to: str = ""  # for a board: the hook it is lost to if lost (its call failed, else the search parted there)
    parted_in: str = ""  # for a board: the hook where its search first parted from the model answer's (`cause`)
    # In a student copy: points only the course's grader can check, not in the score (no answers to check them
    # with) or in it (`unverified`: calls after the search had parted from the model answer's path, counted as right).
    unchecked: float = 0.0
    unverified: float = 0.0
    first_wrong: str = ""  # for a hook: the name of its first wrong named case ("" when none was wrong)
    mistake: str = ""  # for a hook: the misconception its first wrong case looks like ("" when none is recognised)
    game_outcomes: tuple[tuple[str, int], ...] = ()  # for the agent: games counted by outcome ("won", how each was lost)
    lost_games: tuple[tuple[str, tuple[int, ...]], ...] = ()  # for the agent: the games lost to each cause (`LossCause`), from 0
    reruns: tuple[tuple[str, ...], ...] = ()  # for a hook: each command its reason shows to rerun a case, word by word
    cases: tuple[CaseRecord, ...] = ()  # for a hook: each case its reason shows (its first wrong case, its first wrong call in a search)

    def __post_init__(self) -> None:
        """Reasons and output may quote student code: made safe to show, once, here, and
        bounded (a reason quotes values cut short already; this is the last guard)."""
        self.message = clean_text(self.message, MESSAGE_LIMIT - CUT_MARK)
        self.output = clean_text(self.output)
        self.cause = clean_text(self.cause, MESSAGE_LIMIT - CUT_MARK)
        self.load_reason = clean_text(self.load_reason, MESSAGE_LIMIT - CUT_MARK)

    @property
    def hidden(self) -> bool:
        return self.visibility != "visible"

    @property
    def unloadable(self) -> bool:
        """Lost because the student's file did not load (a typed fact of the worker's load)."""
        return self.error_kind == "unloadable"

    def as_dict(self) -> dict[str, Any]:
        data = {
            "kind": self.kind,
            "id": self.name,
            "status": self.status,
            "score": self.score,
            "max_score": self.max_score,
            "message": self.message,
            "nodes": self.nodes,
            "seconds": self.seconds,
        }
        if self.file:
            data["file"] = self.file
        if self.hidden:
            data["visibility"] = self.visibility
        if self.cause and self.score < self.max_score:
            data["cause"] = self.cause
        if self.lost_to and self.score < self.max_score:
            data["lost_to"] = self.lost_to
        if self.unchecked:
            data["unchecked"] = self.unchecked
        if self.unverified:
            data["unverified"] = self.unverified
        if self.load_reason:
            data["load_reason"] = self.load_reason
        if self.reruns:
            data["reruns"] = [list(argv) for argv in self.reruns]
        if self.cases:
            data["cases"] = [record_data(case) for case in self.cases]
        return data


def measured(outcome: Outcome[Any]) -> dict[str, Any]:
    """What an item's result takes from its task's outcome, whatever its grade: the seconds
    it used, what it printed, and how the student's code failed, if it did."""
    return {"seconds": outcome.seconds, "output": outcome.output, "error_kind": outcome.error_kind, "load_reason": outcome.load_reason}


def failed_item(kind: ItemKind, name: str, max_score: float, outcome: Outcome[Any], **where: Any) -> ItemResult:
    """The result of an item whose task did not run to its end: no points, the failure's
    reason (`where`: more fields of the result, a problem's file say)."""
    assert outcome.status != "ok", "an item that ran is graded by its scorer"
    return ItemResult(kind, name, outcome.status, 0.0, max_score, outcome.message, **where, **measured(outcome))


@dataclass
class Report:
    """Every item's grade, in order: hook tests first, then problems."""

    solver: str
    items: list[ItemResult] = field(default_factory=list)
    isolation: str = ""  # how the solver's code was isolated: bwrap, user, none, or in-process (reference)
    partial: bool = False  # only some items were graded (--only)
    calls: tuple[tuple[str, str], ...] = ()  # (hook, another hook it calls) in the student's file
    unbounded: str = ""  # what no control group kept for the workers (memory and processes, CPU shares), and why
    agent_stub: bool = False  # the agent plays for practice only (no points) and its choose_move is still the stub
    unchecked_why: str = ""  # why some checks could not run here (a student copy), when some could not
    public_cases: float = 0.0  # in a student copy: the points of hook cases graded here on the public cases

    def __post_init__(self) -> None:
        """The solver's path holds a student's file names: made safe to show, once, here."""
        self.solver = clean_text(self.solver)

    @property
    def isolated(self) -> str:
        """The isolation mode as a report's header shows it: with the warning that the
        grader alone counted memory and processes, or did not share the CPU evenly between
        workers, when no control group could."""
        return f"{self.isolation}; {self.unbounded}" if self.unbounded else self.isolation

    @property
    def score(self) -> float:
        return round(sum(i.score for i in self.items), 2)

    @property
    def unchecked(self) -> float:
        """Points not scored here because only the course's grader can check them."""
        return round(sum(i.unchecked for i in self.items), 2)

    @property
    def unverified(self) -> float:
        """Points scored here that only the course's grader can check."""
        return round(sum(i.unverified for i in self.items), 2)

    @property
    def ungraded(self) -> str | None:
        """Why the grader could not grade this work (a failure of its own or the
        machine's, never the student's), or None when every item was graded."""
        item = next((i for i in self.items if i.status == "ungraded"), None)
        if item is None:
            return None
        return "a hidden problem could not be graded" if item.hidden else f"{item.name}: {item.message}"

    @property
    def max_score(self) -> float:
        return round(sum(i.max_score for i in self.items), 2)

    def unloadable(self) -> ItemResult | None:
        """When the student's file cannot be loaded at all, the item that says why (a
        visible one where there is one); else None. Decided from the typed `unloadable`
        of the items that ask the student's hooks, never from a reason's text: every one
        of them lost that way, and nothing else (the agent's games) earned a point."""
        asking = [i for i in self.items if i.kind in ASKING_HOOKS]
        if not asking or not all(i.unloadable for i in asking) or self.score > 0:
            return None
        return next((i for i in asking if not i.hidden), asking[0])

    def next_hook_to_implement(self, hooks: tuple[str, ...] | None = None) -> str | None:
        """The first hook (in handout order; of `hooks` only, if given) still raising
        NotImplementedError: the typed kind of its item's failure, whatever its reason says."""
        for item in self.items:
            if item.kind == "hook" and (hooks is None or item.name in hooks) and item.error_kind == "not_implemented":
                return item.name
        return None

    def stakes(self) -> dict[str, float]:
        """The points lost to each hook: what its own tests lost, and every board lost to it
        (`ItemResult.lost_to`: a call of it raised, broke its contract or ran out of time, or
        the search first parted from the model answer in it)."""
        stakes: dict[str, float] = {}
        for item in self.items:
            hook = item.name if item.kind == "hook" else item.lost_to
            lost = item.max_score - item.score - item.unchecked
            if hook and lost > 0:
                stakes[hook] = stakes.get(hook, 0.0) + lost
        return {hook: round(points, 2) for hook, points in stakes.items()}


def report_data(report: Report) -> dict[str, Any]:
    """The whole report as plain data, hidden details included (for the grader's own use:
    a class's submissions are graded in processes of their own)."""
    return {
        "solver": report.solver,
        "isolation": report.isolation,
        "partial": report.partial,
        "calls": [list(pair) for pair in report.calls],
        "items": [asdict(item) for item in report.items],
        "unbounded": report.unbounded,
        "agent_stub": report.agent_stub,
        "unchecked_why": report.unchecked_why,
        "public_cases": report.public_cases,
    }


def report_from_data(data: dict[str, Any]) -> Report:
    """The report `report_data` wrote (ValueError for a field it cannot hold)."""
    names = {f.name for f in fields(ItemResult)}
    items = []
    for raw in data["items"]:
        values = {key: value for key, value in raw.items() if key in names} | _before_kinds(raw)
        if values.get("error_kind") not in (None, *get_args(ErrorKind)):
            raise ValueError("an unknown kind of error")
        values["facts"] = tuple(tuple(pair) for pair in values.get("facts", ()))
        values["calls_timed"] = tuple(tuple(row) for row in values.get("calls_timed", ()))
        values["game_outcomes"] = tuple((str(way), int(count)) for way, count in values.get("game_outcomes", ()))
        values["lost_games"] = tuple((str(cause), tuple(int(game) for game in games)) for cause, games in values.get("lost_games", ()))
        values["reruns"] = tuple(tuple(str(word) for word in argv) for argv in values.get("reruns", ()))
        values["cases"] = tuple(record_from_data(case) for case in values.get("cases", ()))
        items.append(ItemResult(**values))
    calls = tuple((str(caller), str(callee)) for caller, callee in data.get("calls", ()))
    return Report(
        data["solver"],
        items,
        data["isolation"],
        data["partial"],
        calls,
        str(data.get("unbounded", "")),
        bool(data.get("agent_stub", False)),
        str(data.get("unchecked_why", "")),
        float(data.get("public_cases", 0.0)),
    )


def _before_kinds(raw: dict[str, Any]) -> dict[str, Any]:
    """The typed fields of an item kept before they existed, from what it held then: a
    file that did not load was `"unloadable": true`, and a lost board's `cause` began with
    the hook where its search parted (`Divergence.describe`, the grader's own words)."""
    old: dict[str, Any] = {}
    if "error_kind" not in raw and raw.get("unloadable") is True:
        old["error_kind"] = "unloadable"
    if "parted_in" not in raw and isinstance(raw.get("cause"), str) and raw["cause"]:
        old["parted_in"] = raw["cause"].split(" ", 1)[0]
    return old
