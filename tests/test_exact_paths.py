"""The paths of exact counting that avoid cliffs on large boards, against the branching counter and brute force:

- `answerkey.components.marginals`: every variable's mine polynomial by the forward-backward sweep;
- `answerkey.components.count`: probabilities (exact fractions) through it, tables trimmed to their
  mine windows, free cells as a window of binomials;
- `answerkey.components.split.propagate_counted`: the mine count examined beside the clues;
- `answerkey.components.reach`: the mine counts a component can hold, a layout with any of them,
  and one solution under a mine count (`solve_components`, `solve_first`), including counts that
  leave one layout or none;
- the sweeps' keys packed into integers (`answerkey.components.frontier.Step`) on constraints
  that are not clues, and GMP integers kept inside the counting.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_frontier import NO_SWEEP, planted, trim

from answerkey.components import gmp
from answerkey.components.count import ComponentCounter, binomial_window, solution_counts
from answerkey.components.frontier import frontier_ways
from answerkey.components.marginals import frontier_marginals
from answerkey.components.reach import Reach, choose_near, fit_mines
from answerkey.components.solve import solve_components
from answerkey.components.split import decompose, propagate, propagate_counted
from answerkey.sat import solve_first
from solvers.board import Board, board_from_rows
from solvers.brute import brute_force
from solvers.csp import CSP, Constraint, build_csp

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))  # the benchmarks' board generators


def load_curves() -> ModuleType:
    """bench/curves.py as a module (it is a script, not part of the kit)."""
    spec = importlib.util.spec_from_file_location("curves", ROOT / "bench" / "curves.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def brute_layouts(csp: CSP) -> list[tuple[int, ...]]:
    return brute_force(csp, "all").solutions


def exact_probabilities(csp: CSP) -> tuple[int, list[Fraction]]:
    """Brute force: the number of solutions and every variable's mine probability."""
    layouts = brute_layouts(csp)
    if not layouts:
        return 0, [Fraction(0)] * len(csp.cells)
    return len(layouts), [Fraction(sum(layout[var] for layout in layouts), len(layouts)) for var in csp.variables]


def small_board(seed: int, mine_count: bool, most: int = 14) -> Board | None:
    rng = random.Random(seed)
    board = planted(rng, rng.randint(2, 5), rng.randint(2, 5), rng.choice([0.15, 0.3, 0.45]), rng.choice([0.2, 0.35, 0.5]), mine_count)
    return board if len(build_csp(board).cells) <= most else None


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 9), st.integers(2, 9), st.sampled_from([0.15, 0.25, 0.4]), st.sampled_from([0.2, 0.35, 0.5]))
def test_forward_backward_equals_the_branching_counter_on_every_component(seed: int, rows: int, cols: int, density: float, reveal: float) -> None:
    dec = decompose(build_csp(planted(random.Random(seed), rows, cols, density, reveal, mine_count=False)))
    for part in dec.components if dec is not None else ():
        branched = ComponentCounter(per_variable=True, sweep_size=NO_SWEEP).component(part)
        swept = frontier_marginals(part.csp, None)
        assert swept is not None and branched.mines is not None
        ways, mines = swept
        assert trim(ways) == trim(branched.ways)
        assert [trim(poly) for poly in mines] == [trim(poly) for poly in branched.mines]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_probabilities_through_the_sweep_are_brute_forces_exact_fractions(seed: int, mine_count: bool) -> None:
    board = small_board(seed, mine_count)
    if board is None:
        return
    csp = build_csp(board)
    total, expected = exact_probabilities(csp)
    swept = solution_counts(csp, leaf_size=0, sweep_size=1)  # every component through the forward-backward sweep
    branched = solution_counts(csp, sweep_size=NO_SWEEP)
    assert swept.total == branched.total == total
    assert swept.probabilities() == branched.probabilities() == expected
    assert all(isinstance(p, Fraction) for p in swept.probabilities())
    if total:
        assert swept.stats.swept == swept.stats.components


