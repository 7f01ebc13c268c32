"""Components, exact counting and per-cell mine counts, against brute-force enumeration.

Boards are random and seeded: a planted layout, some cells revealed with the clue it
gives them (classic or inclusive), sometimes a clue changed (often leaving no solution),
sometimes a mine count (the planted one or any other). Few clues leave free cells.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from math import comb

import pytest

from answerkey.components.count import Table, count_solutions, poly_mul, solution_counts, table_product
from answerkey.components.solve import first_solution, iter_solutions, solve_components
from answerkey.components.split import decompose, is_global, split
from answerkey.generate import game_position
from answerkey.methods import METHODS, solve
from answerkey.recursive import MINE_FIRST, SAFE_FIRST, recursive_solve
from answerkey.sat import sat_solve
from answerkey.strategies import REFERENCE
from solvers.board import MAX_CLUE, RULES, Board, board_from_rows, clues_for_layout
from solvers.brute import brute_force
from solvers.csp import CSP, Constraint, build_csp
from solvers.engine import SearchStats, search

MAX_VARIABLES = 14


def random_board(rng: random.Random) -> Board:
    """A small board with at most MAX_VARIABLES mine candidates (see the module docstring)."""
    while True:
        rule = rng.choice(RULES)
        rows, cols = rng.randint(1, 6), rng.randint(2, 7)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        planted = {cell for cell in cells if rng.random() < rng.choice((0.15, 0.3, 0.5))}
        counts = clues_for_layout(planted, rows, cols, rule)
        reveal = rng.choice((0.15, 0.35, 0.6, 0.75))
        shown = [cell for cell in cells if rng.random() < reveal and (rule == "inclusive" or cell not in planted)]
        grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
        if shown and rng.random() < 0.25:
            r, c = rng.choice(shown)
            grid[r][c] = rng.randint(0, MAX_CLUE[rule])
        room = len(board_from_rows(grid, rule).mine_candidates())
        if room > MAX_VARIABLES:
            continue
        mines = rng.choice((None, None, len(planted), rng.randint(0, room)))
        if mines is not None and mines > room:
            mines = room
        return board_from_rows(grid, rule, mines)


def boards(seed: int, count: int) -> list[Board]:
    rng = random.Random(seed)
    return [random_board(rng) for _ in range(count)]


def oracle(csp: CSP) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every solution (sorted) and, per variable, the number in which it is a mine."""
    solutions = sorted(brute_force(csp, "all").solutions)
    return solutions, [sum(values[var] for values in solutions) for var in csp.variables]


@functools.cache
def oracles(seed: int, count: int) -> tuple[tuple[list[tuple[int, ...]], list[int]], ...]:
    """oracle() of each board of boards(seed, count), enumerated once for the module: the
    parametrized cases of a test check their methods against the same boards."""
    return tuple(oracle(build_csp(board)) for board in boards(seed, count))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("leaf_size", [0, 3, 8, 100])
def test_counts_and_mine_counts_equal_brute_force(seed: int, leaf_size: int):
    for board, (solutions, mines) in zip(boards(seed, 60), oracles(seed, 60), strict=True):
        csp = build_csp(board)
        counted = solution_counts(csp, leaf_size=leaf_size)
        assert counted.total == len(solutions), board
        assert list(counted.mines) == mines, board
        assert count_solutions(csp, leaf_size) == len(solutions), board


def test_the_random_boards_cover_the_cases():
    """Both rules, with and without a mine count, free cells, no solution and several."""
    seen = set()
    for seed in range(6):
        for board in boards(seed, 60):
            csp = build_csp(board)
            dec = decompose(csp)
            total = count_solutions(csp)
            seen.add(board.rule)
            seen.add("count" if board.mines is not None else "no count")
            seen.add("none" if total == 0 else "one" if total == 1 else "several")
            if dec is not None and dec.free:
                seen.add("free cells")
            if dec is not None and len(dec.components) > 1:
                seen.add("several components")
    assert seen >= {"classic", "inclusive", "count", "no count", "none", "one", "several", "free cells", "several components"}


