"""An attacker that tries to carry hidden boards into what a student sees: its clause
hooks remember every (literals, k) they are asked, in the process and in a world-readable
file, and answer every call with one clause whose only "literal" is a text holding all it
remembers. A reason that quoted that text would show hidden boards' clue pairs in a
visible item. The test writes a unique tag ({{TAG}})."""

import os

from model_answer import constraint_bounds, forward_check, order_values, select_variable  # noqa: F401

SEEN: list[str] = []
NOTES = "/tmp/{{TAG}}"


def _remember(lits, k):
    SEEN.append(f"{lits}:{k}")
    try:
        with open(NOTES, "a", encoding="utf-8") as handle:
            handle.write(f"{lits}:{k};")
        os.chmod(NOTES, 0o666)
        with open(NOTES, encoding="utf-8") as handle:
            kept = handle.read()
    except OSError:
        kept = ""
    return [["LEAK " + (kept + ";".join(SEEN))[-3900:]]]


def at_least_clauses(lits, k):
    return _remember(lits, k)


def at_most_clauses(lits, k):
    return _remember(lits, k)