def test_a_large_component_is_swept_for_probabilities_and_matches_the_count() -> None:
    from scale_boards import classic_board

    board = classic_board(random.Random(0), 24, 24, 115, 0.25, 115)
    csp = build_csp(board)
    counts = solution_counts(csp)
    assert counts.stats.swept > 0 and counts.stats.largest_component >= 24
    assert counts.total == solution_counts(csp, per_variable=False).total
    assert sum(counts.mines) == board.mines * counts.total  # every layout has exactly M mines


def test_many_free_cells_enter_as_binomials() -> None:
    """A 30x30 board with two clues: 890-odd free cells under a mine count, probabilities exact."""
    grid: list[list[int | None]] = [[None] * 30 for _ in range(30)]
    grid[0][0], grid[29][29] = 1, 3
    board = board_from_rows(grid, "classic", 180)
    csp = build_csp(board)
    counts = solution_counts(csp)
    free = len(csp.cells) - 6
    # corner clues: 1 mine among 3 cells, 3 among 3; the other cells hold the remaining 176
    assert counts.total == 3 * comb(free, 176)
    by_cell = counts.cell_probabilities()
    assert by_cell[(0, 1)] == Fraction(1, 3) and by_cell[(28, 29)] == 1
    assert by_cell[(15, 15)] == Fraction(comb(free - 1, 175), comb(free, 176)) == Fraction(176, free)


def test_binomial_window_is_a_row_of_binomials() -> None:
    for n, top, size in ((10, 7, 10), (50, 60, 15), (8, 3, 6), (0, 0, 2), (300, 150, 40)):
        assert binomial_window(n, top, size) == [comb(n, top - j) if 0 <= top - j <= n else 0 for j in range(size)]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_the_mine_count_beside_the_clues_gives_the_same_fixpoint(seed: int) -> None:
    rng = random.Random(seed)
    board = planted(rng, rng.randint(2, 6), rng.randint(2, 6), 0.3, rng.choice([0.3, 0.6]), mine_count=True)
    board = board_from_rows(board.clues, board.rule, max(0, (board.mines or 0) + rng.choice([-3, 0, 0, 3])))
    csp = build_csp(board)
    assert propagate_counted(csp, board.mines) == propagate(csp)


def test_the_mine_count_decides_every_cell_when_it_is_reached() -> None:
    cells = tuple((0, i) for i in range(5))
    clues = (Constraint((0,), 1, (9, 0)), Constraint((0, 1, 2), 1, (9, 1)))  # 1 mine, then 2 safe cells; 3 and 4 free
    for mines, expected in ((1, (1, 0, 0, 0, 0)), (3, (1, 0, 0, 1, 1)), (2, None), (4, None), (0, None)):
        csp = CSP(cells, (*clues, Constraint(tuple(range(5)), mines)))
        domains = propagate_counted(csp, mines)
        assert domains == propagate(csp)
        if expected is None:
            assert domains is None or any(len(d) > 1 for d in domains.values())
        else:
            assert domains is not None and tuple(d[0] for d in domains.values()) == expected


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32))
def test_reach_knows_every_mine_count_and_builds_a_layout_for_each(seed: int) -> None:
    board = small_board(seed, mine_count=False)
    if board is None:
        return
    dec = decompose(build_csp(board))
    for part in dec.components if dec is not None else ():
        reach = Reach.of(part.csp, None)
        assert reach is not None
        held = sorted({sum(layout) for layout in brute_layouts(part.csp)})
        assert reach.counts() == held
        for k in range(len(part.origin) + 2):
            layout = reach.layout(k)
            if k in held:
                assert layout is not None and sum(layout) == k and part.csp.satisfied_by(layout)
            else:
                assert layout is None


