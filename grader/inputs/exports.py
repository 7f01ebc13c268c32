"""Reading a platform's export of a class: Gradescope's "Export Submissions" and PrairieLearn's
downloaded files, as a zip or unpacked, into one folder per student with who they are.

Gradescope: `submission_metadata.yml` at the top maps each submission folder
(`submission_<id>`) to `{":submitters": [{":name", ":sid", ":email"}], ":created_at",
":score", ":status", ":history": [...]}`, keys written as Ruby symbols (safe_load reads them
as strings starting with ':'); as read by otter-grader's GradescopeParser
(ucbds-infra/otter-grader, otter/grade/metadata.py: one entry per submitter, a group's folder
to each member) and by other public readers of the same file.

PrairieLearn: the assessment's "Download" zips (PrairieLearn/PrairieLearn,
apps/prairielearn/src/pages/instructorAssessmentDownloads: extractFilesForSubmissions and
extractFilesForManualGrading) hold one folder `<set><number>/` of flat files named
`<uid or group>_<instance>_<qid>_<variant>_<submission number>_<submission id>_<file>`
(all_files, final_files, best_files) or `<uid>_<uin>_<qid>_<submission id>_<file>`
(files_for_manual_grading).

Each student's active submission is kept (the one flagged `:active:`), else the latest.
The metadata is read entry by entry within `yamlfile.EXPORT`'s bounds: an entry past them
(nested too deep, an alias of a list, ...) is one line, the other students read.

Zips are unpacked into a scratch folder, member by member: no member outside it, no link,
no name twice or both a file and a folder, at most `ZIP_MEMBERS` members and `ZIP_BYTES`
bytes in all, each at most `SUBMISSION_BYTES`. A member that breaks one refuses the
submission it lies in (the first folder under the export's top, or a top-level file), one
line; the other submissions are read.
"""

from __future__ import annotations

import re
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from grader.inputs.intake import NAME_LIMIT
from grader.inputs.yamlfile import EXPORT, MappingEntry, YamlRefused, read_entries
from grader.sandbox.isolation import SUBMISSION_BYTES
from grader.sandbox.wire import clean_text

METADATA = "submission_metadata.yml"
ZIP_MEMBERS = 20_000  # members of one export zip
ZIP_BYTES = 1 << 30  # bytes of one export zip once unpacked
CHUNK = 1 << 16
NAME_BYTES = 255  # of one part of a member's name, as Linux allows
PATH_BYTES = 1024  # of a member's whole name
FULL = re.compile(r"^(?P<who>.+?)_(?P<instance>\d+)_(?P<qid>.+?)_(?P<variant>\d+)_(?P<number>\d+)_(?P<id>\d+)_(?P<file>.+)$")
MANUAL = re.compile(r"^(?P<who>[^_]+)_(?P<uin>[^_]*)_(?P<qid>.+?)_(?P<id>\d+)_(?P<file>.+)$")


@dataclass(frozen=True)
class Identity:
    """Who a submission belongs to, as the export says (empty strings when unknown)."""

    name: str = ""
    sid: str = ""
    email: str = ""
    section: str = ""


@dataclass(frozen=True)
class Entry:
    """One student's submission: the folder to grade (None when the export has none: `problem` says why)."""

    student: str
    identity: Identity
    folder: Path | None
    problem: str = ""


@dataclass
class Export:
    """What a class's submissions are: `layout` in one line, the students' entries (None for a
    plain folder of submissions, read as before), the `folder` to read, one line per oddity,
    and (a plain folder's) submissions refused while unpacking: {name in `folder`: why}."""

    layout: str
    folder: Path
    entries: list[Entry] | None = None
    notes: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Refused:
    """A zip member not unpacked: its name (safe to show), why, and `where` it lies: the first
    three plain parts of its name, () when it points outside the export from the start."""

    member: str
    why: str
    where: tuple[str, ...]
    length: int = 0  # how many parts its name has, a folder's counted one more (what lies in it)


def shown(text: object) -> str:
    """`text` from the export, safe to show on one line."""
    return clean_text(str(text), NAME_LIMIT).replace("\n", " ")


