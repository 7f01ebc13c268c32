"""How a worker is isolated: `bwrap`, `user` or `none`, and what it can see.

- `bwrap`: bubblewrap gives the worker its own mount, PID, IPC, network and user
  namespaces: it sees its interpreter and the shared libraries it loads, a copy of
  Python's standard library made for this grading run alone (`visible.py`), the
  student-facing library and its own submission, all read-only, and an empty private
  /tmp; nothing else exists for it: no /proc and no /sys, whose counters (threads, load,
  memory, CPU time of the whole machine) and mount table (the host's paths) other
  gradings move. When the grader runs as root, bubblewrap itself is started as an
  unprivileged user.
- `user` (the grader runs as root, without bubblewrap): the worker runs as an unprivileged
  user of its own (one per worker running at the same time), in a private folder, and
  the grader checks first that this user can read none of the grading data.
- `none`: process limits only (memory, output, time), for a student grading their own
  code on their own machine.

A `Sandbox` holds what every worker of one grading run shares: the mode, the interpreter,
a read-only copy of the student-facing library (the "view"), private copies of the
submissions, the folder of the workers' control groups (where one can be made), and,
under `user`, the pool of user ids and a guardian process that kills every process of
those users if the grader dies.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import importlib.util
import os
import pwd
import py_compile
import queue
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from grader.errors import UserError
from grader.sandbox import cleanup, reachprobe, visible
from grader.sandbox.cgroup import Group, Tree, open_tree
from grader.sandbox.cleanup import SHADOW_OFFSET, clean_users, kill_user, live_users, world_writable
from grader.sandbox.usage import in_memory
from solvers.cliargs import ANSWER_KEY  # `user` isolation must hide every file of it


class Isolation(StrEnum):
    """How student code is kept apart, strongest first: a bubblewrap container, an
    unprivileged user of its own, or process limits only."""

    BWRAP = "bwrap"
    USER = "user"
    NONE = "none"


MODES = tuple(mode.value for mode in Isolation)  # as `--isolation` spells them
KIT_ROOT = Path(__file__).resolve().parents[2]
#: What student code may import from the kit: the model (board, CSP, engine), the game's
#: view and moves, and the child side of the sandbox (with how it words an exception). No
#: reference answer is among them.
STUDENT_API = (
    "solvers/__init__.py",
    "solvers/board.py",
    "solvers/csp.py",
    "solvers/textformat.py",
    "solvers/engine.py",
    "solvers/errortext.py",
    "play/__init__.py",
    "play/view.py",
    "grader/__init__.py",
    "grader/hooktable.py",
    "grader/sandbox/__init__.py",
    "grader/sandbox/child.py",
    "grader/sandbox/confine.py",
    "grader/sandbox/wire.py",
)
BOOTSTRAP = "import sys; sys.path[:0] = [sys.argv[1]]; from grader.sandbox.child import main; main(sys.argv[1:])"
FIRST_UID = 1_900_000_000  # user ids for workers under `user`: far above any real account
#: Where every grader on this machine keeps its user-id leases: a folder in the first of
#: these that root alone may write to (never the temporary folder, where any account could
#: make the folder first).
LEASE_BASES = ("/run", "/var/lib")
LEASE_FOLDER = "grader-user-ids"
SUBMISSION_FILES = 200  # .py files copied from one submission, at most
SUBMISSION_BYTES = 5 << 20
TMP_BYTES = 64 << 20  # the private /tmp under bwrap (a tmpfs: memory the process limits do not count)
SHM_BYTES = 16 << 20  # its private /dev/shm (the rest of its /dev is read-only)


Scope = Literal["file", "siblings", "folder"]
#: The bubblewrap on the grader's PATH (workers get a PATH of their own).
BWRAP = shutil.which("bwrap")


class IsolationUnavailable(UserError):
    """The isolation mode asked for cannot be had here (the message says why)."""


def _clean_env(home: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}


def _run_as(uid: int | None, argv: list[str], timeout: float = 20.0, given: str | None = None) -> subprocess.CompletedProcess[str] | None:
    """Run a short command, as `uid` when given, with `given` on its standard input (else
    none); None when it cannot start or times out."""
    extra = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    feed = {"input": given} if given is not None else {"stdin": subprocess.DEVNULL}
    try:
        done: subprocess.CompletedProcess[str] = subprocess.run(  # type: ignore[call-overload]
            argv, capture_output=True, text=True, timeout=timeout, cwd="/", env=_clean_env("/"), **feed, **extra
        )
        return done
    except (OSError, subprocess.SubprocessError):
        return None


def _python_candidates() -> list[str]:
    found = [os.path.realpath(sys.executable)]
    for name in ("python3.13", "python3.12", "python3.11", "python3"):
        for folder in ("/usr/bin", "/usr/local/bin"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                found.append(os.path.realpath(path))
    return list(dict.fromkeys(found))


def python_for(uid: int | None) -> str | None:
    """An interpreter (3.11 or later) that `uid` can run: ours if it can, else the system's."""
    for candidate in _python_candidates():
        ran = _run_as(uid, [candidate, "-I", "-S", "-c", "import sys; print(sys.version_info >= (3, 11))"])
        if ran is not None and ran.stdout.strip() == "True":
            return candidate
    return None


