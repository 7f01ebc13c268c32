"""What may be shown of a hidden item: its status and its points, nothing else.

A hidden item (a problem whose visibility is not `visible`) is graded and counted like any
other, but everything else about it could carry what the student's code saw of a hidden
board: its id and file, its reason, what the code printed, its nodes and time (the code
chooses them), the hook it was lost to. So every writer (the terminal, JSON, the class
CSV, feedback, Gradescope, PrairieLearn, the next step, kept results, insights) shows a
report through `shown_report`, and a hidden item as `shown` makes it.

The rule is an allow-list: the fields in `SHOWN_FIELDS` are shown as they are, the name
and reason are written here, and any other field, one added later included, is shown at
its default. Instructors ask for everything (`--show-hidden`).
"""

from __future__ import annotations

from dataclasses import MISSING, fields, replace
from typing import Any, Protocol, TypeVar

from grader.inputs.problemset import VISIBILITIES
from grader.reports.results import ItemResult, Report

#: What a hidden item shows as it is: what it is, its status and its points (and the typed
#: fact that the student's whole file did not load, the same for every item).
SHOWN_FIELDS = frozenset({"kind", "status", "score", "max_score", "unchecked", "unverified"})
#: A hidden item's name: "hidden problem 1", "hidden problem 2", ... in the report's order.
HIDDEN_NAME = "hidden problem"
Item = TypeVar("Item", bound=ItemResult)


class Hideable(Protocol):
    """A problem or an item: something whose visibility may hide it."""

    @property
    def hidden(self) -> bool: ...


def details_shown(thing: Hideable, show_hidden: bool = False) -> bool:
    """Whether more than status and points may be shown of `thing` (a problem to trace, an
    item to report): when it is visible, or an instructor asked (`--show-hidden`)."""
    return show_hidden or not thing.hidden


def shown(item: Item, number: int) -> Item:
    """`item` as it may be shown; a hidden one is "hidden problem `number`" with its status
    and points, its reason saying only that its details are hidden and when they show."""
    if details_shown(item):
        return item
    visibility = item.visibility if item.visibility in VISIBILITIES else "hidden"
    values: dict[str, Any] = {}
    for spec in fields(item):
        if spec.name in SHOWN_FIELDS:
            values[spec.name] = getattr(item, spec.name)
        elif spec.default is not MISSING:
            values[spec.name] = spec.default
        elif spec.default_factory is not MISSING:
            values[spec.name] = spec.default_factory()
    values.update(name=f"{HIDDEN_NAME} {number}", message=f"details hidden ({visibility})", visibility=visibility)
    if item.unloadable:  # of every failure kind, only this one is shown: it is the same for every item
        values["error_kind"] = "unloadable"
    return type(item)(**values)


def shown_items(items: list[ItemResult], show_hidden: bool = False) -> list[ItemResult]:
    """Every item as it may be shown (`show_hidden`: as it is, for instructors); hidden items
    numbered in order."""
    if show_hidden:
        return list(items)
    hidden = 0
    result = []
    for item in items:
        hidden += not details_shown(item)
        result.append(shown(item, hidden))
    return result


def shown_report(report: Report, show_hidden: bool = False) -> Report:
    """`report` with its items as they may be shown (the report's own lines are the
    student's or the grader's, never a hidden item's)."""
    return replace(report, items=shown_items(report.items, show_hidden))