@pytest.mark.parametrize("seed", range(4))
def test_probabilities_are_exact_fractions(seed: int):
    for board in boards(100 + seed, 40):
        csp = build_csp(board)
        solutions, mines = oracle(csp)
        counted = solution_counts(csp)
        for var in csp.variables:
            expected = Fraction(mines[var], len(solutions)) if solutions else Fraction(0)
            assert counted.probability(var) == expected
        assert counted.probabilities() == [counted.probability(v) for v in csp.variables]
        assert counted.by_cell() == dict(zip(csp.cells, mines))


def test_counts_on_larger_boards_match_the_engines_enumeration():
    """Up to 40 variables: totals and per-cell mine counts against `search(..., "all")`."""
    rng = random.Random(21)
    checked = 0
    while checked < 25:
        board = medium_board(rng, sizes=(5, 7), mine_count=False)
        csp = build_csp(board)
        if len(csp.cells) > 40 or count_solutions(csp) > 3000:
            continue
        every = search(csp, REFERENCE, "all").solutions
        counted = solution_counts(csp)
        assert counted.total == len(every), board
        assert list(counted.mines) == [sum(values[v] for values in every) for v in csp.variables], board
        assert solution_counts(csp, leaf_size=64).mines == counted.mines  # the engine on whole components
        checked += 1


def test_free_cells_alone_follow_the_binomial():
    # 40 unknown cells, no clue: C(40, 7) layouts with 7 mines, each cell a mine in C(39, 6).
    board = board_from_rows([[None] * 8 for _ in range(5)], "classic", 7)
    counted = solution_counts(build_csp(board))
    assert counted.total == comb(40, 7)
    assert set(counted.mines) == {comb(39, 6)}
    assert counted.probability(0) == Fraction(7, 40)
    no_count = solution_counts(build_csp(board_from_rows([[None] * 8 for _ in range(5)], "classic")))
    assert no_count.total == 2**40 and set(no_count.mines) == {2**39}


def test_expert_position_count_is_a_big_exact_integer():
    board, layout = game_position(random.Random(3), reveal=0.3)
    csp = build_csp(board)
    counted = solution_counts(csp)
    assert counted.total > 2**64  # beyond any fixed-width integer
    assert counted.total == count_solutions(csp)
    planted = tuple(int(cell in layout) for cell in csp.cells)
    assert csp.satisfied_by(planted)
    # The expected number of mines over all solutions is the mine count, exactly.
    assert sum(counted.mines) == board.mines * counted.total
    assert all(0 <= m <= counted.total for m in counted.mines)


def test_decompose_splits_into_independent_components():
    for board in boards(7, 80):
        csp = build_csp(board)
        dec = decompose(csp)
        if dec is None:
            assert count_solutions(csp) == 0
            continue
        covered = [var for part in dec.components for var in part.origin]
        undecided = [var for var in csp.variables if len(dec.domains[var]) > 1]
        assert sorted(covered + list(dec.free)) == undecided
        assert len(set(covered)) == len(covered)
        assert not set(dec.decided) & set(undecided)
        clue_vars = {v for c in csp.constraints if not is_global(c, csp) for v in c.scope}
        assert not set(dec.free) & clue_vars
        for part in dec.components:
            assert list(part.origin) == sorted(part.origin)
            assert all(c.scope and 0 < c.total < len(c.scope) for c in part.csp.constraints)
        if board.mines is not None:
            assert dec.mines_left == board.mines - dec.decided_mines


def test_same_scope_with_two_totals_is_kept_as_a_conflict():
    csp = CSP(((0, 0), (0, 1), (0, 2)), (Constraint((0, 1, 2), 1, (1, 0)), Constraint((0, 1, 2), 2, (1, 1))))
    decided, parts, free = split(csp, csp.initial_domains())
    assert decided == {} and free == [] and len(parts[0].csp.constraints) == 2
    assert count_solutions(csp) == 0 and solve_components(csp, "first").solutions == []


def test_table_product_matches_polynomial_multiplication():
    a = Table((0, 1), (1, 2, 1), ((0, 1, 1), (0, 1, 1)))  # two free variables
    b = Table((2,), (0, 1), ((0, 1),))  # one variable that must be a mine
    product = table_product([a, b], per_variable=True)
    assert product.ways == poly_mul(a.ways, b.ways) == (0, 1, 2, 1)
    assert product.mines == ((0, 0, 1, 1), (0, 0, 1, 1), (0, 1, 2, 1))


