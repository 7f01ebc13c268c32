"""A search trace as one self-contained HTML page that plays it (`--export trace.html`).

Python computes everything the page shows from the same steps the terminal renders
(`solvers.trace_view`): each cell's state, the lines under the board, the path, the stack,
the counts, the divergence from the reference. The page only draws them. The data goes in
a `<script type="application/json">` block, compact (one array per field; each step's
board as the cells that changed since the step before; each line of notes written once,
a step's notes as their numbers), and is drawn with `textContent` only, so no string
from a student (a file name, printed output, an exception's text) is ever read as HTML.
The data is built in one pass over the steps as recorded (`solvers.trace`: domains as
strings), which an explainer reads as they are.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .board import Board, cell_name
from .csp import CSP
from .trace import DOMAIN_CODES, DOMAIN_OF_CODE, Step, differing, narrowed
from .trace_view import SYMBOLS, Explainer, cell_state, shown_domains, step_notes

#: The states in the order the page's data numbers them.
STATES = tuple(SYMBOLS)
#: One letter per outcome in the page's data.
OUTCOMES = {"branch": "b", "dead-end": "d", "solution": "s", "stopped": "x"}
#: The terminal's colour names (rich styles) as the page's colours.
COLOURS = {"red": "#c62828", "green": "#2e7d32", "yellow": "#9a7b00", "magenta": "#9c27b0", "cyan": "#00838f"}
_TEMPLATE = Path(__file__).with_name("trace_page.html")


@dataclass(frozen=True)
class PageInfo:
    """What the page says about the trace besides its steps."""

    title: str
    complete: bool = True
    max_steps: int | None = None
    divergence: tuple[int, list[str]] | None = None  # (index of the step, the terminal's sentences)
    model: Step | None = None  # the model answer's recorded step at the divergence, when it has one


def _legend() -> list[list[str]]:
    return [[state, symbol, meaning, COLOURS[style.split()[-1]]] for state, (symbol, style, meaning) in SYMBOLS.items()]


def _stacks(steps: list[Step]) -> list[int]:
    """Nodes left on the engine's stack just after each step's pop (the root starts alone;
    a branch pushes one child per value)."""
    stacks, pushed = [], 1
    for index, step in enumerate(steps):
        stacks.append(pushed - (index + 1))
        if step["outcome"] == "branch":
            pushed += len(step["values"])
    return stacks


def _parents(steps: list[Step]) -> list[int]:
    """Each step's parent as a step number (0 for the root): the latest step whose
    assignment is this one's minus its last. The engine's stack is last in, first out, so
    that is the latest step one level up (checked; the steps are searched otherwise)."""
    latest: dict[int, int] = {}  # depth: the latest step at that depth
    parents = []
    for number, step in enumerate(steps, 1):
        assignment = step["assignment"]
        parent = latest.get(len(assignment) - 1, 0)
        if assignment and (not parent or steps[parent - 1]["assignment"] != assignment[:-1]):
            parent = next((n for n in range(number - 1, 0, -1) if steps[n - 1]["assignment"] == assignment[:-1]), 0)
        parents.append(parent if assignment else 0)
        latest[len(assignment)] = number
    return parents


def _boards(steps: list[Step], size: int) -> list[list[int]]:
    """Each step's board as the cells whose state changed since the step before (the first
    step's against a board all open), as [var, state number, ...]. Only the variables
    whose shown domain or assignment changed between the two steps are looked at."""
    number = {state: index for index, state in enumerate(STATES)}
    unassigned = {code: number[cell_state(domain)] for code, domain in DOMAIN_OF_CODE.items()}
    assigned = {value: number[cell_state((), value)] for value in (0, 1)}
    board = [number["open"]] * size
    shown = DOMAIN_CODES[(0, 1)] * size
    path: list[list[int]] = []
    values: dict[int, int] = {}
    deltas = []
    for step in steps:
        now = step["domains"] if step["after"] is None else step["after"]
        assignment = step["assignment"]
        kept = len(assignment) - 1 if assignment and assignment[:-1] == path[: len(assignment) - 1] else 0
        touched = set(differing(shown, now))
        for var, _ in path[kept:]:
            del values[var]
            touched.add(var)
        for var, value in assignment[kept:]:
            values[var] = value
            touched.add(var)
        path, shown = assignment, now
        delta: list[int] = []
        for var in sorted(touched):
            state = unassigned[now[var]] if var not in values else assigned[values[var]]
            if state != board[var]:
                board[var] = state
                delta += (var, state)
        deltas.append(delta)
    return deltas


def board_states(step: Step) -> list[int]:
    """Each variable's state number (in `STATES`) on the board the terminal draws for `step`."""
    domains, assigned = shown_domains(step), {var: value for var, value in step["assignment"]}
    return [STATES.index(cell_state(domains[var], assigned.get(var))) for var in range(len(domains))]