def read_export(path: Path, scratch: Path) -> Export:
    """The submissions at `path` (a folder or a zip, unpacked into `scratch`), their layout found by
    what they hold."""
    refused: list[Refused] = []
    folder = path
    if path.is_file() and zipfile.is_zipfile(path):
        folder = scratch / "unpacked"
        refused = unpack(path, folder)
        inner = [p for p in folder.iterdir() if not p.name.startswith((".", "__"))]
        if len(inner) == 1 and inner[0].is_dir() and not inner[0].is_symlink() and not (folder / METADATA).exists():
            folder = inner[0]  # the export's own top folder
    elif not path.is_dir():
        return Export("unknown", path, [], [f"{shown(path)}: neither a folder nor a zip of submissions"])
    units, folders, notes = _units(refused, path, scratch / "unpacked", folder)
    claimed: set[str] = set()
    if (folder / METADATA).is_file():
        return _unclaimed(_gradescope(folder, notes, units, claimed), units, claimed)
    if people := _prairielearn(folder, scratch / "students", units, claimed):
        return _unclaimed(Export(f"PrairieLearn download ({len(people)} students)", folder, people, notes), units, claimed)
    looks_gradescope = any(p.is_dir() and re.fullmatch(r"submission_\d+", p.name) for p in folder.iterdir())
    if looks_gradescope:
        notes.append(f"{shown(folder.name)}: no {METADATA}: read as a folder of submissions, named by their folders")
    elif path.is_file():
        notes.append(f"{shown(path.name)}: a zip of an unknown layout: read as a folder of submissions")
    taken = {unit for unit in units if unit in folders or unit.endswith(".py")}  # what a class folder's submission is
    return _unclaimed(Export("a folder of submissions", folder, None, notes, {unit: units[unit] for unit in taken}), units, taken)


def _units(refused: list[Refused], archive: Path, target: Path, folder: Path) -> tuple[dict[str, str], set[str], list[str]]:
    """The entries of `folder` that refused members lie in, {name: why} (each taken off the
    disk), those of them that are folders, and one line for each refused member that lies in none."""
    top = folder.relative_to(target).parts if folder.is_relative_to(target) else ()
    units: dict[str, str] = {}
    folders: set[str] = set()
    notes: list[str] = []
    for member in refused:
        rest = member.where[len(top) :] if member.where[: len(top)] == top else ()
        if rest and not rest[0].startswith((".", "__")) and rest[0] != METADATA:
            units.setdefault(rest[0], f"not graded: the export's member {member.member} {member.why}")
            if member.length > len(top) + 1:
                folders.add(rest[0])
        else:
            notes.append(f"{shown(archive.name)}: {member.member} {member.why}: not unpacked")
    for unit in units:
        if (folder / unit).is_dir():
            shutil.rmtree(folder / unit)  # made by `unpack`: no link in it
        else:
            (folder / unit).unlink(missing_ok=True)
    return units, folders, notes


def _unclaimed(export: Export, units: dict[str, str], claimed: set[str]) -> Export:
    """`export` with a line for each refused unit that no student's entry (or submission) lies in."""
    export.notes += [f"{shown(unit)}: {why}" for unit, why in units.items() if unit not in claimed]
    return export


