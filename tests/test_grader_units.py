"""The grader's pieces on their own: the independent layout checker, scoring, goldens."""

from __future__ import annotations

from dataclasses import replace

import yaml

from grader.errors import ErrorKind
from grader.inputs.problemset import Problem
from grader.reports.results import ItemResult, Report
from grader.sandbox.tasks import Outcome
from grader.scoring.case import Case
from grader.scoring.hookcases import CASES_FILE, HOOK_NAMES, HOOKS_WITH_CASES, build_cases, load_cases
from grader.scoring.hookitems import HookAnswers, score_hook
from grader.scoring.layouts import layout_problem
from grader.scoring.problems import SearchAnswer, score_problem
from solvers.board import board_from_rows
from solvers.engine import SearchStats

# A 2x3 board whose only clue, 2 at row 2, column 3, counts the cells at
# (row 1, column 2), (row 1, column 3) and (row 2, column 2).
CORNER = [[None, None, None], [None, None, 2]]
VALID = [[0, 1, 1], [0, 0, 0]]


# --- layout_problem ---


def test_valid_layout_has_no_problem() -> None:
    assert layout_problem(board_from_rows(CORNER), VALID) is None
    assert layout_problem(board_from_rows(CORNER, mines=2), VALID) is None


def test_wrong_shape() -> None:
    board = board_from_rows(CORNER)
    for grid in ([[0, 1, 1]], [[0, 1], [1, 0]], [[0, 1, 1], [0, 0, 0], [0, 0, 0]], "011000", None, [(0, 1, 1), (0, 0, 0)]):
        assert layout_problem(board, grid) == "is not a 2x3 grid", grid


def test_cells_must_be_0_or_1() -> None:
    board = board_from_rows(CORNER)
    reason = layout_problem(board, [[0, 1, 1], [2, 0, 0]])
    assert reason is not None and "2" in reason and "r2c1" in reason
    assert layout_problem(board, [[0, 1, 1], [-1, 0, 0]]) is not None
    assert layout_problem(board, [[0, 1, 1], ["0", 0, 0]]) is not None


def test_booleans_are_not_cells() -> None:
    board = board_from_rows(CORNER)
    reason = layout_problem(board, [[0, True, True], [0, 0, 0]])
    assert reason is not None and "True" in reason and "r1c2" in reason
    assert layout_problem(board, [[False, 1, 1], [0, 0, 0]]) is not None


def test_mine_on_a_clue_cell_depends_on_the_rule() -> None:
    # the clue 1 at row 1, column 1 counts itself under the inclusive rule only
    rows = [[1, None], [None, None]]
    on_clue = [[1, 0], [0, 0]]
    classic = layout_problem(board_from_rows(rows, "classic"), on_clue)
    assert classic is not None and "clue at r1c1" in classic
    assert layout_problem(board_from_rows(rows, "inclusive"), on_clue) is None
    assert layout_problem(board_from_rows(rows, "classic"), [[0, 1], [0, 0]]) is None


def test_mine_total_must_match() -> None:
    board = board_from_rows(CORNER, mines=3)
    reason = layout_problem(board, VALID)
    assert reason is not None and "has 2 mines" in reason and "3" in reason


def test_miscounted_clue_names_its_cell() -> None:
    board = board_from_rows(CORNER)
    reason = layout_problem(board, [[1, 0, 1], [0, 0, 0]])
    assert reason is not None
    assert "r2c3" in reason and "1 mines" in reason
    assert layout_problem(board, [[0, 0, 0], [0, 0, 0]]) is not None
    assert layout_problem(board, [[0, 1, 1], [1, 1, 0]]) is not None  # too many around the clue


# --- score_problem ---

# `? 1 ?`: the clue says exactly one of the two cells is a mine, so 2 solutions.
PAIR = board_from_rows([[None, 1, None]])
LEFT, RIGHT = [[1, 0, 0]], [[0, 0, 1]]


def pair(expect: int | None = 2, points: float = 2.0) -> Problem:
    return Problem("sets/pair.yaml", "pair", PAIR, expect, points)


def ok(*solutions: list[list[int]]) -> dict:
    return Outcome("ok", SearchAnswer(list(solutions), SearchStats(popped=5)), seconds=0.01)


def test_all_solutions_pass() -> None:
    result = score_problem(pair(), ok(LEFT, RIGHT))
    assert (result.status, result.score, result.max_score) == ("pass", 2.0, 2.0)
    assert result.nodes == 5 and result.file == "sets/pair.yaml" and result.kind == "problem"
    assert score_problem(pair(), ok(RIGHT, LEFT)).status == "pass"  # any order


def test_repeated_solution_fails() -> None:
    result = score_problem(pair(), ok(LEFT, LEFT))
    assert (result.status, result.score) == ("fail", 0.0)
    assert "repeats" in result.message and "solution 2" in result.message


def test_missing_solution_fails() -> None:
    result = score_problem(pair(), ok(LEFT))
    assert (result.status, result.score) == ("fail", 0.0)
    assert "found 1 of the 2" in result.message


