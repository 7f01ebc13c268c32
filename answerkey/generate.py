"""Seeded board generators: planted mine layouts turned into puzzles.

Every function takes a `random.Random`, so the same seed always gives the same boards.
"""

from __future__ import annotations

import random

from answerkey.components.count import count_solutions as count_exactly
from answerkey.fastsearch import search
from answerkey.strategies import REFERENCE
from solvers.board import Board, Cell, Rule, board_from_rows, clues_for_layout, neighbours
from solvers.csp import build_csp


def plant_mines(rng: random.Random, rows: int, cols: int, mines: int) -> set[Cell]:
    """Exactly `mines` distinct mine cells, uniformly at random."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return set(rng.sample(cells, mines))


def plant_by_density(rng: random.Random, rows: int, cols: int, percent: float) -> set[Cell]:
    """The original status-grid generator's rule: each cell is a mine when a draw in [0, 100) is below P."""
    return {(r, c) for r in range(rows) for c in range(cols) if rng.random() * 100 < percent}


def hint_board(rng: random.Random, rows: int = 6, cols: int = 6, hints: int = 16, mines: int = 10) -> tuple[Board, set[Cell]]:
    """A classic board with `hints` clues on safe cells of a planted layout, and the layout.

    The board carries the mine count, so the planted layout is always one of its solutions.
    """
    if mines + hints > rows * cols:
        raise ValueError(f"{hints} hints and {mines} mines do not fit on {rows}x{cols}")
    layout = plant_mines(rng, rows, cols, mines)
    counts = clues_for_layout(layout, rows, cols, "classic")
    safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in layout]
    shown = set(rng.sample(safe, hints))
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    return board_from_rows(grid, "classic", mines), layout


def status_grid(rng: random.Random, rows: int, cols: int, percent: float, rule: Rule = "inclusive") -> tuple[Board, set[Cell]]:
    """The original status-grid generator's output: every cell shows its count, for a layout drawn at density P."""
    layout = plant_by_density(rng, rows, cols, percent)
    return board_from_rows(clues_for_layout(layout, rows, cols, rule), rule), layout


def perturb_clue(rng: random.Random, board: Board, max_clue: int) -> Board:
    """The board with one clue changed to another value in 0..max_clue."""
    cell = rng.choice(board.clue_cells())
    old = board.clue(cell)
    new = rng.choice([v for v in range(max_clue + 1) if v != old])
    grid = [list(row) for row in board.clues]
    grid[cell[0]][cell[1]] = new
    return board_from_rows(grid, board.rule, board.mines)


def measure(board: Board) -> tuple[int, int]:
    """(solutions, nodes the reference engine pops to count them): the board's difficulty."""
    result = search(build_csp(board), REFERENCE, "count")
    return result.count, result.stats.popped


def hint_problem_set(
    rng: random.Random,
    count: int,
    unique: int = 0,
    unsolvable: int = 0,
    rows: int = 6,
    cols: int = 6,
    hints: int = 16,
    mines: int = 10,
    min_nodes: int = 0,
) -> list[tuple[Board, int]]:
    """`count` classic boards with their solution counts: `unique` with exactly one
    solution, `unsolvable` with none (a clue perturbed until no layout fits, verified by
    counting), and the rest with several.

    `min_nodes` keeps only boards on which the reference engine pops at least that many
    nodes to count the solutions (a difficulty floor; 0 keeps every board, and then the
    same seed gives the same boards as before the option existed).
    """
    if unique + unsolvable > count:
        raise ValueError("unique + unsolvable boards exceed the number of boards")
    several = count - unique - unsolvable
    wanted = {"unique": unique, "several": several, "none": unsolvable}
    chosen: dict[str, list[tuple[Board, int]]] = {key: [] for key in wanted}
    for _ in range(200 * count + 1000):
        if all(len(chosen[k]) >= wanted[k] for k in wanted):
            break
        board, _layout = hint_board(rng, rows, cols, hints, mines)
        solutions, nodes = measure(board)
        kind = "unique" if solutions == 1 else "several"
        if len(chosen[kind]) < wanted[kind] and nodes >= min_nodes:
            chosen[kind].append((board, solutions))
        elif len(chosen["none"]) < wanted["none"]:
            for _attempt in range(50):
                broken = perturb_clue(rng, board, 8)
                solutions, nodes = measure(broken)
                if solutions == 0 and nodes >= min_nodes:
                    chosen["none"].append((broken, 0))
                    break
    else:
        raise RuntimeError("could not find enough boards of each kind; loosen the request")
    return chosen["unique"] + chosen["several"] + chosen["none"]


def status_problem_set(
    rng: random.Random, count: int, rows: int = 7, cols: int = 7, percent: float = 20, unique_only: bool = False
) -> list[tuple[Board, int]]:
    """`count` status grids (the status-grid generator at density `percent`) with their
    exact solution counts (`answerkey.components.count`); only grids with one solution when
    `unique_only`.
    """
    chosen: list[tuple[Board, int]] = []
    for _ in range(200 * count + 1000):
        board, _layout = status_grid(rng, rows, cols, percent)
        solutions = count_exactly(build_csp(board))
        if solutions == 1 or not unique_only:
            chosen.append((board, solutions))
            if len(chosen) == count:
                return chosen
    raise RuntimeError("could not find enough grids with one solution; loosen the request")


def open_area(board_clues: list[list[int]], mines: set[Cell], start: Cell, revealed: set[Cell]) -> None:
    """Open `start` as the game does: a 0 opens its neighbours too, recursively (flood fill)."""
    rows, cols = len(board_clues), len(board_clues[0])
    stack = [start]
    while stack:
        cell = stack.pop()
        if cell in revealed or cell in mines:
            continue
        revealed.add(cell)
        if board_clues[cell[0]][cell[1]] == 0:
            stack.extend(other for other in neighbours(cell, rows, cols) if other not in revealed)


def game_position(rng: random.Random, rows: int = 16, cols: int = 30, mines: int = 99, reveal: float = 0.4) -> tuple[Board, set[Cell]]:
    """A mid-game position of a classic game (expert: 16x30, 99 mines) and its layout.

    Plants the mines, opens a random cell whose clue is 0 (flood fill), then keeps opening
    random safe cells next to the open area until `reveal` of the safe cells are open.
    The board shows the open cells' clues and carries the mine count.
    """
    while True:
        layout = plant_mines(rng, rows, cols, mines)
        counts = clues_for_layout(layout, rows, cols, "classic")
        zeros = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in layout and counts[r][c] == 0]
        if zeros:
            break
    revealed: set[Cell] = set()
    open_area(counts, layout, rng.choice(zeros), revealed)
    target = reveal * (rows * cols - mines)
    while len(revealed) < target:
        edge = sorted({other for cell in revealed for other in neighbours(cell, rows, cols)} - revealed - layout)
        if not edge:
            break
        open_area(counts, layout, rng.choice(edge), revealed)
    grid = [[counts[r][c] if (r, c) in revealed else None for c in range(cols)] for r in range(rows)]
    return board_from_rows(grid, "classic", mines), layout
