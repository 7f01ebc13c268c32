"""The reference agent (answerkey/agent/agent.py and its layers): rules, reasons, guesses, endgame, games."""

from __future__ import annotations

import importlib
import random
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from answerkey.agent.agent import Agent
from answerkey.agent.benchmark import play_reference
from answerkey.agent.endgame import Endgame, endgame_plan
from answerkey.agent.reasoning import deduce
from answerkey.strategies import REFERENCE
from play.game import Game
from play.levels import BEGINNER, INTERMEDIATE, custom_level
from play.view import Move, View, view_from_text
from solvers.csp import build_csp
from solvers.engine import search


def moves(decisions):
    return {(d.move.action, d.move.cell) for d in decisions}


# --- (a) and (b) ------------------------------------------------------------------------


def test_single_clue_finds_a_mine_and_says_which_clue():
    view = view_from_text("0 1 .", mines=1)
    (decision,) = Agent().decisions(view)
    assert decision.move == Move("flag", (0, 2))
    assert decision.layer == "single" and decision.certain
    assert "the 1 at r1c2" in decision.reason


def test_single_clue_opens_around_a_satisfied_number():
    view = view_from_text("1 F .\n1 . .", mines=2)
    decisions = Agent().decisions(view)
    assert Move("open", (1, 1)) in {d.move for d in decisions}
    assert all(d.layer == "single" for d in decisions)
    # without trusting the flag, the same cell is not provable from the numbers
    assert Move("open", (1, 1)) not in {d.move for d in Agent(trust_flags=False).decisions(view)}


def test_subset_rule_then_single_rule_to_closure():
    view = view_from_text("0 1 .\n0 1 .\n0 1 .", mines=1)
    assert not any(d.rule == "single" for d in deduce(view)[:2])
    decisions = Agent().decisions(view)
    assert moves(decisions) == {("open", (0, 2)), ("open", (2, 2)), ("flag", (1, 2))}
    subset = [d for d in decisions if d.layer == "subset"]
    assert {d.move.cell for d in subset} == {(0, 2), (2, 2)}
    assert all("r2c2" in d.reason for d in subset)  # the middle 1 holds the other clue's cells


# --- (c) --------------------------------------------------------------------------------


def test_count_layer_uses_the_global_mine_count():
    """The 1 puts one mine on (0, 0) or (0, 2); with 1 mine in all, the far cells are safe,
    which no rule on the numbers alone can see."""
    view = view_from_text(". 1 . . .", mines=1)
    assert deduce(view) == []
    decisions = Agent().decisions(view)
    assert moves(decisions) == {("open", (0, 3)), ("open", (0, 4))}
    assert all(d.layer == "count" and d.probability == 0 for d in decisions)
    assert "safe in all 2 layouts" in decisions[0].reason


# --- (d) --------------------------------------------------------------------------------


def test_guess_opens_a_safest_cell_and_gives_its_probability():
    view = view_from_text("1 . .\n. . .\n. . .", mines=2)
    decision = Agent().decide(view)
    assert decision.move.action == "open" and decision.layer in ("guess", "endgame")
    assert decision.probability == Fraction(1, 5)  # the far cells; the 1's neighbours are 1/3
    assert decision.move.cell in [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]


def test_first_click_is_a_corner():
    decision = Agent().decide(Game(BEGINNER, seed=0).view())
    assert decision.move == Move("open", (0, 0)) and decision.layer == "first"


def test_endgame_on_a_coin_flip():
    view = view_from_text("1 1\n. .", mines=1)
    decision = Agent().decide(view)
    assert decision.layer == "endgame" and decision.probability == Fraction(1, 2)
    assert "wins 1 of them" in decision.reason