def test_groups_alone_in_a_closing_constraint_fold_into_the_step_before() -> None:
    """Cell 0 is in both constraints, cells 1-2 only in the first and 3-4 only in the second:
    once cell 0 is placed the two pairs take what their constraints lack, so the reach
    sweep has one stride (cell 0's step with both pairs as closers), and its mine counts
    and layouts are brute force's."""
    cells = tuple((0, v) for v in range(5))
    for first, second in ((1, 1), (2, 1), (2, 3), (3, 0)):
        csp = CSP(cells, (Constraint((0, 1, 2), first), Constraint((0, 3, 4), second)))
        reach = Reach.of(csp, None)
        assert reach is not None and [len(stride.closers) for stride in reach.strides] == [2]
        held = sorted({sum(layout) for layout in brute_layouts(csp)})
        assert reach.counts() == held
        for k in held:
            layout = reach.layout(k)
            assert layout is not None and sum(layout) == k and csp.satisfied_by(layout)


def chained_csp(rng: random.Random) -> CSP:
    """A connected CSP of arbitrary constraints, not clues: scopes of 1 to 12 variables, each
    overlapping the one before, totals up to 12 (the sweep's keys hold them in wider slots),
    many constraints opening and closing along the sweep (slots freed and taken again);
    totals from a planted layout, or sometimes one total off (maybe no layout at all)."""
    n = rng.randint(6, 13)
    layout = [int(rng.random() < 0.6) for _ in range(n)]
    scopes = [tuple(sorted(rng.sample(range(n), rng.randint(1, min(n, 4)))))]
    while len({v for scope in scopes for v in scope}) < n or len(scopes) < 4:
        size = rng.randint(1, min(n, 12))
        scopes.append(tuple(sorted({rng.choice(scopes[-1]), *rng.sample(range(n), size - 1)})))
    totals = [sum(layout[v] for v in scope) for scope in scopes]
    if rng.random() < 0.3:
        totals[rng.randrange(len(totals))] += rng.choice((-1, 1))
    return CSP(tuple((0, v) for v in range(n)), tuple(Constraint(scope, total) for scope, total in zip(scopes, totals)))


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_sweeps_of_arbitrary_constraints_equal_brute_force(seed: int) -> None:
    csp = chained_csp(random.Random(seed))
    layouts = brute_layouts(csp)
    n = len(csp.cells)
    by_mines = Counter(sum(layout) for layout in layouts)
    ways = tuple(by_mines[k] for k in range(n + 1))
    assert trim(frontier_ways(csp, None) or ()) == trim(ways)
    marginals = frontier_marginals(csp, None)
    assert marginals is not None
    assert trim(marginals[0]) == trim(ways)
    for var in csp.variables:
        held = Counter(sum(layout) for layout in layouts if layout[var])
        assert trim(marginals[1][var]) == trim(tuple(held[k] for k in range(n + 1)))
    reach = Reach.of(csp, None)
    assert reach is not None and reach.counts() == sorted(by_mines)
    for k in sorted(by_mines):
        layout = reach.layout(k)
        assert layout is not None and sum(layout) == k and csp.satisfied_by(layout)


