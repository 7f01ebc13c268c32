"""An honest student with a taste for the standard library: it imports a broad set of it,
and its hooks answer through a pool of threads, a queue and a lock, reading the clock,
drawing random numbers and writing a scratch file on the way. Everything the filter
allows; the answers are the model answer's."""

import argparse  # noqa: F401
import array  # noqa: F401
import bisect  # noqa: F401
import collections
import concurrent.futures
import contextlib  # noqa: F401
import copy
import csv  # noqa: F401
import dataclasses  # noqa: F401
import datetime
import decimal  # noqa: F401
import enum  # noqa: F401
import fractions  # noqa: F401
import functools
import hashlib
import heapq  # noqa: F401
import inspect  # noqa: F401
import io  # noqa: F401
import itertools  # noqa: F401
import json
import logging  # noqa: F401
import math  # noqa: F401
import multiprocessing.dummy
import operator  # noqa: F401
import os
import pathlib  # noqa: F401
import pickle
import queue
import random
import re  # noqa: F401
import sqlite3  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import struct  # noqa: F401
import tempfile
import textwrap  # noqa: F401
import threading
import time
import typing  # noqa: F401
import unittest  # noqa: F401
import uuid
import weakref  # noqa: F401
import zlib

from model_answer import at_least_clauses, at_most_clauses, order_values, select_variable  # noqa: F401
from model_answer import constraint_bounds as _constraint_bounds
from model_answer import forward_check as _forward_check

_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=2)
_LOCK = threading.Lock()
_SEEN = collections.Counter()


def _side_work():
    """What the hooks do besides answering: none of it changes an answer."""
    started = time.perf_counter(), time.process_time(), datetime.datetime.now()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "notes.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"draw": random.random(), "id": str(uuid.uuid4())}, handle)
        with open(path, "rb") as handle:
            hashlib.sha256(zlib.compress(handle.read())).hexdigest()
    time.sleep(0.001)
    with multiprocessing.dummy.Pool(2) as pool:
        pool.map(abs, [-1, -2])
    return started


def constraint_bounds(scope, domains):
    box = queue.Queue()
    worker = threading.Thread(target=lambda: box.put(_constraint_bounds(scope, copy.deepcopy(domains))))
    worker.start()
    worker.join()
    with _LOCK:
        _SEEN[len(scope)] += 1
    return box.get()


@functools.cache
def _first_call():
    return pickle.dumps(_side_work())


def forward_check(csp, domains, assigned):
    _first_call()
    return _POOL.submit(_forward_check, csp, domains, assigned).result()