def exposed(uid: int, python: str, paths: list[Path]) -> list[str]:
    """What of `paths` user `uid` can read or write: lines like 'read /path' (see
    `reachprobe`, whose source the user's interpreter reads on its standard input: the
    kit is among what the user must not read)."""
    program = Path(reachprobe.__file__).read_text(encoding="utf-8")
    ran = _run_as(uid, [python, "-I", "-S", "-", *map(str, paths)], given=program)
    if ran is None or ran.returncode != 0:  # a probe that failed has seen nothing: no proof the paths are closed
        return ["probe could not run"]
    return ran.stdout.splitlines()


def answer_key_files() -> list[Path]:
    """Every module of the answer key where it is installed (found without importing it;
    none in a student copy)."""
    import importlib.util

    spec = importlib.util.find_spec(ANSWER_KEY)
    if spec is None or not spec.origin:
        return []
    return sorted(Path(spec.origin).parent.rglob("*.py"))


def bwrap_works(python: str, uid: int | None) -> str | None:
    """None when bubblewrap can start a worker here, else why not."""
    if BWRAP is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        visible.bound(python)
    except visible.ProbeFailed as error:
        return str(error)
    with tempfile.TemporaryDirectory() as empty:
        os.chmod(empty, 0o755)
        argv = _bwrap_argv(python, Path(empty), Path(empty)) + [python, "-I", "-S", "-c", "print('ok')"]
        ran = _run_as(uid, argv)
    if ran is None or ran.stdout.strip() != "ok":
        detail = (ran.stderr.strip().splitlines() or ["no output"])[-1] if ran is not None else "it did not start"
        return f"bubblewrap cannot create a sandbox here ({detail})"
    return None