def _divergence(steps: list[Step], info: PageInfo) -> dict[str, Any] | None:
    """The divergence as the page draws it: its step (numbered from 1), the terminal's
    sentences, and, when both searches reached that step, the model answer's board there
    (state numbers by variable) and the variables whose state differs from the student's."""
    if info.divergence is None:
        return None
    index, lines = info.divergence
    model = differ = None
    if info.model is not None and index < len(steps):
        model, yours = board_states(info.model), board_states(steps[index])
        differ = [var for var, (a, b) in enumerate(zip(yours, model)) if a != b]
    return {"step": index + 1, "lines": lines, "model": model, "differ": differ}


def page_data(board: Board, csp: CSP, steps: list[Step], info: PageInfo, narrate: bool = False, explain: Explainer | None = None) -> dict[str, Any]:
    """Everything the page draws, as JSON-ready data."""
    texts: dict[str, int] = {}  # each line once; a step's notes are their numbers
    notes, just, outcomes, dead, found = [], [], [], [], []
    dead_ends = solutions = 0
    for step in steps:
        dead_ends += step["outcome"] == "dead-end"
        solutions += step["outcome"] == "solution"
        dead.append(dead_ends)
        found.append(solutions)
        notes.append([texts.setdefault(line.plain, len(texts)) for line in step_notes(step, csp, solutions, narrate, explain)])
        just.append(step["assignment"][-1] if step["assignment"] else None)
        outcomes.append(OUTCOMES[step["outcome"]])
    return {
        "title": info.title,
        "rows": board.rows,
        "cols": board.cols,
        "clues": [[board.clue((r, c)) for c in range(board.cols)] for r in range(board.rows)],
        "cells": [list(cell) for cell in csp.cells],
        "names": [cell_name(cell) for cell in csp.cells],
        "legend": _legend(),
        "complete": info.complete,
        "max_steps": info.max_steps,
        "depth": [step["depth"] for step in steps],
        "parent": _parents(steps),
        "stack": _stacks(steps),
        "just": just,
        "outcome": "".join(outcomes),
        "dead": dead,
        "found": found,
        "delta": _boards(steps, len(csp.cells)),
        "narrowed": [narrowed(step) for step in steps],
        "notes": notes,
        "texts": list(texts),
        "divergence": _divergence(steps, info),
    }


def script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no `<` can close it or open a comment."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def trace_page(board: Board, csp: CSP, steps: list[Step], info: PageInfo, narrate: bool = False, explain: Explainer | None = None) -> str:
    """The whole page as text."""
    head, tail = _TEMPLATE.read_text(encoding="utf-8").split("{{DATA}}")
    data = script_json(page_data(board, csp, steps, info, narrate, explain))
    return head.replace("{{TITLE}}", html.escape(info.title)) + data + tail


def write_trace_page(
    path: Path, board: Board, csp: CSP, steps: list[Step], info: PageInfo, narrate: bool = False, explain: Explainer | None = None
) -> None:
    """Write the trace page to `path`."""
    path.write_text(trace_page(board, csp, steps, info, narrate, explain), encoding="utf-8")
