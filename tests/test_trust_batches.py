"""Batches of hook calls (a hook's cases, its probes, the SAT scopes, a board's clauses):
asked as one message, answered a reply per call, they must give what asking one by one
gives, and a worker that misbehaves inside a batch costs only its own item.

In-process (`LocalAsker`, the reference's asker) for where a batch ends; through the real
CLI under `bwrap` and `user` for a worker that raises, crashes or forges replies mid-batch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Kit, attacker, entries

from grader.sandbox.host import StudentRaised
from grader.sandbox.wire import Answer, Upto
from grader.scoring.hookcalls import Hooks, LocalAsker

#: The items of the attacks below: the hooks they touch, one they leave alone, the SAT item on course.yaml's boards.
ITEMS = "constraint_bounds,forward_check,at_least_clauses,at_most_clauses,sat_encoding,course"


def replies(functions: dict[str, Any], calls: list[tuple[str, dict[str, Any]]], upto: Upto) -> list[Answer | StudentRaised]:
    asker = LocalAsker(functions)
    asker.begin(10.0)
    return Hooks(asker).call_all([(hook, args, None) for hook, args in calls], upto)


def one_by_one(functions: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Each call's answer (wire data) or what it raised, asked alone."""
    asker, found = LocalAsker(functions), []
    for hook, args in calls:
        try:
            found.append(asker.call(hook, args))
        except StudentRaised as raised:
            found.append((raised.fatal, str(raised)))
    return found


def as_compared(reply: Answer | StudentRaised) -> Any:
    return (reply.fatal, str(reply)) if isinstance(reply, StudentRaised) else reply.value


def test_a_batch_answers_what_one_by_one_answers() -> None:
    """Every reply of a batch that meets no failure is the answer asked alone, in order."""
    calls = [("constraint_bounds", {"scope": [0, 1], "domains": [[0, [0, 1]], [1, [1]]]})] * 3
    calls += [("at_least_clauses", {"lits": [1, 2], "k": k}) for k in range(3)]
    functions = {"constraint_bounds": lambda scope, domains: (1, 2), "at_least_clauses": lambda lits, k: [[1, 2]] if k else []}
    for upto in ("fatal", "failure"):
        assert [as_compared(r) for r in replies(functions, calls, upto)] == one_by_one(functions, calls)


def test_a_batch_ends_at_a_fatal_raise_and_never_asks_past_it() -> None:
    """A stub (NotImplementedError) ends a batch: the call after it is never made."""
    asked: list[int] = []

    def bounds(scope: list[int], domains: Any) -> tuple[int, int]:
        asked.append(len(scope))
        if len(asked) == 2:
            raise NotImplementedError("constraint_bounds")
        return 0, len(scope)

    calls = [("constraint_bounds", {"scope": [0] * n, "domains": []}) for n in (1, 2, 3)]
    got = replies({"constraint_bounds": bounds}, calls, "fatal")
    assert len(got) == 2 and isinstance(got[1], StudentRaised) and got[1].fatal and asked == [1, 2]


def test_a_batch_of_clauses_ends_at_the_first_failure_and_not_before() -> None:
    """upto "failure": a raise of any kind, or clauses the grader cannot use, end the
    batch; a wrong but usable answer does not (the grader checks it afterwards)."""

    def clauses(lits: list[int], k: int) -> Any:
        if k == 1:
            return [[1, -1]]  # a tautology: usable (dropped), not refused
        if k == 2:
            raise ValueError("no")
        return [[lits[0]]]

    calls = [("at_least_clauses", {"lits": [1, 2], "k": k}) for k in (0, 1, 2, 3)]
    got = replies({"at_least_clauses": clauses}, calls, "failure")
    assert [as_compared(r) for r in got][:2] == [[[1]], [[1, -1]]] and len(got) == 3 and not got[2].fatal  # type: ignore[union-attr]
    assert len(replies({"at_least_clauses": clauses}, calls, "fatal")) == 4  # a non-fatal raise ends no hook-case batch
    refused = replies({"at_least_clauses": lambda lits, k: [[7]] if k == 1 else [[1]]}, calls, "failure")
    assert [as_compared(r) for r in refused] == [[[1]], [[7]]]  # a literal it was not given: refused there


def graded(kit: Kit, tmp_path: Path, how: str) -> dict[str, dict]:
    student = attacker(tmp_path / "s", "hostile_batches", HOW=how)
    out = tmp_path / "report.json"
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "5", "--only", ITEMS)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return entries(json.loads(out.read_text(encoding="utf-8")))


def test_a_fatal_raise_mid_batch_ends_the_item_there(kit: Kit, tmp_path: Path) -> None:
    """constraint_bounds raises NotImplementedError on its third case, then would loop
    forever: the item is "not implemented", as asked one by one, not out of time; and a
    board's clauses stop at at_least_clauses' unusable answer, so at_most_clauses, which
    would loop right after it, is never asked: that board alone is lost."""
    found = graded(kit, tmp_path, "fatal-then-hang")
    assert found["constraint_bounds"]["status"] == "error" and "not implemented" in found["constraint_bounds"]["message"]
    assert found["forward_check"]["status"] == "pass"
    sat = found["sat_encoding"]
    assert sat["status"] == "fail" and sat["message"].startswith("2/3 problems solved") and "used the literal 99" in sat["message"], sat
    assert found["at_least_clauses"]["status"] == "fail" and found["at_most_clauses"]["status"] == "pass"
    assert found["nctu-1"]["status"] == "pass"


@pytest.mark.parametrize("how", ["crash", "forged-extra"])
def test_a_crash_or_a_forged_reply_mid_batch_costs_that_item_alone(kit: Kit, tmp_path: Path, how: str) -> None:
    """The item's process ends on the third case, or writes a reply of its own before its
    answer (every later reply of the batch one call late, one left over): constraint_bounds
    earns nothing, and every other item, in later processes, is graded as it deserves."""
    found = graded(kit, tmp_path, how)
    assert found["constraint_bounds"]["status"] in ("error", "fail") and found["constraint_bounds"]["score"] == 0, found["constraint_bounds"]
    if how == "crash":
        assert "ended" in found["constraint_bounds"]["message"], found["constraint_bounds"]
    assert found["forward_check"]["status"] == "pass" and found["nctu-1"]["status"] == "pass" and found["at_most_clauses"]["status"] == "pass"


def test_an_items_process_that_says_it_ended_and_lives_on_serves_no_other_item(kit: Kit, tmp_path: Path) -> None:
    """The "ended" and "began" lines travel on the descriptor student code replies on: a
    fork that writes them itself and lives on would serve every later item of its worker
    with what it kept (here: forward_check right from its second item on). The grader
    sees the process still there and starts a fresh worker, so the file gets exactly the
    grade of the same file whose process ends."""
    found = {}
    for lives_on in ("yes", "no"):
        student = attacker(tmp_path / lives_on, "hostile_lives_on", LIVES_ON=lives_on)
        out = tmp_path / f"{lives_on}.json"
        result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "5", "--jobs", "1")
        assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
        found[lives_on] = {name: (item["status"], item["score"]) for name, item in entries(json.loads(out.read_text(encoding="utf-8"))).items()}
    assert found["yes"] == found["no"], found
    assert found["no"]["forward_check"][1] == 0 and found["no"]["constraint_bounds"][0] == "pass", found["no"]