def naive_wins(shows: list[tuple[int, ...]], layouts: frozenset[int]) -> int:
    """The optimal number of won layouts by plain exhaustive search (no shortcuts)."""

    @cache
    def wins(remaining: frozenset[int], opened: frozenset[int]) -> int:
        if len(remaining) == 1:
            return 1
        best = 0
        for var, values in enumerate(shows):
            if var in opened or all(values[x] < 0 for x in remaining):
                continue
            parts: dict[int, set[int]] = {}
            for x in remaining:
                if values[x] >= 0:
                    parts.setdefault(values[x], set()).add(x)
            best = max(best, sum(wins(frozenset(p), opened | {var}) for p in parts.values()))
        return best

    return wins(layouts, frozenset())


@pytest.mark.parametrize("seed", range(25))
def test_endgame_search_is_optimal_against_a_naive_search(seed):
    rng = random.Random(seed)
    rows, cols, mines = rng.choice([(3, 3, 2), (2, 4, 2), (3, 4, 3), (2, 5, 2)])
    game = Game(custom_level(rows, cols, mines), "classic", seed)
    game.open((rng.randrange(rows), rng.randrange(cols)))
    view = game.view()
    csp = build_csp(view.to_board())
    layouts = search(csp, REFERENCE, "all").solutions
    if len(layouts) < 2 or len(layouts) > 40:
        return
    endgame = Endgame(view, csp, layouts, budget=10**6)
    everything = frozenset(range(len(layouts)))
    assert endgame.wins(endgame.everything) == naive_wins(endgame.shows, everything)
    plan = endgame_plan(view, csp, budget=10**6)
    if plan is not None:
        assert plan.wins == endgame.wins(endgame.everything)


# --- whole games --------------------------------------------------------------------------


def test_certain_moves_are_never_wrong():
    for level, games in ((BEGINNER, 30), (INTERMEDIATE, 4)):
        for seed in range(games):
            game, agent = Game(level, seed=seed), Agent()
            while not game.over:
                for decision in agent.decisions(game.view()):
                    if decision.certain:
                        assert game.is_mine(decision.move.cell) == (decision.move.action == "flag"), decision
                    game.apply(decision.move)
                    if game.over:
                        break


def test_twenty_beginner_games():
    results = [play_reference(BEGINNER, seed) for seed in range(20)]
    assert sum(r.won for r in results) >= 12
    assert results == [play_reference(BEGINNER, seed) for seed in range(20)]  # deterministic


def test_hint_without_trusting_wrong_flags():
    """A player's wrong flag must not make the agent open a mine."""
    game = Game(BEGINNER, seed=4)
    game.open((0, 0))
    view = game.view()
    wrong = next(cell for cell in view.hidden() if not game.is_mine(cell) and any(view[n] > 0 for n in view.neighbours(cell)))
    game.toggle_flag(wrong)
    decision = Agent(trust_flags=False).decide(game.view())
    if decision.certain and decision.move.action == "open":
        assert not game.is_mine(decision.move.cell)


def test_choose_move_returns_a_bare_move():
    view = View(2, 2, 1, ((1, 1), (-1, -1)))
    assert isinstance(Agent().choose_move(view), Move)


# --- the guessing policies ---------------------------------------------------------------

#: The agent before the progress guesses (commit 0d05a4a), per level: seeds 0..n-1, which
#: games it won, its guesses per game and its moves in all. `Guesser(policy="safest")` with
#: its endgame search (up to 200 layouts, 20,000 nodes) is that agent, kept as the paired
#: benchmark's baseline: it must play the same games.
BEFORE_PROGRESS = {
    "beginner": (
        40,
        "1110011111111111111111101110111111111111",
        [0, 0, 2, 1, 1, 0, 1, 3, 3, 0, 2, 0, 1, 2, 1, 2, 0, 1, 1, 0, 1, 0, 2, 3, 1, 1, 0, 1, 1, 1, 0, 2, 1, 0, 0, 0, 3, 0, 0, 0],
        1111,
    ),
    "intermediate": (12, "111101101111", [1, 5, 0, 1, 1, 0, 1, 1, 1, 2, 1, 1], 1227),
    "expert": (6, "111010", [1, 4, 3, 7, 4, 1], 1485),
}


