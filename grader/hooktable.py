"""Every function a student writes, in one table: the bottom of the grader.

A `HookSpec` says what the grader needs to know about one hook: its arguments and how
each travels to the worker, what inputs it may be given and what it may answer to them
(its contract), what a case of it shows, its points, and the answers that ignore their
input (the trivial probes no group of cases may reward). The worker, the case generator,
the checker, the search watcher, the stored answers of a student copy and the reports all
read this table; adding a hook is its entry here, its stub in `assignment/hooks.py`, its
model answer and its cases (`MAINTAINING.md`). Its entry also says how the grader's own
searches grade it: its calls there (a hook the engine calls, in the `Strategy` field
`slot`), questions built from them (`probe`), or not at all (`in_searches`).

Standard library only: the worker imports it inside the sandbox.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Part = Literal["csp", "sat", "agent"]  # part 1 (the CSP hooks), part 2 (SAT), part 3 (the agent)
#: How a CSP hook the engine does not call is still asked about the grader's searches: the
#: name of its probe builder (`PROBE_BUILDERS` in grader/scoring/probes.py), or none.
#: "constraints": one constraint of each of the model answer's first nodes, with that node's domains.
Probe = Literal["", "constraints"]
#: How the student copy stores the model answer's answer to a call (`grader/scoring/storedanswers.py`):
#: "as is"; "a tuple" (stored as a list, given back as a tuple); "the domains changed" (a
#: domains answer stored as the variables whose domain it changed from the call's `domains`).
Stored = Literal["as is", "a tuple", "the domains changed"]


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
    return View(data["rows"], cols, data["mines"], tuple(_view_row(cells[start : start + cols]) for start in range(0, len(cells), cols)))


@functools.lru_cache(maxsize=1024)
def _view_row(cells: bytes) -> tuple[int, ...]:
    """One row of a view's cells as values: a move changes a few rows of the view, so the
    others are the tuples made for the last move (immutable, so shared safely)."""
    return tuple(value - CELL_BASE for value in cells)


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


# --- contracts: what a hook may be given, and what it may answer to that input ---


class Unfit(Exception):
    """An answer its hook's contract does not allow for this input: `words` (what follows
    the hook's name), each `{name}` in them one of `shown`, a value of the student's that
    the grader quotes within bounds."""

    def __init__(self, words: str, **shown: Any):
        super().__init__(words)
        self.words, self.shown = words, shown


#: The handout's domains: (0, 1) undecided, (0,) safe, (1,) mine, () no value left.
HANDOUT_DOMAINS = frozenset({(0, 1), (0,), (1,), ()})

Inputs = Mapping[str, Any]
"""A call's arguments by name, as the hook gets them (domains as {variable: (values)}; the CSP by its name)."""
InputRule = Callable[[Inputs, frozenset[int]], list[str]]
"""What in a call's input breaks a hook's contract beyond its domains, in words ([]: nothing),
given the variables of the call (its CSP's, or its domains' for a hook that takes no CSP)."""
AnswerRule = Callable[[Any, Inputs], Any]
"""A hook's answer (as the wire gives it back) checked against its input: what the engine
uses, or `Unfit` saying what is wrong."""


def scope_of_domains(given: Inputs, variables: frozenset[int]) -> list[str]:
    """`scope`: distinct variables, each with a domain."""
    scope = list(given["scope"])
    return [] if len(set(scope)) == len(scope) and set(scope) <= variables else [f"scope {scope} is not distinct variables with domains"]


def assigned_holds_one_value(given: Inputs, variables: frozenset[int]) -> list[str]:
    """`assigned`: None at the root, else a variable that holds a 1-tuple."""
    assigned = given["assigned"]
    if assigned is None or (assigned in variables and len(given["domains"].get(assigned, ())) == 1):
        return []
    return [f"assigned {assigned} is not a variable holding a 1-tuple"]


def unassigned_in_order(given: Inputs, variables: frozenset[int]) -> list[str]:
    """`unassigned`: increasing variables, and every other variable holds a 1-tuple."""
    unassigned, domains = list(given["unassigned"]), given["domains"]
    broken = []
    if not unassigned or unassigned != sorted(set(unassigned)) or not set(unassigned) <= variables:
        broken.append(f"unassigned {unassigned} is not increasing variables")
    assigned = sorted(variables - set(unassigned))
    return broken + [f"variable {v} is assigned but its domain is {domains.get(v)}" for v in assigned if len(domains.get(v, ())) != 1]


