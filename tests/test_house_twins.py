"""One home each: the agent's decision without its rejected experiments, the goal test, the
trace's domain codec, the levels and rule sets, and the README's JSON shape."""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import json
import re
import sys
from dataclasses import fields
from pathlib import Path
from types import ModuleType

import pytest

from answerkey.agent.guess import Guesser
from answerkey.agent.probability import probabilities
from answerkey.strategies import FC_ONCE, PLAIN
from play.game import Game
from play.levels import custom_level
from solvers import engine
from solvers.brute import brute_force
from solvers.csp import CSP, Constraint, build_csp

ROOT = Path(__file__).resolve().parents[1]


def experiments() -> ModuleType:
    """bench/agent_experiments.py, imported as the bench scripts import it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.agent_experiments")


def test_the_reference_guesser_holds_no_rejected_experiment():
    """`Guesser` has only the fields of the decision the handout's table describes; the
    experiments measured and not kept are fields of the bench's `ExperimentalGuesser` alone."""
    experimental = experiments().ExperimentalGuesser
    kept = {f.name for f in fields(Guesser)}
    added = {f.name for f in fields(experimental)} - kept
    assert added == {"blend", "deeper_margin", "deeper_cells", "formation_credit", "formation_counts"}
    assert issubclass(experimental, Guesser)


def test_the_experimental_guesser_at_its_defaults_guesses_as_the_reference():
    """Left at its defaults (every experiment off), `ExperimentalGuesser` makes the same guess,
    with the same reason, as `Guesser` on every view where a small game needs a guess; with
    the experiments on, it still guesses (the bench scripts that measured them run)."""
    experimental = experiments().ExperimentalGuesser
    plain, same, on = Guesser(endgame_layouts=0, pockets=False), experimental(endgame_layouts=0, pockets=False), 0
    busy = experimental(endgame_layouts=0, pockets=False, blend=0.2, deeper_margin=0.05, formation_credit=0.9)
    checked = 0
    for seed in range(3):
        game = Game(custom_level(6, 8, 10), "classic", seed)
        game.open((0, 0))
        while not game.over:
            counted = probabilities(game.view())
            safe = counted.safe()
            if safe:
                game.open(safe[0])
                continue
            decision = plain.guess(game.view(), counted)
            assert same.guess(game.view(), counted) == decision
            if checked < 3:
                on += busy.guess(game.view(), counted).move.cell in counted.mines
            checked += 1
            game.open(decision.move.cell)
    assert checked >= 5 and on == 3


def test_the_engine_goal_test_is_csp_satisfied_by(monkeypatch: pytest.MonkeyPatch):
    """The engine keeps no private copy of "is this assignment a solution": its goal test
    is `CSP.satisfied_by`, asked of every complete assignment, and its answer decides (a goal
    test that accepts nothing leaves no solution; the right one leaves brute force's)."""
    csp = CSP(((0, 0), (0, 1), (0, 2)), (Constraint((0, 1), 1, (1, 0)), Constraint((1, 2), 1, (1, 1))))
    asked: list[tuple[int, ...]] = []
    honest = CSP.satisfied_by

    def spy(self: CSP, values: tuple[int, ...]) -> bool:
        asked.append(values)
        return honest(self, values)

    monkeypatch.setattr(CSP, "satisfied_by", spy)
    found = engine.search(csp, PLAIN, "all")
    assert sorted(found.solutions) == sorted(brute_force(csp, "all").solutions) == [(0, 1, 0), (1, 0, 1)]
    assert set(found.solutions) <= set(asked)
    monkeypatch.setattr(CSP, "satisfied_by", lambda self, values: False)
    assert engine.search(csp, PLAIN, "all").count == 0


def test_satisfied_by_is_every_constraint_summed():
    """`CSP.satisfied_by` accepts exactly the assignments whose every constraint sums to its total."""
    csp = CSP(((0, 0), (0, 1), (0, 2)), (Constraint((0, 1), 1, (1, 0)), Constraint((0, 1, 2), 2)))
    for values in itertools.product((0, 1), repeat=3):
        assert csp.satisfied_by(values) == (values[0] + values[1] == 1 and sum(values) == 2)