def test_missing_solution_without_expect_uses_the_reference_count() -> None:
    result = score_problem(pair(expect=None), ok(RIGHT))
    assert result.status == "fail" and "found 1 of the 2" in result.message
    assert score_problem(pair(expect=None), ok(LEFT, RIGHT)).status == "pass"


def test_no_solution_where_there_are_some() -> None:
    result = score_problem(pair(), ok())
    assert (result.status, result.score) == ("fail", 0.0)
    assert "claims there is no solution" in result.message and "2" in result.message


def test_invalid_solution_fails_with_the_checker_reason() -> None:
    result = score_problem(pair(), ok(LEFT, [[1, 0, 1]]))
    assert result.status == "fail" and result.message.startswith("solution 2 ")
    assert "r1c2" in result.message


def test_no_solution_board_expects_none() -> None:
    impossible = Problem("sets/none.yaml", "none", board_from_rows([[None, 3, None]]), 0, 1.0)
    assert score_problem(impossible, ok()).status == "pass"


def test_error_and_timeout_outcomes_pass_through() -> None:
    for status in ("error", "timeout"):
        result = score_problem(pair(), Outcome(status, None, "it broke", seconds=1.5))
        assert (result.status, result.score, result.max_score, result.message) == (status, 0.0, 2.0, "it broke")
        assert result.seconds == 1.5


def test_returned_nothing_fails() -> None:
    result = score_problem(pair(), Outcome("ok", SearchAnswer(solutions=None)))
    assert result.status == "fail" and result.score == 0


# --- score_hook ---


def _bounds_case(name: str, expected: list[int], group: int) -> Case:
    return Case(name, f"why {name}", {"scope": [0, 1], "domains": {0: [0, 1], 1: [1]}}, expected=expected, group=group)


def test_hook_credit_is_by_group_of_cases() -> None:
    cases = [_bounds_case("a", [0, 0], 1), _bounds_case("b", [1, 2], 1), _bounds_case("c", [0, 3], 2), _bounds_case("d", [1, 0], 2)]
    outcome = Outcome("ok", HookAnswers([{"value": [0, 0]}, {"error": "TypeError: nope"}, {"value": [0, 3]}, {"value": [1, 0]}]))
    result = score_hook("constraint_bounds", 2, cases, outcome)
    assert (result.status, result.score, result.max_score) == ("fail", 1.0, 2)  # group 1 lost, group 2 right
    assert result.message.startswith('1/2 groups of cases right (3/4 cases); the first wrong one is case 2, "b": why b')
    assert "scope: (0, 1)" in result.message and "domains: {0: (0, 1), 1: (1,)}" in result.message
    assert "your hook: TypeError: nope" in result.message and "--case constraint_bounds:2" in result.message


def test_hook_domains_are_compared_variable_by_variable() -> None:
    board = Case("", "", {"domains": {0: [0, 1], 1: [0, 1]}, "assigned": None}, (". 1 .",), "classic")
    cases = [replace(board, expected={0: [1], 1: [0, 1]}, group=1), replace(board, expected=None, group=2)]
    outcome = Outcome("ok", HookAnswers([{"value": {0: [1], 1: [0, 1]}}, {"value": None}]))
    assert score_hook("forward_check", 3, cases, outcome).status == "pass"
    wrong = Outcome("ok", HookAnswers([{"value": {0: [0, 1], 1: [0, 1]}}, {"value": None}]))
    result = score_hook("forward_check", 3, cases, wrong)
    assert result.status == "fail" and result.score == 1.5
    assert "first difference: variable 0 (r1c1): yours (0, 1), expected (1,)" in result.message


def test_hook_error_outcome_scores_zero() -> None:
    result = score_hook("order_values", 1, [Case("", "", {}, expected=[0, 1])], Outcome("error", None, "no function named order_values"))
    assert (result.status, result.score, result.message) == ("error", 0.0, "no function named order_values")


# --- goldens and the next-step hint ---


def test_stored_hook_cases_are_fresh() -> None:
    stored = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))
    fresh = build_cases()
    assert {hook: [case.data() for case in cases] for hook, cases in fresh.items()} == stored["hooks"], (
        "grader/scoring/hook_cases.yaml is stale: run `python -m grader goldens`"
    )
    assert load_cases() == fresh
    assert list(fresh) == list(HOOK_NAMES)
    assert all(fresh[name] for name in HOOK_NAMES)


def test_private_hook_cases_never_repeat_a_public_one() -> None:
    """Under a private seed no case gives its hook the input of a stored public case
    (12027 draws the public numbers of "an empty domain" by chance), and the other
    hand-made cases are there, renumbered (the empty scope is alike under every seed)."""
    public = {hook: {case.input_text() for case in cases} for hook, cases in load_cases().items()}
    for seed in (1, 12027, 2**63 - 1):
        private = build_cases(seed)
        for hook in HOOK_NAMES:
            assert not {case.input_text() for case in private[hook]} & public[hook], (seed, hook)
        names = [case.name for case in private["constraint_bounds"]]
        assert {"mixed domains", "all mines"} <= set(names) and "an empty scope" not in names
        assert ("an empty domain" in names) == (seed != 12027)