def var_has_values(given: Inputs, variables: frozenset[int]) -> list[str]:
    """`var`: a variable with values left to order."""
    var = given["var"]
    return [] if var in variables and given["domains"].get(var) else [f"var {var} has no values to order"]


def narrowed_domains(answer: Any, given: Inputs) -> dict[int, tuple[int, ...]] | None:
    """None (a dead end), or the domain of every variable, each within the one it was given."""
    domains = given["domains"]
    if answer is None:
        return None
    if not isinstance(answer, dict) or set(answer) != set(domains):
        raise Unfit("must return None or a dict with the domain of every variable")
    narrowed = {}
    for var, values in answer.items():
        kept = tuple(sorted(values)) if isinstance(values, (list, frozenset)) and all(map(is_int, values)) else None
        if kept is None or not set(kept) <= set(domains[var]):
            raise Unfit(f"gave variable {{var}} the domain {{values}}, which is not a subset of {tuple(domains[var])}", var=var, values=values)
        narrowed[var] = kept
    return narrowed


def an_unassigned_variable(answer: Any, given: Inputs) -> int:
    """One of `unassigned`."""
    if not is_int(answer) or answer not in given["unassigned"]:
        raise Unfit("returned {answer}, which is not an unassigned variable", answer=answer)
    return int(answer)


def the_values_of_var(answer: Any, given: Inputs) -> list[int]:
    """Exactly the values of `var`'s domain, in some order."""
    var, domains = given["var"], given["domains"]
    if not isinstance(answer, list) or not all(map(is_int, answer)) or sorted(answer) != sorted(domains[var]):
        raise Unfit(f"returned {{answer}} for variable {var}; it must order exactly the values {tuple(domains[var])}", answer=answer)
    return answer


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
    slot: str = ""  # the field of `solvers.engine.Strategy` it fills, for a hook the engine calls
    accepts: InputRule | None = None  # its input's contract beyond its domains (`inputs_broken`)
    answers: AnswerRule | None = None  # what it may answer to an input, if more than `returns` says
    starts_node: bool = False  # the engine calls it first at every node it pops (the watcher counts nodes by it)
    differs: str = "returned {got} where the model answer returns {expected}"  # a search's first wrong call, in words
    stored: Stored = "as is"  # how the student copy stores the model answer's answers

    def __post_init__(self) -> None:
        if self.probe and (self.part != "csp" or self.engine_calls):
            raise ValueError(f"{self.name}: a probe is for a CSP hook the engine does not call (its calls are checked one by one)")
        if bool(self.slot) != self.engine_calls:
            raise ValueError(f"{self.name}: a hook the engine calls (the CSP first) fills a slot of the engine's Strategy, and only such a hook")

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

    def named(self, args: tuple[Any, ...]) -> dict[str, Any]:
        """Positional arguments by their names."""
        return dict(zip((p.name for p in self.params), args))

    def inputs_broken(self, data: Mapping[str, Any], variables: frozenset[int] | None = None) -> list[str]:
        """What in a call's input (case data, or Python values) breaks the contract the stub
        states, in words ([] when nothing does): every domain one of the handout's and, for a
        hook given the CSP (its `variables`), one for every variable; then `accepts`."""
        given = self.named(self.positional(self.wire_arguments(data), None))
        broken = []
        for param in (p for p in self.params if p.codec is DOMAINS):
            domains = given[param.name]
            broken += [f"variable {v} has the domain {d}" for v, d in domains.items() if d not in HANDOUT_DOMAINS]
            if variables is not None and set(domains) != variables:
                broken.append(f"the {param.name} are not those of every variable")
        known = variables if variables is not None else frozenset(v for p in self.params if p.codec is DOMAINS for v in given[p.name])
        return broken + (self.accepts(given, known) if self.accepts else [])

    def fits(self, answer: Any, given: Inputs) -> Any:
        """`answer` (as the wire gives it back) as the engine uses it, if the contract allows
        it for this input (`given`, by name); `Unfit` otherwise."""
        if self.answers is not None:
            return self.answers(answer, given)
        try:
            return self.returns(answer)
        except TypeError as wrong:
            raise Unfit(f"{wrong}, got {{answer}}", answer=answer) from None


