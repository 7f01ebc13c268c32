"""The messages between the grader and a worker: one JSON object per line, both ways.

Standard library only: this module runs inside the sandbox too.

Grader to worker (on the worker's standard input; trusted, since the grader writes them):

    {"op": "task"}                                    # fork a fresh process for one graded item (it loads the file)
    {"op": "board", "board": ROWS, "rule": "classic"|"inclusive", "mines": N|null}
    {"op": "call", "hook": NAME, "args": {...}}       # arguments as data (grader.hooktable)
    {"op": "calls", "asks": [BOARD | CALL, ...], "upto": "fatal"|"failure"}  # a batch: each call answered in turn
    {"op": "search", "board": ROWS, "rule": ..., "mines": N|null}  # search the board with the hooks, a reply a call
    {"op": "end"}                                     # the item is done: its process exits

A batch ("calls") holds calls whose arguments do not depend on earlier answers, each
answered in turn with a reply of its own, as if asked one by one; its answers end after
the first fatal "raised" (upto "fatal"), or after the first "raised" or answer its hook's
check refuses (upto "failure", `refused`): where the grader, asking one by one, would have
stopped asking. The grader reads the replies one by one and stops where the same rule
says, whatever the worker sends.

A search ("search") is the grader's own search of a board (every solution, the engine's
hooks the student's), run by the worker too, so that the calls need no round trip each:
the worker's copy of the engine asks the student's functions, replies to each call as if
asked it (its arguments as they would have travelled), stops where the grader's search
would (after a "raised", or an answer the hook's contract refuses), then sends
{"searched": CALLS, "inputs": DIGEST}: how many calls it made and a digest of their hooks
and arguments (`CallsDigest`). The grader runs its search as before, reading the next reply
for each call it makes; only when its own calls' count and digest are the worker's does it
keep what it found. Anything else (a worker whose search went another way) and the grader
searches again asking each call, in a fresh process for the item and the time it has left.

Worker to grader (on the reply descriptor; untrusted once the student's file is loaded,
since student code shares the worker's process and may write anything there), read into
typed records:

    {"started": true}                                   # Started, once, before the file is loaded
    {"ready": true} | {"ready": false, "why": TEXT}     # Ready, once: a first fork loaded the file, or not
    {"ended": TEXT}                                     # Ended: that fork is gone (after Ready, or instead)
    {"began": true}                                     # Began: the item's process runs
    {"value": VALUE} | {"raised": TEXT, "fatal": BOOL, "kind": KIND}  # Answer | Raised, once per call
    {"searched": CALLS, "inputs": DIGEST}               # Searched: the end of a "search"'s replies
    {"ended": TEXT}                                     # Ended: the item's process is gone, and how

A "ready": false or "raised" message may add "missing": [MODULE, FILE, LINE] when an
import found no module (`Missing`): the grader words that reason itself. A "raised"
message's KIND (`RaisedKind`: "raised" or "not_implemented") is what the worker saw raised, by the
exception's type; like everything the worker sends, the student can forge it, so it
decides nothing a student could not get by raising that exception honestly.

"started" comes before any student code has run, so a worker that never sends it failed
for a reason of the grader's or the machine's, never the student's.

A VALUE is JSON's null, booleans, integers, finite floats, strings and arrays, plus
tagged objects for what JSON lacks: {"set": [...]}, {"dict": [[key, value], ...]},
{"move": [action, [row, col]]} and {"other": TYPE NAME} for anything else. `read_message`
enforces the bounds below, so a forged, huge, deep or non-finite message is one
`BadMessage`, never a crash of the grader.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, get_args

from grader.hooktable import BY_NAME
from solvers.board import Rule

MAX_MESSAGE_BYTES = 1 << 20  # one line from a worker
MAX_DEPTH = 16  # nesting of arrays and objects
CONTAINER_ROOM = 3  # levels one container may take on the wire
MAX_INT_DIGITS = 18  # |n| < 10**18: every count, variable and literal fits
MAX_TEXT = 4000  # characters of one string

TAGS = ("set", "dict", "move", "other")
#: What a hook raised, as the worker saw it: NotImplementedError (a stub; and a function the
#: file does not define, not written yet either) or anything else.
RaisedKind = Literal["raised", "not_implemented"]


class BadMessage(ValueError):
    """A worker's message breaks the format or its bounds."""


# --- worker side: any Python value as data ---------------------------------------------


