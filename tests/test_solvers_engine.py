"""The stack engine and the reference hooks (solvers/engine.py, answerkey/strategies.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from answerkey.methods import METHODS, solve
from answerkey.strategies import (
    FC_FIXPOINT,
    FC_ONCE,
    PLAIN,
    REFERENCE,
    STRATEGIES,
    check_bounds,
    check_only,
    constraint_bounds,
    forward_check_fixpoint,
    forward_check_once,
    select_first,
    select_mrv,
    select_mrv_undecided,
    values_ascending,
)
from grader.inputs.problemset import load_problem_file
from solvers.board import clues_for_layout
from solvers.brute import brute_force
from solvers.csp import CSP, Constraint, build_csp
from solvers.engine import Branched, DeadEnd, Node, Popped, Pruned, Solved, Strategy, search
from solvers.textformat import parse_board

ROOT = Path(__file__).resolve().parent.parent
ENGINE_STRATEGIES = [PLAIN, FC_ONCE, FC_FIXPOINT, REFERENCE]


def hand_csp(n: int, *constraints: tuple[tuple[int, ...], int]) -> CSP:
    """A CSP on n variables (dummy cells on one row) with the given (scope, total) constraints."""
    return CSP(tuple((0, i) for i in range(n)), tuple(Constraint(s, t, (1, k)) for k, (s, t) in enumerate(constraints)))


# --- constraint_bounds / check_bounds ---------------------------------------------------


@pytest.mark.parametrize(
    "scope, domains, expected",
    [
        ((0, 1, 2), {0: (1,), 1: (0, 1), 2: (0,)}, (1, 2)),
        ((0, 1, 2), {0: (0, 1), 1: (0, 1), 2: (0, 1)}, (0, 3)),
        ((0, 1), {0: (1,), 1: (1,)}, (2, 2)),
        ((), {0: (0, 1)}, (0, 0)),
        ((1,), {0: (1,), 1: (0, 1)}, (0, 1)),  # only the scope counts
    ],
)
def test_constraint_bounds(scope, domains, expected):
    assert constraint_bounds(scope, domains) == expected


def test_constraint_bounds_empty_domain_is_unreachable():
    low, high = constraint_bounds((0, 1), {0: (0, 1), 1: ()})
    assert low > high


def test_check_bounds():
    csp = hand_csp(3, ((0, 1), 1), ((1, 2), 2))
    assert check_bounds(csp, {0: (0, 1), 1: (0, 1), 2: (0, 1)})
    assert not check_bounds(csp, {0: (1,), 1: (1,), 2: (0, 1)})  # low 2 > 1
    assert not check_bounds(csp, {0: (0, 1), 1: (0,), 2: (0, 1)})  # high 1 < 2
    assert not check_bounds(csp, {0: (0, 1), 1: (), 2: (0, 1)})  # empty domain


def test_values_ascending_and_select_first():
    csp = hand_csp(3)
    assert values_ascending(csp, 0, {0: (1, 0)}) == [0, 1]
    assert values_ascending(csp, 0, {0: (1,)}) == [1]
    assert select_first(csp, {}, [2, 0, 1]) == 2


# --- forward checking -------------------------------------------------------------------

ALL_OPEN = {0: (0, 1), 1: (0, 1), 2: (0, 1)}


def test_bound_rule_lower_bound_fixes_open_variables_to_their_minimum():
    csp = hand_csp(3, ((0, 1, 2), 1))
    out = forward_check_fixpoint(csp, {0: (1,), 1: (0, 1), 2: (0, 1)}, 0)
    assert out == {0: (1,), 1: (0,), 2: (0,)}


def test_bound_rule_upper_bound_fixes_open_variables_to_their_maximum():
    csp = hand_csp(3, ((0, 1, 2), 2))
    out = forward_check_once(csp, {0: (0,), 1: (0, 1), 2: (0, 1)}, 0)
    assert out == {0: (0,), 1: (1,), 2: (1,)}


def test_bound_rule_leaves_domains_when_the_total_is_strictly_inside():
    csp = hand_csp(3, ((0, 1, 2), 1))
    assert forward_check_once(csp, dict(ALL_OPEN)) == ALL_OPEN
    assert forward_check_fixpoint(csp, dict(ALL_OPEN)) == ALL_OPEN


def test_one_pass_does_not_reach_the_fixpoint():
    # c0: x0 + x1 = 1 comes first and learns nothing; c1: x1 = 1 then fixes x1.
    # Only a second look at c0 fixes x0 = 0.
    csp = hand_csp(2, ((0, 1), 1), ((1,), 1))
    start = {0: (0, 1), 1: (0, 1)}
    once = forward_check_once(csp, start)
    fix = forward_check_fixpoint(csp, start)
    assert once == {0: (0, 1), 1: (1,)}
    assert fix == {0: (0,), 1: (1,)}
    assert start == {0: (0, 1), 1: (0, 1)}  # the input is not modified
    # Running the single pass again does reach it.
    assert forward_check_once(csp, once) == fix


def test_only_the_fixpoint_finds_a_dead_end_that_needs_a_second_look():
    # c0 learns nothing in the first pass; c1 and c2 then fix x1 = 1 and x0 = 1, which
    # violates c0, but a single pass never comes back to it.
    csp = hand_csp(2, ((0, 1), 1), ((1,), 1), ((0,), 1))
    start = {0: (0, 1), 1: (0, 1)}
    assert forward_check_once(csp, start) == {0: (1,), 1: (1,)}
    assert forward_check_fixpoint(csp, start) is None
    # The engine still rejects the leaf with fc-once (goal test), so both agree: no solution.
    assert search(csp, FC_ONCE, "count").count == 0
    assert search(csp, FC_FIXPOINT, "count").count == 0


def test_one_pass_sees_narrowing_of_earlier_constraints():
    # c0 fixes x0 = 1, then c1 (x0 + x1 = 1) in the same pass fixes x1 = 0.
    csp = hand_csp(2, ((0,), 1), ((0, 1), 1))
    assert forward_check_once(csp, {0: (0, 1), 1: (0, 1)}) == {0: (1,), 1: (0,)}


def test_fixpoint_chains_through_several_constraints():
    # x0 = 1 -> (x0 + x1 = 1) x1 = 0 -> (x1 + x2 = 1) x2 = 1 -> (x2 + x3 = 1) x3 = 0
    csp = hand_csp(4, ((2, 3), 1), ((1, 2), 1), ((0, 1), 1))
    start = {0: (1,), 1: (0, 1), 2: (0, 1), 3: (0, 1)}
    expected = {0: (1,), 1: (0,), 2: (1,), 3: (0,)}
    assert forward_check_fixpoint(csp, start, 0) == expected
    assert forward_check_fixpoint(csp, start) == expected
    assert forward_check_once(csp, start) == {0: (1,), 1: (0,), 2: (0, 1), 3: (0, 1)}


def test_fixpoint_does_not_depend_on_constraint_order():
    constraints = [((0, 1), 1), ((1,), 1), ((1, 2, 3), 2), ((3, 4), 1), ((4,), 0)]
    expected = None
    for shift in range(len(constraints)):
        rotated = constraints[shift:] + constraints[:shift]
        for order in (rotated, rotated[::-1]):
            out = forward_check_fixpoint(hand_csp(5, *order), {v: (0, 1) for v in range(5)})
            expected = expected or out
            assert out == expected
    assert expected == {0: (0,), 1: (1,), 2: (0,), 3: (1,), 4: (0,)}


@pytest.mark.parametrize("check", [forward_check_once, forward_check_fixpoint])
@pytest.mark.parametrize(
    "constraints, domains",
    [
        ([((0, 1), 1)], {0: (1,), 1: (1,)}),  # lower bound 2 above 1
        ([((0, 1), 3)], {0: (0, 1), 1: (0, 1)}),  # upper bound 2 below 3
        ([((0, 1), 1)], {0: (), 1: (0, 1)}),  # empty domain
        ([((), 1)], {0: (0, 1), 1: (0, 1)}),  # nonzero clue with empty scope
        ([((1,), 1), ((0,), 1), ((0, 1), 1)], {0: (0, 1), 1: (0, 1)}),  # found after narrowing
    ],
)
def test_dead_end_returns_none(check, constraints, domains):
    assert check(hand_csp(2, *constraints), domains) is None


# --- select_mrv -------------------------------------------------------------------------

# Degrees: var 0 -> 1, var 1 -> 3, var 2 -> 3, var 3 -> 1, var 4 -> 1.
MRV_CSP = hand_csp(5, ((0, 1, 2), 1), ((1, 2), 1), ((2, 3), 1), ((1, 4), 1))


def test_mrv_csp_degrees():
    assert [len(MRV_CSP.constraints_of[v]) for v in range(5)] == [1, 3, 3, 1, 1]


def test_select_mrv_takes_a_singleton_first():
    domains = {0: (0, 1), 1: (0, 1), 2: (0, 1), 3: (0, 1), 4: (1,)}
    assert select_mrv(MRV_CSP, domains, [0, 1, 2, 3, 4]) == 4


def test_select_mrv_singletons_tie_break_on_degree_then_index():
    domains = {0: (0,), 1: (0, 1), 2: (1,), 3: (0,), 4: (0, 1)}
    assert select_mrv(MRV_CSP, domains, [0, 1, 2, 3, 4]) == 2
    assert select_mrv(MRV_CSP, domains, [0, 1, 3, 4]) == 0
    assert select_mrv(MRV_CSP, domains, [3, 4]) == 3


def test_select_mrv_without_singletons_prefers_highest_degree_then_lowest_index():
    domains = {v: (0, 1) for v in range(5)}
    assert select_mrv(MRV_CSP, domains, [0, 1, 2, 3, 4]) == 1
    assert select_mrv(MRV_CSP, domains, [0, 2, 3, 4]) == 2
    assert select_mrv(MRV_CSP, domains, [0, 3, 4]) == 0
    assert select_mrv(MRV_CSP, domains, [4, 3]) == 3


def test_select_mrv_undecided_skips_singletons():
    domains = {0: (0,), 1: (0, 1), 2: (1,), 3: (0, 1), 4: (0, 1)}
    assert select_mrv_undecided(MRV_CSP, domains, [0, 1, 2, 3, 4]) == 1
    assert select_mrv_undecided(MRV_CSP, domains, [0, 2, 3, 4]) == 3
    assert select_mrv_undecided(MRV_CSP, domains, [4, 3, 2]) == 3
    # nothing undecided: falls back to select_mrv over every candidate
    assert select_mrv_undecided(MRV_CSP, {v: (0,) for v in range(5)}, [0, 1, 2]) == 1


@pytest.mark.parametrize("pid", ["nctu-1", "nctu-2"])
def test_reference_strategy_branches_only_on_undecided_variables(pid):
    board = next(p.board for p in load_problem_file(ROOT / "problems" / "course.yaml")[0] if p.id == pid)
    result, events = run_observed(build_csp(board), REFERENCE)
    branched = [e for e in events if isinstance(e, Branched)]
    assert branched and all(e.values == (0, 1) for e in branched)
    assert result.stats.expanded == len(branched)


# --- engine modes -----------------------------------------------------------------------

# The SAT examples' 3x3 board: 3 solutions; and its unsatisfiable sibling.
SAT_3x3 = "2 ? 2\n? 4 ?\n? ? ?"
SAT_3x3_UNSAT = "2 ? ?\n? 3 ?\n? ? 2"


@pytest.mark.parametrize("strategy", ENGINE_STRATEGIES, ids=lambda s: s.name)
def test_modes(strategy):
    csp = build_csp(parse_board(SAT_3x3))
    oracle = sorted(brute_force(csp, "all").solutions)
    assert len(oracle) == 3
    every = search(csp, strategy, "all")
    assert sorted(every.solutions) == oracle and every.count == 3
    assert len(set(every.solutions)) == 3
    first = search(csp, strategy, "first")
    assert first.count == 1 and len(first.solutions) == 1
    assert first.solutions[0] in oracle
    counted = search(csp, strategy, "count")
    assert counted.count == 3 and counted.solutions == []


@pytest.mark.parametrize("strategy", ENGINE_STRATEGIES, ids=lambda s: s.name)
def test_modes_without_solution(strategy):
    csp = build_csp(parse_board(SAT_3x3_UNSAT))
    for mode in ("first", "all", "count"):
        result = search(csp, strategy, mode)
        assert result.count == 0 and result.solutions == []


def test_first_mode_stops_early():
    csp = build_csp(parse_board(". . . . . .\n. . . . . .\n. 1 . . 1 ."))
    first = search(csp, FC_FIXPOINT, "first")
    every = search(csp, FC_FIXPOINT, "all")
    assert every.count > 1
    assert first.stats.popped < every.stats.popped


def test_initial_domains_override():
    csp = build_csp(parse_board("? 1 ?"))
    assert sorted(search(csp, REFERENCE, "all").solutions) == [(0, 1), (1, 0)]
    assert search(csp, REFERENCE, "all", domains={0: (1,), 1: (0, 1)}).solutions == [(1, 0)]
    assert search(csp, PLAIN, "all", domains={0: (0, 1), 1: (0,)}).solutions == [(1, 0)]


@pytest.mark.parametrize("strategy", ENGINE_STRATEGIES, ids=lambda s: s.name)
def test_an_empty_initial_domain_means_no_solution(strategy):
    # Variable 2, (0, 3), is in no constraint; giving it no value leaves nothing to find.
    csp = build_csp(parse_board("? 1 ? ."))
    assert csp.constraints_of[2] == ()
    for mode in ("first", "all", "count"):
        result = search(csp, strategy, mode, domains={0: (0, 1), 1: (0, 1), 2: ()})
        assert result.count == 0 and result.solutions == []


@pytest.mark.parametrize("strategy", ENGINE_STRATEGIES, ids=lambda s: s.name)
def test_stats_are_fresh_for_every_run(strategy):
    csp = build_csp(parse_board(SAT_3x3))
    other = build_csp(parse_board(SAT_3x3_UNSAT))
    one = search(csp, strategy, "all")
    search(other, strategy, "all")
    two = search(csp, strategy, "all")
    assert one.stats is not two.stats
    a, b = one.stats.as_dict(), two.stats.as_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert a["popped"] > 0 and a["expanded"] > 0 and a["max_stack"] > 0
    assert one.solutions == two.solutions


def test_stats_on_a_known_tree():
    # "? 1 ?" with plain backtracking: root -> x0=0 -> (0,0) dead, (0,1) solved;
    # x0=1 -> (1,0) solved, (1,1) pruned by check_bounds.
    result = search(build_csp(parse_board("? 1 ?")), PLAIN, "all")
    assert result.solutions == [(0, 1), (1, 0)]
    stats = result.stats
    assert (stats.popped, stats.expanded, stats.max_depth) == (7, 3, 2)
    assert stats.dead_ends == 2
    assert stats.max_stack == 3


# --- events -----------------------------------------------------------------------------


def run_observed(csp, strategy, mode="all"):
    events = []
    result = search(csp, strategy, mode, observer=events.append)
    return result, events


@pytest.mark.parametrize("strategy", ENGINE_STRATEGIES, ids=lambda s: s.name)
@pytest.mark.parametrize("text", [SAT_3x3, SAT_3x3_UNSAT, "? 1 ?\n? ? 1"])
def test_event_stream(strategy, text):
    csp = build_csp(parse_board(text))
    result, events = run_observed(csp, strategy)
    assert isinstance(events[0], Popped)
    assert events[0].step == 1
    assert events[0].node == Node((), {v: (0, 1) for v in csp.variables})
    kinds = Counter(type(e) for e in events)
    assert kinds[Popped] == result.stats.popped
    assert kinds[DeadEnd] == result.stats.dead_ends
    assert kinds[Branched] == result.stats.expanded
    assert [e.values for e in events if isinstance(e, Solved)] == result.solutions
    assert kinds[Solved] == result.count
    # steps: every Popped opens a new step, the other events belong to the last one
    popped_steps = [e.step for e in events if isinstance(e, Popped)]
    assert popped_steps == list(range(1, result.stats.popped + 1))
    step = 0
    for event in events:
        if isinstance(event, Popped):
            step = event.step
        assert event.step == step
        if isinstance(event, Pruned):
            assert event.after != event.before
    # observing does not change the search
    plain = search(csp, strategy, "all")
    assert plain.solutions == result.solutions
    a, b = plain.stats.as_dict(), result.stats.as_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_event_stream_has_dead_ends_and_prunes():
    csp = build_csp(parse_board(SAT_3x3_UNSAT))
    result, events = run_observed(csp, PLAIN)
    assert result.stats.dead_ends > 0
    assert sum(isinstance(e, DeadEnd) for e in events) == result.stats.dead_ends
    result, events = run_observed(build_csp(parse_board(SAT_3x3)), FC_FIXPOINT)
    assert any(isinstance(e, Pruned) for e in events)


def test_every_solved_event_follows_the_pop_of_a_full_assignment():
    csp = build_csp(parse_board(SAT_3x3))
    _result, events = run_observed(csp, PLAIN)
    last_pop = None
    for event in events:
        if isinstance(event, Popped):
            last_pop = event
        if isinstance(event, Solved):
            assert dict(last_pop.node.assignment) == dict(enumerate(event.values))
            assert csp.satisfied_by(event.values)


# --- value order: the preferred child is popped first -----------------------------------


def descending(csp, var, domains):
    return [value for value in (1, 0) if value in domains[var]]


def test_preferred_child_is_popped_first():
    csp = build_csp(parse_board("? 1 ?"))
    up = Strategy("up", select_first, values_ascending, forward_check=check_only)
    down = Strategy("down", select_first, lambda csp, var, domains: [1, 0], forward_check=check_only)
    for strategy, preferred in ((up, 0), (down, 1)):
        _result, events = run_observed(csp, strategy, "first")
        branched = next(e for e in events if isinstance(e, Branched))
        assert branched.variable == 0
        assert branched.values[0] == preferred
        second_pop = [e for e in events if isinstance(e, Popped)][1]
        assert second_pop.node.assignment == ((0, preferred),)
    assert search(csp, up, "first").solutions == [(0, 1)]
    assert search(csp, down, "first").solutions == [(1, 0)]


@pytest.mark.parametrize("base", ENGINE_STRATEGIES, ids=lambda s: s.name)
def test_value_order_decides_the_first_solution(base):
    board = next(p.board for p in load_problem_file(ROOT / "problems" / "course.yaml")[0] if p.id == "nctu-2")
    csp = build_csp(board)
    both = sorted(search(csp, base, "all").solutions)
    assert len(both) == 2
    up = search(csp, base, "first").solutions
    down = search(csp, replace(base, name="down", order_values=descending), "first").solutions
    assert len(up) == 1 and len(down) == 1
    assert up[0] in both and down[0] in both
    assert up != down
    if base.select_variable is select_first:
        # depth-first in variable order: ascending finds the lexicographically smallest
        assert up[0] == both[0] and down[0] == both[1]


# --- the course boards ------------------------------------------------------------------


@pytest.fixture(scope="module")
def course():
    problems, errors = load_problem_file(ROOT / "problems" / "course.yaml")
    assert errors == []
    return {p.id: p.board for p in problems}


def test_course_boards_shape(course):
    for board in course.values():
        csp = build_csp(board)
        assert (board.rows, board.cols, board.mines) == (6, 6, 10)
        assert len(board.clue_cells()) == 16
        assert len(csp.cells) == 20 and len(csp.constraints) == 17


@pytest.mark.parametrize("method", [m for m in METHODS if m != "brute"])
def test_nctu_1_has_8_solutions_with_10_mines(course, method):
    board = course["nctu-1"]
    result = solve(build_csp(board), method, "all")
    assert result.count == 8 and len(set(result.solutions)) == 8
    csp = build_csp(board)
    for values in result.solutions:
        assert sum(values) == 10
        mines = {cell for cell, v in zip(csp.cells, values) if v}
        counts = clues_for_layout(mines, 6, 6, "classic")
        assert all(counts[r][c] == board.clue((r, c)) for r, c in board.clue_cells())


def test_nctu_1_differs_from_the_printed_board_in_one_hint(course):
    # The handout's solution grid shows the hint at row 3, column 5 as 3; it was printed as 2.
    fixed, printed = course["nctu-1"], course["nctu-1-as-printed"]
    differ = [cell for cell in fixed.cells() if fixed.clue(cell) != printed.clue(cell)]
    assert differ == [(2, 4)]
    assert (fixed.clue((2, 4)), printed.clue((2, 4))) == (3, 2)


def test_nctu_1_as_printed_has_no_solution_for_any_mine_count(course):
    board = course["nctu-1-as-printed"]
    counts = [search(build_csp(replace(board, mines=m)), REFERENCE, "count").count for m in range(21)]
    assert counts == [0] * 21
    assert search(build_csp(replace(board, mines=None)), REFERENCE, "count").count == 0
    assert solve(build_csp(replace(board, mines=None)), "sat", "count").count == 0


@pytest.mark.parametrize("method", [m for m in METHODS if m != "brute"])
def test_nctu_2_has_2_solutions(course, method):
    assert solve(build_csp(course["nctu-2"]), method, "count").count == 2


def test_named_strategies():
    assert set(STRATEGIES) == {"plain", "fc-once", "fc-fixpoint", "fc-mrv"}
    assert REFERENCE.select_variable is select_mrv_undecided
    assert REFERENCE.forward_check is forward_check_fixpoint
    assert REFERENCE.order_values is values_ascending
    assert FC_ONCE.forward_check is forward_check_once
    assert PLAIN.forward_check is check_only
    assert set(METHODS) == {*STRATEGIES, "components", "recursive", "brute", "sat"}
    with pytest.raises(ValueError):
        solve(build_csp(parse_board("? 1 ?")), "nope")


def test_a_forward_check_that_empties_an_assigned_domain_makes_a_dead_end() -> None:
    """Every domain counts, the assigned variables' too: no IndexError, no solution."""
    csp = CSP(cells=((0, 0), (0, 1)), constraints=(Constraint((0, 1), 1, (1, 1)),))

    def empties_the_assigned(csp: CSP, domains: dict, assigned: int | None) -> dict:
        return {**domains, assigned: ()} if assigned is not None else domains

    strategy = Strategy("empties", select_first, values_ascending, forward_check=empties_the_assigned)
    result = search(csp, strategy, "all")
    assert result.count == 0 and result.stats.dead_ends == 2


