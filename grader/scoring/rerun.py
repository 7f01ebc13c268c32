"""Rerun hints: the command a reason gives to run one hook case again, and the private
cases such a command can carry.

A numbered case (`--case HOOK:N`) is one of the public cases every copy holds; its rerun
asks cases 1 to N in order in one fresh process, as grading did. A case drawn from the
course's private seed (grading.yaml's `hook_seed`) has another case under its number in
the student's copy, so its hint carries the case itself, packed in one token
(`--case='HOOK:TOKEN'`) that any copy can run. A hint is a whole command that runs as
printed (`RerunCommand`: the problems path and the options the rerun needs); the report
keeps it as its words (`ItemResult.reruns`), and the terminal, the JSON, the feedback
files, Gradescope and PrairieLearn all show the hints made here.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grader.hooktable import BY_NAME
from grader.reports.caserecord import CaseRecord
from grader.reports.rerunhint import RerunCommand, hint_text
from grader.sandbox.wire import encode, from_data, read_message, to_data
from grader.scoring.case import Case, Reply, as_reply
from grader.scoring.hookcases import HOOK_NAMES, board_of, describe_case
from solvers.errortext import describe_exception

PACKED_LIMIT = 1 << 20  # bytes a token may unpack to: a real case is a few hundred
#: What a packed case keeps of a case (its group is the course's business, not the student's).
DROPPED = ("group",)
#: The fields of a token's data (one message of the worker's wire format, checked alike).
TOKEN_FIELDS = frozenset({"hook", "number", "case", "graded"})


@dataclass(frozen=True)
class Hint:
    """A reason's lines that tell how to rerun a case, and the command they show (`argv`:
    the typed field a report keeps, `ItemResult.reruns`)."""

    lines: list[str]
    argv: tuple[str, ...]
    case: CaseRecord | None = None  # the case the lines tell of, when they tell of one (its `rerun`: `argv`)


def case_hint(hook: str, number: int, case: Case, result: Reply, private: bool, command: RerunCommand) -> Hint:
    """The lines after a wrong case's description that tell how to run it again (`result`:
    what the hook did with it, {"value": ...} or {"error": ...})."""
    if not private:
        argv = command.argv(f"{hook}:{number}")
        return Hint([f"  rerun just this case: {hint_text(argv)}"], argv)
    argv = command.argv(f"{hook}:{pack(hook, number, case, result)}")
    return Hint(
        [
            f"  this is a private case of the course's (its own case {number}; your copy has another case under that number): "
            "its input is above in full",
            f"  rerun just this case, in your copy too: {hint_text(argv)}",
        ],
        argv,
    )


def search_call_hint(hook: str, board: str, call: int, command: RerunCommand) -> Hint:
    """The line that tells how to run the `call`-th call of `hook` in the search of `board` again."""
    argv = command.argv(f"{hook}@{board}:{call}")
    return Hint([f"  rerun just this call: {hint_text(argv)}"], argv)


def pack(hook: str, number: int, case: Case, result: Reply) -> str:
    """One private case as a token of letters, digits, `-` and `_`: the case's input, name
    and expected answer, and what the hook did with it when graded, all of which its
    reason shows. Its data is written as the worker's wire writes values (`to_data`: a
    dict as its pairs), so that `unpack` reads back exactly what was packed, integer keys
    as integers."""
    kept = {key: value for key, value in case.data().items() if key not in DROPPED}
    message = {"hook": hook, "number": number, "case": to_data(kept), "graded": to_data(result)}
    return base64.urlsafe_b64encode(zlib.compress(encode(message), 9)).decode().rstrip("=")


def unpack(token: str) -> tuple[str, int, Case, Reply]:
    """The hook, course number, case and graded result a token carries (whitespace in it
    is ignored: a token copied from a wrapped line still works); ValueError saying what
    is wrong. Its data is checked as a worker's message is (`read_message`: bounds, tags)."""
    text = "".join(token.split())
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, PACKED_LIMIT)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError("cut short or too long")
        data = read_message(raw, (TOKEN_FIELDS,))
    except (binascii.Error, zlib.error, ValueError) as damaged:
        raise ValueError(f"this case is damaged ({damaged}): copy it again, whole, from the reason") from None
    hook, number, case, graded = data["hook"], data["number"], from_data(data["case"]), from_data(data["graded"])
    if (
        hook not in HOOK_NAMES
        or not isinstance(number, int)
        or isinstance(number, bool)
        or not isinstance(case, dict)
        or not isinstance(graded, dict)
        or not all(isinstance(key, str) for key in case)
    ):
        raise ValueError("this is not a case a reason gave: copy it again, whole, from the reason")
    reply = as_reply(graded)
    return hook, number, _checked_case(hook, number, case, reply), reply


def _checked_case(hook: str, number: int, data: Mapping[str, Any], graded: Reply) -> Case:
    """The case of `data`, or ValueError unless it can be asked and shown (a token is text
    anyone can edit)."""
    try:
        case = Case.from_data(data)
        if case.board is not None or BY_NAME[hook].engine_calls:  # a hook the engine calls is asked about a board
            board_of(case)
        BY_NAME[hook].wire_arguments(case.args)
        describe_case(hook, number, case, graded)
        return case
    except Exception as wrong:  # any part of an edited case: one clear line, never a traceback
        raise ValueError(f"this case of {hook} is incomplete ({describe_exception(wrong)}): copy it again, whole, from the reason") from None