@functools.cache
def _no_namespaces_inside() -> tuple[str, ...]:
    """bubblewrap's flag that refuses new user namespaces inside the sandbox (so no tmpfs
    of its own, whose memory a worker would hold), where this bubblewrap has it (0.8 on)."""
    try:
        said = subprocess.run([BWRAP or "bwrap", "--help"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ()
    return ("--disable-userns",) if "--disable-userns" in said.stdout + said.stderr else ()


def _bwrap_argv(python: str, view: Path, submission: Path, private: Path | None = None) -> list[str]:
    """bubblewrap's command line up to (not including) the command it runs. `private`:
    the sandbox's folder, where the worker's own copy of the standard library is made
    (without it the machine's is bound: for probes that run no student code)."""
    argv = [
        BWRAP or "bwrap",
        "--unshare-all",
        "--unshare-user",
        *_no_namespaces_inside(),
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
    ]
    for key, value in _clean_env("/tmp").items():
        argv += ["--setenv", key, value]
    for name in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(name):
            argv += ["--symlink", os.readlink(name), name]
    seen = visible.bound(python)
    argv += seen.argv(visible.private_copy(seen, private) if private is not None else None)
    argv += [
        "--ro-bind",
        str(view),
        "/kit",
        "--ro-bind",
        str(submission),
        "/submission",
        "--dev",
        "/dev",
        "--size",
        str(SHM_BYTES),
        "--tmpfs",
        "/dev/shm",
        "--remount-ro",
        "/dev",
        "--size",
        str(TMP_BYTES),
        "--tmpfs",
        "/tmp",
        "--chdir",
        "/tmp",
        "--",
    ]
    return argv


@dataclass
class Sandbox:
    """What every worker of one grading run shares (see the module docstring)."""

    mode: Isolation
    python: str
    root: Path  # private folder: view/, submissions/, scratch/
    uids: queue.Queue[int] | None = None
    guardian: subprocess.Popen[bytes] | None = None
    note: str = ""  # why a stronger mode was not used
    locks: list[int] = field(default_factory=list)  # descriptors holding our user ids
    writable: list[str] = field(default_factory=list)  # under `user`: the folders anyone may write to
    ram_folders: list[str] = field(default_factory=list)  # those of them whose files are held in memory
    tree: Tree | None = field(init=False, default=None)  # where each worker gets a control group of its own
    unbounded: str = field(init=False, default="")  # what the kernel does not keep here, and why ("" when all)
    _copies: dict[tuple[str, str], Path] = field(default_factory=dict)
    _preparing: threading.Thread | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.mode is Isolation.BWRAP:  # made while the run gets ready, not when its first worker starts
            self._preparing = threading.Thread(target=self._prepare, name="the standard library's copy", daemon=True)
            self._preparing.start()
        found = open_tree()
        if isinstance(found, Tree):
            self.tree = found
            if found.unshared:
                self.unbounded = f"CPU not shared evenly between workers: {found.unshared}"
        else:
            self.unbounded = f"memory and processes counted by the grader, not the kernel, and CPU not shared evenly between workers: {found}"

    def _prepare(self) -> None:
        """What a worker under bubblewrap sees of the machine, and the run's copy of the
        standard library (`visible`)."""
        try:
            visible.private_copy(visible.bound(self.python), self.root)
        except Exception:  # noqa: BLE001 (the first worker to start meets the same failure, and reports it)
            return

    def group(self, memory_bytes: int, tasks: int) -> Group | None:
        """A control group of its own for a new worker (None where none can be made here);
        OSError when it cannot be made this time."""
        return self.tree.group(memory_bytes, tasks) if self.tree is not None else None

    @property
    def view(self) -> Path:
        return self.root / "view"

    def submission(self, source: Path, scope: Scope = "siblings") -> Path:
        """A private read-only copy of a submission's Python files; the hooks file in it.

        `scope`: "file" copies `source` alone (a file among other students' files),
        "siblings" the .py files beside it too (its helpers), "folder" every .py file in
        its folder and sub-folders (a folder submission).
        """
        key = (str(source), scope)
        if key not in self._copies:
            target = Path(tempfile.mkdtemp(prefix="s", dir=self.root / "submissions"))
            if scope != "file":
                _copy_python_files(source.parent, target, recursive=scope == "folder")
            shutil.copyfile(source, target / source.name)
            self._copies[key] = target / source.name  # private (0700): each worker gets its own copy
        return self._copies[key]

    def command(self, hooks: Path, reply_fd: int, memory_mb: int, uid: int | None) -> tuple[list[str], dict[str, Any]]:
        """The worker's command line and the extra arguments for `subprocess.Popen`.

        The worker gets a private folder (its user's alone) holding its own copy of the
        submission: no other worker, of this student or another, can read it.
        """
        contained = "1" if self.mode is not Isolation.NONE else "0"
        scratch = Path(tempfile.mkdtemp(prefix="w", dir=self.root / "scratch"))
        own = scratch / "submission"
        shutil.copytree(hooks.parent, own)
        hooks = own / hooks.name
        tail = ["-I", "-S", "-u", "-c", BOOTSTRAP]
        if self.mode is Isolation.BWRAP:
            argv = _bwrap_argv(self.python, self.view, own, self.root) + [
                self.python,
                *tail,
                "/kit",
                f"/submission/{hooks.name}",
                str(reply_fd),
                str(memory_mb),
                contained,
            ]
        else:
            argv = [self.python, *tail, str(self.view), str(hooks), str(reply_fd), str(memory_mb), contained]
        extra: dict[str, Any] = {"cwd": str(scratch), "env": _clean_env(str(scratch))}
        if uid is not None:
            for path in (scratch, *scratch.rglob("*")):
                os.chown(path, uid, uid)
            extra.update(user=uid, group=uid, extra_groups=[])
        return argv, extra

    def take_uid(self) -> int | None:
        """A user id of the pool for one worker (told to the guardian first); OSError
        when the guardian cannot be told (the id goes back to the pool)."""
        if self.uids is None:
            return None
        uid = self.uids.get()
        try:
            self._tell_guardian(str(uid))
        except OSError:
            self.uids.put(uid)
            raise
        return uid

    def _tell_guardian(self, line: str) -> None:
        """One line to the guardian (see `cleanup.guard`), if there is one."""
        if self.guardian is not None and self.guardian.stdin is not None:
            self.guardian.stdin.write(f"{line}\n".encode())
            self.guardian.stdin.flush()

    def probed(self) -> Probed | None:
        """What opening this sandbox learned of the machine (None without isolation)."""
        if self.mode is Isolation.NONE:
            return None
        seen = visible.bound(self.python) if self.mode is Isolation.BWRAP else None
        return Probed(self.mode, self.python, seen, tuple(self.writable))

    def helpers(self) -> frozenset[int]:
        """The processes of the sandbox's own that are no worker (the guardian)."""
        return frozenset({self.guardian.pid}) if self.guardian is not None else frozenset()

    def release_uid(self, uid: int | None) -> None:
        """As root: kill every process `uid` still has and, under `user`, remove its IPC
        objects and what it left in the folders anyone may write to; then give the id
        back to the pool, or, if a process of it survived, a fresh id in its place."""
        if uid is None or self.uids is None:
            return
        if not clean_users([uid], SHADOW_OFFSET, self.writable if self.mode is Isolation.USER else None):
            with contextlib.suppress(OSError):  # untold, the guardian cleans it once more: no harm
                self._tell_guardian(f"-{uid}")  # cleaned: not to be cleaned again when the grader ends
            self.uids.put(uid)
        else:  # never handed out again (its lock stays held until this grader ends)
            self.uids.put(_claim_uids(1, self.locks, after=uid)[0])

    def close(self) -> None:
        if self._preparing is not None:
            self._preparing.join()
        visible.release(self.root)
        if self.guardian is not None:
            if self.guardian.stdin is not None:
                self.guardian.stdin.close()  # the guardian cleans every id it was given
            self.guardian.wait(timeout=30)
        for fd in self.locks:  # the ids are free for other graders once their processes are gone
            os.close(fd)
        if self.tree is not None:
            self.tree.close()
        shutil.rmtree(self.root, ignore_errors=True)


def _guardian(writable: list[str]) -> subprocess.Popen[bytes]:
    """A root process that cleans every user id it is sent once its standard input closes:
    when the grader ends, however it ends. Signals other than SIGKILL do not stop it."""
    return subprocess.Popen(
        [sys.executable, "-I", "-S", cleanup.__file__, "guard", str(SHADOW_OFFSET), *writable],
        stdin=subprocess.PIPE,
        start_new_session=True,
        cwd="/",
        env=_clean_env("/"),
    )


def _copy_python_files(source: Path, target: Path, recursive: bool) -> None:
    files = sorted(source.rglob("*.py") if recursive else source.glob("*.py"))
    files = [f for f in files if f.is_file() and not f.is_symlink() and "__pycache__" not in f.parts]
    if len(files) > SUBMISSION_FILES or sum(f.stat().st_size for f in files) > SUBMISSION_BYTES:
        raise IsolationUnavailable(
            f"{source} holds more than {SUBMISSION_FILES} Python files or {SUBMISSION_BYTES >> 20} MB: submit only your own files"
        )
    for file in files:
        destination = target / file.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, destination)


def _open_for_reading(folder: Path) -> None:
    """Everyone may read (not write) `folder`'s files: an unprivileged worker reads them."""
    os.chmod(folder, 0o755)
    for path in folder.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)