def _hook(name: str, message: str, status: str = "error", error_kind: ErrorKind | None = None) -> ItemResult:
    spec = next(h for h in HOOKS_WITH_CASES if h.name == name)
    return ItemResult("hook", name, status, 0.0, spec.points, message, error_kind=error_kind)


def test_next_hook_to_implement() -> None:
    """The first hook whose item failed as not implemented (a typed kind), whatever the
    reasons say: our words in a student's exception make no hook unwritten."""
    todo = "{} is not implemented yet (it raises NotImplementedError)"
    report = Report(
        "student",
        [
            _hook("constraint_bounds", "15/15 cases", "pass"),
            _hook("forward_check", "ValueError: forward_check is not implemented yet (hooks.py, line 3, in forward_check)", error_kind="raised"),
            _hook("select_variable", todo.format("select_variable"), error_kind="not_implemented"),
            _hook("order_values", todo.format("order_values"), error_kind="not_implemented"),
        ],
    )
    assert report.next_hook_to_implement() == "select_variable"
    done = Report("student", [_hook(h.name, "all cases", "pass") for h in HOOKS_WITH_CASES])
    assert done.next_hook_to_implement() is None
    # a problem run that hits a stub does not count: only the hook tests do
    problem = ItemResult("problem", "p", "error", 0.0, 1.0, todo.format("forward_check"), file="x.yaml", error_kind="not_implemented")
    assert Report("student", [problem]).next_hook_to_implement() is None
    crashed = Report("student", [_hook("constraint_bounds", "ZeroDivisionError: division by zero", error_kind="raised")])
    assert crashed.next_hook_to_implement() is None


def test_sat_answers_are_bounded_before_they_are_checked() -> None:
    from grader.scoring.sathooks import usable_clauses

    padded = [[1, -1]] * 100_000 + [[1, 2]] * 50 + [[2, 1]]
    assert usable_clauses(padded, [1, 2]) == ([[1, 2]], None)  # tautologies and repeats cost nothing to check
    too_many = [[a, b, c] for a in (1, -1) for b in (2, -2) for c in (3, -3)] + [[1], [2]]
    assert "no constraint needs more than 8" in str(usable_clauses(too_many, [1, 2, 3])[1])
    assert usable_clauses([[1, 4]], [1, 2, 3])[1] is not None and usable_clauses([[]], [1, 2, 3]) == ([[]], None)


def test_agent_games_come_from_the_private_seed_and_no_seed_is_shown() -> None:
    """A private seed is hashed into the first game's seed; without one, game i is seed i."""
    from grader.inputs.config import AgentGrading
    from grader.scoring.agentplay import agent_seed, games_result, score_agent
    from play.evaluate import GameResult

    private = AgentGrading(seed=48127730)
    assert agent_seed(private) == agent_seed(private) != 48127730  # reproducible, and not the seed itself
    assert agent_seed(AgentGrading(seed=1)) != agent_seed(AgentGrading(seed=2))
    assert agent_seed(AgentGrading(seed=None)) == agent_seed(AgentGrading(seed=None)) == 0  # the public default games
    first = agent_seed(private)
    games = [GameResult(first, True), GameResult(first + 1, False, None, 0, "agent raised ValueError")]
    message = score_agent(private, Outcome("ok", games_result(games), seconds=1.0)).message
    assert "game 2 at move 1: agent raised ValueError" in message and str(first + 1) not in message


def test_no_input_independent_answer_earns_a_point_on_any_hook() -> None:
    """Every group of stored cases defeats every trivial answer: a constant, None, the
    domains unchanged, the first (or last) variable, [0, 1]..."""
    from grader.hooktable import CSP_HOOKS
    from grader.scoring.hookcases import trivial_passes

    stored = load_cases()
    for hook, answers in ((spec.name, spec.trivial) for spec in CSP_HOOKS):
        assert answers, hook
        cases = stored[hook]
        assert len({c.group for c in cases}) >= 5, hook
        for label, answer in answers:
            right = {c.group for c in cases if trivial_passes(hook, c, answer)}
            wrong = {c.group for c in cases if not trivial_passes(hook, c, answer)}
            assert right <= wrong, f"{hook}: {label} gets a whole group right"


def test_every_hand_made_case_says_what_it_tests() -> None:
    stored = load_cases()
    named = [c for cases in stored.values() for c in cases if not c.name.startswith("random")]
    assert len(named) >= 15 and all(len(c.why) > 20 for c in named)
    assert {
        "one pass, not a fixpoint",
        "an empty domain",
        "the mine count last",
        "no mine count",
        "assigned is given",
        "the inclusive rule",
        "a degree tie",
        "a singleton of each value",
        "decided safe",
        "decided a mine",
    } <= {c.name for c in named}