@pytest.mark.parametrize("b", [(1,), (0, 0, 3), (0, 0), (2, 5), (0, 1, 0)])
def test_poly_mul_by_a_monomial_is_the_full_product(b):
    """The shift shortcut (b = c * x**d) gives what the convolution gives, coefficient by coefficient."""
    a = (4, 0, 7, 1)
    full = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            full[i + j] += x * y
    assert poly_mul(a, b) == tuple(full)


# --- solving by components, and the recursive baselines --------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_component_solving_agrees_with_brute_force(seed: int):
    for board in boards(200 + seed, 60):
        csp = build_csp(board)
        solutions, _ = oracle(csp)
        every = solve_components(csp, "all")
        assert sorted(every.solutions) == solutions and every.count == len(solutions)
        counted = solve_components(csp, "count")
        assert counted.count == len(solutions) and counted.solutions == []
        first = solve_components(csp, "first")
        assert first.count == len(first.solutions) == min(1, len(solutions))
        assert all(solution in solutions for solution in first.solutions)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("propagate", [False, True])
@pytest.mark.parametrize("order", [MINE_FIRST, SAFE_FIRST])
def test_recursive_agrees_with_brute_force(seed: int, propagate: bool, order: tuple[int, ...]):
    for board, (solutions, _) in zip(boards(300 + seed, 50), oracles(300 + seed, 50), strict=True):
        csp = build_csp(board)
        assert sorted(recursive_solve(csp, "all", order, propagate).solutions) == solutions
        assert recursive_solve(csp, "count", order, propagate).count == len(solutions)
        first = recursive_solve(csp, "first", order, propagate)
        assert first.count == len(first.solutions) == min(1, len(solutions))
        assert all(solution in solutions for solution in first.solutions)


def medium_board(rng: random.Random, sizes: tuple[int, int] = (8, 12), mine_count: bool = True) -> Board:
    """A board of `sizes` rows and columns, a third revealed, perhaps a clue or two nudged by one."""
    rule = rng.choice(RULES)
    rows, cols = rng.randint(*sizes), rng.randint(*sizes)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    planted = {cell for cell in cells if rng.random() < 0.2}
    counts = clues_for_layout(planted, rows, cols, rule)
    shown = [cell for cell in cells if rng.random() < 0.35 and (rule == "inclusive" or cell not in planted)]
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    for _ in range(rng.choice((0, 1, 2)) if shown else 0):
        r, c = rng.choice(shown)
        grid[r][c] = min(MAX_CLUE[rule], max(0, grid[r][c] + rng.choice((-1, 1))))
    return board_from_rows(grid, rule, rng.choice((None, len(planted))) if mine_count else None)


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
def test_backjumping_search_finds_a_solution_exactly_when_one_exists():
    """Beyond brute force: satisfiability against Glucose on larger boards."""
    rng = random.Random(11)
    outcomes = set()
    for _ in range(60):
        csp = build_csp(medium_board(rng))
        exists = bool(sat_solve(csp, "first").solutions)
        for result in (recursive_solve(csp, "first", SAFE_FIRST, propagate=True), solve_components(csp, "first")):
            assert result.count == len(result.solutions) == int(exists)
            assert all(csp.satisfied_by(solution) for solution in result.solutions)
        outcomes.add(exists)
    assert outcomes == {True, False}


def test_first_solution_with_a_global_count_the_free_cells_cannot_absorb():
    # Two independent pairs "one mine in these two", no free cell, 2 mines: easy; then a
    # component whose first solution has too few mines for the count.
    board = board_from_rows([[None, None, None, None], [None, 2, 1, None]], "classic", 3)
    csp = build_csp(board)
    solutions, _ = oracle(csp)
    assert solutions
    dec = decompose(csp)
    assert dec is not None
    found = first_solution(dec, SearchStats())
    assert found in solutions
    assert sum(found) == 3
    assert len(list(iter_solutions(dec))) == len(solutions)


def test_every_method_name_is_accepted_by_solve():
    csp = build_csp(board_from_rows([[None, 1, None]], "classic"))
    for method in METHODS:
        assert solve(csp, method, "count").count == 2, method
    with pytest.raises(ValueError):
        solve(csp, "nope")