def _write_view(view: Path) -> None:
    """The student-facing library in `view`, each module with the kit's own compiled
    form where that is fresh: a worker whose interpreter reads it (the same Python
    version) does not compile the library again at every start."""
    for name in STUDENT_API:
        source, target = KIT_ROOT / name, view / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)  # its time kept: what the compiled form was made from
        compiled = _fresh_bytecode(source)
        if compiled is not None:
            cached = Path(importlib.util.cache_from_source(str(target)))
            cached.parent.mkdir(exist_ok=True)
            cached.write_bytes(compiled)
    _open_for_reading(view)


def _fresh_bytecode(source: Path) -> bytes | None:
    """The kit's compiled form of `source`, made from the source as it is now (see
    `_stamped`); a missing or stale one is compiled first, into the kit's own cache as
    importing it would, unless Python is told to write no bytecode. None when there is none."""
    compiled = _stamped(source)
    if compiled is None and not sys.dont_write_bytecode:
        try:
            py_compile.compile(str(source), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
        except (OSError, py_compile.PyCompileError):
            return None
        compiled = _stamped(source)
    return compiled


def _stamped(source: Path) -> bytes | None:
    """The cached compiled form of `source` when its header is stamped with the source's
    time and size as they are now (one that is not, or is stamped by hash, is left behind)."""
    try:
        compiled = Path(importlib.util.cache_from_source(str(source))).read_bytes()
        info = source.stat()
    except OSError:
        return None
    stamp = (int(info.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (info.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    return compiled if compiled[4:8] == bytes(4) and compiled[8:16] == stamp else None


def _uid_pool(count: int, held: list[int]) -> queue.Queue[int]:
    """A pool of `count` user ids (see `_claim_uids`)."""
    pool: queue.Queue[int] = queue.Queue()
    for uid in _claim_uids(count, held):
        pool.put(uid)
    return pool


def _claim_uids(count: int, held: list[int], after: int = FIRST_UID - 1) -> list[int]:
    """`count` user ids above `after` that no account and no other grader on this machine
    uses and that no process runs as: each is claimed with a lock file held until this
    process ends (its descriptor goes in `held`)."""
    folders = [lease_folder(), *_earlier_leases()]
    claimed: list[int] = []
    uid = after + 1
    while len(claimed) < count:
        locked: list[tuple[int, list[int]]] = []  # (id, its locks) not yet checked for processes
        while len(claimed) + len(locked) < count:
            fds = _lock_uid(folders, uid)
            if fds is not None:
                locked.append((uid, fds))
            uid += 1
        running = live_users()  # one look at /proc once the locks are held: no grader starts one of these ids now
        for candidate, fds in locked:
            if candidate not in running or kill_user(candidate, candidate + SHADOW_OFFSET):  # a survivor of an earlier run keeps its id
                held.extend(fds)
                claimed.append(candidate)
            else:
                for fd in fds:
                    os.close(fd)
    return claimed


def _earlier_leases() -> list[Path]:
    """Where graders of kit 0.2.0 and earlier on this machine take their leases (the
    temporary folder's `grader-user-ids`, /tmp's unless TMPDIR says otherwise), when root
    made it: an id is taken there too, so that no two graders of different versions share
    one. A name another account made there is left alone."""
    folders = dict.fromkeys(os.path.join(temp, LEASE_FOLDER) for temp in (tempfile.gettempdir(), "/tmp"))
    return [Path(folder) for folder in folders if _roots_alone(folder, 0o077)]


def lease_folder(bases: tuple[str, ...] = LEASE_BASES) -> Path:
    """The folder of the user-id leases, made if need be, in the first of `bases` that is
    a folder of root's no one else may write to: no other account can have made it (or a
    link in its place). IsolationUnavailable when there is none, or the folder found is
    not root's alone."""
    for base in bases:
        if _roots_alone(base, 0o022):
            folder = os.path.join(base, LEASE_FOLDER)
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o700)
            if not _roots_alone(folder, 0o077):
                raise IsolationUnavailable(f"{folder} must be a folder of root's alone")
            return Path(folder)
    raise IsolationUnavailable(f"no folder of root's that others cannot write to for the user-id leases ({', '.join(bases)})")


def _roots_alone(path: str, others: int) -> bool:
    """`path` is a folder (not a link), root's, with none of the permission bits `others`."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & others


def _reopen(probed: Probed, root: Path, workers: int) -> Sandbox:
    """A sandbox of the mode `probed` found, in `root`, without probing the machine again."""
    locks: list[int] = []
    try:
        pool = _uid_pool(max(1, workers), locks) if os.geteuid() == 0 else None
        if probed.bound is not None:
            visible.remember(probed.python, probed.bound)
        return _opened(probed.mode, probed.python, root, pool, locks, list(probed.writable) if probed.writable else None)
    except BaseException:
        for fd in locks:
            os.close(fd)
        raise


def _opened(mode: Isolation, python: str, root: Path, pool: queue.Queue[int] | None, locks: list[int], writable: list[str] | None = None) -> Sandbox:
    """The sandbox once `mode` is known to work with `python`; under `user`, the folders
    anyone may write to are found (unless given) and what an earlier run may have left
    there under the pool's ids is removed first."""
    if mode is Isolation.BWRAP or pool is None:
        return Sandbox(mode, python, root, pool, locks=locks)
    writable = world_writable() if writable is None else writable
    clean_users(list(pool.queue), SHADOW_OFFSET, writable)
    return Sandbox(mode, python, root, pool, _guardian(writable), locks=locks, writable=writable, ram_folders=in_memory(writable))


def _lock_uid(folders: list[Path], uid: int) -> list[int] | None:
    """The held locks of `uid` (open descriptors, one in each of `folders`) when no account
    has that id and no other grader holds it; None otherwise."""
    try:
        pwd.getpwuid(uid)
        return None
    except KeyError:
        pass
    fds: list[int] = []
    try:
        for folder in folders:
            fds.append(os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
            fcntl.flock(fds[-1], fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BaseException as error:
        for fd in fds:
            os.close(fd)
        if isinstance(error, BlockingIOError):  # another grader has it
            return None
        raise
    return fds


def _why_not_user(python: str | None, uid: int | None, secrets: list[Path]) -> str | None:
    if os.geteuid() != 0 or uid is None:
        return "user isolation needs the grader to run as root"
    if python is None:
        return "no Python 3.11 or later that an unprivileged user can run (install python3)"
    leaks = [line for line in exposed(uid, python, secrets)]
    if leaks:
        action, _, path = leaks[0].partition(" ")
        return (
            f"an unprivileged user can {action} {path or 'the grading data'}; close the grading data to other "
            f"users (chmod -R go-rwx on the kit, the problems and the config)"
        )
    return None


@dataclass(frozen=True)
class Probed:
    """What opening a sandbox learned of the machine: the mode that works, the interpreter
    workers run, what they see under bubblewrap (`bound`), and under `user` the folders
    anyone may write to. A class run hands it to each submission's grading process, which
    opens a sandbox of that mode without probing again (with its own folder, user ids,
    guardian and copy of the standard library)."""

    mode: Isolation
    python: str
    bound: visible.Bound | None = None
    writable: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_data(data: dict[str, Any]) -> Probed:
        seen = data["bound"]
        bound = None
        if seen is not None:
            links = tuple((target, path) for target, path in seen["links"])
            bound = visible.Bound(seen["stdlib"], tuple(seen["masks"]), tuple(seen["files"]), links)
        return Probed(Isolation(data["mode"]), data["python"], bound, tuple(data["writable"]))


def open_sandbox(mode: str, secrets: list[Path], workers: int, probed: Probed | None = None) -> Sandbox:
    """The sandbox for one grading run; `mode` is auto or one of MODES.

    `secrets` are the files `user` isolation must hide (problem files, config, outputs);
    the answer key and the kit are added here. `workers`: how many may run at once.
    `probed`: what the grader that started this process found (then `mode` is its mode).
    Raises IsolationUnavailable when an explicit mode cannot be had.
    """
    root = Path(tempfile.mkdtemp(prefix="grader-"))
    os.chmod(root, 0o711)
    for name in ("view", "submissions", "scratch"):
        (root / name).mkdir()
    os.chmod(root / "submissions", 0o711)
    os.chmod(root / "scratch", 0o711)
    _write_view(root / "view")
    try:
        if probed is not None:
            return _reopen(probed, root, workers)
        return _choose(mode, root, [KIT_ROOT, *answer_key_files(), *secrets], workers)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def _choose(mode: str, root: Path, secrets: list[Path], workers: int) -> Sandbox:
    is_root = os.geteuid() == 0
    locks: list[int] = []
    pool = _uid_pool(max(1, workers) + 1, locks) if is_root else None
    probe_uid = pool.get() if pool is not None else None  # ours alone: no other grader sweeps it
    reasons: dict[Isolation, str] = {}
    python = python_for(probe_uid)
    try:
        for candidate in tuple(Isolation) if mode == "auto" else (Isolation(mode),):
            if candidate is Isolation.NONE:
                note = "; ".join(f"{m}: {why}" for m, why in reasons.items())
                return Sandbox(candidate, os.path.realpath(sys.executable), root, note=note, locks=locks)
            if candidate is Isolation.BWRAP:
                why = bwrap_works(python, probe_uid) if python else "no Python 3.11 or later that an unprivileged user can run"
            else:
                why = _why_not_user(python, probe_uid, secrets)
            if why is None and python is not None:
                return _opened(candidate, python, root, pool, locks)
            reasons[candidate] = why or "unavailable"
    except BaseException:
        for fd in locks:
            os.close(fd)
        raise
    for fd in locks:
        os.close(fd)
    raise IsolationUnavailable(f"--isolation {mode}: {reasons[Isolation(mode)]}")