_SEQUENCES = (list, tuple)
_INTS = frozenset({int})
_INT_BOUND = 10**MAX_INT_DIGITS  # |n| < this: at most MAX_INT_DIGITS digits


def to_data(value: Any, depth: int = 1) -> Any:
    """`value` as wire data (tagged where JSON has no type for it), to sit `depth` levels
    deep in a message. A container takes up to 3 levels (a dict: the tag's object, its
    list, a pair), so one that starts CONTAINER_ROOM levels from the bound is sent as
    "nested too deeply": whatever a hook returns, the message stays within MAX_DEPTH."""
    if value is None or isinstance(value, (bool, str)):
        return value[:MAX_TEXT] if isinstance(value, str) else value
    if isinstance(value, int):
        return value if len(str(abs(value))) <= MAX_INT_DIGITS else {"other": "an integer too large"}
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else {"other": repr(value)}
    if depth >= MAX_DEPTH - CONTAINER_ROOM:
        return {"other": "a value nested too deeply"}
    if type(value) in _SEQUENCES and _INTS.issuperset(map(type, value)) and (not value or -_INT_BOUND < min(value) and max(value) < _INT_BOUND):
        return list(value)  # plain integers within the bound (a domain, a clause): themselves, with no call each
    if isinstance(value, (list, tuple)):
        return [to_data(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return {"set": [to_data(item, depth + 2) for item in sorted(value, key=repr)]}
    if isinstance(value, dict):
        return {"dict": [[to_data(k, depth + 3), to_data(v, depth + 3)] for k, v in value.items()]}
    return {"other": type(value).__name__[:80]}


_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))  # made once: a message is written per hook call, each way


def encode(message: dict[str, Any]) -> bytes:
    """One line of JSON (no NaN or infinity can be written)."""
    return _ENCODER.encode(message).encode() + b"\n"


class CallsDigest:
    """The calls of a search, counted and digested in turn: each one's hook and its
    arguments as they travel (`encode`), so that two searches that asked the
    same calls in the same order have the same digest, on either side of the wire."""

    def __init__(self) -> None:
        self.calls = 0
        self._digest = hashlib.blake2b(digest_size=16)

    def add(self, hook: str, arguments: bytes) -> None:
        self.calls += 1
        self._digest.update(hook.encode() + b"\0" + arguments)

    def text(self) -> str:
        return self._digest.hexdigest()


#: Where a batch's answers end: after the first fatal raise, or after the first failure of any kind.
Upto = Literal["fatal", "failure"]


def batch_message(asks: list[dict[str, Any]], upto: Upto) -> dict[str, Any]:
    """A batch of requests ({"op": "board"} or {"op": "call"}), answered in turn."""
    return {"op": "calls", "asks": asks, "upto": upto}


def usable_clauses(clauses: Any, lits: Any) -> tuple[list[list[int]], str | None]:
    """The clauses without repeats or tautologies (a literal and its negation), and why
    they cannot be used, or None: they must be lists of the literals `lits` and their
    negations, and at most 2**n distinct ones (a clause per falsifying assignment is all
    any constraint over n literals needs)."""
    reason = _clauses_shape(clauses, lits)
    if reason is not None:
        return [], reason
    sets = [frozenset(clause) for clause in clauses]  # linear in the answer's size, whatever it repeats
    distinct = [sorted(kept) for kept in {kept for kept in sets if not any(-lit in kept for lit in kept)}]
    if len(distinct) > 2 ** len(lits):
        return [], (f"returned {len(distinct)} different clauses over {len(lits)} literals; no constraint needs more than {2 ** len(lits)}")
    return distinct, None


def refused_clauses(clauses: Any, lits: Any) -> bool:
    """Whether `usable_clauses` refuses these clauses, without making the usable ones (no
    more than 2**n clauses can hold too many distinct ones)."""
    return _clauses_shape(clauses, lits) is not None or (len(clauses) > 2 ** len(lits) and usable_clauses(clauses, lits)[1] is not None)


def _clauses_shape(clauses: Any, lits: Any) -> str | None:
    """Why `clauses` are not lists of the literals `lits` and their negations, or None."""
    if not isinstance(clauses, list) or not all(isinstance(c, list) for c in clauses):
        return f"must return a list of clauses (lists of ints), got {quote(clauses, 60)}"
    allowed = set(lits) | {-lit for lit in lits}
    if all(set(map(type, clause)) <= {int} and allowed.issuperset(clause) for clause in clauses):  # each clause at C speed
        return None
    for clause in clauses:  # the first literal that is not one of them
        for lit in clause:
            if isinstance(lit, bool) or not isinstance(lit, int) or lit not in allowed:
                return f"used the literal {quote(lit)}, which is not one of the literals it was given (or a negation)"
    return None


