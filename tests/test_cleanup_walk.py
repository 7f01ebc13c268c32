"""The walk that removes what a worker's user left in the folders anyone may write to
(`cleanup.remove_files`): everything of theirs goes, nothing of anyone else's, and root's
folders closed to them are passed through without a look at their files. And the walk
that finds those folders (`cleanup.world_writable`): each open folder is found however
deep, none behind a closed one, and a folder holding no folder is not listed where its
link count says so."""

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


def test_every_open_folder_is_found_and_folders_without_folders_are_not_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folders anyone may write to under a tree, however deep; none behind a folder
    strangers may not pass through; and a folder that holds files only is listed only
    where its file system's link counts cannot say it holds no folder."""
    deep = tmp_path / "usr" / "share" / "app"
    deep.mkdir(parents=True)
    leaf = tmp_path / "usr" / "doc"
    leaf.mkdir()
    for name in range(30):
        (leaf / f"page{name}.txt").write_text("", encoding="utf-8")
    spool = deep / "spool"
    spool.mkdir()
    behind = tmp_path / "root" / "drop"
    behind.mkdir(parents=True)
    for folder in (spool, behind):
        os.chmod(folder, 0o777)
    for folder in (tmp_path, tmp_path / "usr", tmp_path / "usr" / "share", deep, leaf):
        os.chmod(folder, 0o755)
    os.chmod(tmp_path / "root", 0o700)
    listed: list[str] = []
    real_scandir = os.scandir

    def counting_scandir(path: str) -> object:
        listed.append(str(path))
        return real_scandir(path)

    for kinds in (cleanup.COUNTED_LINKS, frozenset()):
        listed.clear()
        monkeypatch.setattr(cleanup, "COUNTED_LINKS", kinds)
        monkeypatch.setattr(cleanup.os, "scandir", counting_scandir)
        found = cleanup.world_writable(str(tmp_path))
        monkeypatch.undo()
        assert found == [str(spool)], kinds
        counted = os.stat(leaf).st_dev in cleanup._devices(kinds)
        assert (str(leaf) in listed) != counted, (kinds, listed)
        assert str(tmp_path / "root") not in listed


def test_devices_are_read_from_the_mount_table(tmp_path: Path) -> None:
    """The devices of the file systems of the kinds asked for, optional fields or not; a
    table that cannot be read gives none (and every folder is listed)."""
    table = tmp_path / "mountinfo"
    table.write_text(
        "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
        "23 22 0:21 / /dev/shm rw,nosuid - tmpfs tmpfs rw\n"
        "24 22 0:48 / /home rw master:2 shared:3 - btrfs /dev/sdb rw\n",
        encoding="utf-8",
    )
    assert cleanup._devices(cleanup.COUNTED_LINKS, str(table)) == {os.makedev(8, 1), os.makedev(0, 21)}
    assert cleanup._devices(cleanup.COUNTED_LINKS, str(tmp_path / "absent")) == set()