def unpack(archive: Path, target: Path) -> list[Refused]:
    """Unpack the zip `archive` into `target`, member by member; the members refused, one
    record for each place they lie in (each member, when it points outside the export)."""
    target.mkdir(parents=True, exist_ok=True)
    inside: dict[tuple[str, ...], Refused] = {}  # the first member refused in each place
    outside: list[Refused] = []
    laid: dict[tuple[str, ...], bool] = {}  # each path unpacked: whether a folder
    total = 0
    try:
        opened = zipfile.ZipFile(archive)
    except UnicodeDecodeError as error:  # a name marked UTF-8 that is not: the zip's list cannot be read
        raise zipfile.BadZipFile(f"a member's name is not the UTF-8 it claims ({error.reason})") from None
    with opened:
        for number, member in enumerate(opened.infolist()):
            parts = PurePosixPath(member.filename.replace("\\", "/")).parts
            if number >= ZIP_MEMBERS:
                why: str | None = f"lies past the export's first {ZIP_MEMBERS} members"
            else:
                why = _odd(member, parts, laid) or _too_large(member, total)
            if why is None and member.is_dir():
                (target / Path(*parts)).mkdir(parents=True, exist_ok=True)
            elif why is None:
                try:
                    written = _copy_bounded(opened, member, target / Path(*parts), min(SUBMISSION_BYTES, ZIP_BYTES - total))
                except (zipfile.BadZipFile, zlib.error, EOFError):
                    (target / Path(*parts)).unlink(missing_ok=True)
                    written = None
                total += written or 0
                why = None if written is not None else "is damaged or larger than it says"
            if why is None:
                continue
            record = Refused(shown(member.filename), why, _where(member.filename, parts), len(parts) + member.is_dir())
            if record.where:
                inside.setdefault(record.where, record)
            else:
                outside.append(record)
    return [*inside.values(), *outside]


def _where(name: str, parts: tuple[str, ...]) -> tuple[str, ...]:
    """The first three parts of a member's name, up to any `..`; () when it points outside from the start."""
    if name.startswith(("/", "\\")) or not parts or ":" in parts[0]:
        return ()
    return parts[: parts.index("..") if ".." in parts else 3][:3]


def _odd(member: zipfile.ZipInfo, parts: tuple[str, ...], laid: dict[tuple[str, ...], bool]) -> str | None:
    """Why `member` (its name in `parts`) cannot be unpacked beside the members `laid` so far,
    or None (it is then laid too)."""
    kind = stat.S_IFMT(member.external_attr >> 16)  # 0 when the zip says nothing
    if not parts or member.filename.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
        return "points outside the export"
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        return "is a link or a special file"
    if (
        any(len(part.encode("utf-8", "surrogatepass")) > NAME_BYTES for part in parts)
        or len(member.filename.encode("utf-8", "surrogatepass")) > PATH_BYTES
    ):
        return "has a name too long to unpack"
    folder = member.is_dir()
    for end in range(1, len(parts)):
        if laid.setdefault(parts[:end], True) is False:
            return f"lies in {shown('/'.join(parts[:end]))}, also a file of the export"
    if parts in laid and not (folder and laid[parts]):
        return "is in the export twice (or as both a file and a folder)"
    laid[parts] = folder
    return None


def _too_large(member: zipfile.ZipInfo, total: int) -> str | None:
    """Why `member` is too large to unpack after `total` bytes, or None."""
    if member.is_dir() or (member.file_size <= SUBMISSION_BYTES and total + member.file_size <= ZIP_BYTES):
        return None
    return f"is too large ({member.file_size} bytes)"


