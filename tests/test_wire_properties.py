"""Properties of the wire codec between the grader and a worker (grader/sandbox/wire.py):
any value a hook may return survives the trip as the grader reads it, and any bytes at all
are either a checked message or one BadMessage with a reason, never another exception.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.sandbox.wire import (
    MAX_TEXT,
    Answer,
    BadMessage,
    Opaque,
    WireSet,
    encode,
    from_data,
    quote,
    read_move_reply,
    read_reply,
    reply_message,
    to_data,
)

#: What hooks return: ints, bools, None, short texts, and lists, tuples, sets and dicts of them.
SMALL_INTS = st.integers(min_value=-(10**17), max_value=10**17)
SCALARS = st.none() | st.booleans() | SMALL_INTS | st.text(max_size=30)
HASHABLE = st.recursive(SCALARS, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=4), max_leaves=8)
VALUES = st.recursive(
    SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(HASHABLE, inner, max_size=4) | st.frozensets(HASHABLE, max_size=4),
    max_leaves=20,
)


def as_grader_sees(value: Any) -> Any:
    """What the value should read back as: tuples as lists, sets as WireSets of their
    members read back, dicts with their keys and values read back."""
    if isinstance(value, (list, tuple)):
        return [as_grader_sees(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return WireSet(hashable(item) for item in value)
    if isinstance(value, dict):
        return {hashable(key): as_grader_sees(item) for key, item in value.items()}
    return value


def hashable(value: Any) -> Any:
    """A set member or dict key as read back (a tuple comes back as a list, which cannot
    be one: the whole set or dict is then Opaque, checked apart)."""
    seen = as_grader_sees(value)
    return tuple(seen) if isinstance(seen, list) else seen


def has_tuple_key(value: Any) -> bool:
    """Whether a set member or dict key somewhere is a tuple (it reads back unhashable)."""
    if isinstance(value, (list, tuple)):
        return any(has_tuple_key(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return any(isinstance(item, tuple) or has_tuple_key(item) for item in value)
    if isinstance(value, dict):
        return any(isinstance(k, tuple) or has_tuple_key(k) or has_tuple_key(v) for k, v in value.items())
    return False


def nesting(value: Any) -> int:
    """How many containers deep the value goes."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max((max(nesting(k), nesting(v)) for k, v in value.items()), default=0)
    return 0


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_a_hook_answer_reads_back_as_sent(value: Any) -> None:
    """Any value is a message within bounds; one nested no deeper than 4 containers (each
    up to 3 levels of the message) reads back as it was sent."""
    line = encode(reply_message(Answer(to_data(value))))
    reply = read_reply(line.rstrip(b"\n"))
    assert isinstance(reply, Answer)
    got = from_data(reply.value)
    if not has_tuple_key(value) and nesting(value) <= 4:
        assert got == as_grader_sees(value)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=40), st.sampled_from([("list", 12), ("set", 6), ("dict", 4)]))
def test_a_value_nested_too_deeply_is_sent_as_such(depth: int, kind_and_most: tuple[str, int]) -> None:
    """However deep a hook's answer goes, its message stays within the bounds: what is too
    deep (past 12 lists, 6 sets or 4 dicts: one message level per list, two per set, three
    per dict) reads back as an opaque "nested too deeply", never as a broken message."""
    kind, most = kind_and_most
    value: Any = 0
    for _ in range(depth):
        value = [value] if kind == "list" else frozenset({value}) if kind == "set" else {0: value}
    reply = read_reply(encode(reply_message(Answer(to_data(value)))).rstrip(b"\n"))
    assert isinstance(reply, Answer)
    assert ("a value nested too deeply" in repr(from_data(reply.value))) == (depth > most)


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=50).map(lambda piece: piece * (MAX_TEXT // len(piece) + 1)))
def test_a_long_text_is_cut_by_the_worker(text: str) -> None:
    """Any text longer than MAX_TEXT (a random piece repeated: drawing thousands of random
    characters one by one costs seconds and tests nothing more) is cut to its first MAX_TEXT."""
    assert len(text) > MAX_TEXT
    assert to_data(text) == text[:MAX_TEXT]


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_a_reply_or_one_bad_message(line: bytes) -> None:
    try:
        read_reply(line)
    except BadMessage as error:
        assert str(error)  # says why
    # any other exception fails the test


@pytest.mark.slow  # a broad property, about a second of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10) | st.floats(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=30,
    )
)
def test_any_json_value_is_a_reply_or_one_bad_message(value: Any) -> None:
    import json

    try:
        line = json.dumps({"value": value}).encode()
    except ValueError:
        return
    try:
        reply = read_reply(line)
    except BadMessage as error:
        assert str(error)
        return
    shown = quote(from_data(reply.value))  # whatever was accepted can be quoted, within bounds
    assert len(shown) < 400


