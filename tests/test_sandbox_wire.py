"""The message format between grader and worker: every bound, and text made safe to show."""

from __future__ import annotations

import json

import pytest

from grader.reports.csvfile import csv_text
from grader.sandbox.wire import Answer, BadMessage, Raised, Ready, WireSet, clean_text, encode, from_data, read_ready, read_reply, to_data


@pytest.mark.parametrize(
    "line, words",
    [
        (b'{"value": NaN}', "non-finite"),
        (b'{"value": 1e999}', "non-finite"),
        (b'{"value": ' + b"7" * 4000 + b"}", "4000 digits"),
        (b'{"value": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", "nested more than"),
        (b'{"value": ' + b"[" * 20 + b"]" * 20 + b"}", "nested more than"),
        (b'{"value": "' + b"x" * (1 << 20) + b'"}', "over 1048576 bytes"),
        (b'{"value": {"evil": 1}}', "not a tagged value"),
        (b'{"ready": true}', "unknown kind"),
        (b'{"raised": 3, "fatal": true, "kind": "raised"}', "malformed reply"),
        (b'{"raised": "x", "fatal": true, "kind": "unloadable"}', "malformed reply"),
        (b'{"raised": "x", "fatal": true}', "unknown kind"),
        (b'{"raised": "x", "fatal": false, "kind": "raised", "where": ["ValueError"]}', "malformed place"),
        (b'{"raised": "x", "fatal": false, "kind": "raised", "where": ["no such type!", 3]}', "malformed place"),
        (b'{"raised": "x", "fatal": false, "kind": "raised", "where": ["ValueError", -1]}', "malformed place"),
        (b'{"raised": "x", "fatal": false, "kind": "raised", "where": ["ValueError", true]}', "malformed place"),
        (b"[1, 2]", "unknown kind"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_a_bad_reply_is_one_bad_message(line: bytes, words: str) -> None:
    with pytest.raises(BadMessage, match=words):
        read_reply(line)


def test_the_bounds_hold_at_their_edges() -> None:
    """An integer of 18 digits is read, of 19 refused, whether or not the line holds other
    numbers (digits in a string are no integer); values 16 levels deep are read, 17 not."""
    assert read_reply(encode({"value": [10**18 - 1, -(10**18) + 1, 3]})) == Answer([10**18 - 1, -(10**18) + 1, 3])
    with pytest.raises(BadMessage, match="19 digits"):
        read_reply(encode({"value": [1, 2, 10**18]}))
    assert read_reply(encode({"value": ["1" * 40, 7]})) == Answer(["1" * 40, 7])
    with pytest.raises(BadMessage, match="19 digits"):
        read_reply(encode({"value": ["1" * 40, -(10**18)]}))
    deepest: object = 1
    for _ in range(15):  # the message, then 15 lists: the 1 sits 16 levels down
        deepest = [deepest]
    assert read_reply(encode({"value": deepest})) == Answer(deepest)
    with pytest.raises(BadMessage, match="nested more than 16"):
        read_reply(encode({"value": [deepest]}))
    empty: list[object] = []
    for _ in range(15):  # 16 lists: the innermost, empty, 16 levels down
        empty = [empty]
    assert read_reply(encode({"value": empty})) == Answer(empty)
    with pytest.raises(BadMessage, match="nested more than 16"):
        read_reply(encode({"value": [empty]}))  # an empty list 17 levels down
    # Several faults: the last member is looked at first, each container whole before the one before it.
    with pytest.raises(BadMessage, match="5000 characters"):
        read_reply(encode({"value": [[deepest], "x" * 5000]}))
    with pytest.raises(BadMessage, match="nested more than 16"):
        read_reply(encode({"value": ["x" * 5000, [deepest]]}))


def test_the_decoders_made_once_keep_every_check_whatever_came_before() -> None:
    """The reply decoders are made once and reused: a forged line after good ones (and a
    good one after forged ones) is read alone, every bound held; bytes in another
    encoding or with a byte-order mark are read as json.loads reads them."""
    move = encode({"value": {"move": ["open", [3, 4]]}})
    forged = [b'{"value": NaN}', b'{"value": 1e999}', b'{"value": ' + b"9" * 19 + b"}", b'{"value": {"move": ["open", [3, 4]], "x": 1}}']
    for line in forged:
        assert read_reply(move) == Answer({"move": ["open", [3, 4]]})
        with pytest.raises(BadMessage):
            read_reply(line)
    assert read_reply(move) == Answer({"move": ["open", [3, 4]]})
    text = '{"value": {"move": ["flag", [0, 1]]}}'
    for line in (text.encode("utf-16"), text.encode("utf-32-le"), b"\xef\xbb\xbf" + text.encode()):
        assert read_reply(line) == Answer(json.loads(line)["value"])
    surrogate = b'{"value": "\xed\xa0\x80"}'  # a lone surrogate in UTF-8: json.loads passes it, and so does the reader
    assert read_reply(surrogate) == Answer(json.loads(surrogate)["value"])


def test_replies_become_typed_records() -> None:
    assert read_ready(encode({"ready": True})) == Ready(True)
    assert read_ready(encode({"ready": False, "why": "no"})) == Ready(False, "no")
    assert read_reply(encode({"value": [1, {"set": [0, 1]}]})) == Answer([1, {"set": [0, 1]}])
    assert read_reply(encode({"raised": "boom", "fatal": False, "kind": "raised"})) == Raised("boom", False)
    assert read_reply(encode({"raised": "todo", "fatal": True, "kind": "not_implemented"})) == Raised("todo", True, None, "not_implemented")
    where = Raised("boom (a.py, line 3, in f)", False, None, "raised", ("ValueError", 3))
    assert read_reply(encode({"raised": "boom (a.py, line 3, in f)", "fatal": False, "kind": "raised", "where": ["ValueError", 3]})) == where
    with pytest.raises(BadMessage):
        read_ready(encode({"ready": "yes"}))


def test_values_round_trip_with_their_kinds() -> None:
    value = from_data(to_data({0: (1,), 1: {0, 1}, 2: [0]}))
    assert value == {0: [1], 1: {0, 1}, 2: [0]} and isinstance(value[1], WireSet) and repr(value[1]) == "{0, 1}"
    assert repr(from_data(to_data(object()))) == "object"
    assert from_data(to_data(float("nan"))).text == "nan"  # never a number on the wire


def test_text_from_a_worker_loses_escape_sequences_and_control_characters() -> None:
    nasty = "a\x1b[2Jb\x1b]0;title\x07c\x1b]8;;http://x\x1b\\d\x9b31me\x00f\u202eg\tq\nr"
    assert clean_text(nasty) == "abcdefg\tq\nr"
    assert clean_text("x" * 50, 10).startswith("x" * 10 + "\n[... 40 more characters cut]")


@pytest.mark.parametrize("cell, shown", [("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"), ("+1", "'+1"), ("-2", "'-2"), ("@x", "'@x"), ("ana", "ana")])
def test_csv_cells_never_start_a_formula(cell: str, shown: str) -> None:
    assert csv_text(cell) == shown