def _copy_bounded(opened: zipfile.ZipFile, member: zipfile.ZipInfo, path: Path, limit: int) -> int | None:
    """Write `member` as `path`, at most `limit` bytes (None, and nothing kept, past the limit)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    size = 0
    with opened.open(member) as source, path.open("wb") as out:
        while chunk := source.read(CHUNK):
            size += len(chunk)
            if size > limit:
                break
            out.write(chunk)
    if size > limit:
        path.unlink()
        return None
    return size


def _gradescope(folder: Path, notes: list[str], units: dict[str, str], claimed: set[str]) -> Export:
    """A Gradescope export: each student's active (else latest) submission folder, not graded
    when it is one of the refused `units` (each such unit put in `claimed`)."""
    try:
        metadata = read_entries(folder / METADATA, EXPORT)
    except UnicodeDecodeError:
        notes.append(f"{METADATA}: not UTF-8 text: read as a folder of submissions")
        return Export("a folder of submissions", folder, None, notes)
    except YamlRefused as refused:
        where = f" (line {refused.line})" if refused.line else ""
        notes.append(f"{METADATA}{where}: {shown(refused.message)}: read as a folder of submissions")
        return Export("a folder of submissions", folder, None, notes)
    chosen: dict[str, tuple[tuple[bool, str], str, Identity]] = {}
    for item in metadata:
        _choose(item, chosen, notes)
    entries = []
    for student, (_, key, identity) in sorted(chosen.items()):
        path = folder / key
        if key in units:
            claimed.add(key)
            entries.append(Entry(student, identity, None, units[key]))
        elif "/" in key or "\\" in key or key.startswith(".") or not path.is_dir() or path.is_symlink():
            entries.append(Entry(student, identity, None, f"nothing to grade: the export has no folder {shown(key)}"))
        else:
            entries.append(Entry(student, identity, path))
    kept = len({e.folder for e in entries})
    layout = f"Gradescope export ({len(metadata)} submissions, {len(entries)} students; {kept} kept: each one's active or latest)"
    return Export(layout, folder, entries, notes)


def _choose(item: MappingEntry, chosen: dict[str, tuple[tuple[bool, str], str, Identity]], notes: list[str]) -> None:
    """Keep each submitter's active (else latest) submission of one entry of the metadata in
    `chosen` ({student: (rank, key, identity)}); a line in `notes` when the entry is refused."""
    key, data = item.key, item.value
    if item.refused is not None:
        named = f"{shown(key)} (line {item.refused.line or item.line})" if key is not None else f"line {item.refused.line or item.line}"
        notes.append(f"{METADATA}: {named}: {shown(item.refused.message)}: not graded")
        return
    if not isinstance(data, dict) or not isinstance(data.get(":submitters"), list):
        notes.append(f"{METADATA}: {shown(key)} names no submitters: not graded")
        return
    rank = (data.get(":active") is True, _when(data.get(":created_at")))
    for person in data[":submitters"]:
        identity = _person(person)
        student = identity.sid or identity.email or identity.name
        if not student:
            notes.append(f"{METADATA}: {shown(key)} has a submitter with no name, sid or email")
        elif student not in chosen or rank > chosen[student][0]:
            chosen[student] = (rank, str(key), identity)


def _when(value: object) -> str:
    """A submission's time, comparable with another's (YAML reads Gradescope's as a datetime)."""
    if isinstance(value, datetime):
        return (value.astimezone(UTC) if value.tzinfo else value).isoformat()
    return str(value or "")


def _person(raw: Any) -> Identity:
    """A submitter of Gradescope's metadata, each field made safe to show."""
    if not isinstance(raw, dict):
        return Identity()
    return Identity(*(shown(raw.get(key) or "") for key in (":name", ":sid", ":email")))


def _prairielearn(folder: Path, students: Path, units: dict[str, str], claimed: set[str]) -> list[Entry]:
    """A PrairieLearn download: each uid's latest submission, its files copied to a folder of
    its own under `students` ([] when `folder` holds no file named the PrairieLearn way); not
    graded when one of its files is among the refused `units` (each such unit put in `claimed`)."""
    files: dict[str, Path | None] = {p.name: p for p in folder.iterdir() if p.is_file() and not p.is_symlink()}
    files.update({unit: None for unit in units})
    latest: dict[str, tuple[int, list[tuple[str, Path | None, str]]]] = {}
    for name, path in files.items():
        found = FULL.match(name) or MANUAL.match(name)
        if found is None:
            continue
        who, number = found["who"], int(found["id"])
        if who not in latest or number > latest[who][0]:
            latest[who] = (number, [])
        if number == latest[who][0]:
            latest[who][1].append((name, path, found["file"]))
    if not latest:
        return []
    entries = []
    for index, (who, (_, kept)) in enumerate(sorted(latest.items())):
        student = shown(who)
        identity = Identity(sid=student, email=student if "@" in who else "")
        if refused := [name for name, path, _ in kept if path is None]:
            claimed.update(refused)
            entries.append(Entry(student, identity, None, units[refused[0]]))
            continue
        home = students / f"{index + 1}"
        home.mkdir(parents=True, exist_ok=True)
        for _, path, name in kept:
            if path is not None and not name.startswith(".") and path.stat().st_size <= SUBMISSION_BYTES:  # larger: nothing to grade
                shutil.copyfile(path, home / name)
        entries.append(Entry(student, identity, home))
    return entries
