"""The CNF encodings of "exactly k of n" (answerkey/sat.py), checked exhaustively.

For every encoding, every n in 0..8 and every k in -1..n+1, every assignment of the n
input literals must extend to a model of the clauses (auxiliary variables existentially
quantified: Glucose under assumptions fixing the inputs) exactly when k inputs are true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import product

import pytest
from pysat.card import CardEnc
from pysat.formula import CNF
from pysat.solvers import Solver

from answerkey.sat import (
    ENCODINGS,
    MAX_SUBSET_CLAUSES,
    PYSAT_ENCODINGS,
    EncodingError,
    at_least_subsets,
    at_most_subsets,
    encode,
    encode_csp,
    exactly,
    pysat_encoding,
    subset_clause_count,
)
from solvers.csp import CSP, Constraint, build_csp
from solvers.glucose import SOLVER_NAME
from solvers.textformat import parse_board


def assert_equivalent(clauses: Iterable[Sequence[int]], n: int, holds: Callable[[int], bool]) -> None:
    """For every assignment of variables 1..n: the clauses can be satisfied iff holds(#true)."""
    with Solver(name=SOLVER_NAME, bootstrap_with=[list(c) for c in clauses]) as solver:
        for bits in product((0, 1), repeat=n):
            assumptions = [var if bit else -var for var, bit in enumerate(bits, start=1)]
            assert solver.solve(assumptions=assumptions) == holds(sum(bits)), (bits, sum(bits))


@pytest.mark.parametrize("n", range(9))
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_exactly_is_exact_for_every_assignment(encoding: str, n: int) -> None:
    lits = list(range(1, n + 1))
    for k in range(-1, n + 2):
        clauses, top = exactly(lits, k, encoding, n)
        assert top >= n
        assert all(0 < abs(lit) <= top for clause in clauses for lit in clause)
        assert_equivalent(clauses, n, lambda true, k=k: true == k)


@pytest.mark.parametrize("n", range(9))
def test_subset_halves_are_exact(n: int) -> None:
    lits = list(range(1, n + 1))
    for k in range(-1, n + 2):
        assert_equivalent(at_least_subsets(lits, k), n, lambda true, k=k: true >= k)
        assert_equivalent(at_most_subsets(lits, k), n, lambda true, k=k: true <= k)


@pytest.mark.parametrize("n, k", [(n, k) for n in range(1, 9) for k in range(1, n)])
def test_subset_clause_count_matches_the_clauses(n: int, k: int) -> None:
    clauses, top = exactly(list(range(1, n + 1)), k, "subsets", n)
    assert len(clauses) == subset_clause_count(n, k)
    assert top == n  # no auxiliary variables


def test_edge_cases() -> None:
    assert exactly([], 0, "subsets", 0) == ([], 0)
    assert exactly([], 1, "seqcounter", 0) == ([[]], 0)
    assert exactly([3, 5], -1, "totalizer", 5) == ([[]], 5)
    assert exactly([3, 5], 0, "cardnetwork", 5) == ([[-3], [-5]], 5)
    assert exactly([3, 5], 2, "auto", 5) == ([[3], [5]], 5)


@pytest.mark.parametrize("encoding", list(PYSAT_ENCODINGS))
def test_pysat_clauses_are_pysats_own(encoding: str) -> None:
    """The cached templates give what CardEnc.equals gives for the same literals and top."""
    lits, top = [7, -2, 11, 4, 9], 30
    clauses, new_top = exactly(lits, 2, encoding, top)
    direct = CardEnc.equals(lits=lits, bound=2, top_id=top, encoding=pysat_encoding(encoding))
    assert clauses == direct.clauses
    assert new_top == max(direct.nv, top)


def test_negative_literals_count_as_their_negation() -> None:
    for encoding in ENCODINGS:
        clauses, _ = exactly([1, -2, 3], 2, encoding, 3)  # x1 + (not x2) + x3 = 2
        with Solver(name=SOLVER_NAME, bootstrap_with=clauses) as solver:
            for bits in product((0, 1), repeat=3):
                wanted = bits[0] + (1 - bits[1]) + bits[2] == 2
                assumptions = [v if b else -v for v, b in enumerate(bits, start=1)]
                assert solver.solve(assumptions=assumptions) == wanted, (encoding, bits)


def test_auto_picks_subsets_for_clues_and_a_network_for_a_large_count() -> None:
    assert exactly([1, 2, 3, 4], 2, "auto", 4) == exactly([1, 2, 3, 4], 2, "subsets", 4)
    lits = list(range(1, 201))
    assert exactly(lits, 60, "auto", 200) == exactly(lits, 60, "cardnetwork", 200)


def test_subsets_refuse_a_huge_constraint() -> None:
    n = 40
    assert subset_clause_count(n, 20) > MAX_SUBSET_CLAUSES
    with pytest.raises(EncodingError, match="subset encoding"):
        exactly(list(range(1, n + 1)), 20, "subsets", n)


def test_unknown_encoding() -> None:
    with pytest.raises(EncodingError, match="unknown encoding"):
        exactly([1], 1, "ladder", 1)
    with pytest.raises(EncodingError):
        encode(CSP((), ()), "nope")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_encode_numbers_auxiliaries_above_the_csp(encoding: str) -> None:
    csp = build_csp(parse_board("? ? ? ?\n? 3 2 ?\n? ? ? ?", mines=5))
    cnf = encode(csp, encoding)
    n = len(csp.cells)
    used = {abs(lit) for clause in cnf.clauses for lit in clause}
    assert set(range(1, n + 1)) <= used
    assert max(used) <= cnf.nv
    # one block per constraint, in order: the same clauses as encoding them one by one
    top, expected = n, []
    for constraint in csp.constraints:
        block, top = exactly([v + 1 for v in constraint.scope], constraint.total, encoding, top)
        expected += block
    assert cnf.clauses == expected and cnf.nv == top


def test_empty_scope_clue() -> None:
    csp = CSP(((0, 0),), (Constraint((), 0, (0, 1)), Constraint((), 2, (0, 2))))
    assert encode(csp, "auto").clauses == [[]]


def test_dimacs_round_trip(tmp_path) -> None:
    csp = build_csp(parse_board("? 1 ?\n? ? ?"))
    encoded = encode_csp(csp, "seqcounter")
    text = encoded.dimacs()
    assert "c var 1 = r1c1" in text and "c var 2 = r1c3" in text
    assert f"p cnf {encoded.cnf.nv} {len(encoded.cnf.clauses)}" in text
    path = tmp_path / "board.cnf"
    path.write_text(text)
    assert CNF(from_file=str(path)).clauses == encoded.cnf.clauses