def test_a_trace_reads_the_same_after_json():
    """A step's domains are written by one encoder and read by one decoder: the same trace
    after a JSON round trip (its variables become strings) has no first difference from
    the recorded one, and every view of it (compact lines, notes, the page's data) is the same."""
    from answerkey.explain import explain
    from solvers.textformat import parse_board
    from solvers.trace import record
    from solvers.trace_page import PageInfo, page_data
    from solvers.trace_view import compact_line, first_difference, step_notes

    board = parse_board("1 ? ?\n? ? 2\n? 1 ?", "classic", None)
    csp = build_csp(board)
    steps = record(csp, FC_ONCE, max_steps=40).steps
    travelled = json.loads(json.dumps(steps))
    assert any(step["after"] not in (None, step["domains"]) for step in steps)  # something was pruned
    assert isinstance(next(iter(travelled[0]["domains"])), str)
    assert first_difference(travelled, steps) is None and first_difference(steps, travelled) is None
    for mine, theirs in zip(travelled, steps):
        assert compact_line(mine, csp).plain == compact_line(theirs, csp).plain
        assert [t.plain for t in step_notes(mine, csp, explain=explain)] == [t.plain for t in step_notes(theirs, csp, explain=explain)]
        assert [t.plain for t in step_notes(mine, csp, narrate=True)] == [t.plain for t in step_notes(theirs, csp, narrate=True)]
    assert page_data(board, csp, travelled, PageInfo("t")) == page_data(board, csp, steps, PageInfo("t"))


def test_levels_and_rule_sets_have_one_home():
    """The game's levels and first-click rule sets are defined once, in `play.levels` (the
    lowest layer that knows them); the grader's config and the CLIs import them."""
    homes: dict[str, list[str]] = {"LEVELS": [], "RULE_SETS": [], "RULES": []}
    for package in ("solvers", "grader", "answerkey", "play", "assignment"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if not any(name in text for name in homes):
                continue
            for node in ast.parse(text).body:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
                for target in targets:
                    if isinstance(target, ast.Name) and target.id in homes:
                        homes[target.id].append(path.relative_to(ROOT).as_posix())
    assert homes == {"LEVELS": ["play/levels.py"], "RULE_SETS": ["play/levels.py"], "RULES": ["solvers/board.py"]}
    from grader.inputs import config
    from play import levels

    assert config.LEVELS is levels.LEVELS and config.RULE_SETS is levels.RULE_SETS


def readme_json_shape() -> list[set[str]]:
    """The key sets README.md's "JSON shapes" gives for `--json`, in order: the top level's
    (always, when they apply), then each item's (always, when they apply)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("JSON shapes: `python -m grader ... --json F`")
    paragraph = text[start : text.index("`check --json F`", start)]
    return [set(re.findall(r'"(\w+)"', span)) for span in re.findall(r"`(\{[^`]*\})`", paragraph)]


def test_the_readme_names_exactly_the_keys_of_the_json_report():
    """README.md's `--json` shape names exactly the keys `report_json` writes, at the top and
    per item, those always there apart from those written only when they apply (a report
    with every optional fact set, shown with and without hidden details)."""
    from grader.reports.caserecord import CaseRecord
    from grader.reports.report import report_json
    from grader.reports.results import ItemResult, Report

    plain = Report("a.py", [ItemResult("hook", "constraint_bounds", "pass", 1.0, 1.0)], "none")
    items = [
        ItemResult(
            "hook",
            "forward_check",
            "fail",
            0.0,
            2.0,
            "wrong",
            unchecked=1.0,
            unverified=0.5,
            load_reason="SyntaxError: invalid syntax, line 1",
            reruns=(("python", "--case", "x:1"),),
            cases=(CaseRecord("forward_check", "case 1", "why"),),
        ),
        ItemResult("problem", "p1", "fail", 0.0, 1.0, "lost", file="x.yaml", visibility="hidden", cause="c", lost_to="forward_check"),
        ItemResult("agent", "agent", "ungraded", 0.0, 4.0, "worker lost"),
    ]
    full = Report("a.py", items, "none", unbounded="no cgroup", unchecked_why="copy", public_cases=1.0)
    always = set(report_json(plain, []))
    every = set().union(*(report_json(full, [], shown) for shown in (False, True)))
    item_always = set(plain.items[0].as_dict())
    item_every = set().union(*(item.as_dict() for item in items))
    assert readme_json_shape() == [always, every - always, item_always, item_every - item_always]
    added = {
        name: set(re.findall(r'data\["(\w+)"\] =', inspect.getsource(writer)))
        for name, writer in (("top", report_json), ("item", ItemResult.as_dict))
    }
    assert added == {"top": every - always, "item": item_every - item_always}  # no optional key left unset above
