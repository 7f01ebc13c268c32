"""Every function a student writes, in one table: the bottom of the grader.

A `HookSpec` says what the grader needs to know about one hook: its arguments and how
each travels to the worker, what it must return, what a case of it shows, its points,
and the answers that ignore their input (the trivial probes no group of cases may reward).
The worker, the case generator, the checker, the search watcher and the reports all read
this table; adding a hook is its entry here, its stub in `assignment/hooks.py`, its model
answer and its cases (`MAINTAINING.md`). Its entry also says how the grader's own
searches grade it: its calls there (a hook the engine calls), questions built from them
(`probe`), or not at all (`in_searches`).

Standard library only: the worker imports it inside the sandbox.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Part = Literal["csp", "sat", "agent"]  # part 1 (the CSP hooks), part 2 (SAT), part 3 (the agent)
#: How a CSP hook the engine does not call is still asked about the grader's searches: the
#: name of its probe builder (`PROBE_BUILDERS` in grader/scoring/searchcheck.py), or none.
#: "constraints": one constraint of each of the model answer's first nodes, with that node's domains.
Probe = Literal["", "constraints"]


@dataclass(frozen=True)
class Codec:
    """How one argument travels: `send` turns it (a Python value or case data) into wire
    data, `rebuild` turns wire data back into what the hook is given. `sent=False`: not
    sent at all, the worker builds it from the board (the CSP)."""

    send: Callable[[Any], Any]
    rebuild: Callable[[Any], Any]
    sent: bool = True


def _domains_data(domains: Any) -> list[list[Any]]:
    """Domains ({variable: values}, keys possibly strings from JSON) as [[variable, [values]], ...]."""
    items = domains.items() if isinstance(domains, Mapping) else domains
    return [[int(var), list(values)] for var, values in items]


def _rebuild_domains(data: Any) -> dict[int, tuple[int, ...]]:
    return {int(var): tuple(values) for var, values in data}


#: A view's cell of value v travels as the character chr(CELL_BASE + v), row after row in one
#: string: "." flagged, "/" hidden, "0".."8" revealed (a move's view is one short string,
#: not 81 numbers in lists to write and parse, each way, at every move).
CELL_BASE = ord("0")


def _rebuild_view(data: Any) -> Any:
    from play.view import View  # the student-facing game library, present in the worker

    cols, cells = data["cols"], data["cells"].encode("ascii")
    rows = tuple(tuple(value - CELL_BASE for value in cells[start : start + cols]) for start in range(0, len(cells), cols))
    return View(data["rows"], cols, data["mines"], rows)


def _view_data(view: Any) -> dict[str, Any]:
    cells = bytes([CELL_BASE + value for row in view.cells for value in row]).decode("ascii")
    return {"rows": view.rows, "cols": view.cols, "mines": view.mines, "cells": cells}


def _identity(value: Any) -> Any:
    return value


CSP_FROM_BOARD = Codec(_identity, _identity, sent=False)
DOMAINS = Codec(_domains_data, _rebuild_domains)
SCOPE = Codec(list, tuple)
LIST = Codec(list, list)
NUMBER = Codec(_identity, _identity)  # an int, or None where the hook allows it
VIEW = Codec(_view_data, _rebuild_view)  # the player's view of a game (`play.view.View`)


@dataclass(frozen=True)
class Param:
    name: str
    codec: Codec


def is_int(value: Any) -> bool:
    """An int that is not a bool (True is an int to Python, never a variable or a count here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def checked_bounds(value: Any) -> list[int]:
    if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(is_int(v) for v in value)):
        raise TypeError("must return a pair of ints (low, high)")
    return [int(v) for v in value]