# --- grader side: a worker's line, checked ----------------------------------------------


_LONG_DIGITS = re.compile(rb"[0-9]{%d}" % (MAX_INT_DIGITS + 1))


def _reject_constant(name: str) -> Any:
    raise BadMessage(f"a non-finite number ({name})")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadMessage(f"an integer of {len(text.lstrip('-'))} digits")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or abs(value) == float("inf"):
        raise BadMessage(f"a non-finite number ({text[:20]})")
    return value


def _check_shape(value: Any) -> None:
    """Depth and string length within bounds; objects only as the known tags."""
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise BadMessage(f"a string of {len(value)} characters")
    if isinstance(value, (list, dict)):
        _check_container(value, 0)


_CHECKED = frozenset({list, dict, str})  # the types of JSON values `_check_container` looks into
_CONTAINERS = frozenset({list, dict})  # the types of JSON values `from_data` turns into others


def _check_container(item: list[Any] | dict[str, Any], depth: int) -> None:
    """`_check_shape` of a container `depth` levels down (at most MAX_DEPTH), its members
    looked at last first and each container whole before the next, as one stack of
    every value would; but only containers are visited: of a number, a boolean or a
    null there is nothing to check, of a string its length (a reply holds hundreds of
    numbers)."""
    if isinstance(item, dict):
        if depth and (len(item) != 1 or next(iter(item)) not in TAGS):
            raise BadMessage("an object that is not a tagged value")
    members: Sequence[Any] = list(item.values()) if isinstance(item, dict) else item
    if members and depth >= MAX_DEPTH:  # its members would sit deeper than the bound
        raise BadMessage(f"values nested more than {MAX_DEPTH} deep")
    if _CHECKED.isdisjoint(map(type, members)):  # numbers, booleans and nulls alone (JSON's own types): nothing to check
        return
    for member in reversed(members):
        if type(member) is list and depth + 1 < MAX_DEPTH and _CHECKED.isdisjoint(map(type, member)):
            continue  # a list of numbers (a clause, a domain): nothing in it to check
        if isinstance(member, (list, dict)):
            _check_container(member, depth + 1)
        elif isinstance(member, str) and len(member) > MAX_TEXT:
            raise BadMessage(f"a string of {len(member)} characters")


#: The decoders of a worker's lines, made once (a line is read per hook call): every
#: number checked, and integers bounded as they are parsed (`read_message`).
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
_BOUNDED_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int)


def read_message(line: bytes, keys: tuple[frozenset[str], ...]) -> dict[str, Any]:
    """Parse and check one line from a worker; its keys must be one of the sets in `keys`."""
    if len(line) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"a message over {MAX_MESSAGE_BYTES} bytes")
    # Integers are bounded as they are parsed, by a call per integer; a line with no run of
    # digits longer than the bound holds no integer over it, and is parsed without the calls.
    decoder = _BOUNDED_DECODER if _LONG_DIGITS.search(line) else _DECODER
    try:  # the bytes read as json.loads reads them
        message = decoder.decode(line.decode(json.detect_encoding(line), "surrogatepass"))
    except RecursionError:
        raise BadMessage(f"values nested more than {MAX_DEPTH} deep") from None
    except (ValueError, UnicodeDecodeError) as error:
        if isinstance(error, BadMessage):
            raise
        raise BadMessage("a line that is not JSON") from None
    if not isinstance(message, dict) or frozenset(message) not in keys:
        raise BadMessage("a message of an unknown kind")
    _check_shape(message)
    return message


# --- the worker's replies as typed records ----------------------------------------------

_FILE = re.compile(r"[^/\x00-\x1f\x7f]{1,200}\.py")


@dataclass(frozen=True)
class Missing:
    """An import that found no module: the name Python's ModuleNotFoundError gave, and
    where in the student's files it was asked for ("" and 0 when no line of theirs was)."""

    module: str
    file: str = ""
    line: int = 0

    def data(self) -> list[Any]:
        return [self.module, self.file, self.line]

    def well_formed(self) -> bool:
        """A dotted name of identifiers, a `.py` file's name (no folder, no control
        character) or "", and a line number: what the worker sends, and the grader takes."""
        parts = self.module.split(".")
        return (
            len(parts) <= 10
            and all(part.isidentifier() and len(part) <= 100 for part in parts)
            and (self.file == "" or _FILE.fullmatch(self.file) is not None)
            and 0 <= self.line < 10**7
        )


