"""How a student's code failed is a typed fact, set where the grader saw it, never read back
from a reason's text; and the kit words an exception and prints an error line one way.

A hook that raises NotImplementedError is not written yet, whatever its words (what a
student can do honestly anyway); words of ours in a student's exception or output change
nothing; a board keeps the hook its search parted in; results kept before these fields
existed are read with what they held then."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import COURSE, grade_json, isolation_unavailable, lone, needed
from rich.console import Console

from grader.hooktable import CSP_HOOKS
from grader.inputs.problemset import Problem, ProblemError
from grader.reports.report import show_causes, show_errors
from grader.reports.results import ItemResult, Report, report_data, report_from_data
from grader.sandbox.host import StudentRaised
from grader.sandbox.tasks import Chain, Outcome, Task
from grader.sandbox.wire import Raised, encode, read_reply, reply_message
from grader.scoring.hookcalls import TASK_FAILURES, HookContractError, Hooks, LocalAsker
from grader.scoring.hookcases import load_cases
from grader.scoring.hookitems import hook_task, score_hook
from grader.scoring.problems import SearchAnswer, score_problem
from grader.scoring.searchcheck import Divergence
from solvers.board import board_from_rows
from solvers.cliargs import print_error
from solvers.errortext import describe_exception

#: Our own words, as a student would imitate them.
OURS = "is not implemented yet (it raises NotImplementedError)"


def _raise(error: BaseException) -> None:
    raise error


def _caught(error: BaseException) -> BaseException:
    try:
        _raise(error)
    except BaseException as caught:  # noqa: BLE001 (any exception, as the worker catches them)
        return caught
    raise AssertionError("not raised")


# --- one describe_exception, one error printer ---------------------------------------------


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no words")


def test_an_exception_is_one_line_with_where_it_was_raised_in_a_folder() -> None:
    """Type and the message's first line, cut to the limit; the deepest frame under the
    folder named, none outside it; a message that cannot be had leaves the type."""
    error = _caught(ValueError("first line\nsecond line"))
    assert describe_exception(error) == "ValueError: first line"
    here = str(Path(__file__).parent)
    line = _raise.__code__.co_firstlineno + 1
    assert describe_exception(error, here) == f"ValueError: first line (test_typed_kinds.py, line {line}, in _raise)"
    assert describe_exception(error, here + "/elsewhere") == "ValueError: first line"
    assert describe_exception(error, "").endswith(f"(test_typed_kinds.py, line {line}, in _raise)")
    assert describe_exception(_caught(Unprintable())) == "Unprintable"
    assert describe_exception(KeyError("x" * 500), limit=20) == "KeyError: 'xxxxxxxxx"


def test_one_error_printer_prints_user_text_as_it_is_on_the_console_given() -> None:
    """'error: ' and the text on one line, markup in it shown as written; exit status 2;
    a problem file's mistakes are printed by the same printer."""
    console = Console(file=io.StringIO(), width=40, color_system=None)
    assert print_error("[red]x[/] " + "y" * 60, console) == 2
    show_errors(console, [ProblemError("sets/a.yaml", "no board", "p1")])
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[0] == "error: [red]x[/] " + "y" * 60
    assert lines[1].startswith("error: sets/a.yaml") and "no board" in lines[1] and len(lines) == 2


ROOT = Path(__file__).resolve().parents[1]
#: Where an error line is printed or an exception worded apart from the two functions, and why.
APART = {"grader/inputs/pyfacts.py": "it runs alone under `python -I`: the standard library only"}