# The table below is laid out to be read across, one entry a hook: the formatter leaves it.
# fmt: off
#: The CSP hooks in the order a student should implement them (each builds on the one before),
#: then part 2's clause generators and part 3's agent.
HOOKS: tuple[HookSpec, ...] = (
    HookSpec("constraint_bounds", "csp", (Param("scope", SCOPE), Param("domains", DOMAINS)),
             "the smallest and largest sum a constraint can reach", 2, "strategies.constraint_bounds", checked_bounds,
             (("(0, 0)", lambda scope, domains: (0, 0)), ("(1, 0)", lambda scope, domains: (1, 0)),
              ("(0, len(scope))", lambda scope, domains: (0, len(scope)))), probe="constraints",
             accepts=scope_of_domains, stored="a tuple"),
    HookSpec("forward_check", "csp", (Param("csp", CSP_FROM_BOARD), Param("domains", DOMAINS), Param("assigned", NUMBER)),
             "one pass of the bound rule over the constraints", 3, "strategies.forward_check_once", checked_domains,
             (("None", lambda csp, domains, assigned: None),
              ("the domains unchanged", lambda csp, domains, assigned: dict(domains))),
             slot="forward_check", accepts=assigned_holds_one_value, answers=narrowed_domains, starts_node=True,
             stored="the domains changed"),
    HookSpec("select_variable", "csp", (Param("csp", CSP_FROM_BOARD), Param("domains", DOMAINS), Param("unassigned", LIST)),
             "MRV, ties by degree then lowest number", 2, "strategies.select_mrv", checked_variable,
             (("the first unassigned", lambda csp, domains, unassigned: unassigned[0]),
              ("the last unassigned", lambda csp, domains, unassigned: unassigned[-1]),
              ("variable 0", lambda csp, domains, unassigned: 0)),
             slot="select_variable", accepts=unassigned_in_order, answers=an_unassigned_variable,
             differs="chose variable {got} where the model answer chooses {expected}"),
    HookSpec("order_values", "csp", (Param("csp", CSP_FROM_BOARD), Param("var", NUMBER), Param("domains", DOMAINS)),
             "the values to try, safe first", 1, "strategies.values_ascending", checked_values,
             (("[0, 1]", lambda csp, var, domains: [0, 1]), ("[1, 0]", lambda csp, var, domains: [1, 0])),
             slot="order_values", accepts=var_has_values, answers=the_values_of_var,
             differs="ordered {got} where the model answer orders {expected}"),
    HookSpec("at_least_clauses", "sat", (Param("lits", LIST), Param("k", NUMBER)),
             "clauses for 'at least k of these are true'", 2, "sat.at_least_subsets", holds=operator.ge),
    HookSpec("at_most_clauses", "sat", (Param("lits", LIST), Param("k", NUMBER)),
             "clauses for 'at most k of these are true'", 2, "sat.at_most_subsets", holds=operator.le),
    HookSpec("choose_move", "agent", (Param("view", VIEW),), "the playing agent's next move"),
)
# fmt: on
BY_NAME: dict[str, HookSpec] = {spec.name: spec for spec in HOOKS}
CSP_HOOKS = tuple(spec for spec in HOOKS if spec.part == "csp")
ENGINE_HOOKS = tuple(spec for spec in HOOKS if spec.engine_calls)  # each fills its `slot` of the engine's Strategy
SAT_HOOKS = tuple(spec for spec in HOOKS if spec.part == "sat")
SOLVER_HOOK_NAMES = tuple(spec.name for spec in HOOKS if spec.part != "agent")  # what a hooks file defines
AGENT_NAME = next(spec.name for spec in HOOKS if spec.part == "agent")

#: Part 2's other item: every problem solved through the student's clauses (no hook of its own).
SAT_ENCODING = "sat_encoding"
SAT_ENCODING_POINTS = 4.0
