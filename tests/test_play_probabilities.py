"""Layer (c): the agent's mine probabilities equal brute-force enumeration, as Fractions.

Positions come from real games on small boards: a first click, then a random number of
random safe cells opened (and sometimes a few true flags), so the views hold frontier
cells, off-frontier cells and the global mine count. The oracle enumerates every
placement of the board's mines on the hidden cells and keeps those that agree with
every revealed number, counting neighbours with `solvers.board.neighbours` only.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answerkey.agent.agent import Agent
from answerkey.agent.probability import probabilities
from play.game import Game
from play.levels import BEGINNER, custom_level
from play.view import View
from solvers.board import Cell, neighbours


def brute_force_probabilities(view: View) -> dict[Cell, Fraction]:
    """Every hidden cell's mine probability, from every consistent placement of all the mines."""
    hidden = view.hidden()
    bit = {cell: 1 << i for i, cell in enumerate(hidden)}
    checks = [(sum(bit.get(n, 0) for n in neighbours(cell, view.rows, view.cols)), view[cell]) for cell in view.all_cells() if view[cell] >= 0]
    mines_at = [0] * len(hidden)
    total = 0
    for chosen in combinations(range(len(hidden)), view.mines):
        layout = sum(1 << i for i in chosen)
        if all((layout & mask).bit_count() == number for mask, number in checks):
            total += 1
            for i in chosen:
                mines_at[i] += 1
    assert total > 0, "a view from a real game has at least its own layout"
    return {cell: Fraction(mines_at[i], total) for i, cell in enumerate(hidden)}


def position(rows: int, cols: int, mines: int, seed: int, opened: int, flags: int) -> View:
    """A view from a real game: the first click, then `opened` random safe cells and `flags` true flags."""
    rng = random.Random(seed)
    game = Game(custom_level(rows, cols, mines), "classic", seed)
    game.open((rng.randrange(rows), rng.randrange(cols)))
    for _ in range(opened):
        safe = [cell for cell in game.view().hidden() if not game.is_mine(cell)]
        if game.over or len(safe) <= 1:
            break
        game.open(rng.choice(safe))
    for cell in rng.sample(game.mine_cells(), min(flags, mines)):
        game.toggle_flag(cell)
    return game.view()


def assert_exact(view: View) -> None:
    expected = brute_force_probabilities(view)
    counted = probabilities(view)
    got = counted.as_dict()
    assert set(got) == set(expected)
    for cell, p in expected.items():
        assert isinstance(got[cell], Fraction)
        assert got[cell] == p, f"{cell}: {got[cell]} != {p}\n{view.text()}"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    size=st.sampled_from([(4, 4, 3), (4, 5, 4), (5, 4, 5), (3, 6, 4), (5, 5, 4)]),
    seed=st.integers(0, 10**6),
    opened=st.integers(0, 4),
    flags=st.integers(0, 2),
)
def test_probabilities_equal_brute_force_on_small_games(size, seed, opened, flags):
    rows, cols, mines = size
    view = position(rows, cols, mines, seed, opened, flags)
    if not view.hidden():
        return
    assert_exact(view)


@pytest.mark.parametrize("seed", range(12))
def test_probabilities_equal_brute_force_late_in_beginner_games(seed):
    """9x9 with 10 mines, opened until at most 17 hidden cells remain: C(17, 10) placements at most."""
    rng = random.Random(seed)
    game = Game(BEGINNER, "classic", seed)
    game.open((0, 0))
    while not game.over and len(game.view().hidden()) > 17:
        game.open(rng.choice([cell for cell in game.view().hidden() if not game.is_mine(cell)]))
    if not game.over:
        assert_exact(game.view())


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
def test_guess_probability_is_the_exact_one():
    """When the agent guesses, the probability it reports is the brute-force one of that cell."""
    agent = Agent()
    checked = 0
    for seed in range(60):
        view = position(4, 5, 4, seed, 1, 0)
        decision = agent.decide(view)
        if decision.layer in ("guess", "endgame") and view.hidden():
            assert decision.probability == brute_force_probabilities(view)[decision.move.cell]
            checked += 1
    assert checked >= 5


def test_off_frontier_cells_use_the_global_count():
    """A 1 in the corner of a 3x3 board with 2 mines: the 3 cells it touches hold 1 mine,
    the 5 far cells the other; the far cells are 1/5 each, the near ones 1/3."""
    view = View(3, 3, 2, ((1, -1, -1), (-1, -1, -1), (-1, -1, -1)))
    counted = probabilities(view)
    assert counted.total == 3 * 5
    assert counted[(0, 1)] == counted[(1, 0)] == counted[(1, 1)] == Fraction(1, 3)
    assert all(counted[cell] == Fraction(1, 5) for cell in [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)])
    assert counted.as_dict() == brute_force_probabilities(view)


# --- answerkey/agent/progress.py: the progress estimate is never wrong about what it claims ------------


