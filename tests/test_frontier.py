"""The frontier sweep (answerkey/components/frontier.py) against the branching component counter and brute force."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answerkey.components.count import ComponentCounter, count_solutions, solution_counts
from answerkey.components.frontier import frontier_ways, groups, open_width, sweep, sweep_order
from answerkey.components.split import decompose
from solvers.board import RULES, Board, board_from_rows, clues_for_layout
from solvers.brute import brute_force
from solvers.csp import build_csp

NO_SWEEP = 10**9


def trim(ways: tuple[int, ...]) -> tuple[int, ...]:
    """A polynomial without its trailing zero coefficients."""
    end = len(ways)
    while end and not ways[end - 1]:
        end -= 1
    return ways[:end]


def planted(rng: random.Random, rows: int, cols: int, density: float, reveal: float, mine_count: bool) -> Board:
    """A board of any rule with a planted layout, `reveal` of its safe cells shown."""
    rule = rng.choice(RULES)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mines = {cell for cell in cells if rng.random() < density}
    counts = clues_for_layout(mines, rows, cols, rule)
    shown = {cell for cell in cells if rng.random() < reveal and (rule == "inclusive" or cell not in mines)}
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    return board_from_rows(grid, rule, len(mines) if mine_count else None)


def branching_ways(board: Board) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For every component: the sweep's polynomial and the branching counter's."""
    dec = decompose(build_csp(board))
    if dec is None:
        return []
    counter = ComponentCounter(per_variable=False, sweep_size=NO_SWEEP)
    return [(trim(frontier_ways(part.csp, None) or ()), trim(counter.component(part).ways)) for part in dec.components]


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 9), st.integers(2, 9), st.sampled_from([0.15, 0.25, 0.4]), st.sampled_from([0.2, 0.35, 0.5]))
def test_sweep_equals_the_branching_counter_on_every_component(seed: int, rows: int, cols: int, density: float, reveal: float) -> None:
    board = planted(random.Random(seed), rows, cols, density, reveal, mine_count=False)
    for swept, branched in branching_ways(board):
        assert swept == branched, board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_counts_through_the_sweep_equal_brute_force(seed: int, mine_count: bool) -> None:
    rng = random.Random(seed)
    board = planted(rng, rng.randint(2, 4), rng.randint(2, 5), 0.25, 0.3, mine_count)
    csp = build_csp(board)
    if len(csp.cells) > 16:
        return
    expected = brute_force(csp, "count").count
    swept = solution_counts(csp, per_variable=False, leaf_size=0, sweep_size=1)
    assert swept.total == expected == count_solutions(csp), board
    assert swept.stats.swept == swept.stats.components


def test_large_components_are_swept_and_agree_with_the_per_variable_count() -> None:
    rng = random.Random(3)
    for _ in range(6):
        board = planted(rng, 14, 14, 0.2, 0.3, mine_count=True)
        csp = build_csp(board)
        swept = solution_counts(csp, per_variable=False)
        assert swept.total == solution_counts(csp).total  # the per-variable count never sweeps
    assert swept.stats.swept > 0


def test_a_sweep_over_budget_falls_back_to_branching() -> None:
    board = planted(random.Random(5), 12, 12, 0.2, 0.3, mine_count=True)
    csp = build_csp(board)
    dec = decompose(csp)
    assert dec is not None
    part = max(dec.components, key=lambda p: len(p.origin))
    assert frontier_ways(part.csp, budget=0) is None
    assert sweep(part.csp, sweep_order(part.csp, groups(part.csp), lambda cell: cell), 0) is None
    fallback = ComponentCounter(per_variable=False, sweep_size=1, sweep_budget=0)
    assert trim(fallback.component(part).ways) == trim(frontier_ways(part.csp, None) or ())
    assert fallback.stats.swept == 0 and fallback.stats.nodes > 0


def test_groups_and_order_cover_every_variable_once() -> None:
    board = planted(random.Random(11), 10, 10, 0.2, 0.3, mine_count=False)
    dec = decompose(build_csp(board))
    assert dec is not None
    for part in dec.components:
        members = groups(part.csp)
        assert sorted(var for variables in members.values() for var in variables) == list(part.csp.variables)
        items = sweep_order(part.csp, members, lambda cell: cell)
        assert sum(size for _cons, size in items) == len(part.csp.cells)
        assert open_width(items) <= len(part.csp.constraints)


def test_edge_cases() -> None:
    from solvers.csp import CSP, Constraint

    assert frontier_ways(CSP((), ())) == (1,)
    assert frontier_ways(CSP(((0, 0),), (Constraint((), 1, (0, 1)),))) == ()
    assert trim(frontier_ways(CSP(((0, 0), (0, 1)), (Constraint((0, 1), 1, (1, 0)), Constraint((0, 1), 2, (1, 1))))) or ()) == ()
    assert frontier_ways(CSP(((0, 0), (0, 1), (0, 2)), (Constraint((0, 1, 2), 2, (1, 1)),))) == (0, 0, 3)
