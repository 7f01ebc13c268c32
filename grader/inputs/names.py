"""What a student is called: one name per submission of a class, and one file name per
name, each one to one, whatever order the class sorts in.

`student_names` gives each submission the name the CSV, the feedback and the kept results
show: its own name made safe to show (`clean_text`, on one line). That name stays as it is
when it is plain (`plain_name`) and no other submission of the class shows alike; when
several show alike, the one whose name needed no cleaning keeps it (a classmate's name with
a control character added takes nothing from them), and every other one, like a name that
is not plain, is marked: cut to fit, then ` #` and 16 hex digits of the SHA-256 of what
tells it apart (its entry in the class folder). A plain name never ends like a mark (one
that does is marked itself), so no two students share a name.

`file_names` is the only way a student's name becomes a file name (feedback, kept results,
`gradescope-test --keep`, the similarity check's copies). A name that is already safe
(letters, digits, `._-`, no leading `.` or `-`, no `--`, at most `NAME_LIMIT` characters,
no name Windows keeps for a device, not `run`, the kept run's own file) and that no other
name of the class matches but for case stays as it is; any other is its safe part, then
`--` and 16 hex digits of the SHA-256 of the name. A kept file name has no `--`, and two
marked ones differ in their digits, so no student's files are named after another's.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from grader.inputs.intake import NAME_LIMIT
from grader.sandbox.wire import clean_text

DIGITS = 16  # hex digits of a mark: 64 bits, beyond anyone's search for a classmate's
MARKED = re.compile(rf" #[0-9a-f]{{{DIGITS}}}$")
SAFE = re.compile(rf"[A-Za-z0-9_](?:[A-Za-z0-9._-]{{0,{NAME_LIMIT - 2}}}[A-Za-z0-9_-])?")
FILE_MARK = "--"
PREFIX = 40  # characters of a marked file name's readable part
DEVICES = {"con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in range(1, 10))}
RESERVED = {"run"}  # `run.json` is the kept run's own file


def digest(text: str) -> str:
    """The first `DIGITS` hex digits of the SHA-256 of `text` (any string, lone surrogates too)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:DIGITS]


def plain_name(name: str) -> bool:
    """Whether `name` can be shown and kept as a student's name: one clean line of at most
    `NAME_LIMIT` characters, no path, not `.` or `..`."""
    return (
        bool(name)
        and len(name) <= NAME_LIMIT
        and clean_text(name) == name
        and "\n" not in name
        and "/" not in name
        and "\\" not in name
        and name not in (".", "..")
    )


def shown_name(raw: str) -> str:
    """`raw` made safe to show on one line (its full length)."""
    return clean_text(raw).replace("\n", " ")


def student_names(entries: Sequence[tuple[str, str]]) -> list[str]:
    """The name of each `(raw name, key)` of a class: see the module's docstring. `key`
    tells the submission apart from every other (ValueError when two share one)."""
    keys = [key for _, key in entries]
    if len(set(keys)) != len(keys):
        raise ValueError("two submissions share a key")
    shown = [shown_name(raw) for raw, _ in entries]
    groups: dict[str, list[int]] = {}
    for index, name in enumerate(shown):
        groups.setdefault(name, []).append(index)
    names = []
    for index, ((_, key), name) in enumerate(zip(entries, shown)):
        group = groups[name]
        untouched = [other for other in group if entries[other][0] == shown[other]]
        keeps = len(group) == 1 or untouched == [index]
        names.append(name if keeps and plain_name(name) and not MARKED.search(name) else _student_mark(name, key))
    return names


def _student_mark(name: str, key: str) -> str:
    mark = f" #{digest(key)}"
    readable = name.replace("/", "_").replace("\\", "_")[: NAME_LIMIT - len(mark)].strip()
    return f"{readable if readable not in ('', '.', '..') else 'student'}{mark}"


def export_key(student: str, folder: Path | None) -> str:
    """What tells an export's entry apart: its student and its folder (a group's students share one)."""
    return f"{student}\0{folder.name if folder else ''}"


def file_names(names: Sequence[str]) -> list[str]:
    """A file name (without its suffix) for each of the distinct `names` of a class: see
    the module's docstring (ValueError when two names are one)."""
    if len(set(names)) != len(names):
        raise ValueError("two students share a name")
    folded = Counter(name.casefold() for name in names)
    return [name if _safe(name) and folded[name.casefold()] == 1 else _file_mark(name) for name in names]


def _safe(name: str) -> bool:
    lowered = name.casefold()
    return bool(SAFE.fullmatch(name)) and FILE_MARK not in name and lowered not in RESERVED and lowered.split(".")[0] not in DEVICES


def _file_mark(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    readable = re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name)).strip("._-")[:PREFIX].strip("._-")
    return f"{readable or 'student'}{FILE_MARK}{digest(name)}"