@pytest.mark.parametrize("seed", [4, 9])
def test_gmp_and_python_integers_give_the_same_counts_handed_out_as_ints(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The counting's arithmetic on GMP integers (whatever its size: GMP_WORK 0) and on ints alone
    (GMP_WORK out of reach) agree, and what it hands out are ints either way."""
    board = planted(random.Random(seed), 16, 16, 0.2, 0.3, mine_count=True)
    found = []
    for threshold in (0, 10**9):
        monkeypatch.setattr(gmp, "GMP_WORK", threshold)
        counts = solution_counts(build_csp(board))
        assert counts.stats.swept and counts.total > 1
        assert type(counts.total) is int and all(type(m) is int for m in counts.mines)
        total = solution_counts(build_csp(board), per_variable=False).total
        assert type(total) is int and total == counts.total
        dec = decompose(build_csp(board))
        assert dec is not None
        counter = ComponentCounter(per_variable=True)
        tables = [counter.component(part) for part in dec.components]
        assert all(type(w) is int for table in tables for w in table.ways)
        assert all(type(m) is int for table in tables for poly in table.mines or () for m in poly)
        found.append((counts.total, counts.mines, [(table.ways, table.mines) for table in tables]))
    assert found[0] == found[1]


def test_choose_near_keeps_the_counts_at_hand_when_it_can() -> None:
    masks = [0b1110, 0b11, 0b100]  # {1, 2, 3}, {0, 1}, {2}
    assert choose_near(masks, [1, 0, 2], 0, 3) == [1, 0, 2]
    assert choose_near(masks, [1, 0, 2], 0, 6) == [3, 1, 2]
    assert choose_near(masks, [1, 0, 2], 1, 7) == [3, 1, 2]
    assert choose_near(masks, [1, 0, 2], 0, 7) is None
    assert choose_near(masks, [1, 0, 2], 0, 2) is None


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([-2, -1, 0, 0, 1, 2]))
def test_one_solution_under_a_mine_count_exists_exactly_when_brute_force_finds_one(seed: int, shift: int) -> None:
    board = small_board(seed, mine_count=True)
    if board is None:
        return
    board = board_from_rows(board.clues, board.rule, max(0, (board.mines or 0) + shift))
    csp = build_csp(board)
    solvable = bool(brute_force(csp, "count").count)
    found = solve_components(csp, "first")
    assert found.count == int(solvable)
    if solvable:
        assert csp.satisfied_by(found.solutions[0])
    if board.rule == "classic":
        sat = solve_first(csp)
        assert sat.count == int(solvable)
        if solvable:
            assert csp.satisfied_by(sat.solutions[0])


def layouts_by_mines(board: Board) -> dict[int, list[tuple[int, ...]]]:
    """Every layout of the board without its mine count, grouped by number of mines."""
    out: dict[int, list[tuple[int, ...]]] = {}
    for layout in brute_layouts(build_csp(board_from_rows(board.clues, board.rule, None))):
        out.setdefault(sum(layout), []).append(layout)
    return out


def boards_with_counts(kind: str, wanted: int) -> list[tuple[Board, list[tuple[int, ...]]]]:
    """Classic boards, each with a mine count that leaves exactly one layout ("one") or none
    although the clues alone allow layouts ("none": a count between or beyond theirs)."""
    found = []
    for seed in range(4000):
        board = small_board(seed, mine_count=False, most=12)
        if board is None or board.rule != "classic":
            continue
        grouped = layouts_by_mines(board)
        if not grouped:
            continue
        if kind == "one":
            counts = [m for m, layouts in grouped.items() if len(layouts) == 1 and len(grouped) > 1]
        else:
            counts = [m for m in range(max(grouped) + 2) if m not in grouped and min(grouped) < m]
        if counts:
            found.append((board_from_rows(board.clues, "classic", counts[0]), grouped.get(counts[0], [])))
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


@pytest.mark.parametrize("kind", ["one", "none"])
def test_a_mine_count_that_leaves_one_layout_or_none(kind: str) -> None:
    for board, layouts in boards_with_counts(kind, 12):
        csp = build_csp(board)
        counts = solution_counts(csp)
        swept = solution_counts(csp, leaf_size=0, sweep_size=1)
        assert counts.total == swept.total == len(layouts) == solution_counts(csp, per_variable=False).total
        first, sat = solve_components(csp, "first"), solve_first(csp)
        if kind == "one":
            (layout,) = layouts
            assert counts.probabilities() == swept.probabilities() == [Fraction(v) for v in layout]
            assert first.solutions == [layout] and sat.solutions == [layout]
        else:
            assert counts.mines == swept.mines == (0,) * len(csp.cells)
            assert first.solutions == [] and sat.solutions == []


def test_fit_mines_changes_only_the_components_that_must_change() -> None:
    # two chains "exactly one of each neighbouring pair" over 3 cells (010 or 101), and 1 free cell
    chain = [Constraint((0, 1), 1, (9, 0)), Constraint((1, 2), 1, (9, 1)), Constraint((3, 4), 1, (9, 2)), Constraint((4, 5), 1, (9, 3))]
    cells = tuple((0, i) for i in range(7))
    at_hand = [(0, 1, 0), (0, 1, 0)]
    for mines, chosen in ((2, [1, 1]), (3, [1, 1]), (4, [1, 2]), (5, [2, 2])):
        dec = decompose(CSP(cells, (*chain, Constraint(tuple(range(7)), mines))))
        assert dec is not None and dec.mines_left == mines and len(dec.free) == 1
        fitted = fit_mines(dec, at_hand)
        assert fitted is not None and [sum(layout) for layout in fitted] == chosen
        assert [layout for layout, k in zip(fitted, chosen) if k == 1] == [(0, 1, 0)] * chosen.count(1)  # kept
        assert all(layout == (1, 0, 1) for layout, k in zip(fitted, chosen) if k == 2)
    six = decompose(CSP(cells, (*chain, Constraint(tuple(range(7)), 6))))
    assert six is not None and fit_mines(six, at_hand) is None  # 2 + 2 + 1 at most
    assert decompose(CSP(cells, (*chain, Constraint(tuple(range(7)), 7)))) is None  # the bound rule alone sees it


def test_game_positions_count_the_same_by_every_path() -> None:
    """A 24x24 game position: the per-variable count (sweep and branching) and the plain count agree."""
    board, layout = load_curves().game_board(random.Random(3), 24, 24, 119, 0.4)
    csp = build_csp(board)
    counts = solution_counts(csp)
    assert counts.total == solution_counts(csp, per_variable=False).total == solution_counts(csp, sweep_size=NO_SWEEP).total
    assert counts.mines == solution_counts(csp, sweep_size=NO_SWEEP).mines
    assert Counter(solve_components(csp, "first").solutions[0])[1] == 119
    assert all(counts.mines[csp.cells.index(cell)] for cell in layout)  # a planted mine is a mine in some layout


def test_the_benchs_game_boards_are_game_positions_boards() -> None:
    from answerkey.generate import game_position

    curves = load_curves()
    for seed in range(4):
        for size, reveal in ((9, 0.3), (16, 0.5), (20, 0.7)):
            mines = round(size * size * 99 / 480)
            assert curves.game_board(random.Random(seed), size, size, mines, reveal) == game_position(random.Random(seed), size, size, mines, reveal)


@pytest.mark.slow  # the bench times each operation in a process of its own
def test_the_curves_bench_runs_and_checks_its_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "curves.json"
    argv = ["--sizes", "10", "--kinds", "fullest", "--ops", "count,probs,first,first-no-M", "--json", str(out)]
    assert load_curves().main(argv) == 0
    printed = capsys.readouterr().out
    assert "probs at most 3x count" in printed and "first with count at most 3x without" in printed
    import json

    data = json.loads(out.read_text(encoding="utf-8"))
    assert [row["kind"] for row in data["rows"]] == ["fullest"]
    assert all(set(row["seconds"]["after"]) == {"count", "probs", "first", "first-no-M"} for row in data["rows"])
    assert load_curves().main(["--summary", str(out)]) == 0
    assert "s/1k frontier" in capsys.readouterr().out


def test_a_sweep_whose_kept_tables_grow_too_large_falls_back_to_branching(monkeypatch: pytest.MonkeyPatch) -> None:
    import answerkey.components.marginals as marginals

    board = planted(random.Random(8), 7, 7, 0.25, 0.3, mine_count=True)
    csp = build_csp(board)
    swept = solution_counts(csp, leaf_size=0, sweep_size=1)
    monkeypatch.setattr(marginals, "KEPT_BITS", 8)
    assert frontier_marginals(csp, None) is None
    branched = solution_counts(csp, leaf_size=0, sweep_size=1)
    assert swept.stats.nodes == 0 < branched.stats.nodes  # branched where it swept
    assert branched.mines == swept.mines and branched.total == swept.total