@pytest.mark.parametrize("name", sorted(BEFORE_PROGRESS))
def test_safest_policy_plays_the_games_of_the_agent_before_progress(name):
    from answerkey.agent.guess import Guesser
    from play.levels import LEVELS

    games, wins, guesses, moves = BEFORE_PROGRESS[name]
    agent = Agent(guesser=Guesser(policy="safest", endgame_layouts=200, endgame_budget=20_000))
    results = [play_reference(LEVELS[name], seed, agent=agent) for seed in range(games)]
    assert "".join(str(int(r.won)) for r in results) == wins
    assert [r.guesses for r in results] == guesses
    assert sum(r.moves for r in results) == moves


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
def test_default_policy_is_deterministic_and_differs_from_safest():
    from answerkey.agent.guess import Guesser
    from play.levels import EXPERT

    progress = [play_reference(EXPERT, seed) for seed in range(8)]
    assert progress == [play_reference(EXPERT, seed) for seed in range(8)]
    safest = Agent(guesser=Guesser(policy="safest"))
    assert progress != [play_reference(EXPERT, seed, agent=safest) for seed in range(8)]


def test_lookahead_guess_is_the_safest_or_survives_two_moves_more_often():
    """Whenever the default guesser leaves the safest cell, the cell it takes has a higher exact
    two-move survival (recounted here with answerkey.agent.lookahead) and the reason says so."""
    from answerkey.agent.forced import forced_pair, pseudo_cell
    from answerkey.agent.guess import Guesser
    from answerkey.agent.lookahead import Lookahead
    from answerkey.agent.probability import probabilities
    from play.levels import EXPERT

    agent, left = Agent(), 0
    for seed in range(6):
        game = Game(EXPERT, seed=seed)
        while not game.over:
            for decision in agent.decisions(game.view()):
                if decision.layer == "guess":
                    view = game.view()
                    counted = probabilities(view)
                    safest = Guesser(policy="safest").safest(view, counted).move.cell
                    if "forced 50/50" in decision.reason:
                        assert forced_pair(view, counted) is not None and decision.probability == Fraction(1, 2)
                    elif "pseudo 50/50" in decision.reason:
                        assert pseudo_cell(view, counted)[0] == decision.move.cell
                    elif decision.move.cell != safest:
                        left += 1
                        assert "one move ahead" in decision.reason
                        risk = {cell: m / counted.total for cell, m in counted.mines.items()}
                        ahead = Lookahead(view, [safest, decision.move.cell], risk)
                        assert ahead.value(decision.move.cell, counted.total) > ahead.value(safest, counted.total)
                        assert decision.probability == counted[decision.move.cell]
                game.apply(decision.move)
                if game.over:
                    break
    assert left >= 1


def test_forced_fifty_fifty_is_found_and_guessed_first():
    """Two cells at the board's edge that only the same two 1s see: exactly one is a mine and
    no number can ever tell them apart, so the guesser opens one of them at once."""
    from answerkey.agent.forced import forced_pair
    from answerkey.agent.guess import Guesser
    from answerkey.agent.probability import probabilities

    view = view_from_text("0 1 . .\n0 1 . .", mines=2)
    counted = probabilities(view)
    assert forced_pair(view, counted) == ((0, 2), (1, 2))
    decision = Guesser(endgame_layouts=0).guess(view, counted)
    assert decision.move == Move("open", (0, 2)) and "forced 50/50" in decision.reason
    assert Guesser(endgame_layouts=0, forced=False).guess(view, counted).reason != decision.reason
    lone = view_from_text("1 .\n. .", mines=1)  # three cells at 1/3: no pair
    assert forced_pair(lone, probabilities(lone)) is None


PSEUDO = "2 . 1 0\n. . 1 0\n. 3 2 1\n. . . ."  # 4 mines: three layouts