# --- fast paths: the same answers as the plain definitions --------------------------------


def test_a_strategy_that_does_not_vouch_for_a_fixpoint_has_its_complete_nodes_checked() -> None:
    """A forward check that decides every variable wrongly: only the goal test catches it."""
    csp = hand_csp(2, ((0, 1), 1))

    def all_mines(csp: CSP, domains: dict, assigned: int | None) -> dict:
        return {var: (1,) for var in domains}

    strategy = Strategy("liar", select_first, values_ascending, forward_check=all_mines)
    result = search(csp, strategy, "all")
    assert result.count == 0 and result.stats.dead_ends == 1


def repeat_once(csp: CSP, domains: dict) -> dict | None:
    """forward_check_once until nothing changes: the fixpoint by its definition."""
    while True:
        narrowed = forward_check_once(csp, domains)
        if narrowed is None or narrowed == domains:
            return narrowed
        domains = narrowed


@pytest.mark.parametrize("seed", range(40))
def test_fixpoint_equals_one_pass_repeated(seed: int) -> None:
    import random

    rng = random.Random(seed)
    n = rng.randint(1, 9)
    constraints = []
    for _ in range(rng.randint(1, 6)):
        scope = tuple(sorted(rng.sample(range(n), rng.randint(1, n))))
        constraints.append((scope, rng.randint(0, len(scope))))
    csp = hand_csp(n, *constraints)
    domains = {var: rng.choice([(0, 1), (0, 1), (0,), (1,)]) for var in range(n)}
    assert forward_check_fixpoint(csp, domains) == repeat_once(csp, domains)