@dataclass(frozen=True)
class Ready:
    """The student's file loaded (`ok`), or why not (`missing`: an import found no module)."""

    ok: bool
    why: str = ""
    missing: Missing | None = None


@dataclass(frozen=True)
class Answer:
    """A hook's return value, as wire data."""

    value: Any


@dataclass(frozen=True)
class Raised:
    """The hook raised; `fatal` ones (not implemented, exit, memory) end the task;
    `missing`: it raised because an import found no module; `kind`: what it raised."""

    message: str
    fatal: bool
    missing: Missing | None = None
    kind: RaisedKind = "raised"
    where: tuple[str, int] | None = None  # the exception's type and line in the student's files (`errortext.raised_where`)


@dataclass(frozen=True)
class Started:
    """The worker process runs (no student code has run yet)."""


@dataclass(frozen=True)
class Began:
    """A fresh process for one graded item runs."""


@dataclass(frozen=True)
class Ended:
    """The item's process is gone; `how` it ended ("exit code 0", "killed by signal SIGSEGV")."""

    how: str


@dataclass(frozen=True)
class Searched:
    """A search the worker ran is over: it made `calls` calls, digested as `inputs` (`CallsDigest`)."""

    calls: int
    inputs: str


class BoardRequest(TypedDict):
    """The request that tells a worker which board the next calls are about ({"op":
    "board"}), or which board to search ({"op": "search"})."""

    op: Literal["board", "search"]
    board: list[str]
    rule: Rule
    mines: int | None


Reply = Started | Ready | Began | Answer | Raised | Searched | Ended


def reply_message(record: Reply) -> dict[str, Any]:
    """The line a worker writes for `record`, as the `read_*` functions read it back."""
    missing = {"missing": record.missing.data()} if isinstance(record, Ready | Raised) and record.missing else {}
    if isinstance(record, Started | Began):
        return {"started" if isinstance(record, Started) else "began": True}
    if isinstance(record, Ended):
        return {"ended": record.how}
    if isinstance(record, Ready):
        return {"ready": True} if record.ok else {"ready": False, "why": record.why} | missing
    if isinstance(record, Answer):
        return {"value": record.value}
    if isinstance(record, Searched):
        return {"searched": record.calls, "inputs": record.inputs}
    return {"raised": record.message, "fatal": record.fatal, "kind": record.kind} | missing | ({"where": list(record.where)} if record.where else {})


def _missing(message: dict[str, Any]) -> Missing | None:
    """The `missing` field of a message, checked: a dotted module name, a `.py` file's
    name (no folder, no control character; shown through `clean_text`) or "", a line
    number."""
    if "missing" not in message:
        return None
    value = message["missing"]
    if not (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and isinstance(value[1], str)
        and type(value[2]) is int
        and Missing(*value).well_formed()
    ):
        raise BadMessage("a malformed missing module")
    return Missing(value[0], clean_text(value[1]), value[2])


def read_started(line: bytes) -> Started:
    """The worker's first line, sent before the student's file is loaded."""
    message = read_message(line, (frozenset({"started"}),))
    if message["started"] is not True:
        raise BadMessage("a malformed start message")
    return Started()


def _ended(message: dict[str, Any]) -> Ended:
    if not isinstance(message["ended"], str):
        raise BadMessage("a malformed end message")
    return Ended(clean_text(message["ended"], 80))


def read_began(line: bytes) -> Began | Ended:
    """The reply to {"op": "task"}: the item's process runs, or ended at once."""
    message = read_message(line, (frozenset({"began"}), frozenset({"ended"})))
    if "ended" in message:
        return _ended(message)
    if message["began"] is not True:
        raise BadMessage("a malformed begin message")
    return Began()


def read_ended(line: bytes) -> Ended:
    """The reply to {"op": "end"}."""
    return _ended(read_message(line, (frozenset({"ended"}),)))