def test_pseudo_fifty_fifty_is_found_and_guessed_first():
    """Row 3, col 1 is a mine in one of the three layouts, and in that one row 4, col 1 is
    safe and row 2, cols 1-2 (the only cells that touch one of the two and not the other) are
    mines: a 50/50 no number can ever settle. Opening it now wins 2 of the 3 layouts, which
    the exact endgame search confirms is the best any move can do; no forced pair here."""
    from answerkey.agent.forced import forced_pair, pseudo_cell
    from answerkey.agent.guess import Guesser
    from answerkey.agent.probability import probabilities

    view = view_from_text(PSEUDO, mines=4)
    counted = probabilities(view)
    assert counted.total == 3 and forced_pair(view, counted) is None
    assert pseudo_cell(view, counted) == ((2, 0), (3, 0))
    decision = Guesser(endgame_layouts=0).guess(view, counted)
    assert decision.move == Move("open", (2, 0)) and "pseudo 50/50" in decision.reason
    assert "pseudo 50/50" not in Guesser(endgame_layouts=0, pseudo=False).guess(view, counted).reason
    csp = counted.csp
    endgame = Endgame(view, csp, search(csp, REFERENCE, "all").solutions, budget=10**6)
    var = csp.cells.index((2, 0))
    assert sum(endgame.wins(part) for part in endgame.split(var, endgame.everything)) == endgame.wins(endgame.everything) == 2


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
def test_pseudo_fifty_fifty_holds_in_every_layout():
    """Whenever `pseudo_cell` names (a, b), every layout consistent with the view that has a
    mine in a has b safe and a mine in every cell that touches only one of them (checked on
    every listed layout of small games the agent plays)."""
    from answerkey.agent.forced import pseudo_cell
    from answerkey.agent.probability import probabilities

    agent, checked = Agent(), 0
    for game_seed in range(700):
        game = Game(custom_level(4, 4, 4), "classic", game_seed)
        while not game.over:
            view = game.view()
            for decision in agent.decisions(view):
                if not decision.certain and decision.layer != "first":
                    counted = probabilities(view)
                    pair = pseudo_cell(view, counted)
                    if pair is not None:
                        a, b = pair
                        apart = (set(view.neighbours(a)) ^ set(view.neighbours(b))) - {a, b}
                        index = {cell: var for var, cell in enumerate(counted.csp.cells)}
                        for layout in search(counted.csp, REFERENCE, "all").solutions:
                            if layout[index[a]]:
                                assert not layout[index[b]] and all(layout[index[n]] for n in apart)
                        checked += 1
                game.apply(decision.move)
                if game.over:
                    break
    assert checked >= 2


def test_dead_cells_show_one_number():
    """Two forced pairs side by side: whichever cell is safe, its hidden neighbours hold two
    mines, so every cell can show only a 2 (dead: opening it tells nothing more)."""
    from answerkey.agent.lookahead import Lookahead
    from answerkey.agent.probability import probabilities

    view = view_from_text("0 1 . .\n0 1 . .", mines=2)
    counted = probabilities(view)
    risk = {cell: m / counted.total for cell, m in counted.mines.items()}
    ahead = Lookahead(view, list(risk), risk)
    assert {ahead.survey(cell, counted.total)[1:] for cell in risk} == {(1, True)}
    assert [o.value for o in ahead.outcomes((0, 3))] == [2]


def corner_view(number: int) -> View:
    """An Expert view right after the first click, with the corner showing `number`."""
    from play.levels import EXPERT

    cells = [[-1] * EXPERT.cols for _ in range(EXPERT.rows)]
    cells[0][0] = number
    return View(EXPERT.rows, EXPERT.cols, EXPERT.mines, tuple(map(tuple, cells)))


def test_opening_book_gives_what_the_agent_computes_and_is_looked_up():
    from answerkey.agent.agent import opening_decisions

    opening_decisions.cache_clear()
    view = corner_view(1)
    computed = Agent(book=False).decisions(view)
    assert Agent().decisions(view) == computed
    assert Agent().decisions(view) == computed
    assert opening_decisions.cache_info().hits == 1 and opening_decisions.cache_info().misses == 1


