"""Glucose 4.1 through PySAT (answerkey/sat.py) against the search engine on random boards.

Counts come from blocking clauses over the CSP variables only, so for every encoding
they must equal the reference engine's (`solve(csp, "fc-mrv", "count")`).
"""

from __future__ import annotations

import random

import pytest

from answerkey.methods import solve
from answerkey.sat import ENCODINGS, SatResult, encode_csp, free_variables, sat_solve, solve_encoded
from solvers.board import Board, board_from_rows, clues_for_layout
from solvers.csp import CSP, Constraint, build_csp
from solvers.textformat import parse_board


def random_board(rng: random.Random) -> Board:
    """A small board: clues of a planted layout (one sometimes changed), either rule, maybe a mine count."""
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    rule = rng.choice(("classic", "inclusive"))
    mines = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.3}
    counts = clues_for_layout(mines, rows, cols, rule)
    shown = rng.uniform(0.2, 0.7)
    grid = [
        [counts[r][c] if rng.random() < shown and (rule == "inclusive" or (r, c) not in mines) else None for c in range(cols)] for r in range(rows)
    ]
    if rng.random() < 0.25:  # a perturbed clue: often unsatisfiable
        clue_cells = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] is not None]
        if clue_cells:
            r, c = rng.choice(clue_cells)
            grid[r][c] = rng.randint(0, 3)
    board = board_from_rows(grid, rule)
    if rng.random() < 0.5:
        room = len(board.mine_candidates())
        total = len(mines) if rng.random() < 0.7 else rng.randint(0, room)
        board = board_from_rows(grid, rule, min(total, room))
    return board


BOARDS = [random_board(random.Random(seed)) for seed in range(60)]


def test_the_random_boards_cover_every_case() -> None:
    counts = [solve(build_csp(b), "fc-mrv", "count").count for b in BOARDS]
    assert {b.rule for b in BOARDS} == {"classic", "inclusive"}
    assert any(b.mines is None for b in BOARDS) and any(b.mines is not None for b in BOARDS)
    assert 0 in counts and any(c == 1 for c in counts) and any(c > 4 for c in counts)
    assert any(free_variables(build_csp(b)) for b in BOARDS)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_counts_equal_the_engine(encoding: str) -> None:
    for board in BOARDS:
        csp = build_csp(board)
        assert sat_solve(csp, "count", encoding).count == solve(csp, "fc-mrv", "count").count, board


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_all_solutions_equal_the_engine(encoding: str) -> None:
    for board in BOARDS:
        csp = build_csp(board)
        result = sat_solve(csp, "all", encoding)
        expected = solve(csp, "fc-mrv", "all").solutions
        assert len(result.solutions) == result.count == len(set(result.solutions))
        assert set(result.solutions) == set(expected), board


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_first_solution_is_valid(encoding: str) -> None:
    for board in BOARDS:
        csp = build_csp(board)
        result = sat_solve(csp, "first", encoding)
        assert result.count == len(result.solutions) <= 1
        assert (result.count == 1) == (solve(csp, "fc-mrv", "count").count > 0)
        for values in result.solutions:
            assert_layout_matches_clues(board, csp.cells, values)


def assert_layout_matches_clues(board: Board, cells, values) -> None:
    """Recount every clue from the mine layout on the board itself (not the CSP)."""
    mines = {cell for cell, value in zip(cells, values) if value}
    counts = clues_for_layout(mines, board.rows, board.cols, board.rule)
    for r, c in board.clue_cells():
        assert counts[r][c] == board.clue((r, c))
        if board.rule != "inclusive":  # only the inclusive rule lets a clue sit on a mine
            assert (r, c) not in mines
    if board.mines is not None:
        assert len(mines) == board.mines


def test_free_cells_multiply_the_count_and_projection_keeps_one_each() -> None:
    csp = build_csp(parse_board("? 1 ? . .\n. . . . ."))
    assert free_variables(csp) == (2, 3, 7, 8)
    encoded = encode_csp(csp)
    projected = solve_encoded(encoded, "all", project=True)
    assert projected.count == len(projected.solutions) == 5
    assert all(values[v] == 0 for values in projected.solutions for v in encoded.free)
    full = solve_encoded(encoded, "all")
    assert full.count == len(set(full.solutions)) == 5 * 2**4
    assert solve_encoded(encoded, "count").count == 80


def test_no_variables() -> None:
    assert sat_solve(build_csp(parse_board("1 1\n1 .", mines=1)), "count").count == 1
    assert sat_solve(build_csp(parse_board("1 0")), "all").solutions == []
    assert sat_solve(build_csp(parse_board("0 0")), "all").solutions == [()]