def checked_domains(value: Any) -> dict[int, list[int]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError("must return a dict of domains or None")
    try:
        return {int(var): sorted(int(v) for v in values) for var, values in value.items()}
    except (TypeError, ValueError):
        raise TypeError("must map each variable to a tuple of ints") from None


def checked_variable(value: Any) -> int:
    if not is_int(value):
        raise TypeError("must return a variable number (int)")
    return int(value)


def checked_values(value: Any) -> list[int]:
    if not (isinstance(value, (list, tuple)) and all(is_int(v) for v in value)):
        raise TypeError("must return a list of ints")
    return [int(v) for v in value]


@dataclass(frozen=True)
class HookSpec:
    """One function a student writes."""

    name: str
    part: Part
    params: tuple[Param, ...]  # in the order of the student's signature
    summary: str  # what it computes, in a few words (the feedback's next step names it)
    points: float = 0.0  # its item's default weight (the agent's come from the course's grading.yaml)
    reference: str = ""  # its model answer in the answer key, as module.function (grader.reference reads it)
    returns: Callable[[Any], Any] = _identity  # its answer as plain data, or TypeError("must return ...")
    trivial: tuple[tuple[str, Callable[..., Any]], ...] = ()  # answers that ignore the input
    holds: Callable[[int, int], bool] | None = None  # SAT: does a count of true literals meet k?
    probe: Probe = ""  # a hook the engine does not call, asked about its searches all the same ("": never)

    def __post_init__(self) -> None:
        if self.probe and (self.part != "csp" or self.engine_calls):
            raise ValueError(f"{self.name}: a probe is for a CSP hook the engine does not call (its calls are checked one by one)")

    @property
    def engine_calls(self) -> bool:
        """Whether the engine calls it in a search (such a hook takes the CSP first)."""
        return self.part == "csp" and not self.params[0].codec.sent

    @property
    def in_searches(self) -> Literal["calls", "probes", ""]:
        """How the grader's searches grade it: its calls there ("calls", the engine's hooks),
        questions built from them ("probes", see `probe`), or not at all (its cases alone)."""
        return "calls" if self.engine_calls else "probes" if self.probe else ""

    def wire_arguments(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The sent arguments as wire data, from Python values or a case's data."""
        return {p.name: p.codec.send(values[p.name]) for p in self.params if p.codec.sent}

    def positional(self, data: Mapping[str, Any], csp: Any) -> tuple[Any, ...]:
        """The hook's positional arguments from wire data (fresh objects every call)."""
        return tuple(p.codec.rebuild(data[p.name]) if p.codec.sent else csp for p in self.params)


# The table below is laid out to be read across, one entry a hook: the formatter leaves it.
# fmt: off
#: The CSP hooks in the order a student should implement them (each builds on the one before),
#: then part 2's clause generators and part 3's agent.
HOOKS: tuple[HookSpec, ...] = (
    HookSpec("constraint_bounds", "csp", (Param("scope", SCOPE), Param("domains", DOMAINS)),
             "the smallest and largest sum a constraint can reach", 2, "strategies.constraint_bounds", checked_bounds,
             (("(0, 0)", lambda scope, domains: (0, 0)), ("(1, 0)", lambda scope, domains: (1, 0)),
              ("(0, len(scope))", lambda scope, domains: (0, len(scope)))), probe="constraints"),
    HookSpec("forward_check", "csp", (Param("csp", CSP_FROM_BOARD), Param("domains", DOMAINS), Param("assigned", NUMBER)),
             "one pass of the bound rule over the constraints", 3, "strategies.forward_check_once", checked_domains,
             (("None", lambda csp, domains, assigned: None),
              ("the domains unchanged", lambda csp, domains, assigned: dict(domains)))),
    HookSpec("select_variable", "csp", (Param("csp", CSP_FROM_BOARD), Param("domains", DOMAINS), Param("unassigned", LIST)),
             "MRV, ties by degree then lowest number", 2, "strategies.select_mrv", checked_variable,
             (("the first unassigned", lambda csp, domains, unassigned: unassigned[0]),
              ("the last unassigned", lambda csp, domains, unassigned: unassigned[-1]),
              ("variable 0", lambda csp, domains, unassigned: 0))),
    HookSpec("order_values", "csp", (Param("csp", CSP_FROM_BOARD), Param("var", NUMBER), Param("domains", DOMAINS)),
             "the values to try, safe first", 1, "strategies.values_ascending", checked_values,
             (("[0, 1]", lambda csp, var, domains: [0, 1]), ("[1, 0]", lambda csp, var, domains: [1, 0]))),
    HookSpec("at_least_clauses", "sat", (Param("lits", LIST), Param("k", NUMBER)),
             "clauses for 'at least k of these are true'", 2, "sat.at_least_subsets", holds=operator.ge),
    HookSpec("at_most_clauses", "sat", (Param("lits", LIST), Param("k", NUMBER)),
             "clauses for 'at most k of these are true'", 2, "sat.at_most_subsets", holds=operator.le),
    HookSpec("choose_move", "agent", (Param("view", VIEW),), "the playing agent's next move"),
)
# fmt: on
BY_NAME: dict[str, HookSpec] = {spec.name: spec for spec in HOOKS}
CSP_HOOKS = tuple(spec for spec in HOOKS if spec.part == "csp")
SAT_HOOKS = tuple(spec for spec in HOOKS if spec.part == "sat")
SOLVER_HOOK_NAMES = tuple(spec.name for spec in HOOKS if spec.part != "agent")  # what a hooks file defines
AGENT_NAME = next(spec.name for spec in HOOKS if spec.part == "agent")

#: Part 2's other item: every problem solved through the student's clauses (no hook of its own).
SAT_ENCODING = "sat_encoding"
SAT_ENCODING_POINTS = 4.0
