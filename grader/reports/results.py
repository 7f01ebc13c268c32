"""What grading produces: one result per graded item, and the report that holds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.sandbox.wire import clean_text


@dataclass
class ItemResult:
    """The grade of one item: a hook test or a problem run."""

    kind: str  # "hook" or "problem"
    name: str
    status: str  # pass | fail | error | timeout
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

    def __post_init__(self) -> None:
        """Reasons and output may quote student code: made safe to show, once, here."""
        self.message = clean_text(self.message)
        self.output = clean_text(self.output)
        self.cause = clean_text(self.cause)

    @property
    def hidden(self) -> bool:
        return self.visibility != "visible"

    def as_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind, "id": self.name, "status": self.status, "score": self.score,
                "max_score": self.max_score, "message": self.message, "nodes": self.nodes, "seconds": self.seconds}
        if self.file:
            data["file"] = self.file
        if self.hidden:
            data["visibility"] = self.visibility
        if self.cause and self.score < self.max_score:
            data["cause"] = self.cause
        return data


@dataclass
class Report:
    """Every item's grade, in order: hook tests first, then problems."""

    solver: str
    items: list[ItemResult] = field(default_factory=list)
    isolation: str = ""  # how the solver's code was isolated: bwrap, user, none, or in-process (reference)
    partial: bool = False  # only some items were graded (--only)

    def __post_init__(self) -> None:
        """The solver's path holds a student's file names: made safe to show, once, here."""
        self.solver = clean_text(self.solver)

    @property
    def score(self) -> float:
        return round(sum(i.score for i in self.items), 2)

    @property
    def max_score(self) -> float:
        return round(sum(i.max_score for i in self.items), 2)

    def next_hook_to_implement(self) -> str | None:
        """The first hook (in handout order) still raising NotImplementedError."""
        for item in self.items:
            if item.kind == "hook" and "is not implemented yet" in item.message:
                return item.name
        return None

    def most_valuable_fix(self) -> tuple[str, float] | None:
        """The hook whose fix gains the most points: what its own tests lost, plus the
        boards whose search first parted from the model answer in it."""
        gains: dict[str, float] = {}
        for item in self.items:
            lost = item.max_score - item.score
            if lost <= 0:
                continue
            if item.kind == "hook":
                gains[item.name] = gains.get(item.name, 0.0) + lost
            elif item.cause:
                hook = item.cause.split(" ", 1)[0]
                gains[hook] = gains.get(hook, 0.0) + lost
        if not gains:
            return None
        hook = max(gains, key=lambda name: gains[name])
        return hook, round(gains[hook], 2)
