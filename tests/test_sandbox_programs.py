"""The programs the grader runs beside its sandboxes are modules of `grader/sandbox/`,
imported here: the kill helper (`shadowkill`, run as root by file path, the guardian's
runs included), what an unprivileged user can reach (`reachprobe`, its source on the
user's standard input) and what a worker's interpreter maps (`mapsprobe`, in
tests/test_visible_probe.py). Each runs with `-I -S`: the standard library alone."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import needed, python_tree

from grader.sandbox import cleanup, isolation, reachprobe, shadowkill

#: User ids no account has, for the processes and probes of these tests alone.
WORKER, NEIGHBOUR = 1_900_099_021, 1_900_099_022


def as_root() -> str | None:
    return None if os.geteuid() == 0 else "running as another user needs root"


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder others may pass through (pytest's own are closed to them)."""
    folder = Path(tempfile.mkdtemp(prefix="programs-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("argv", [[], ["7"], ["7", "8", "9"], ["0", "100000000"], ["7", "0"], ["-7", "8"], ["seven", "8"], ["7.0", "8"]])
def test_the_kill_helper_refuses_anything_but_two_ids_above_roots(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Root's id as the effective one would make kill(-1) every process of the machine: it
    is refused before any id is taken (the kill itself is replaced here, so that a
    refusal that failed kills nothing)."""
    killed: list[tuple[int, int]] = []
    monkeypatch.setattr(shadowkill, "kill_as", lambda uid, shadow: killed.append((uid, shadow)))
    assert shadowkill.main(argv) == 2
    assert killed == []
    with pytest.raises(shadowkill.Refused):
        shadowkill.ids(argv)


def test_the_kill_helper_reads_the_worker_and_its_shadow() -> None:
    assert shadowkill.ids([str(WORKER), str(WORKER + cleanup.SHADOW_OFFSET)]) == (WORKER, WORKER + cleanup.SHADOW_OFFSET)


def test_the_cleanup_runs_the_kill_helper_by_path_with_the_standard_library_alone() -> None:
    """The file `kill_user` runs is the module imported here, and it starts without the
    kit on its path (as the guardian, a script of its own, runs it): refusing, it says why."""
    assert os.path.samefile(cleanup.KILLER, shadowkill.__file__)
    ran = subprocess.run([sys.executable, "-I", "-S", cleanup.KILLER, "0", "1"], capture_output=True, text=True, timeout=60, cwd="/", env={})
    assert (ran.returncode, ran.stderr.strip()) == (2, "root's id is never killed from")


def test_kill_user_ends_every_process_of_the_worker_and_none_of_its_neighbour() -> None:
    needed("killing another user's processes", as_root())
    worker = [subprocess.Popen(["sleep", "600"], user=WORKER, group=WORKER, extra_groups=[]) for _ in range(2)]
    neighbour = subprocess.Popen(["sleep", "600"], user=NEIGHBOUR, group=NEIGHBOUR, extra_groups=[])
    try:
        assert sorted(cleanup.user_processes(WORKER)) == sorted(p.pid for p in worker)
        assert cleanup.kill_user(WORKER, WORKER + cleanup.SHADOW_OFFSET)
        assert [p.wait(timeout=30) for p in worker] == [-9, -9]
        assert neighbour.poll() is None and cleanup.user_processes(NEIGHBOUR) == [neighbour.pid]
    finally:
        for process in (*worker, neighbour):
            process.kill()
            process.wait()


def test_the_reach_probe_says_what_this_process_can_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert reachprobe.reached(str(tmp_path / "absent")) == []
    assert reachprobe.reached(str(tmp_path / "file")) == ["read", "write"]
    assert reachprobe.main([str(tmp_path), str(tmp_path / "absent")]) == 0
    assert capsys.readouterr().out.splitlines() == [f"read {tmp_path}", f"write {tmp_path}"]


@pytest.mark.slow
def test_what_an_unprivileged_user_reaches_is_probed_without_a_file_of_the_kit(open_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the user: an open file is read, a folder anyone may write to is read and written,
    a closed folder and what it holds are neither. The user's interpreter is given the
    probe's source, no path of the kit (which the user must not read)."""
    needed("probing as an unprivileged user", as_root())
    python = isolation.python_for(WORKER)
    assert python is not None
    (open_folder / "open.txt").write_text("x", encoding="utf-8")
    os.chmod(open_folder / "open.txt", 0o644)
    (open_folder / "closed").mkdir(mode=0o700)
    (open_folder / "closed" / "secret.txt").write_text("x", encoding="utf-8")
    (open_folder / "shared").mkdir()
    os.chmod(open_folder / "shared", 0o1777)
    paths = [open_folder / name for name in ("open.txt", "closed", "closed/secret.txt", "shared")]
    commands: list[list[str]] = []
    run_as = isolation._run_as

    def recorded(uid: int | None, argv: list[str], **rest: Any) -> subprocess.CompletedProcess[str] | None:
        commands.append(argv)
        return run_as(uid, argv, **rest)

    monkeypatch.setattr(isolation, "_run_as", recorded)
    found = isolation.exposed(WORKER, python, paths)
    assert found == [f"read {paths[0]}", f"read {paths[3]}", f"write {paths[3]}"]
    assert commands == [[python, "-I", "-S", "-", *map(str, paths)]]


@pytest.mark.slow
def test_a_reach_probe_that_fails_proves_nothing_closed() -> None:
    """An interpreter that exits in error prints nothing: that is no proof the grading data
    is closed, and `user` isolation is not chosen on it."""
    needed("probing as an unprivileged user", as_root())
    assert isolation.exposed(WORKER, shutil.which("false") or "/bin/false", [Path("/")]) == ["probe could not run"]


def programs_in_strings(path: Path) -> list[str]:
    """Where `path` runs a program given with `-c` (in a list of a command's arguments) that
    is not one line written out (a string, or the name of a module-level one): "file:line"."""
    tree = python_tree(path)
    named = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List):
            words = node.elts
            for flag, program in zip(words, words[1:]):
                if isinstance(flag, ast.Constant) and flag.value == "-c":
                    text = program.value if isinstance(program, ast.Constant) else named.get(getattr(program, "id", ""))
                    if not isinstance(text, str) or "\n" in text.strip():  # built (an f-string, a call) or many lines
                        found.append(f"{path.name}:{program.lineno}")
    return found


def test_no_program_of_the_grader_is_a_string() -> None:
    """A program the grader runs is a module (linted, typed, imported by its tests): `-c`
    is left for one-line commands (the worker's start, which sets the path its modules
    are found on; the interpreter's version; bubblewrap's "ok"; the shell's wait)."""
    root = Path(__file__).resolve().parents[1] / "grader"
    assert [where for path in sorted(root.rglob("*.py")) for where in programs_in_strings(path)] == []


def test_the_program_check_sees_a_program_in_a_string(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    lines = (
        'ONE = "import sys; print(sys.argv)"',
        'MANY = """\nimport os\nos.kill(-1, 9)\n"""',
        'run(["sh", "-c", "exec true"]); run([python, "-I", "-c", ONE])',
        'run([python, "-c", MANY])',
        'run([python, "-c", "import os\\nprint(os.getpid())"])',
        'run([python, "-c", f"{MANY}"])',
    )
    sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert programs_in_strings(sample) == ["sample.py:7", "sample.py:8", "sample.py:9"]