def test_an_unhashable_member_reads_back_as_opaque() -> None:
    reply = read_reply(encode(reply_message(Answer(to_data({(1, 2)})))).rstrip(b"\n"))
    assert isinstance(reply, Answer) and isinstance(from_data(reply.value), Opaque)


def read_either(read: Any, line: bytes) -> Any:
    """What `read` makes of `line`: its record, or the BadMessage's reason."""
    try:
        return read(line)
    except BadMessage as error:
        return f"BadMessage: {error}"


#: Pieces of a reply to choose_move, in the form the worker writes and in near misses of it
#: (a forged line can be anything): words, numbers in and past the bound, spacing, quotes.
MOVE_WORDS = st.sampled_from(["open", "flag", "OPEN", "dig", "", "open ", "a" * 21, "op\\u0065n", "flag\\n"])
MOVE_NUMBERS = st.integers(min_value=-(10**19), max_value=10**19).map(str) | st.sampled_from(
    ["-0", "01", "-01", "1.0", "1e3", "true", "null", " 1", "0x1"]
)


@settings(max_examples=1000, deadline=None)
@given(MOVE_WORDS, MOVE_NUMBERS, MOVE_NUMBERS, st.sampled_from(["", " ", "\r", "\n", "]"]))
def test_the_quick_read_of_a_move_reads_every_line_as_the_whole_read_does(word: str, row: str, col: str, spacing: str) -> None:
    """`read_move_reply` (an agent's replies, with no parse of JSON for a move as the
    worker writes it) gives, for any line shaped like a move or nearly, the record or the
    refusal `read_reply` gives: a forged line gains nothing by taking the quick road."""
    for line in (
        f'{{"value":{{"move":["{word}",[{row},{col}]]}}}}{spacing}',
        f'{{"value":{{"move":["{word}",[{row},{spacing}{col}]]}}}}',
        f'{{"value":{{"move":["{word}",[{row},{col}]{spacing}]}}}}',
        f'{{"value": {{"move":["{word}",[{row},{col}]]}}}}',
    ):
        data = line.encode()
        assert read_either(read_move_reply, data) == read_either(read_reply, data), data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120).map(lambda tail: b'{"value":{"move":["open",[' + tail))
def test_any_bytes_after_a_moves_start_read_quickly_as_wholly(line: bytes) -> None:
    assert read_either(read_move_reply, line) == read_either(read_reply, line)


def test_a_move_the_worker_writes_takes_the_quick_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move a worker writes (cells within the bound, both actions) is read without
    the whole read, as the whole read reads it."""
    from grader.sandbox import wire

    lines = [
        encode(reply_message(Answer({"move": [action, [to_data(cell[0]), to_data(cell[1])]]}))).rstrip(b"\n")
        for action, cell in (("open", (0, 0)), ("flag", (15, 29)), ("open", (-1, 10**17)), ("flag", (-(10**18) + 1, 7)))
    ]
    wholly = [read_reply(line) for line in lines]
    assert [record.value["move"] for record in wholly] == [["open", [0, 0]], ["flag", [15, 29]], ["open", [-1, 10**17]], ["flag", [-(10**18) + 1, 7]]]

    def whole_read(line: bytes) -> Any:
        raise AssertionError(f"read wholly: {line!r}")

    monkeypatch.setattr(wire, "read_reply", whole_read)
    assert [read_move_reply(line) for line in lines] == wholly
