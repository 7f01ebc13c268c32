"""The answer key's fast search (answerkey/fastsearch.py) against the plain engine
(solvers/engine.py): the same solutions in the same order, the same statistics."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from answerkey import fastsearch
from answerkey.fastsearch import FixpointStrategy, fixpoint_search
from answerkey.generate import hint_board
from answerkey.strategies import FC_FIXPOINT, FC_ONCE, HANDOUT, PLAIN, REFERENCE, STRATEGIES
from grader.inputs.problemset import load_problem_file
from solvers import engine
from solvers.board import Board
from solvers.csp import CSP, Constraint, Domains, build_csp
from solvers.engine import Mode, SearchResult, SearchStats

ROOT = Path(__file__).resolve().parent.parent
MODES: tuple[Mode, ...] = ("first", "all", "count")
FIXPOINT_STRATEGIES = [s for s in STRATEGIES.values() if isinstance(s, FixpointStrategy)]
COUNTED = [name for name in vars(SearchStats()) if name != "seconds"]  # every statistic but the clock


def problem_boards(*files: str) -> list[tuple[str, Board]]:
    """(id, board) of every problem in the named files of problems/."""
    boards = []
    for name in files:
        problems, errors = load_problem_file(ROOT / "problems" / name)
        assert errors == []
        boards += [(p.id, p.board) for p in problems]
    return boards


#: The course boards, the generated hint and status boards, and four random boards with
#: few hints (hundreds of solutions, deeper trees).
BOARDS = problem_boards("course.yaml", "generated-6x6.yaml", "generated-status.yaml") + [
    (f"hints-seed-{seed}", hint_board(random.Random(seed), 6, 6, 10, 8)[0]) for seed in range(4)
]


def assert_same_run(fast: SearchResult, plain: SearchResult) -> None:
    assert fast.solutions == plain.solutions  # same solutions, same order
    assert fast.count == plain.count
    assert {name: getattr(fast.stats, name) for name in COUNTED} == {name: getattr(plain.stats, name) for name in COUNTED}


def test_the_statistics_compared_are_every_field_but_the_clock() -> None:
    assert COUNTED == ["popped", "expanded", "dead_ends", "max_stack", "max_depth"]


@pytest.mark.parametrize("strategy", FIXPOINT_STRATEGIES, ids=lambda s: s.name)
@pytest.mark.parametrize("board_id, board", BOARDS, ids=[board_id for board_id, _ in BOARDS])
def test_fast_path_runs_as_the_engine_on_the_boards(board_id: str, board: Board, strategy: FixpointStrategy) -> None:
    csp = build_csp(board)
    for mode in MODES:
        assert_same_run(fixpoint_search(csp, strategy, mode), engine.search(csp, strategy, mode))


def random_csp(rng: random.Random) -> CSP:
    """A CSP of 1 to 9 variables (dummy cells on one row) with random overlapping sum constraints."""
    n = rng.randint(1, 9)
    constraints = []
    for k in range(rng.randint(1, 6)):
        scope = tuple(sorted(rng.sample(range(n), rng.randint(1, n))))
        constraints.append(Constraint(scope, rng.randint(0, len(scope)), (1, k)))
    return CSP(tuple((0, i) for i in range(n)), tuple(constraints))


@pytest.mark.parametrize("seed", range(60))
def test_fast_path_runs_as_the_engine_on_random_csps_and_start_domains(seed: int) -> None:
    """Dead ends of every kind, and start domains with singletons or an empty domain."""
    rng = random.Random(seed)
    csp = random_csp(rng)
    start: Domains = {var: rng.choice([(0, 1), (0, 1), (0, 1), (0,), (1,), ()]) for var in csp.variables}
    for strategy in FIXPOINT_STRATEGIES:
        for mode in MODES:
            for domains in (None, start):
                assert_same_run(fixpoint_search(csp, strategy, mode, domains), engine.search(csp, strategy, mode, domains=domains))


def test_an_empty_start_domain_outside_every_constraint_is_a_dead_end() -> None:
    """The root's empty domain is the one no narrowing would find."""
    csp = CSP(((0, 0), (0, 1)), (Constraint((0,), 1, (1, 0)),))
    fast = fixpoint_search(csp, REFERENCE, "all", {0: (0, 1), 1: ()})
    assert fast.count == 0 and (fast.stats.popped, fast.stats.dead_ends) == (1, 1)
    assert_same_run(fast, engine.search(csp, REFERENCE, "all", domains={0: (0, 1), 1: ()}))


def test_fast_path_leaves_the_start_domains_alone() -> None:
    csp = build_csp(BOARDS[0][1])
    start = csp.initial_domains()
    before = dict(start)
    fixpoint_search(csp, REFERENCE, "all", start)
    assert start == before


# --- which search runs --------------------------------------------------------------------


def test_only_the_answer_keys_fixpoint_strategies_take_the_fast_path() -> None:
    """Moved here from tests/test_solvers_engine.py, where it asked `Strategy.fixpoint`."""
    assert isinstance(REFERENCE, FixpointStrategy) and isinstance(FC_FIXPOINT, FixpointStrategy)
    assert not any(isinstance(s, FixpointStrategy) for s in (PLAIN, FC_ONCE, HANDOUT))


def test_search_takes_the_fast_path_for_a_fixpoint_strategy_nobody_observes(monkeypatch: pytest.MonkeyPatch) -> None:
    csp = build_csp(BOARDS[0][1])
    expected = engine.search(csp, REFERENCE, "all")

    def refuse(*args: object, **kwargs: object) -> SearchResult:
        raise AssertionError("the plain engine ran")

    monkeypatch.setattr(engine, "search", refuse)
    assert_same_run(fastsearch.search(csp, REFERENCE, "all"), expected)


@pytest.mark.parametrize("strategy", [*STRATEGIES.values(), HANDOUT], ids=lambda s: s.name)
def test_search_is_the_engines_with_an_observer_or_another_strategy(strategy: engine.Strategy, monkeypatch: pytest.MonkeyPatch) -> None:
    csp = build_csp(BOARDS[0][1])
    events: list[engine.Event] = []
    calls: list[tuple[object, ...]] = []
    plain_search = engine.search

    def counted(*args: object) -> SearchResult:
        calls.append(args)
        return plain_search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "search", counted)
    observed = fastsearch.search(csp, strategy, "count", events.append)
    assert len(calls) == 1 and observed.count == 8 and events
    fastsearch.search(csp, strategy, "count")
    assert len(calls) == (1 if isinstance(strategy, FixpointStrategy) else 2)
