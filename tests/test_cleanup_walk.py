"""The walk that removes what a worker's user left in the folders anyone may write to
(`cleanup.remove_files`): everything of theirs goes, nothing of anyone else's, and root's
folders closed to them are passed through without a look at their files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import needed

from grader.sandbox import cleanup

WORKER, OTHER = 4_100_000_001, 4_100_000_002  # ids no account has


def owned(path: Path, uid: int) -> Path:
    """`path` given to user and group `uid` (a link itself, not its target)."""
    os.chown(path, uid, uid, follow_symlinks=False)
    return path


def made(path: Path, uid: int) -> Path:
    """A new file at `path` owned by `uid`."""
    path.write_bytes(b"left")
    return owned(path, uid)


@pytest.fixture
def top(tmp_path: Path) -> Path:
    needed("the walk's tests", None if os.geteuid() == 0 else "giving files to other users needs root")
    top = tmp_path / "tmp"
    top.mkdir()
    os.chmod(top, 0o1777)  # as /tmp (mkdir's mode goes through the umask)
    return top


def test_everything_of_theirs_goes_and_nothing_of_anyone_else(top: Path) -> None:
    shelf = top / "shelf"  # a root folder others may pass through, holding a folder anyone may write to
    shelf.mkdir(mode=0o755)
    drop = shelf / "drop"
    drop.mkdir()
    os.chmod(drop, 0o777)
    theirs, others = made(drop / "left.bin", WORKER), made(drop / "kept.bin", OTHER)
    nest = top / "nest"
    nest.mkdir()
    owned(nest, WORKER)
    (nest / "inside.txt").write_text("root's file in their folder goes with it", encoding="utf-8")
    group = top / "group"  # writable by the worker's group (its own number)
    group.mkdir()
    os.chown(group, 0, WORKER)
    os.chmod(group, 0o775)
    in_group = made(group / "g.bin", WORKER)
    closed_over = top / "accomplice"  # another worker's folder, closed after ours wrote into it
    closed_over.mkdir()
    hidden = made(closed_over / "hidden.bin", WORKER)
    owned(closed_over, OTHER)
    os.chmod(closed_over, 0o755)
    outside = top.parent / "outside.txt"
    outside.write_text("a link's target stays", encoding="utf-8")
    link = top / "link"
    link.symlink_to(outside)
    owned(link, WORKER)

    cleanup.remove_files(str(top), frozenset({WORKER}))

    assert not theirs.exists() and not in_group.exists() and not nest.exists() and not link.is_symlink()
    assert not hidden.exists() and closed_over.is_dir()
    assert others.exists() and outside.read_text(encoding="utf-8") == "a link's target stays"
    assert shelf.is_dir() and drop.is_dir() and group.is_dir()


def test_files_in_roots_closed_folders_are_not_looked_at(top: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A /tmp holding a big tree of root's (a virtual environment, a clone) costs the walk
    its folders only: no file in a folder of root's closed to the worker is stat'ed."""
    closed = top / "clone"
    for number in range(20):
        folder = closed / f"package{number}"
        folder.mkdir(parents=True)
        for name in range(50):
            (folder / f"module{name}.py").write_text("", encoding="utf-8")
    os.chmod(closed, 0o755)
    drop = closed / "package7" / "drop"
    drop.mkdir()
    os.chmod(drop, 0o777)
    left = made(drop / "left.bin", WORKER)
    looked: list[str] = []
    real_stat = os.stat

    def counting_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        looked.append(str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cleanup.os, "stat", counting_stat)
    cleanup.remove_files(str(top), frozenset({WORKER}))
    monkeypatch.undo()

    assert not left.exists()  # found under the closed tree all the same
    assert not [name for name in looked if name.endswith(".py")], looked[:5]
    assert len(looked) < 40, len(looked)  # the folders and the drop's file, not the 1000 modules