def test_no_other_error_printer_or_exception_wording_in_the_kit() -> None:
    """No module but solvers/cliargs.py writes "error: " lines, and none words an exception
    as "Type: message" itself (a twin of describe_exception), but those in APART."""
    twins = []
    for folder in ("grader", "solvers", "play", "answerkey"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name, text = str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
            printer = '"error: ' in text and name != "solvers/cliargs.py"
            if (printer or "__name__}: {" in text) and name not in APART:
                twins.append(name)
    assert not twins, twins


# --- the worker's kind: what it saw raised ------------------------------------------------


def _asker(**functions: object) -> Hooks:
    return Hooks(LocalAsker(functions))  # type: ignore[arg-type]


def test_a_stub_is_told_by_what_it_raised_never_by_its_words() -> None:
    """NotImplementedError worded as a failure of the grader is a stub; a ValueError in our
    own words is an exception like any other; the kind crosses the wire unchanged."""
    stub = _asker(constraint_bounds=lambda scope, domains: _raise(NotImplementedError("the grader failed (tried twice)")))
    with pytest.raises(StudentRaised) as raised:
        stub.ask("constraint_bounds", [0], {0: (0, 1)})
    assert raised.value.kind == "not_implemented" and raised.value.fatal
    imitator = _asker(constraint_bounds=lambda scope, domains: _raise(ValueError(f"constraint_bounds {OURS}")))
    with pytest.raises(StudentRaised) as raised:
        imitator.ask("constraint_bounds", [0], {0: (0, 1)})
    assert raised.value.kind == "raised" and not raised.value.fatal and OURS in raised.value.message
    for kind in ("raised", "not_implemented"):
        record = Raised("x", True, None, kind)
        assert read_reply(encode(reply_message(record))) == record


def _stub_after(calls: int) -> object:
    """A constraint_bounds right for `calls` calls, then raising NotImplementedError."""
    answered: list[list[int]] = []

    def constraint_bounds(scope: list[int], domains: dict[int, tuple[int, ...]]) -> tuple[int, int]:
        if len(answered) >= calls:
            raise NotImplementedError("constraint_bounds")
        answered.append(scope)
        if any(not domains[v] for v in scope):
            return 1, 0
        return sum(min(domains[v]) for v in scope), sum(max(domains[v]) for v in scope)

    return constraint_bounds


def _graded(hook: object) -> ItemResult:
    cases = load_cases()["constraint_bounds"]
    chain = Chain(
        lambda limit: LocalAsker({"constraint_bounds": hook}),
        lambda asker: None,  # type: ignore[dict-item]
        TASK_FAILURES,
    )
    (outcome,) = chain.run([hook_task("constraint_bounds", cases, 10.0)])
    points = next(spec.points for spec in CSP_HOOKS if spec.name == "constraint_bounds")
    return score_hook("constraint_bounds", points, cases, outcome)


def test_a_hook_raising_not_implemented_mid_way_is_not_written_yet_and_never_not_graded() -> None:
    """At its first call (the stub) or after some right answers, a NotImplementedError ends
    the hook's task as "not_implemented", an error of the student's: the next hook to
    write, no points, never "ungraded"."""
    for calls in (0, 3):
        item = _graded(_stub_after(calls))
        assert (item.status, item.error_kind, item.score) == ("error", "not_implemented", 0.0), item
        assert Report("hooks.py", [item]).next_hook_to_implement() == "constraint_bounds"
        assert Report("hooks.py", [item]).ungraded is None


def test_a_broken_contract_and_an_exception_in_our_words_are_no_stub() -> None:
    """A task a hook's broken contract ended is "contract"; an exception carrying our words
    is counted as a wrong case, and the hook is to fix, not to write."""

    def broken(asker: object) -> dict[str, object]:
        raise HookContractError("select_variable", f"select_variable {OURS}")

    (outcome,) = Chain(lambda limit: LocalAsker({}), lambda asker: None, TASK_FAILURES).run([Task(broken, 10.0, "t")])
    assert (outcome.status, outcome.error_kind) == ("error", "contract") and not outcome.unloadable
    item = _graded(lambda scope, domains: _raise(ValueError(f"constraint_bounds {OURS}")))
    assert item.status == "fail" and item.error_kind is None and OURS in item.message
    assert Report("hooks.py", [item]).next_hook_to_implement() is None


# --- boards: the hook the search parted in, and how it failed ---------------------------------

PAIR = board_from_rows([[None, 1, None]])


def _lost_board(name: str, parted: str, failed_in: str, kind: str) -> ItemResult:
    divergence = Divergence(parted, 2, "answered otherwise")
    answer = SearchAnswer(failed=f"{failed_in} {OURS}", failed_in=failed_in, failed_as=kind, divergence=divergence)
    return score_problem(Problem("sets/pair.yaml", name, PAIR, 2, 1.0), Outcome("ok", answer))


def test_a_lost_board_keeps_where_its_search_parted_and_how_it_failed() -> None:
    """The board's failure kind and the hook its search first parted in are fields, apart
    from the hook it is lost to; the terminal groups lost boards by that field."""
    first = _lost_board("b1", "forward_check", "select_variable", "contract")
    assert (first.error_kind, first.parted_in, first.lost_to) == ("contract", "forward_check", "select_variable")
    boards = [
        first,
        _lost_board("b2", "forward_check", "forward_check", "raised"),
        _lost_board("b3", "order_values", "order_values", "not_implemented"),
    ]
    console = Console(file=io.StringIO(), width=400, color_system=None)
    show_causes(console, boards, against=False)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "2 boards: forward_check answered otherwise at step 2 of b1" in shown
    assert "1 board: order_values answered otherwise at step 2 of b3" in shown
    assert Report("hooks.py", boards).next_hook_to_implement() is None  # only a hook's own item says it is unwritten


# --- kept results ----------------------------------------------------------------------------


def test_results_kept_before_the_kinds_are_read_with_what_they_held() -> None:
    """An item kept as `"unloadable": true` failed as unloadable; a lost board kept with
    its cause parted in the hook that cause names; a kind the grader never writes is
    refused; a report round-trips its kinds."""
    old: dict[str, Any] = {
        "solver": "hooks.py",
        "isolation": "bwrap",
        "partial": False,
        "items": [
            {
                "kind": "hook",
                "name": "forward_check",
                "status": "error",
                "score": 0.0,
                "max_score": 3.0,
                "message": "cannot load hooks.py: SyntaxError",
                "unloadable": True,
            },
            {
                "kind": "problem",
                "name": "b1",
                "status": "fail",
                "score": 0.0,
                "max_score": 1.0,
                "message": "m",
                "cause": "order_values ordered [1, 0] where the model answer orders [0, 1] at the root of b1",
            },
        ],
    }
    report = report_from_data(old)
    assert report.items[0].error_kind == "unloadable" and report.items[0].unloadable
    assert report.items[1].parted_in == "order_values" and report.items[1].error_kind is None
    assert report_from_data(report_data(report)) == report
    forged = {**old, "items": [{**old["items"][0], "error_kind": "ours"}]}
    with pytest.raises(ValueError):
        report_from_data(forged)


# --- through the real grader -------------------------------------------------------------------


@pytest.mark.slow  # grades through the CLI
def test_a_student_imitating_our_words_is_graded_by_what_was_raised(tmp_path: Path) -> None:
    """typed_imitates.py raises a ValueError and prints in our words in constraint_bounds,
    and a NotImplementedError worded as our failure, mid-way, in order_values: the next
    step is to write order_values, nothing is "not graded", every failure is the student's."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    run, report = grade_json(COURSE, lone("typed_imitates"), tmp_path / "report.json", "--isolation", "bwrap", "--timeout", "10", columns=400)
    text = " ".join(run.stdout.split())
    assert "Next step: implement order_values in assignment/hooks.py" in text, text
    assert "Not graded" not in text and report["score"] is not None and "ungraded" not in report
    hooks = {hook["id"]: hook for hook in report["hooks"]}
    assert hooks["order_values"]["status"] == "error" and hooks["constraint_bounds"]["status"] == "fail"
    assert OURS in hooks["constraint_bounds"]["message"]
    assert all(p["status"] == "error" for p in report["problems"])
