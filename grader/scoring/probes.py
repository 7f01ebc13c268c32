"""A CSP hook the engine does not call, asked about the grader's searches all the same.

The student's forward_check need not call constraint_bounds, so its calls in a search
say nothing of it: such a hook names a probe builder in its table entry
(`HookSpec.probe`), and the grader asks it the builder's questions about each board, as
hook cases (`board_probes`), graded a board at a time like a search's calls
(`probe_calls`). For "constraints": one constraint at each of the model answer's first
nodes (`constraint_probes`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from grader.hooktable import BY_NAME, DOMAINS, ENGINE_HOOKS, Probe
from grader.scoring.case import Case, Reply
from grader.scoring.hookcases import as_data, domains_of
from grader.scoring.searchcheck import HookCalls, trivial_data
from grader.scoring.storedanswers import AnswerTable, Model
from solvers.board import Board
from solvers.csp import CSP, Domains, build_csp
from solvers.engine import Strategy, search

#: Questions a "constraints" probe asks per board: one constraint at each of the model
#: answer's first nodes, the mine count first (the largest scope), then the clues from the last.
PROBES = 24
#: The engine's hook it calls first at every node: where a probe builder sees a node's domains.
NODE_HOOK = next(spec for spec in ENGINE_HOOKS if spec.starts_node)


def constraint_probes(hook: str, board: Board, model: Model | AnswerTable) -> list[Case]:
    """Cases of `hook` (which takes a scope and domains) from the model answer's search of
    `board`: at each of its first PROBES nodes, one constraint (the mine count first, then
    the clues from the last) with that node's domains, and the model's answer. The
    student's forward_check need not call such a hook, so these are asked of it apart, as
    hook cases. (OffPath in a student copy that does not carry this board.)"""
    model = model.on(board)
    cases: list[Case] = []
    at_node = getattr(model.strategy, NODE_HOOK.slot)

    def recording(csp: CSP, domains: Domains, *args: Any) -> Any:
        if len(cases) < PROBES and csp.constraints:
            scope = list(csp.constraints[-(len(cases) + 1) % len(csp.constraints)].scope)
            cases.append(
                Case(
                    f"node {len(cases) + 1} of the model answer's search of this board",
                    "a call of the search of a real board: the same rule as the named cases",
                    {"scope": scope, "domains": {var: list(values) for var, values in domains.items()}},
                    tuple(board.rows_text()),
                    board.rule,
                    board.mines,
                    as_data(hook, model.probed[hook](scope, domains)),
                )
            )
        return at_node(csp, domains, *args)

    slots = {spec.slot: getattr(model.strategy, spec.slot) for spec in ENGINE_HOOKS}
    search(build_csp(board), Strategy("probes", **{**slots, NODE_HOOK.slot: recording}), "first")
    return cases


#: How a board's questions for a probed hook are built, by `HookSpec.probe`.
PROBE_BUILDERS: dict[Probe, Callable[[str, Board, Model | AnswerTable], list[Case]]] = {
    "constraints": constraint_probes,
}


def board_probes(hook: str, board: Board, model: Model | AnswerTable) -> list[Case]:
    """The questions the grader asks `hook` about its searches of `board`, built as the
    hook's table entry says (`HookSpec.probe`)."""
    return PROBE_BUILDERS[BY_NAME[hook].probe](hook, board, model)


def probe_calls(hook: str, cases: list[Case], results: list[Reply]) -> HookCalls:
    """The student's answers to one board's `board_probes`, as that board's calls."""
    spec = BY_NAME[hook]
    calls = HookCalls()
    for case, result in zip(cases, results):
        args = tuple(case.args[p.name] if p.codec is not DOMAINS else domains_of(case.args[p.name]) for p in spec.params)
        calls.note(partial(replace, case), result, case.expected, partial(trivial_data, hook, args))
    return calls
