"""An honest student whose file uses much of the standard library, extension modules
(C code and the shared libraries they load) included, before answering correctly."""

import array
import asyncio
import bisect
import bz2
import collections
import concurrent.futures
import csv
import ctypes
import dataclasses
import datetime
import decimal
import fractions
import functools
import hashlib
import heapq
import io
import itertools
import json
import lzma
import math
import multiprocessing
import pickle
import random
import re
import sqlite3
import statistics
import string
import struct
import textwrap
import threading
import typing
import unicodedata
import uuid
import xml.etree.ElementTree as ElementTree
import zlib

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check, order_values, select_variable  # noqa: F401

_CHECKS = [
    hashlib.sha256(b"board").hexdigest()[:4] != "",
    lzma.decompress(lzma.compress(b"x" * 100)) == b"x" * 100,
    bz2.decompress(bz2.compress(b"y")) == b"y",
    zlib.decompress(zlib.compress(b"z")) == b"z",
    sqlite3.connect(":memory:").execute("select 1 + 1").fetchone() == (2,),
    decimal.Decimal("0.1") + decimal.Decimal("0.2") == decimal.Decimal("0.3"),
    fractions.Fraction(1, 3) * 3 == 1,
    ElementTree.fromstring("<a><b/></a>").find("b") is not None,
    json.loads(json.dumps({"k": [1, 2]})) == {"k": [1, 2]},
    ctypes.sizeof(ctypes.c_int) >= 2,
    unicodedata.name("A") == "LATIN CAPITAL LETTER A",
    statistics.median([3, 1, 2]) == 2,
    struct.pack("<H", 1) == b"\x01\x00",
    len(str(uuid.uuid4())) == 36,
    asyncio.iscoroutinefunction(asyncio.sleep),
    array.array("i", [1]).tolist() == [1],
    bisect.bisect([1, 3], 2) == 1,
    heapq.nsmallest(1, [2, 1]) == [1],
    pickle.loads(pickle.dumps(collections.Counter("aab"))) == collections.Counter("aab"),
    datetime.date(2026, 1, 1).isoformat() == "2026-01-01",
    re.fullmatch(r"\d+", "12") is not None,
    callable(concurrent.futures.ThreadPoolExecutor) and callable(multiprocessing.cpu_count),
    dataclasses.is_dataclass(dataclasses.make_dataclass("P", ["x"])),
    csv.reader(io.StringIO("a,b")).__next__() == ["a", "b"],
    callable(functools.reduce) and callable(itertools.chain) and bool(string.digits) and bool(textwrap.dedent(" x")),
    isinstance(threading.Lock(), type(threading.Lock())) and math.isqrt(16) == 4 and random.Random(1).random() < 1,
    typing.get_origin(list[int]) is list,
]
if not all(_CHECKS):
    raise RuntimeError(f"a standard-library check failed: {_CHECKS.index(False)}")
