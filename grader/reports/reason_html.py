"""A reason for lost points as HTML, drawn from the item's typed records: its cases
(`CaseRecord`: boards as grids, inputs and answers as tables) and its rerun commands,
each on a line of its own; the rest of the reason as text. Read alike by the feedback
page and by Gradescope's per-test output, so that both show the same content.

Nothing here reads a reason's words: a reason is text the grader wrote from the same
records, and a record's place in it is where its own text (`case_text`, `hint_text`)
stands, found whole. What student code chose is escaped by the template engine
(Jinja2, autoescape on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined

from grader.reports.caserecord import STATE_MEANINGS, CaseRecord, case_text
from grader.reports.rerunhint import hint_text
from solvers.board import cell_name

#: Each state symbol's class on the page (the symbols themselves carry the meaning).
STATE_CLASSES = {"?": "u", "◇": "s", "◆": "m", "✗": "x", "": "u"}


@cache
def environment() -> Environment:
    """The kit's template engine: every value escaped unless a template says otherwise."""
    env = Environment(loader=PackageLoader("grader.reports", "templates"), autoescape=True, undefined=StrictUndefined)
    env.globals.update(meanings=STATE_MEANINGS, classes=STATE_CLASSES, cell_names=cell_names)
    return env


@dataclass(frozen=True)
class Part:
    """One part of a reason: text, a case's record, or a rerun command (as a shell reads it)."""

    text: str = ""
    case: CaseRecord | None = None
    command: str = ""


def cell_names(case: CaseRecord) -> dict[int, str]:
    """Each variable's cell on the case's board (r1c1 is the top left)."""
    return {} if case.board is None else {var: cell_name(at) for var, at in case.board.cell_of().items()}


def reason_parts(message: str, cases: Sequence[CaseRecord] = (), reruns: Sequence[Sequence[str]] = ()) -> list[Part]:
    """`message` cut where each record's own text stands in it, in order; a record whose
    text is not there whole (the reason was cut short) follows the text."""
    needles = [(case_text(case), Part(case=case)) for case in cases] + [(hint_text(argv), Part(command=hint_text(argv))) for argv in reruns]
    parts: list[Part] = []
    rest = message
    left = list(needles)
    while left:
        found = [(rest.find(text), index) for index, (text, _) in enumerate(left) if text and rest.find(text) >= 0]
        if not found:
            break
        at, index = min(found)
        text, part = left.pop(index)
        parts += [Part(rest[:at]), part]
        rest = rest[at + len(text) :]
    parts.append(Part(rest))
    return parts + [part for text, part in left if part.case is not None]


def reason_html(message: str, cases: Sequence[CaseRecord] = (), reruns: Sequence[Sequence[str]] = (), inline: bool = False) -> str:
    """A reason as an HTML fragment, everything escaped. `inline`: borders and lines that
    keep their meaning without the page's stylesheet (Gradescope)."""
    return environment().get_template("reason.html.j2").render(parts=reason_parts(message, cases, reruns), inline=inline).strip()
