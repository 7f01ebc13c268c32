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