def test_select_mrv_matches_its_definition_on_any_order() -> None:
    import random

    csp = build_csp(parse_board(SAT_3x3))
    degree = csp.constraints_of
    rng = random.Random(7)
    for _ in range(200):
        domains = {var: rng.choice([(0, 1), (0,), (1,)]) for var in csp.variables}
        unassigned = rng.sample(list(csp.variables), rng.randint(1, len(csp.cells)))
        expected = min(unassigned, key=lambda var: (len(domains[var]), -len(degree[var]), var))
        assert select_mrv(csp, domains, unassigned) == expected
        undecided = [var for var in unassigned if len(domains[var]) > 1] or unassigned
        expected = min(undecided, key=lambda var: (len(domains[var]), -len(degree[var]), var))
        assert select_mrv_undecided(csp, domains, unassigned) == expected
    with pytest.raises(ValueError):
        select_mrv(csp, {}, [])


def test_solve_defaults_to_the_component_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve(csp)` goes by components (no cliff on large boards), not the whole-board engine."""
    import answerkey.methods as solve_module

    calls = []
    monkeypatch.setattr(solve_module, "solve_components", lambda csp, mode: calls.append(mode) or "by components")
    monkeypatch.setattr(solve_module, "search", lambda *args: pytest.fail("the whole-board engine"))
    assert solve_module.solve(build_csp(parse_board("? 1 ?")), mode="first") == "by components"
    assert calls == ["first"]
