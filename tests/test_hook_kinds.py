"""How the grader's searches grade each hook, as its table entry says (`HookSpec.probe`,
`HookSpec.in_searches`): its calls, its probes' answers, or nothing at all."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, get_args

import pytest

from grader.hooktable import CSP_FROM_BOARD, DOMAINS, ENGINE_HOOKS, HOOKS, SCOPE, HookSpec, Param, Probe
from grader.inputs.problemset import Problem
from grader.sandbox.tasks import Outcome
from grader.scoring.grading import _search_calls, model_answer
from grader.scoring.hookcalls import HookContractError, Hooks, LocalAsker
from grader.scoring.hookitems import Probes
from grader.scoring.probes import PROBE_BUILDERS
from grader.scoring.problems import SearchAnswer
from grader.scoring.searchcheck import HookCalls
from grader.scoring.searchshare import Searched
from grader.scoring.storedanswers import PROBED
from solvers.board import board_from_rows
from solvers.csp import build_csp
from solvers.engine import Strategy, search

ENGINE = HookSpec("toy_engine", "csp", (Param("csp", CSP_FROM_BOARD), Param("domains", DOMAINS)), "toy", slot="toy_engine")
PROBED_TOY = HookSpec("toy_probed", "csp", (Param("scope", SCOPE), Param("domains", DOMAINS)), "toy", probe="constraints")
ALONE = HookSpec("toy_alone", "csp", (Param("domains", DOMAINS),), "toy")


def test_every_probe_of_the_table_names_a_builder_and_every_builder_a_probe() -> None:
    """The table's data and the grader's builders agree, both ways."""
    assert {spec.probe for spec in HOOKS if spec.probe} <= set(PROBE_BUILDERS)
    assert set(get_args(Probe)) - {""} == set(PROBE_BUILDERS)
    assert PROBED == tuple(spec.name for spec in HOOKS if spec.in_searches == "probes")


def test_each_kind_is_read_from_the_entry() -> None:
    """A hook whose first parameter is the CSP is checked call by call; one with a probe is
    probed; one with neither is graded on its cases alone."""
    assert (ENGINE.in_searches, PROBED_TOY.in_searches, ALONE.in_searches) == ("calls", "probes", "")
    for spec in HOOKS:
        assert spec.in_searches == ("calls" if spec.engine_calls else "probes" if spec.probe else "")


@pytest.mark.parametrize("part, params", [("csp", ENGINE.params), ("sat", ALONE.params)])
def test_a_probe_on_a_hook_the_engine_calls_or_outside_the_csp_part_is_refused(part: str, params: tuple) -> None:
    """Contradictory entries fail where they are written, not as wrong grades."""
    with pytest.raises(ValueError, match="a probe is for a CSP hook the engine does not call"):
        HookSpec("toy", part, params, "toy", probe="constraints")  # type: ignore[arg-type]


def test_a_slot_is_for_a_hook_the_engine_calls_and_only_for_one() -> None:
    """An entry that takes the CSP first names the engine's field it fills; one that does
    not, names none: a contradiction fails where it is written."""
    with pytest.raises(ValueError, match="fills a slot of the engine's Strategy"):
        HookSpec("toy", "csp", ENGINE.params, "toy")
    with pytest.raises(ValueError, match="fills a slot of the engine's Strategy"):
        HookSpec("toy", "csp", ALONE.params, "toy", slot="toy")


def _probes_answered(hook: str, problem: Problem, calls: int) -> Probes:
    """A Probes of `hook` that asked `calls` questions about `problem`, all answered."""
    probes = Probes(hook, [], [], model_answer(), 1.0)
    probes.calls = [Searched(problem, HookCalls(calls=calls))]
    return probes


def test_a_hook_is_graded_on_its_own_answers_in_searches_or_on_none() -> None:
    """A probed hook gets its own probes' answers, never another probed hook's; a hook of
    neither kind gets no board at all (before, every hook the engine does not call got
    constraint_bounds' probes); a hook the engine calls gets its calls in the searches."""
    problem = Problem("sets/toy.yaml", "b1", board_from_rows([[None, 1, None]], mines=1))
    probes = {"constraint_bounds": _probes_answered("constraint_bounds", problem, 24), PROBED_TOY.name: _probes_answered(PROBED_TOY.name, problem, 5)}
    searched = [(problem, Outcome("ok", SearchAnswer(calls={ENGINE.name: HookCalls(calls=7)})))]
    assert [s.calls.calls for s in _search_calls(PROBED_TOY, searched, probes)] == [5]
    assert _search_calls(ALONE, searched, probes) == []
    assert [s.calls.calls for s in _search_calls(ENGINE, searched, probes)] == [7]


def test_every_engine_hook_fills_its_own_field_and_one_is_called_first_at_every_node() -> None:
    """Each engine-called hook names a field of the engine's Strategy, its own; the one
    marked `starts_node` is what the engine calls first at every node it pops (the watcher
    numbers the nodes by its calls)."""
    fields = {f.name for f in dataclasses.fields(Strategy)}
    slots = [spec.slot for spec in ENGINE_HOOKS]
    assert set(slots) <= fields and len(set(slots)) == len(slots) == len(ENGINE_HOOKS) > 0
    first = [spec for spec in ENGINE_HOOKS if spec.starts_node]
    assert len(first) == 1
    model, calls = model_answer().strategy, list[str]()

    def logged(slot: str) -> Callable[..., Any]:
        return lambda *args: calls.append(slot) or getattr(model, slot)(*args)

    board = board_from_rows([[None, 1, None], [None, None, 2], [None, None, None]], mines=3)
    stats = search(build_csp(board), Strategy("logged", **{slot: logged(slot) for slot in slots}), "all").stats
    assert calls.count(first[0].slot) == stats.popped > 1
    assert calls[0] == first[0].slot


def test_a_broken_contract_names_the_hook_and_quotes_the_answer_within_bounds() -> None:
    """The hostile side of the generic check: each engine hook answering what its entry's
    contract refuses raises HookContractError naming that hook, the student's value quoted
    short, however large."""
    board = board_from_rows([[None, 1, None]], mines=1)
    csp, huge = build_csp(board), list(range(100_000))
    domains = csp.initial_domains()
    wrong = {"forward_check": lambda csp, domains, assigned: {0: huge}, "select_variable": lambda csp, domains, unassigned: huge}
    wrong["order_values"] = lambda csp, var, domains: huge
    hooks = Hooks(LocalAsker(wrong))
    hooks.use_board(board)
    strategy = hooks.strategy()
    for call in (lambda: strategy.forward_check(csp, domains, None), lambda: strategy.select_variable(csp, domains, [0, 1])):
        with pytest.raises(HookContractError) as raised:
            call()
        assert raised.value.hook in wrong and str(raised.value).startswith(raised.value.hook) and len(str(raised.value)) < 400
    with pytest.raises(
        HookContractError, match=r"^order_values returned \[0, 1, 2, .* more\] for variable 0; it must order exactly the values \(0, 1\)$"
    ):
        strategy.order_values(csp, 0, domains)