def test_opening_book_keeps_each_guesser_apart():
    """Two agents that guess differently never read each other's book entries."""
    from answerkey.agent.agent import opening_decisions
    from answerkey.agent.guess import Guesser

    opening_decisions.cache_clear()
    view = corner_view(1)
    broad = Guesser(lookahead_cells=0, far_cells=1)  # every ranked cell: the cell two steps along the edge
    assert Agent().decisions(view) != Agent(guesser=broad).decisions(view)
    assert Agent(guesser=broad).decisions(view) == Agent(guesser=broad, book=False).decisions(view)
    assert Agent().decisions(view) == Agent(book=False).decisions(view)


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
def test_opening_book_holds_only_views_with_few_revealed_cells():
    from answerkey.agent.agent import BOOK_REVEALED, opening_decisions, revealed
    from play.levels import EXPERT

    opening_decisions.cache_clear()
    agent = Agent()
    for seed in range(12):  # half of Expert games start with the corner showing 1, 2 or 3
        game = Game(EXPERT, seed=seed)
        while not game.over:
            for decision in agent.decisions(game.view()):
                game.apply(decision.move)
                if game.over:
                    break
    assert opening_decisions.cache_info().hits >= 1
    cells = [list(row) for row in corner_view(1).cells]
    for c in range(1, BOOK_REVEALED + 1):
        cells[0][c] = 1
    later = View(EXPERT.rows, EXPERT.cols, EXPERT.mines, tuple(map(tuple, cells)))
    assert revealed(later) == BOOK_REVEALED + 1
    before = opening_decisions.cache_info()
    agent.decisions(later)
    assert opening_decisions.cache_info() == before


# --- isolated pockets ---------------------------------------------------------------------

POCKET = """\
0 0 0 0 0 1 . . .
0 0 0 1 2 4 . . .
0 0 0 1 F F F 4 F
0 0 0 1 2 3 2 3 F
0 0 1 1 2 1 1 1 1
1 1 2 F 4 F 2 0 0
. . 2 . . F 2 0 0"""  # 12 mines: row 7, cols 1-2 and 4-5 are closed off by numbers and flags


def test_isolated_pocket_is_found_and_searched_first():
    """The four hidden cells of the bottom row hold one mine in both of their layouts, and
    every cell around them is revealed or flagged: a pocket nothing else can inform, which
    the guesser plays first by its own exact search (1 of its 2 layouts won whatever is
    played), though the whole board has more layouts than the endgame search takes."""
    from answerkey.agent.guess import Guesser
    from answerkey.agent.pocket import pockets
    from answerkey.agent.probability import probabilities

    view = view_from_text(POCKET, mines=12)
    counted = probabilities(view)
    (part,) = pockets(view, counted, limit=1000)
    assert set(part.csp.cells) == {(6, 0), (6, 1), (6, 3), (6, 4)}
    decision = Guesser(endgame_layouts=0).guess(view, counted)
    assert decision.move.cell in set(part.csp.cells) and "isolated pocket" in decision.reason
    assert "wins 1 of them" in decision.reason
    without = Guesser(endgame_layouts=0, pockets=False).guess(view, counted)
    assert "isolated pocket" not in without.reason and without.move.cell not in set(part.csp.cells)
    assert pockets(view, counted, limit=1) == []


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
def test_pockets_are_independent_of_the_rest_and_searched_exactly():
    """Checked against every layout of the whole board, on the views where the agent
    guesses in small games: a pocket's layouts are the whole board's layouts cut to its
    cells, each one in as many whole layouts as every other (nothing outside weighs them),
    and the pocket's plan wins as many of them as a plain exhaustive search can."""
    from answerkey.agent.guess import Guesser
    from answerkey.agent.pocket import pocket_plan, pockets
    from answerkey.agent.probability import probabilities

    agent, checked = Agent(guesser=Guesser(endgame_layouts=0, pockets=False)), 0
    for seed in range(60, 135):  # 8 views with pockets (one with two), of 2 to 15 cells
        game = Game(custom_level(6, 9, 10), "classic", seed)
        while not game.over:
            view = game.view()
            decisions = agent.decisions(view)
            if not decisions[0].certain and decisions[0].layer != "first":
                counted = probabilities(view)
                found = pockets(view, counted, limit=1000)
                if found:
                    index = {cell: var for var, cell in enumerate(counted.csp.cells)}
                    everything = search(counted.csp, REFERENCE, "all").solutions
                    for part in found:
                        own = search(part.csp, REFERENCE, "all").solutions
                        cut: dict[tuple[int, ...], int] = {}
                        for layout in everything:
                            key = tuple(layout[index[cell]] for cell in part.csp.cells)
                            cut[key] = cut.get(key, 0) + 1
                        assert set(cut) == set(own) and len(set(cut.values())) == 1
                    plan = pocket_plan(view, counted, limit=1000, budget=10**6)
                    assert plan is not None
                    part = next(p for p in found if plan.cell in p.csp.cells)
                    endgame = Endgame(view, part.csp, search(part.csp, REFERENCE, "all").solutions, budget=10**6)
                    assert plan.wins == naive_wins(endgame.shows, frozenset(range(plan.layouts)))
                    checked += 1
            for decision in decisions:
                game.apply(decision.move)
                if game.over:
                    break
    assert checked >= 5


