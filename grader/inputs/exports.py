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
Zips are unpacked into a scratch folder: no member outside it, no link, at most
`ZIP_MEMBERS` members and `ZIP_BYTES` bytes in all, each at most `SUBMISSION_BYTES`.
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
from grader.sandbox.isolation import SUBMISSION_BYTES
from grader.sandbox.wire import clean_text

METADATA = "submission_metadata.yml"
ZIP_MEMBERS = 20_000  # members of one export zip
ZIP_BYTES = 1 << 30  # bytes of one export zip once unpacked
CHUNK = 1 << 16
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
    plain folder of submissions, read as before), the `folder` to read, and one line per oddity."""

    layout: str
    folder: Path
    entries: list[Entry] | None = None
    notes: list[str] = field(default_factory=list)


def shown(text: object) -> str:
    """`text` from the export, safe to show on one line."""
    return clean_text(str(text), NAME_LIMIT).replace("\n", " ")


def read_export(path: Path, scratch: Path) -> Export:
    """The submissions at `path` (a folder or a zip, unpacked into `scratch`), their layout found by
    what they hold."""
    notes: list[str] = []
    folder = path
    if path.is_file() and zipfile.is_zipfile(path):
        folder = scratch / "unpacked"
        notes += unpack(path, folder)
        inner = [p for p in folder.iterdir() if not p.name.startswith((".", "__"))]
        if len(inner) == 1 and inner[0].is_dir() and not inner[0].is_symlink() and not (folder / METADATA).exists():
            folder = inner[0]  # the export's own top folder
    elif not path.is_dir():
        return Export("unknown", path, [], [f"{shown(path)}: neither a folder nor a zip of submissions"])
    if (folder / METADATA).is_file():
        return _gradescope(folder, notes)
    if people := _prairielearn(folder, scratch / "students"):
        return Export(f"PrairieLearn download ({len(people)} students)", folder, people, notes)
    looks_gradescope = any(p.is_dir() and re.fullmatch(r"submission_\d+", p.name) for p in folder.iterdir())
    if looks_gradescope:
        notes.append(f"{shown(folder.name)}: no {METADATA}: read as a folder of submissions, named by their folders")
    elif path.is_file():
        notes.append(f"{shown(path.name)}: a zip of an unknown layout: read as a folder of submissions")
    return Export("a folder of submissions", folder, None, notes)


def unpack(archive: Path, target: Path) -> list[str]:
    """Unpack the zip `archive` into `target`, member by member; one line per member refused."""
    notes: list[str] = []
    target.mkdir(parents=True, exist_ok=True)
    total = 0
    with zipfile.ZipFile(archive) as opened:
        members = opened.infolist()
        if len(members) > ZIP_MEMBERS:
            notes.append(f"{shown(archive.name)}: more than {ZIP_MEMBERS} members: only the first are read")
        for member in members[:ZIP_MEMBERS]:
            name = shown(member.filename)
            parts = PurePosixPath(member.filename.replace("\\", "/")).parts
            kind = stat.S_IFMT(member.external_attr >> 16)  # 0 when the zip says nothing
            if not parts or member.filename.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
                notes.append(f"{shown(archive.name)}: {name} points outside the export: not unpacked")
            elif kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                notes.append(f"{shown(archive.name)}: {name} is a link or a special file: not unpacked")
            elif member.is_dir():
                (target / Path(*parts)).mkdir(parents=True, exist_ok=True)
            elif member.file_size > SUBMISSION_BYTES or total + member.file_size > ZIP_BYTES:
                notes.append(f"{shown(archive.name)}: {name} is too large ({member.file_size} bytes): not unpacked")
            else:
                try:
                    written = _copy_bounded(opened, member, target / Path(*parts), min(SUBMISSION_BYTES, ZIP_BYTES - total))
                except (zipfile.BadZipFile, zlib.error, EOFError):
                    (target / Path(*parts)).unlink(missing_ok=True)
                    written = None
                if written is None:
                    notes.append(f"{shown(archive.name)}: {name} is damaged or larger than it says: not unpacked")
                else:
                    total += written
    return notes


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


def _gradescope(folder: Path, notes: list[str]) -> Export:
    """A Gradescope export: each student's active (else latest) submission folder."""
    import yaml

    try:
        metadata = yaml.safe_load((folder / METADATA).read_text(encoding="utf-8", errors="replace"))
    except yaml.YAMLError as error:
        notes.append(f"{METADATA}: not YAML ({shown(error)}): read as a folder of submissions")
        return Export("a folder of submissions", folder, None, notes)
    if not isinstance(metadata, dict):
        notes.append(f"{METADATA}: not a mapping of submissions: read as a folder of submissions")
        return Export("a folder of submissions", folder, None, notes)
    chosen: dict[str, tuple[tuple[bool, str], str, Identity]] = {}
    for key, data in metadata.items():
        if not isinstance(data, dict) or not isinstance(data.get(":submitters"), list):
            notes.append(f"{METADATA}: {shown(key)} names no submitters: not graded")
            continue
        rank = (data.get(":active") is True, _when(data.get(":created_at")))
        for person in data[":submitters"]:
            identity = _person(person)
            student = identity.sid or identity.email or identity.name
            if not student:
                notes.append(f"{METADATA}: {shown(key)} has a submitter with no name, sid or email")
            elif student not in chosen or rank > chosen[student][0]:
                chosen[student] = (rank, str(key), identity)
    entries = []
    for student, (_, key, identity) in sorted(chosen.items()):
        path = folder / key
        if "/" in key or "\\" in key or key.startswith(".") or not path.is_dir() or path.is_symlink():
            entries.append(Entry(student, identity, None, f"nothing to grade: the export has no folder {shown(key)}"))
        else:
            entries.append(Entry(student, identity, path))
    kept = len({e.folder for e in entries})
    layout = f"Gradescope export ({len(metadata)} submissions, {len(entries)} students; {kept} kept: each one's active or latest)"
    return Export(layout, folder, entries, notes)


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


def _prairielearn(folder: Path, students: Path) -> list[Entry]:
    """A PrairieLearn download: each uid's latest submission, its files copied to a folder of
    its own under `students` ([] when `folder` holds no file named the PrairieLearn way)."""
    files = [p for p in folder.iterdir() if p.is_file() and not p.is_symlink()]
    latest: dict[str, tuple[int, list[tuple[Path, str]]]] = {}
    for path in files:
        found = FULL.match(path.name) or MANUAL.match(path.name)
        if found is None:
            continue
        who, number = found["who"], int(found["id"])
        if who not in latest or number > latest[who][0]:
            latest[who] = (number, [])
        if number == latest[who][0]:
            latest[who][1].append((path, found["file"]))
    if not latest:
        return []
    entries = []
    for index, (who, (_, kept)) in enumerate(sorted(latest.items())):
        home = students / f"{index + 1}"
        home.mkdir(parents=True, exist_ok=True)
        for path, name in kept:
            if not name.startswith(".") and path.stat().st_size <= SUBMISSION_BYTES:  # larger: nothing to grade
                shutil.copyfile(path, home / name)
        student = shown(who)
        entries.append(Entry(student, Identity(sid=student, email=student if "@" in who else ""), home))
    return entries