def brute_force_layouts(view: View) -> list[int]:
    """Every placement of the board's mines on the hidden cells (bit i: view.hidden()[i]) that fits the numbers."""
    hidden = view.hidden()
    bit = {cell: 1 << i for i, cell in enumerate(hidden)}
    checks = [(sum(bit.get(n, 0) for n in neighbours(cell, view.rows, view.cols)), view[cell]) for cell in view.all_cells() if view[cell] >= 0]
    return [
        layout
        for chosen in combinations(range(len(hidden)), view.mines)
        if all(((layout := sum(1 << i for i in chosen)) & mask).bit_count() == number for mask, number in checks)
    ]


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=40, deadline=None, derandomize=True)
@given(size=st.sampled_from([(4, 4, 3), (4, 5, 4), (5, 4, 5), (3, 6, 4)]), seed=st.integers(0, 10**6), opened=st.integers(0, 3))
def test_progress_verdicts_are_sound(size, seed, opened):
    """For every hidden cell c and every count k of mines around it, `outcome` says None only
    when no layout has c safe with k mines among its unknown neighbours, and True only when,
    in the layouts where c is safe with k mines around, some other hidden cell is always
    safe (a certain move, as the enumeration of every layout shows)."""
    from answerkey.agent.progress import ProgressEstimator
    from answerkey.agent.reasoning import bits

    rows, cols, mines = size
    view = position(rows, cols, mines, seed, opened, 0)
    hidden = view.hidden()
    if len(hidden) < 2:
        return
    layouts = brute_force_layouts(view)
    risk = {cell: float(p) for cell, p in brute_force_probabilities(view).items()}
    estimator = ProgressEstimator(view, risk)
    place = {cell: i for i, cell in enumerate(hidden)}
    for cell in hidden:
        index = cell[0] * cols + cell[1]
        around = estimator.masks[index] & estimator.unknown
        if not around:
            continue
        clues = {c.index: c for i in bits(around) for c in estimator.touching.get(i, ())}
        near = [place[divmod(i, cols)] for i in bits(around)]
        for k in range(around.bit_count() + 1):
            fitting = [x for x in layouts if not x >> place[cell] & 1 and sum(x >> j & 1 for j in near) == k]
            verdict = estimator.outcome(around, around.bit_count(), k, clues.values(), 1 << index)
            if verdict is None:
                assert not fitting, f"{cell}, k={k}: called impossible\n{view.text()}"
            elif verdict and fitting:
                always_safe = [j for j in range(len(hidden)) if j != place[cell] and all(not x >> j & 1 for x in fitting)]
                assert always_safe, f"{cell}, k={k}: promised a certain move\n{view.text()}"


@pytest.mark.parametrize("seed", range(6))
def test_view_csp_is_the_boards_csp(seed):
    """The fast CSP of a view is exactly build_csp of its Board (variables, constraints, order)."""
    from answerkey.agent.probability import view_csp
    from solvers.csp import build_csp

    view = position(9, 9, 10, seed, 3, 2)
    assert view_csp(view) == build_csp(view.to_board())
    late = position(6, 7, 8, seed + 100, 6, 3)
    assert view_csp(late) == build_csp(late.to_board())


# --- answerkey/agent/lookahead.py: what-if counts equal enumeration ------------------------------------


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    size=st.sampled_from([(4, 4, 3), (4, 5, 4), (5, 4, 5), (3, 6, 4), (5, 5, 4)]),
    seed=st.integers(0, 10**6),
    opened=st.integers(0, 3),
    flags=st.integers(0, 1),
)
def test_lookahead_outcomes_equal_enumeration(size, seed, opened, flags):
    """For every hidden cell c, each number v it can show: the layouts where c is safe and
    shows v (count), as enumeration gives it, and the lowest mine chance among the other
    hidden cells (0: progress, a certain move) and the second lowest, exact but for cells of components the new
    number does not touch, which keep their probability from before (as
    answerkey/agent/lookahead.py says)."""
    from answerkey.agent.lookahead import Lookahead

    rows, cols, mines = size
    view = position(rows, cols, mines, seed, opened, flags)
    hidden = view.hidden()
    if len(hidden) < 2:
        return
    layouts = brute_force_layouts(view)
    risk = {cell: float(p) for cell, p in brute_force_probabilities(view).items()}
    place = {cell: i for i, cell in enumerate(hidden)}
    unopened = [cell for cell in hidden if view[cell] == -1]
    ahead = Lookahead(view, unopened, risk)
    for cell in unopened:
        me = place[cell]
        near = [place[n] for n in view.neighbours(cell) if n in place]
        expected = {}
        for x in layouts:
            if not x >> me & 1:
                expected.setdefault(sum(x >> j & 1 for j in near), []).append(x)
        got = {o.value: o for o in ahead.outcomes(cell)}
        assert set(got) == set(expected), f"{cell}\n{view.text()}"
        for value, fitting in expected.items():
            outcome = got[value]
            assert outcome.layouts == len(fitting)
            others = [j for j in range(len(hidden)) if j != me]
            chances = {hidden[j]: sum(x >> j & 1 for x in fitting) / len(fitting) for j in others}
            # exact, except in components the new number does not touch: their risk from before
            around = {ahead.index[n] for n in view.neighbours(cell) if n in ahead.index} | {ahead.index[cell]}
            touched = {ahead.part_of[var] for var in around if var in ahead.part_of}
            untouched = {ahead.cells[var] for i, part in enumerate(ahead.parts) if i not in touched for var in part.origin}
            ranked = sorted(risk[x] if x in untouched else p for x, p in chances.items()) + [1.0]
            expected = ranked[0]
            assert outcome.progress == (expected == 0), f"{cell} shows {value}\n{view.text()}"
            assert outcome.next_risk == pytest.approx(expected), f"{cell} shows {value}\n{view.text()}"
            if not outcome.progress:  # the second safest other cell (a known mine: 1)
                assert outcome.second_risk == pytest.approx(ranked[1]), f"{cell} shows {value}\n{view.text()}"