def read_ready(line: bytes) -> Ready | Ended:
    """Whether the student's file loaded (Ended: the process loading it died first)."""
    message = read_message(line, (frozenset({"ready"}), frozenset({"ready", "why"}), frozenset({"ready", "why", "missing"}), frozenset({"ended"})))
    if "ended" in message:
        return _ended(message)
    if message["ready"] is True and "why" not in message:
        return Ready(True)
    if message["ready"] is False and isinstance(message.get("why"), str):
        return Ready(False, message["why"], _missing(message))
    raise BadMessage("a malformed ready message")


#: The keys of a reply: a value, a raised exception (with its missing module, its place), or the end.
_REPLY_KEYS = (
    frozenset({"value"}),
    *(frozenset({"raised", "fatal", "kind", *more}) for more in ((), ("missing",), ("where",), ("missing", "where"))),
    frozenset({"ended"}),
)


def read_reply(line: bytes) -> Answer | Raised | Ended:
    """A worker's reply to a call, checked (Ended: the item's process died instead)."""
    reply = _read_reply(line, _REPLY_KEYS)
    assert not isinstance(reply, Searched)  # not among the keys read
    return reply


def read_search_reply(line: bytes) -> Answer | Raised | Searched | Ended:
    """A worker's reply to a call of a search it runs (as `read_reply`), or the search's end."""
    return _read_reply(line, (*_REPLY_KEYS, frozenset({"searched", "inputs"})))


_DIGEST = re.compile(r"[0-9a-f]{32}")


def _read_reply(line: bytes, keys: tuple[frozenset[str], ...]) -> Answer | Raised | Searched | Ended:
    message = read_message(line, keys)
    if "ended" in message:
        return _ended(message)
    if "value" in message:
        return Answer(message["value"])
    if "searched" in message:
        calls, inputs = message["searched"], message["inputs"]
        if not (type(calls) is int and calls >= 0 and isinstance(inputs, str) and _DIGEST.fullmatch(inputs)):
            raise BadMessage("a malformed end of a search")
        return Searched(calls, inputs)
    if isinstance(message["raised"], str) and isinstance(message["fatal"], bool) and message["kind"] in get_args(RaisedKind):
        return Raised(message["raised"], message["fatal"], _missing(message), message["kind"], _where(message))
    raise BadMessage("a malformed reply")


#: An agent's move as the worker writes it (`encode` of `reply_message`): an action's word
#: and a cell of two integers within the bound, each in JSON's one way of writing it.
_INT = rb"(-?(?:0|[1-9][0-9]{0,%d}))" % (MAX_INT_DIGITS - 1)
_MOVE_REPLY = re.compile(rb'\{"value":\{"move":\["([a-z]{1,20})",\[' + _INT + b"," + _INT + rb"\]\]\}\}")


def read_move_reply(line: bytes) -> Answer | Raised | Ended:
    """`read_reply` of a reply to choose_move, with no parse of JSON for a move as the
    worker writes it (asked once a move, its reply read as often); any other line is
    read by `read_reply`, and either way it reads as `read_reply` reads it."""
    move = _MOVE_REPLY.fullmatch(line)
    if move is None:
        return read_reply(line)
    return Answer({"move": [move[1].decode(), [int(move[2]), int(move[3])]]})


def batch_ends(record: Answer | Raised, hook: str, args: dict[str, Any], upto: Upto) -> bool:
    """Whether a batch's answers end with this reply to a call of `hook` on `args` (see the batches
    above): the worker stops answering there, and the grader stops reading."""
    if isinstance(record, Raised):
        return record.fatal or upto == "failure"
    return upto == "failure" and refused(hook, record.value, args)


def refused(hook: str, value: Any, args: dict[str, Any]) -> bool:
    """Whether the grader refuses this answer (wire data) as soon as it reads it: a clause
    generator's clauses it cannot use (`usable_clauses`). Other hooks' answers
    are checked once the batch is read."""
    return BY_NAME[hook].part == "sat" and refused_clauses(from_data(value), args["lits"])


def _where(message: dict[str, Any]) -> tuple[str, int] | None:
    """The `where` field of a message, checked: an exception type's name and a line number."""
    if "where" not in message:
        return None
    value = message["where"]
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and value[0].isidentifier() and len(value[0]) <= 100):
        raise BadMessage("a malformed place of an exception")
    if not (type(value[1]) is int and 0 <= value[1] < 10**7):
        raise BadMessage("a malformed place of an exception")
    return value[0], value[1]


# --- text that came from a worker, made safe to show -------------------------------------

