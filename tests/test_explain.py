"""The bound rule's explainer (`answerkey.explain`) against the rule computed the plain way.

`explain` reads a step's domains as the step keeps them (one character per variable),
counts each constraint's bounds once per call and moves them as it narrows (a trace page
explains 10,000 steps). Here its reasons and its unexplained variables are compared with
the obvious computation on the domains as dicts (`domains_of`), every bound summed again by
`constraint_bounds` each time a constraint is looked at, on the steps of real searches of
random boards and on random domains and forward-check results (a student's: narrowing too
much, too little, widening, dead ends, empty domains).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from answerkey.explain import Reason, explain
from answerkey.strategies import STRATEGIES, constraint_bounds
from solvers.board import RULES, board_from_rows, clues_for_layout
from solvers.csp import CSP, build_csp
from solvers.trace import DOMAIN_OF_CODE, domains_of, record


def plain_explain(csp: CSP, data: str, after_data: str | None) -> tuple[list[Reason], list[int]]:
    """The bound rule the obvious way, on domains as dicts: pass after pass over the
    constraints in order, each one's bounds summed from scratch, until nothing changes (or
    a constraint is violated)."""
    working = domains_of(data)
    after = None if after_data is None else domains_of(after_data)
    reasons: list[Reason] = []
    progress = True
    while progress:
        progress = False
        for constraint in csp.constraints:
            low, high = constraint_bounds(constraint.scope, working)
            if not low <= constraint.total <= high:
                return [*reasons, Reason(constraint, low, high, violated=True)], []
            if constraint.total not in (low, high):
                continue
            pick = min if low == constraint.total else max
            forced = []
            for var in constraint.scope:
                narrower = after is None or len(after.get(var, working[var])) < len(working[var])
                if len(working[var]) > 1 and narrower:
                    forced.append(var)
            if forced:
                value = pick(working[forced[0]])
                for var in forced:
                    working[var] = (pick(working[var]),)
                reasons.append(Reason(constraint, low, high, tuple(forced), value))
                progress = True
    if after is None:
        return reasons, []
    return reasons, [var for var in after if tuple(after[var]) != tuple(working[var])]


@st.composite
def boards(draw: Callable[..., Any]) -> CSP:
    """The CSP of a random board: a planted layout, some of its clues shown (one sometimes
    changed, so no layout may fit), a mine count sometimes given."""
    rule = draw(st.sampled_from(RULES))
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    planted = draw(st.sets(st.sampled_from(cells)))
    counts = clues_for_layout(planted, rows, cols, rule)
    revealable = [cell for cell in cells if rule == "inclusive" or cell not in planted]
    shown = draw(st.sets(st.sampled_from(revealable))) if revealable else set()
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    if shown and draw(st.booleans()):
        r, c = draw(st.sampled_from(sorted(shown)))
        grid[r][c] = draw(st.integers(0, 9))
    room = len(board_from_rows(grid, rule).mine_candidates())
    mines = draw(st.one_of(st.none(), st.just(len(planted)), st.integers(0, room)))
    return build_csp(board_from_rows(grid, rule, mines))


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(sorted(STRATEGIES)), st.randoms(use_true_random=False))
def test_the_explainer_says_what_the_plain_rule_says_on_every_step_of_a_search(csp: CSP, strategy: str, random: Random) -> None:
    """Every step of a search (up to 300), with the forward check's result and without it
    (as `--against reference` asks), on random boards."""
    steps = record(csp, STRATEGIES[strategy], max_steps=300).steps
    for step in random.sample(steps, min(len(steps), 60)):
        before, after = step["domains"], step["after"]
        assert explain(csp, before, after) == plain_explain(csp, before, after)
        assert explain(csp, before, None) == plain_explain(csp, before, None)


@st.composite
def checks(draw: Callable[..., Any]) -> tuple[CSP, str, str | None]:
    """A random board's CSP, random domains and what a forward check might return from
    them: None, or any domains."""
    csp = draw(boards())
    domains = st.text(alphabet=sorted(DOMAIN_OF_CODE), min_size=len(csp.cells), max_size=len(csp.cells))
    return csp, draw(domains), draw(st.none() | domains)


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=400, deadline=None)
@given(checks())
def test_the_explainer_says_what_the_plain_rule_says_on_any_domains(check: tuple[CSP, str, str | None]) -> None:
    """Random domains (empty ones included) and random forward-check results: the same
    reasons, violations and unexplained variables."""
    csp, before, after = check
    assert explain(csp, before, after) == plain_explain(csp, before, after)


def test_the_plain_rule_forces_and_leaves_unexplained_what_the_handout_says() -> None:
    """The computation the explainer is held to, on a case worked by hand: a clue 1 over two
    cells, one a mine, forces the other safe; a check that also ruled out the mine has it
    unexplained."""
    csp = build_csp(board_from_rows([[None, 1, None]], "classic"))
    assert [c.scope for c in csp.constraints] == [(0, 1)]
    assert domains_of("1?") == {0: (1,), 1: (0, 1)}
    reasons, unexplained = plain_explain(csp, "1?", "00")
    assert [(r.forced, r.value) for r in reasons] == [((1,), 0)] and unexplained == [0]
    assert explain(csp, "1?", "00") == (reasons, unexplained)
    assert explain(csp, "1?", None) == plain_explain(csp, "1?", None) == (reasons, [])
