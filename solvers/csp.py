"""The CSP every solver consumes: boolean variables and "these cells sum to k" constraints.

Variables are the board's mine candidates in row-major order, numbered from 0. There is
one constraint per clue (in row-major order of the clue cells) and, when the board has a
mine count, one global constraint over every variable, always last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .board import Board, Cell, cell_name

Domain = tuple[int, ...]
Domains = dict[int, Domain]

#: The domain every variable starts with: safe (0) or mine (1).
BOOLEAN: Domain = (0, 1)


@dataclass(frozen=True)
class Constraint:
    """The variables in `scope` must sum to `total`.

    `cell` is the clue cell the constraint comes from, or None for the global mine count.
    """

    scope: tuple[int, ...]
    total: int
    cell: Cell | None = None

    @property
    def label(self) -> str:
        if self.cell is None:
            return f"mine count = {self.total}"
        return f"clue {self.total} at {cell_name(self.cell)}"


@dataclass(frozen=True)
class CSP:
    """Variables 0..n-1 (variable i is the cell `cells[i]`) and their constraints."""

    cells: tuple[Cell, ...]
    constraints: tuple[Constraint, ...]
    constraints_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        touching: list[list[int]] = [[] for _ in self.cells]
        for index, constraint in enumerate(self.constraints):
            for var in constraint.scope:
                touching[var].append(index)
        object.__setattr__(self, "constraints_of", tuple(tuple(t) for t in touching))

    @cached_property
    def by_degree(self) -> tuple[int, ...]:
        """Every variable, most constraints first, ties by lowest number (MRV's tie-break
        order; sorted on first use)."""
        return tuple(sorted(self.variables, key=lambda var: (-len(self.constraints_of[var]), var)))

    @property
    def variables(self) -> range:
        return range(len(self.cells))

    def initial_domains(self) -> Domains:
        """Every variable may be safe or a mine."""
        return {var: BOOLEAN for var in self.variables}

    def satisfied_by(self, values: tuple[int, ...]) -> bool:
        """True when a full assignment (value of variable i at index i) meets every constraint.

        Plain loops rather than `all(sum(...))`: this is the engine's goal test, on the
        search's hot path, and generators cost about 3x more here (`bench/satisfied_cost.py`)."""
        for constraint in self.constraints:
            total = 0
            for var in constraint.scope:
                total += values[var]
            if total != constraint.total:
                return False
        return True


def _clue(board: Board, cell: Cell) -> int:
    clue = board.clue(cell)
    assert clue is not None  # clue_cells() yields only cells with a clue
    return clue


def build_csp(board: Board) -> CSP:
    """The CSP of a board: one variable per mine candidate, one constraint per clue.

    A clue whose counted cells are all clues (under `classic`) gives an empty scope:
    satisfied when the clue is 0, unsatisfiable otherwise.
    """
    cells = tuple(board.mine_candidates())
    index = {cell: i for i, cell in enumerate(cells)}
    constraints = [Constraint(tuple(index[c] for c in board.counted(cell) if c in index), _clue(board, cell), cell) for cell in board.clue_cells()]
    if board.mines is not None:
        constraints.append(Constraint(tuple(range(len(cells))), board.mines))
    return CSP(cells, tuple(constraints))


def layout_of(csp: CSP, values: tuple[int, ...], rows: int, cols: int) -> list[list[int]]:
    """A full assignment as a rows x cols grid of 0/1 (cells that are not variables: 0)."""
    grid = [[0] * cols for _ in range(rows)]
    for (r, c), value in zip(csp.cells, values):
        grid[r][c] = value
    return grid
