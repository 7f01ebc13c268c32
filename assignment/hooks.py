"""Your search strategy: implement the four hooks below (see HANDOUT.md).

The engine (solvers/engine.py) calls them; the grader checks each one on crafted inputs
and then solves every problem set with your hooks. Run

    python -m grader problems/

to see your score, and `python -m grader problems/course.yaml --trace nctu-2` to watch
your search, node by node. Edit only this file.

Vocabulary, shared by every hook:

- Variables are numbered 0..n-1: the cells that may hold a mine, in row-major order
  (`csp.cells[v]` is the (row, column) of variable v, counted from 0; messages write the
  cell (3, 2) as r4c3, counting from 1).
- `domains` maps EVERY variable to the tuple of values it may still take, smallest first:
  (0, 1) undecided, (0,) safe, (1,) mine, () impossible. An assigned variable has a
  1-tuple holding its value.
- `csp.constraints` is a tuple of `Constraint(scope, total, cell)`: the variables in
  `scope` must sum to `total`. The global mine count, when the board has one, is the
  last constraint and its scope is every variable.
- `csp.constraints_of[v]` lists the indices (into `csp.constraints`) of the
  constraints whose scope contains v.

Do not modify the objects you are given: build new ones and return them.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.csp import CSP, Domains


def constraint_bounds(scope: Sequence[int], domains: Domains) -> tuple[int, int]:
    """Return (low, high): the smallest and the largest sum the variables of `scope` can
    still reach, given their domains.

    low adds up the minimum of each domain, high the maximum. If a variable of the scope
    has an empty domain, no sum is reachable: return (1, 0).

    Example:
        >>> constraint_bounds((0, 1, 2), {0: (1,), 1: (0, 1), 2: (0,)})
        (1, 2)
        >>> constraint_bounds((), {})
        (0, 0)
    """
    raise NotImplementedError("constraint_bounds")


def forward_check(csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
    """Narrow the domains with the bound rule, in ONE pass over `csp.constraints` in order.

    For each constraint, compute (low, high) with `constraint_bounds` on the domains as
    narrowed so far in this pass, and compare them with its total:

    - low > total or high < total: dead end, return None;
    - low == total: every variable of the scope whose domain has several values keeps
      only its minimum;
    - high == total: every such variable keeps only its maximum;
    - otherwise nothing changes.

    Return a NEW dict with the domains of every variable. `assigned` is the variable the
    parent node just assigned (None at the root); this pass does not need it.

    Example (one clue: variables 0 and 1 sum to 2):
        >>> from solvers.csp import CSP, Constraint
        >>> csp = CSP(cells=((0, 0), (0, 1)), constraints=(Constraint((0, 1), 2),))
        >>> forward_check(csp, {0: (0, 1), 1: (0, 1)}, None)
        {0: (1,), 1: (1,)}
        >>> forward_check(csp, {0: (0,), 1: (0, 1)}, None) is None
        True
    """
    raise NotImplementedError("forward_check")


def select_variable(csp: CSP, domains: Domains, unassigned: Sequence[int]) -> int:
    """Pick the variable to branch on, from `unassigned` (in increasing order), by MRV.

    Minimum remaining values: the variable with the fewest values in its domain, so
    singletons come first. Break ties by the largest number of constraints the variable
    appears in (`len(csp.constraints_of[v])`), then by the lowest variable number.

    Example (one clue over three variables; variable 2 is a singleton, so it goes first):
        >>> from solvers.csp import CSP, Constraint
        >>> csp = CSP(cells=((0, 0), (0, 1), (0, 2)), constraints=(Constraint((0, 1, 2), 1),))
        >>> select_variable(csp, {0: (0, 1), 1: (0, 1), 2: (1,)}, [0, 1, 2])
        2
    """
    raise NotImplementedError("select_variable")


def order_values(csp: CSP, var: int, domains: Domains) -> list[int]:
    """The values of `var` to try, most preferred first: the engine pushes them so that
    the first one is popped first. Try a safe cell before a mine: ascending order.

    Example (a board of one unknown cell and no clue):
        >>> from solvers.csp import CSP
        >>> csp = CSP(cells=((0, 0),), constraints=())
        >>> order_values(csp, 0, {0: (0, 1)})
        [0, 1]
        >>> order_values(csp, 0, {0: (1,)})
        [1]
    """
    raise NotImplementedError("order_values")


# --- Part 2: the SAT encoding (the SAT exercise; see HANDOUT.md, section 9) ---
#
# A literal is a nonzero int: v means "variable v holds a mine", -v means "it does not".
# A clause is a list of literals, satisfied when at least one of them is true. Use only
# the literals you are given: no helper variables.


def at_least_clauses(lits: Sequence[int], k: int) -> list[list[int]]:
    """Clauses that hold exactly when at least `k` of `lits` are true.

    Every group of len(lits) - k + 1 literals must contain a true one. k <= 0 needs no
    clause; k > len(lits) is impossible: return [[]] (the empty clause).

    Example:
        >>> at_least_clauses([1, 2, 3], 2)
        [[1, 2], [1, 3], [2, 3]]
    """
    raise NotImplementedError("at_least_clauses")


def at_most_clauses(lits: Sequence[int], k: int) -> list[list[int]]:
    """Clauses that hold exactly when at most `k` of `lits` are true.

    Every group of k + 1 literals must contain a false one. k >= len(lits) needs no
    clause; k < 0 is impossible: return [[]].

    Example:
        >>> at_most_clauses([1, 2, 3], 1)
        [[-1, -2], [-1, -3], [-2, -3]]
    """
    raise NotImplementedError("at_most_clauses")