_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|.?)"
    r"|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x9c]*[\x07\x9c]?"
)
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean_text(text: str, limit: int | None = None) -> str:
    """`text` without escape sequences, control characters or lone surrogates (newlines
    and tabs stay)."""
    text = _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))
    if limit is not None and len(text) > limit:
        return text[:limit] + f"\n[... {len(text) - limit} more characters cut]"
    return text


# --- grader side: wire data back to Python values ----------------------------------------


class Opaque:
    """A value the worker could not send as data; shown as the worker described it."""

    def __init__(self, text: str):
        self.text = clean_text(text, 80)

    def __repr__(self) -> str:
        return self.text


class WireSet(frozenset[Any]):
    """A set the worker sent, shown as the student would write it."""

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, sorted(self, key=repr))) + "}" if self else "set()"


def _member(item: Any) -> Any:
    """`from_data` of a member of an array, with no call for what needs none (an answer
    holds hundreds): a number, a boolean or a string is itself, an array of them a copy."""
    if type(item) is list and _CONTAINERS.isdisjoint(map(type, item)):
        return item[:]
    return from_data(item) if isinstance(item, (list, dict)) else item


def from_data(value: Any) -> Any:
    """Checked wire data as Python values: arrays as lists, {"set"} as WireSets,
    {"dict"} as dicts, {"move"} as ("move", action, cell), {"other"} as Opaque."""
    if isinstance(value, list):
        return [_member(item) for item in value]
    if not isinstance(value, dict):
        return value
    ((tag, inner),) = value.items()
    if tag == "set" and isinstance(inner, list):
        try:
            return WireSet(map(_member, inner))
        except TypeError:  # an unhashable member
            return Opaque("a set of unhashable values")
    if tag == "dict" and isinstance(inner, list) and all(isinstance(p, list) and len(p) == 2 for p in inner):
        try:
            return {_member(k): _member(v) for k, v in inner}
        except TypeError:
            return Opaque("a dict with unhashable keys")
    if tag == "move":
        return ("move", *from_data(inner)) if isinstance(inner, list) else Opaque(repr(inner))
    return Opaque(str(inner)[:80] if tag == "other" else "a malformed value")


# --- grader side: values from a worker, quoted in reasons ---------------------------------

QUOTE_LIMIT = 200  # characters of one quoted value
#: Kinds of values named in reasons (any other name could be one a student made up to carry text).
PLAIN_KINDS = frozenset(
    {
        "generator",
        "function",
        "method",
        "builtin_function_or_method",
        "map",
        "filter",
        "zip",
        "range",
        "bytes",
        "bytearray",
        "complex",
        "object",
        "type",
        "module",
        "dict_keys",
        "dict_values",
        "dict_items",
        "list_iterator",
        "tuple_iterator",
        "set_iterator",
        "nan",
        "inf",
        "-inf",
        "NotImplementedType",
        "ellipsis",
        "Move",
        "View",
        "CSP",
        "Board",
    }
)


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A value that came from student code, as a reason may show it: numbers, booleans,
    None, and lists, sets and dicts of them as written, cut near `limit` characters with
    "... N more"; text and anything else only by its kind. No text the student chose is
    ever quoted, so nothing a worker read (a hidden board, say) can travel in a value."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return f"<text of {len(value)} characters>"
    if isinstance(value, dict):
        return _joined("{", "}", list(value.items()), limit, pairs=True)
    if isinstance(value, (set, frozenset)):
        return _joined("{", "}", sorted(value, key=repr), limit) if value else "set()"
    if isinstance(value, list):
        return _joined("[", "]", value, limit)
    if isinstance(value, tuple):
        return _joined("(", ")", list(value), limit)
    kind = value.text if isinstance(value, Opaque) else type(value).__name__
    return f"<a {kind}>" if kind in PLAIN_KINDS else "<a value that is not data>"


def _joined(opening: str, closing: str, items: list[Any], limit: int, pairs: bool = False) -> str:
    """Items (key-value pairs of a dict with `pairs`) quoted one by one until about
    `limit` characters are used."""
    parts: list[str] = []
    used = len(opening) + len(closing)
    for index, item in enumerate(items):
        room = max(limit - used, 8)
        text = f"{quote(item[0], room)}: {quote(item[1], room)}" if pairs else quote(item, room)
        if index and used + len(text) > limit:
            parts.append(f"... {len(items) - index} more")
            break
        parts.append(text)
        used += len(text) + 2
    return opening + ", ".join(parts) + closing
