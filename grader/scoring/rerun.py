"""Rerun hints: the command a reason gives to run one hook case again, and the private
cases such a command can carry.

A numbered case (`--case HOOK:N`) is one of the public cases every copy holds; its rerun
asks cases 1 to N in order in one fresh process, as grading did. A case drawn from the
course's private seed (grading.yaml's `hook_seed`) has another case under its number in
the student's copy, so its hint carries the case itself, packed in one token
(`--case 'HOOK:TOKEN'`) that any copy can run. The terminal, the JSON, the feedback files,
Gradescope and PrairieLearn all show the hints made here.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from grader.hooktable import BY_NAME
from grader.scoring.case import Case
from grader.scoring.hookcases import HOOK_NAMES, board_of, describe_case
from solvers.errortext import describe_exception

PACKED_LIMIT = 1 << 20  # bytes a token may unpack to: a real case is a few hundred
#: What a packed case keeps of a case (its group is the course's business, not the student's).
DROPPED = ("group",)


def case_hint(hook: str, number: int, case: Case, result: dict[str, Any], private: bool) -> list[str]:
    """The lines after a wrong case's description that tell how to run it again (`result`:
    what the hook did with it, {"value": ...} or {"error": ...})."""
    if not private:
        return [f"  rerun just this case: --case {hook}:{number}"]
    return [
        f"  this is a private case of the course's (its own case {number}; your copy has another case under that number): its input is above in full",
        f"  rerun just this case, in your copy too: --case='{hook}:{pack(hook, number, case, result)}'",
    ]


def search_call_hint(hook: str, board: str, call: int) -> str:
    """The line that tells how to run the `call`-th call of `hook` in the search of `board` again."""
    return f"  rerun just this call: --case {hook}@{board}:{call}"


def pack(hook: str, number: int, case: Case, result: dict[str, Any]) -> str:
    """One private case as a token of letters, digits, `-` and `_`: the case's input, name
    and expected answer, and what the hook did with it when graded, all of which its
    reason shows."""
    kept = {key: value for key, value in case.data().items() if key not in DROPPED}
    data = json.dumps({"hook": hook, "number": number, "case": kept, "graded": result}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(zlib.compress(data.encode(), 9)).decode().rstrip("=")


def unpack(token: str) -> tuple[str, int, Case, dict[str, Any]]:
    """The hook, course number, case and graded result a token carries (whitespace in it
    is ignored: a token copied from a wrapped line still works); ValueError saying what
    is wrong."""
    text = "".join(token.split())
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, PACKED_LIMIT)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError("cut short or too long")
        data = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError) as damaged:
        raise ValueError(f"this case is damaged ({damaged}): copy it again, whole, from the reason") from None
    hook, number, case, graded = (data.get(key) for key in ("hook", "number", "case", "graded")) if isinstance(data, dict) else (None,) * 4
    if (
        hook not in HOOK_NAMES
        or not isinstance(number, int)
        or isinstance(number, bool)
        or not isinstance(case, dict)
        or not isinstance(graded, dict)
    ):
        raise ValueError("this is not a case a reason gave: copy it again, whole, from the reason")
    return hook, number, _checked_case(hook, number, case, graded), graded


def _checked_case(hook: str, number: int, data: dict[str, Any], graded: dict[str, Any]) -> Case:
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
