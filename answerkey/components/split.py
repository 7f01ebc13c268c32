"""Independent components of a CSP, after propagating to a fixpoint.

Two undecided variables are connected when some clue constraint holds both. The global
mine count is left out when splitting: it joins every variable, and the counting code
(`answerkey.components.count`) puts it back exactly by convolving per-component tables.

A `Decomposition` of a CSP is:

- the fixpoint domains of `forward_check_fixpoint` (run once, with the global count, which
  `propagate_counted` examines on the side of the clues: the same fixpoint, linear in the cells);
- `decided`: the variables it fixed, with their values;
- `components`: the connected groups of undecided variables, each as a `Part`, a
  self-contained sub-CSP whose constraints are the clues' *residual* constraints (scope
  restricted to the component's undecided variables, total reduced by the decided mines);
- `free`: undecided variables in no clue constraint at all (any value fits the clues);
- `mines_left`: the global count minus the decided mines (None without a global count).

Every solution of the CSP is the decided values, plus one solution of each component,
plus any values of the free variables, such that (with a global count) the mines add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from answerkey.strategies import forward_check_fixpoint, narrow_to_fixpoint
from solvers.csp import CSP, Constraint, Domains


@dataclass(frozen=True)
class Part:
    """A sub-CSP over some variables of a larger CSP.

    Local variable i of `csp` is variable `origin[i]` of the larger CSP; `origin` is
    increasing, so local order is the larger CSP's (row-major) order.
    """

    csp: CSP
    origin: tuple[int, ...]

    def key(self) -> tuple[tuple[int, ...], frozenset[tuple[tuple[int, ...], int]]]:
        """What identifies the sub-problem: its variables and its residual (scope, total) pairs."""
        return self.origin, frozenset((c.scope, c.total) for c in self.csp.constraints)


@dataclass(frozen=True)
class Decomposition:
    """A CSP at its fixpoint, split into decided variables, components and free variables."""

    csp: CSP
    domains: Domains
    decided: dict[int, int]
    components: tuple[Part, ...]
    free: tuple[int, ...]
    mines_left: int | None

    @property
    def decided_mines(self) -> int:
        return sum(self.decided.values())


def is_global(constraint: Constraint, csp: CSP) -> bool:
    """True for the global mine count: no clue cell, and a scope of every variable."""
    return constraint.cell is None and len(constraint.scope) == len(csp.cells)


def propagate(csp: CSP, domains: Domains | None = None, assigned: int | None = None) -> Domains | None:
    """`forward_check_fixpoint` from `domains` (default: every variable {0, 1}); None at a dead end."""
    return forward_check_fixpoint(csp, csp.initial_domains() if domains is None else domains, assigned)


def _union_find_groups(variables: Sequence[int], scopes: Sequence[Sequence[int]]) -> list[list[int]]:
    """Connected groups of `variables` linked by `scopes`, each sorted, ordered by smallest member."""
    parent = {var: var for var in variables}

    def root(var: int) -> int:
        while parent[var] != var:
            parent[var] = parent[parent[var]]
            var = parent[var]
        return var

    for scope in scopes:
        first = root(scope[0])
        for var in scope[1:]:
            other = root(var)
            if other != first:
                parent[other] = first
    groups: dict[int, list[int]] = {}
    for var in variables:  # increasing, so each group comes out sorted and groups in order
        groups.setdefault(root(var), []).append(var)
    return list(groups.values())


def split(csp: CSP, domains: Domains) -> tuple[dict[int, int], list[Part], list[int]]:
    """Split a CSP at a fixpoint: (decided values, components, free variables).

    Global constraints are ignored; every other constraint becomes its residual over the
    undecided variables. Residual constraints with nothing left to decide are dropped (at
    a fixpoint they hold), and equal (scope, total) pairs are kept once; the same scope
    with two totals stays as two constraints (the bound rule alone does not see that
    conflict; the component's search or count does). Component variables keep their
    order, and components come in the order of their first variable.
    """
    decided = {var: domain[0] for var, domain in domains.items() if len(domain) == 1}
    undecided = [var for var in csp.variables if len(domains[var]) > 1]
    residual: dict[tuple[tuple[int, ...], int], Constraint] = {}
    for constraint in csp.constraints:
        if is_global(constraint, csp):
            continue
        left: list[int] = []
        total = constraint.total
        for var in constraint.scope:
            value = decided.get(var)
            if value is None:
                left.append(var)
            else:
                total -= value
        if left:
            residual.setdefault((tuple(left), total), constraint)
    linked = {var for scope, _total in residual for var in scope}
    free = [var for var in undecided if var not in linked]
    groups = _union_find_groups([var for var in undecided if var in linked], [scope for scope, _total in residual])
    group_of = {var: index for index, group in enumerate(groups) for var in group}
    members: list[list[tuple[tuple[int, ...], int, Constraint]]] = [[] for _ in groups]
    for (scope, total), constraint in residual.items():
        members[group_of[scope[0]]].append((scope, total, constraint))
    parts = []
    for group, constraints in zip(groups, members):
        local = {var: i for i, var in enumerate(group)}
        sub = CSP(
            tuple(csp.cells[var] for var in group),
            tuple(Constraint(tuple(local[v] for v in scope), total, c.cell) for scope, total, c in constraints),
        )
        parts.append(Part(sub, tuple(group)))
    return decided, parts, free


def global_total(csp: CSP) -> int | None:
    """The global mine count, None without one, -1 when two global constraints disagree."""
    totals = {c.total for c in csp.constraints if is_global(c, csp)}
    if len(totals) > 1:
        return -1
    return totals.pop() if totals else None


def propagate_counted(csp: CSP, total: int | None) -> Domains | None:
    """`propagate(csp)`, the same fixpoint, with the global mine count `total` examined on the
    side: the clues alone are propagated, then the count's bound rule is applied once (it
    decides every undecided variable, or nothing), and the clues again if it did.

    Every variable is in the global constraint, so inside the queue each narrowing would
    queue it again and each look at it would sum every domain: quadratic in the board's
    cells (96% of a 128x128 count's time went there). The fixpoint of the bound rule does
    not depend on the order constraints are examined in, so this one is the same.
    """
    if total is None:
        return propagate(csp)
    clues = CSP(csp.cells, tuple(c for c in csp.constraints if not is_global(c, csp)))
    domains: Domains | None = propagate(clues)
    while domains is not None:
        undecided = [var for var, domain in domains.items() if len(domain) > 1]
        left = total - sum(domain[0] for domain in domains.values() if len(domain) == 1)
        if not 0 <= left <= len(undecided):
            return None
        if not undecided or 0 < left < len(undecided):
            return domains
        value = (1,) if left else (0,)
        for var in undecided:
            domains[var] = value
        domains = narrow_to_fixpoint(clues, domains)
    return None


def decompose(csp: CSP) -> Decomposition | None:
    """Propagate to a fixpoint and split; None when propagation alone proves there is no solution."""
    total = global_total(csp)
    domains = propagate_counted(csp, total) if total != -1 else None
    if domains is None:
        return None
    decided, parts, free = split(csp, domains)
    left = None if total is None else total - sum(decided.values())
    if left is not None and not 0 <= left <= len(csp.cells) - len(decided):
        return None
    return Decomposition(csp, domains, decided, tuple(parts), tuple(free), left)


def with_mine_count(csp: CSP, mines: int) -> CSP:
    """`csp` with one more constraint: exactly `mines` of all its variables are mines."""
    return CSP(csp.cells, (*csp.constraints, Constraint(tuple(csp.variables), mines)))


def lift(part: Part, values: Sequence[int], into: list[int]) -> None:
    """Write a solution of `part` (local order) into a full assignment of the larger CSP."""
    for var, value in zip(part.origin, values):
        into[var] = value


def sub_part(parent: Part, child: Part) -> Part:
    """`child`, split from `parent.csp`, with its origin mapped to `parent`'s larger CSP."""
    return Part(child.csp, tuple(parent.origin[var] for var in child.origin))


def condition(part: Part, var: int, value: int) -> tuple[dict[int, int], list[Part], list[int]] | None:
    """Set local variable `var` of `part` to `value`, propagate and split again.

    Returns (decided values, components, free variables), all in the *larger* CSP's
    numbering, or None when propagation finds a dead end.
    """
    domains = part.csp.initial_domains()
    domains[var] = (value,)
    narrowed = propagate(part.csp, domains, var)
    if narrowed is None:
        return None
    decided, children, free = split(part.csp, narrowed)
    return (
        {part.origin[v]: x for v, x in decided.items()},
        [sub_part(part, child) for child in children],
        [part.origin[v] for v in free],
    )


def branch_variable(csp: CSP) -> int:
    """The variable to condition on: the one in the most constraining constraints.

    A constraint with k mines among s cells alone allows C(s, k) layouts; a variable scores
    the sum of 1 / C(s, k) over its constraints, and the highest score wins (ties: the
    lowest number). Such variables sit where constraints are tight and overlap, so
    conditioning on them propagates far and splits components early.
    """
    weight = [1 / max(comb(len(c.scope), c.total), 1) for c in csp.constraints]
    touching = csp.constraints_of
    return max(csp.variables, key=lambda var: (sum(weight[c] for c in touching[var]), -var))
