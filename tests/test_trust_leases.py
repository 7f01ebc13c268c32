"""No folder another account can make first: the user-id leases every root grader on the
machine shares live in a folder only root can create (`/run/grader-user-ids`), never in
the temporary folder, where an ordinary account could make `grader-user-ids` first (a
folder, a file, or a link to a folder of its own) and stop every root grading (exit 2).

The squatter is an ordinary account (`nobody`): before the grading it makes the old name
in the temporary folder the grader is given (TMPDIR) and tries the new ones; the grading
(under `bwrap` and `user`, both of which take user ids as root) goes on with full marks,
and the squatter's folder, file and link get nothing from root.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Kit, attacker, isolation_unavailable, json_report, needed, no_traceback

from grader.sandbox import isolation, visible

NOBODY = 65534

#: Run as the squatter: makes the old name in the temporary folder as it is told, then tries
#: the new names; prints what each try of the new names got.
SQUAT = """
import errno, json, os, sys
temp, kind, leases = sys.argv[1:4]
old = os.path.join(temp, "grader-user-ids")
if kind == "folder":
    os.mkdir(old, 0o777)
    os.chmod(old, 0o777)
elif kind == "file":
    open(old, "w").write("squatted")
else:
    trap = os.path.join(temp, "trap")
    os.mkdir(trap, 0o777)
    os.chmod(trap, 0o777)
    os.symlink(trap, old)
tries = {
    "make a folder beside": lambda: os.mkdir(leases + "-squat"),
    "link beside": lambda: os.symlink(temp, leases + "-link"),
    "make a lease": lambda: os.open(os.path.join(leases, "1900000000"), os.O_CREAT | os.O_RDWR, 0o666),
    "list the leases": lambda: os.listdir(leases),
}
said = {}
for name, attempt in tries.items():
    try:
        attempt()
        said[name] = "done"
    except OSError as error:
        said[name] = errno.errorcode.get(error.errno, str(error.errno))
