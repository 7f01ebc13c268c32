"""An attacker that writes forged answers straight to the descriptor the worker replies
on (its number is on the worker's command line): deep nesting, NaN, a 4,000-digit number,
a line of several megabytes, then claims success. The test writes which forgery to send
into its copy ({{FORGERY}})."""

import os
import sys

from model_answer import *  # noqa: F401,F403

FORGERIES = {
    "deep": b'{"value": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
    "nan": b'{"value": NaN}\n',
    "digits": b'{"value": ' + b"9" * 4000 + b"}\n",
    "huge": b'{"value": "' + b"x" * 3_000_000 + b'"}\n',
    "ready-lie": b'{"ready": true}\n{"value": [0, 0]}\n',
}


def constraint_bounds(scope, domains):
    os.write(int(sys.argv[3]), FORGERIES["{{FORGERY}}"])
    return (0, 0)