# --- the experiments measured and not kept (bench/agent_experiments.py) --------------------


def experiments() -> ModuleType:
    """bench/agent_experiments.py, imported as the bench scripts import it."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module("bench.agent_experiments")


def test_a_view_with_a_cell_shown():
    shown = experiments().shown

    view = view_from_text("1 .\n. .", mines=1)
    after = shown(view, (1, 0), 1)
    assert after.text() == "1 .\n1 ." and view.text() == "1 .\n. ." and after.mines == 1


def test_one_guess_deeper_with_a_one_guess_horizon_is_the_lookahead():
    """With the safest next cell's chance as the value of each position after the guess,
    the deeper value is two-move survival again: it must equal the lookahead's own value
    wherever that is exact (one group of frontier cells, so none keeps an old probability).
    Then the deeper guesser picks a cell whose value two guesses further is the highest."""
    from answerkey.agent.lookahead import Lookahead
    from answerkey.agent.probability import probabilities

    def safest_next(view, counted):
        return 1.0 - min(counted.mines[cell] for cell in view.hidden() if view[cell] == -1) / counted.total

    deeper_value, guesser = experiments().deeper_value, experiments().ExperimentalGuesser(deeper_margin=1.0, deeper_cells=3)
    checked = deepened = 0
    for seed in range(12):
        game = Game(custom_level(5, 6, 6), "classic", seed)
        game.open((0, 0))
        view = game.view()
        counted = probabilities(view)
        if game.over or counted.safe() or counted.total < 3:
            continue
        risk = {cell: mines / counted.total for cell, mines in counted.mines.items()}
        cells = [cell for cell in view.hidden() if 0 < counted.mines[cell] < counted.total]
        ahead = Lookahead(view, cells, risk)
        if len(ahead.parts) > 1 or ahead.outside:
            continue
        for cell in cells[:8]:
            assert deeper_value(view, ahead, cell, counted.total, safest_next) == pytest.approx(ahead.value(cell, counted.total))
            checked += 1
        found = guesser.compare(view, counted)
        if found.deeper:
            assert found.best is not None and found.deeper[found.best] == max(found.deeper.values())
            deepened += 1
    assert checked >= 30 and deepened >= 3


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
def test_formation_shares_count_the_layouts_of_each_formation():
    """On the views where the agent guesses in small games, `formation_shares` gives each
    cell a the share of layouts in which a is a mine, a side neighbour b is safe and every
    other cell touching only one of them is a mine (the largest over b), recounted here on
    every listed layout; in each such layout the mirror (a and b swapped) is a layout too,
    so the pair is a coin flip no number can settle, and no cell is left out."""
    from answerkey.agent.probability import probabilities

    formation_shares = experiments().formation_shares
    agent, checked, credited = Agent(), 0, 0
    for seed in range(30):
        game = Game(custom_level(5, 6, 7), "classic", seed)
        while not game.over:
            view = game.view()
            decisions = agent.decisions(view)
            counted = probabilities(view) if not decisions[0].certain and decisions[0].layer != "first" else None
            if counted is not None and counted.total <= 2000:  # every layout listed below
                shares = formation_shares(view, counted, 1.0, limit=10**6, open_limit=8)
                index = {cell: var for var, cell in enumerate(counted.csp.cells)}
                layouts = search(counted.csp, REFERENCE, "all").solutions
                assert len(layouts) == counted.total
                known = {tuple(layout) for layout in layouts}
                for a in index:
                    best = 0
                    for b in view.neighbours(a):
                        if b not in index or (b[0] != a[0] and b[1] != a[1]) or not 0 < counted.mines[b] < counted.total:
                            continue
                        apart = (set(view.neighbours(a)) ^ set(view.neighbours(b))) - {a, b}
                        if any(n not in index for n in apart):
                            continue  # a revealed number touches only one of them
                        formed = [lay for lay in layouts if lay[index[a]] and not lay[index[b]] and all(lay[index[n]] for n in apart)]
                        for lay in formed:
                            mirror = list(lay)
                            mirror[index[a]], mirror[index[b]] = 0, 1
                            assert tuple(mirror) in known
                        best = max(best, len(formed))
                    if 0 < counted.mines[a] < counted.total and view[a] == -1:
                        assert shares.get(a, 0.0) == best / counted.total
                    credited += a in shares
                checked += 1
            for decision in decisions:
                game.apply(decision.move)
                if game.over:
                    break
    assert checked >= 25 and credited >= 20


FORMATION = """0 0 0 2 F . . . .
0 0 0 2 F 3 . . .
0 0 1 2 2 2 . . .
1 1 2 F 2 2 . . .
. . 2 . . 4 . . .
1 1 1 2 F . . . ."""  # 10 mines: 89 layouts


def test_formation_credit_takes_the_cell_that_settles_a_fifty_fifty():
    """Bottom-right corner: in 1 of the 89 layouts (5, 8) is a mine beside a safe (4, 8) with
    every cell that touches only one of them a mine, a coin flip no number will settle. Its
    two-move survival ties with the far corner's (92.1%; the safest cell is dead), and the
    plain guesser keeps the corner, first in its ranking; with the credit for that coin
    flip the guesser opens (5, 8), and the exact game-tree search over all 89 layouts
    agrees: opening it first wins 80 of them, the corner 78 (neither guesser searches
    the endgame here)."""
    from answerkey.agent.guess import Guesser
    from answerkey.agent.probability import probabilities

    formation_shares, experimental = experiments().formation_shares, experiments().ExperimentalGuesser
    view = view_from_text(FORMATION, mines=10)
    counted = probabilities(view)
    assert counted.total == 89
    assert formation_shares(view, counted, 1.0, limit=50)[(5, 8)] == pytest.approx(1 / 89)
    plain = Guesser(endgame_layouts=0, pockets=False).guess(view, counted)
    credited = experimental(endgame_layouts=0, pockets=False, formation_credit=0.9, formation_counts=50).guess(view, counted)
    assert plain.move.cell == (0, 8) and "50/50 formations" not in plain.reason
    assert credited.move.cell == (5, 8) and "50/50 formations it would settle" in credited.reason
    csp = counted.csp
    endgame = Endgame(view, csp, search(csp, REFERENCE, "all").solutions, budget=10**6)

    def wins(cell):
        return sum(endgame.wins(part) for part in endgame.split(csp.cells.index(cell), endgame.everything))

    assert (wins((5, 8)), wins((0, 8))) == (80, 78)