print(json.dumps(said))
"""


@pytest.fixture
def temporary_folder() -> Iterator[Path]:
    """A temporary folder anyone may write to, as /tmp is (sticky), that the grader is
    given as TMPDIR: the machine's own /tmp, which other graders use, is left alone."""
    folder = Path(tempfile.mkdtemp(prefix="squat-"))
    os.chmod(folder, 0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_leases_live_in_a_folder_of_roots_alone() -> None:
    """Root's user-id leases are in /run (a folder only root may write to), in a folder of
    root's that no one else may open."""
    needed("--isolation user", isolation_unavailable("user"))
    folder = isolation.lease_folder()
    assert str(folder.parent) in isolation.LEASE_BASES
    info = os.lstat(folder)
    assert stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and stat.S_IMODE(info.st_mode) == 0o700


def test_a_base_others_may_write_to_is_passed_over_and_a_squatted_folder_refused(tmp_path: Path) -> None:
    """A base folder anyone may write to (as /tmp) is never used; a lease folder found
    there as a link, or as a folder of another account's, is refused with one line."""
    needed("--isolation user", isolation_unavailable("user"))
    shared, own = tmp_path / "shared", tmp_path / "own"
    shared.mkdir(mode=0o777)
    own.mkdir(mode=0o755)
    os.chmod(shared, 0o1777)
    assert isolation.lease_folder((str(shared), str(own))) == own / isolation.LEASE_FOLDER
    assert not (shared / isolation.LEASE_FOLDER).exists()
    with pytest.raises(isolation.IsolationUnavailable, match="no folder of root's"):
        isolation.lease_folder((str(shared), str(tmp_path / "missing")))
    for made in ("link", "theirs"):
        base = tmp_path / made
        base.mkdir(mode=0o755)
        if made == "link":
            (base / isolation.LEASE_FOLDER).symlink_to(own)
        else:
            (base / isolation.LEASE_FOLDER).mkdir(mode=0o700)
            os.chown(base / isolation.LEASE_FOLDER, NOBODY, NOBODY)
        with pytest.raises(isolation.IsolationUnavailable, match="must be a folder of root's alone"):
            isolation.lease_folder((str(base),))


@pytest.mark.parametrize("kind", ["folder", "file", "link"])
def test_a_squatter_of_the_temporary_folder_costs_nothing(kit: Kit, tmp_path: Path, temporary_folder: Path, kind: str) -> None:
    """The squatter makes `grader-user-ids` in the grader's temporary folder first and is
    refused every new name; the grading is as if it had not: exit 0, full marks; its folder,
    file or link's target holds nothing of root's."""
    python = isolation.python_for(NOBODY)
    assert python is not None, "no Python the squatter can run"
    squat = subprocess.run(
        [python, "-I", "-S", "-c", SQUAT, str(temporary_folder), kind, str(isolation.lease_folder())],
        user=NOBODY,
        group=NOBODY,
        extra_groups=[],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert squat.returncode == 0, squat.stderr
    assert set(json.loads(squat.stdout).values()) <= {"EACCES", "EPERM"}, squat.stdout
    old = temporary_folder / "grader-user-ids"
    out = tmp_path / "report.json"
    solver = attacker(tmp_path / "student", "correct")
    command = kit.command(kit.course, "--solver", solver, "--json", out, "--only", "forward_check,nctu-1")
    result = subprocess.run(command, cwd=kit.root, env={**kit.env(), "TMPDIR": str(temporary_folder)}, capture_output=True, text=True, timeout=600)
    no_traceback(result)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json_report(out, result)
    assert report["score"] == report["max_score"] > 0, report
    if kind == "file":
        assert old.read_text() == "squatted"
    else:
        holder = temporary_folder / "trap" if kind == "link" else old
        assert old.lstat().st_uid == NOBODY and list(holder.iterdir()) == []
    assert sorted(p.name for p in temporary_folder.iterdir()) == sorted(["grader-user-ids", *(["trap"] if kind == "link" else [])])


def test_an_earlier_graders_leases_are_taken_too_unless_another_account_made_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Graders of earlier versions lease ids in the temporary folder: while root made that
    folder, an id is held there too (no two graders share one); a folder, file or link of
    another account's there is passed over; an id another grader holds in either folder is
    not taken."""
    needed("--isolation user", isolation_unavailable("user"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    old = tmp_path / isolation.LEASE_FOLDER
    old.mkdir(mode=0o700)
    assert old in isolation._earlier_leases()
    new = tmp_path / "new"
    new.mkdir(mode=0o700)
    other = os.open(old / "1900000123", os.O_RDWR | os.O_CREAT, 0o600)  # an earlier grader holds this id
    fcntl.flock(other, fcntl.LOCK_EX)
    try:
        assert isolation._lock_uid([new, old], 1900000123) is None
        fds = isolation._lock_uid([new, old], 1900000124)
        assert fds is not None and len(fds) == 2
        for fd in fds:
            os.close(fd)
        with open(new / "1900000123", "rb") as lease:  # the lease taken in the new folder was let go
            fcntl.flock(lease, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(other)
    shutil.rmtree(old)
    old.mkdir(mode=0o700)
    os.chown(old, NOBODY, NOBODY)
    assert old not in isolation._earlier_leases()
    shutil.rmtree(old)
    old.symlink_to(new)
    assert old not in isolation._earlier_leases()


def test_a_copy_folder_another_account_named_is_not_swept(tmp_path: Path) -> None:
    """The standard library's copies live in a folder anyone may write to (/dev/shm): a
    folder or link another account names like a dead grader's copy is left alone (only the
    copies of the grader's own user are removed), a dead grader's own copy is removed."""
    needed("--isolation user", isolation_unavailable("user"))
    gone = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1  # no process ever has it
    ours, theirs, link = (tmp_path / f"{visible._holder_prefix(gone)}{name}" for name in ("ours", "theirs", "link"))
    for holder in (ours, theirs):
        (holder / "copy").mkdir(parents=True)
    os.chown(theirs, NOBODY, NOBODY)
    link.symlink_to(ours / "copy")
    visible._sweep(tmp_path)
    assert not ours.exists() and (theirs / "copy").is_dir() and link.is_symlink()
