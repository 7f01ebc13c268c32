"""Hook cases: each hook draws from its own random stream, so adding or removing a hook
moves no other hook's cases; a case is a record that reads back as it was written."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from grader import hooktable
from grader.hooktable import DOMAINS, SCOPE, HookSpec, Param, checked_variable
from grader.inputs.config import GradingConfig
from grader.scoring import hookcases
from grader.scoring.case import Case, read_file, write_file
from grader.scoring.hookcases import GOLDEN_SEED, HOOKS_WITH_CASES, arguments, build_cases, load_cases
from grader.scoring.rerun import pack, unpack

SEEDS = (GOLDEN_SEED, 7, 2**40 + 3)  # the shipped cases' seed and two a course might choose

#: A hook the engine does not call, as MAINTAINING.md's guide would add it (1 point).
TOY = HookSpec(
    "count_decided",
    "csp",
    (Param("scope", SCOPE), Param("domains", DOMAINS)),
    "how many variables of the scope are decided",
    1,
    returns=checked_variable,
    trivial=(("0", lambda scope, domains: 0),),
)


def _toy_answer(scope: Any, domains: Any) -> int:
    return sum(len(domains[v]) == 1 for v in scope)


def _toy_draw(rng: random.Random) -> list[Case]:
    """Many draws from the toy's stream: were it shared, every hook after it would move."""
    cases = []
    for index in range(10):
        scope = sorted(rng.sample(range(20), rng.randint(1, 6)))
        domains = {v: rng.choice([[0], [1], [0, 1]]) for v in scope}
        cases.append(Case(f"random {index + 1}", "a toy's random case", {"scope": scope, "domains": domains}))
    return cases


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> HookSpec:
    """The toy hook in the hook table, with its draw and a model answer."""
    real = hookcases.reference_hooks
    monkeypatch.setitem(hooktable.BY_NAME, TOY.name, TOY)
    monkeypatch.setitem(hookcases.DRAWS, TOY.name, _toy_draw)
    monkeypatch.setattr(hookcases, "reference_hooks", lambda: {**real(), TOY.name: _toy_answer})
    return TOY


@pytest.mark.parametrize("seed", SEEDS)
def test_adding_a_hook_moves_no_other_hooks_cases(toy: HookSpec, seed: int) -> None:
    """A new hook first or last in the list the generator walks leaves every other hook's
    cases (inputs, answers and groups) as they were, and gets cases of its own."""
    before = build_cases(seed)
    for hooks in ((toy, *HOOKS_WITH_CASES), (*HOOKS_WITH_CASES, toy)):
        after = build_cases(seed, hooks)
        assert {name: after[name] for name in before} == before, [spec.name for spec in hooks]
        assert after[toy.name] and all(case.expected is not None and case.group for case in after[toy.name])


@pytest.mark.parametrize("seed", SEEDS)
def test_removing_a_hook_moves_no_other_hooks_cases(seed: int) -> None:
    """Leaving the first hook out (whose draws came first in the old shared stream) changes
    none of the others'."""
    before = build_cases(seed)
    after = build_cases(seed, HOOKS_WITH_CASES[1:])
    assert after == {spec.name: before[spec.name] for spec in HOOKS_WITH_CASES[1:]}


def test_a_hooks_stream_is_its_own() -> None:
    """Streams differ by hook and by seed, and the same seed and hook give the same stream."""
    draws = {(seed, spec.name): hookcases.stream(seed, spec.name).random() for seed in SEEDS for spec in HOOKS_WITH_CASES}
    assert len(set(draws.values())) == len(draws)
    assert all(hookcases.stream(seed, name).random() == value for (seed, name), value in draws.items())


def test_stored_cases_read_back_as_written(tmp_path: Path) -> None:
    """Every stored case is a Case whose data reads back to itself, and the file written
    from the cases reads back to the same cases."""
    cases = load_cases()
    assert all(isinstance(case, Case) and Case.from_data(case.data()) == case for mine in cases.values() for case in mine)
    copy = tmp_path / "cases.yaml"
    write_file(copy, GOLDEN_SEED, cases)
    assert read_file(copy) == cases
    assert "&id" not in copy.read_text(encoding="utf-8")  # no YAML anchors: every case whole


def test_a_token_of_an_engine_hook_without_its_board_or_with_no_rule_is_refused() -> None:
    """Hostile: an edited token whose forward_check case lost its board (it used to be
    accepted, and asked with no board), or names a rule there is none of, is refused in one
    line."""
    case = next(c for c in load_cases()["forward_check"] if c.board is not None)
    token = pack("forward_check", 1, case, {"value": case.expected})
    # read back exactly (integer keys as integers), but for its group (the course's business)
    assert unpack(token) == ("forward_check", 1, replace(case, group=None), {"value": case.expected})
    boardless = Case(case.name, case.why, case.args, expected=case.expected, group=case.group)
    with pytest.raises(ValueError, match="copy it again"):
        unpack(pack("forward_check", 1, boardless, {"value": case.expected}))
    with pytest.raises(ValueError, match="no rule is called 'hexagonal'"):
        unpack(pack("forward_check", 1, replace(case, rule="hexagonal"), {"value": case.expected}))  # type: ignore[arg-type]


def test_the_handouts_tie_break_example_counts_the_shipped_cases() -> None:
    """Section 5's worked example (MRV with ties broken by the lowest number) states what
    the stored select_variable cases give it: cases right, and groups right."""

    def by_number(csp: Any, domains: Any, unassigned: Any) -> int:
        return min(unassigned, key=lambda v: (len(domains[v]), v))

    cases = load_cases()["select_variable"]
    right = {index for index, case in enumerate(cases) if by_number(*arguments("select_variable", case)) == case.expected}
    groups = {case.group for case in cases}
    whole = groups - {case.group for index, case in enumerate(cases) if index not in right}
    handout = " ".join((Path(__file__).resolve().parents[1] / "assignment" / "HANDOUT.md").read_text(encoding="utf-8").split())
    assert f"answers {len(right)} of the {len(cases)} shipped cases right" in handout
    assert f"{len(whole)}/{len(groups)} groups. In the searches" in handout
    points = GradingConfig().hook_points["select_variable"]
    assert f"{points:g} × min({len(whole)}/{len(groups)}, 0/3) = 0 of {points:g} points" in handout