def test_statistics() -> None:
    board = parse_board("? ? ? ?\n? 3 2 ?\n? ? ? ?\n1 ? ? ?", mines=5)
    result = sat_solve(build_csp(board), "count")
    stats = result.stats
    assert isinstance(result, SatResult) and result.count == solve(build_csp(board), "fc-mrv", "count").count
    assert stats.variables >= len(build_csp(board).cells) and stats.clauses > 0
    assert stats.decisions > 0 and stats.propagations > 0 and stats.restarts >= 1 and stats.conflicts >= 0
    assert 0 < stats.encode_seconds < stats.seconds and 0 < stats.solve_seconds < stats.seconds
    names = {"conflicts", "decisions", "propagations", "restarts", "variables", "clauses", "seconds"}
    assert set(stats.as_dict()) >= names
    converted = result.as_search_result()
    assert converted.count == result.count and converted.stats.seconds == stats.seconds


def test_solve_method_sat_uses_the_same_path() -> None:
    csp = build_csp(parse_board("2 ? 2\n? 4 ?\n? ? ?"))
    assert sorted(solve(csp, "sat", "all").solutions) == sorted(solve(csp, "fc-mrv", "all").solutions)


# --- one solution by components ------------------------------------------------------------


def glucose_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the number of CSP variables of every CNF handed to Glucose by answerkey.sat."""
    import answerkey.sat

    calls: list[int] = []
    real = answerkey.sat.solve_cnf

    def counting(cnf, n_vars, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(n_vars)
        return real(cnf, n_vars, *args, **kwargs)

    monkeypatch.setattr(answerkey.sat, "solve_cnf", counting)
    return calls


def test_solve_first_gives_glucose_one_component_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from answerkey.sat import solve_first

    calls = glucose_calls(monkeypatch)
    # two independent pairs "exactly one of (0, 1)" and "exactly one of (2, 3)", and a free variable 4
    csp = CSP(tuple((0, i) for i in range(5)), (Constraint((0, 1), 1, (1, 0)), Constraint((2, 3), 1, (1, 2))))
    result = solve_first(csp)
    assert calls == [2, 2]
    assert result.count == 1 and csp.satisfied_by(result.solutions[0]) and result.solutions[0][4] == 0
    assert result.stats.variables >= 4 and result.stats.seconds > 0


def test_solve_first_with_a_mine_count_solves_components_not_the_whole_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from answerkey.sat import solve_first

    calls = glucose_calls(monkeypatch)
    csp = CSP(tuple((0, i) for i in range(4)), (Constraint((0, 1), 1, (1, 0)), Constraint((0, 1, 2, 3), 3)))
    result = solve_first(csp)
    assert calls == [2] and result.count == 1 and csp.satisfied_by(result.solutions[0])  # the free cells take the other 2


def test_solve_first_changes_only_a_component_whose_mine_count_must_change(monkeypatch: pytest.MonkeyPatch) -> None:
    from answerkey.sat import solve_first

    calls = glucose_calls(monkeypatch)
    chain = (Constraint((0, 1), 1, (1, 0)), Constraint((1, 2), 1, (1, 1)))  # 010 (1 mine) or 101 (2 mines)
    square = (Constraint((3, 4), 1, (1, 3)),)  # 2 layouts, 1 mine either way
    cells = tuple((0, i) for i in range(5))
    for mines, expected in ((3, (1, 0, 1)), (2, (0, 1, 0))):
        calls.clear()
        csp = CSP(cells, (*chain, *square, Constraint(tuple(range(5)), mines)))
        result = solve_first(csp)
        assert result.count == 1 and csp.satisfied_by(result.solutions[0]) and result.solutions[0][:3] == expected
        assert calls == [3, 2]  # Glucose once per component; the chain's count, when it changes, from the sweep
    calls.clear()
    assert solve_first(CSP(cells, (*chain, *square, Constraint(tuple(range(5)), 4)))).count == 0
    assert calls == [3, 2]  # the mine counts say no without asking Glucose again


def test_solve_first_without_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    from answerkey.sat import solve_first

    calls = glucose_calls(monkeypatch)
    decided = CSP(((0, 0), (0, 1)), (Constraint((0, 1), 2, (1, 0)), Constraint((0,), 0, (1, 1))))  # propagation alone
    assert solve_first(decided).count == 0 and calls == []
    odd = CSP(tuple((0, i) for i in range(3)), tuple(Constraint(s, 1, (1, k)) for k, s in enumerate(((0, 1), (1, 2), (0, 2)))))
    assert solve_first(odd).solutions == [] and calls == [3]  # a triangle of "exactly one": Glucose says no
