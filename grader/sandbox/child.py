"""The worker: loads a student's file and answers the grader's questions, a call or a batch of calls at a time.

Started by `grader.sandbox.host` inside the sandbox as

    python -I -S -u -c "<bootstrap>" VIEW SOURCE REPLY_FD MEMORY_MB CONTAINED

VIEW holds the student-facing library (and this file), SOURCE is the student's file,
REPLY_FD the descriptor replies go to. Questions arrive on standard input, one per line
(see `wire`). The grader runs every search, game and SAT solve itself, and checks every
answer there. This process sees a call's arguments, or a batch of them, or runs a board's
search with the student's hooks itself (`search_board`) so that its calls need no round
trip each: the grader keeps what its own search found from those replies only when both
searches made the same calls.

This process never runs student code itself. For every graded item it forks a fresh
copy of itself, which confines itself (`confine`: no new processes, no memory outside the
counts, no channels to later workers), loads the student's file afresh and answers that
item's questions, then ends. So each item starts from the file as written, whatever items
the worker served before: a hook that keeps state between calls gets the same grade in
any order and with any number of jobs, and nothing an item saw stays behind. The first
fork only checks that the file loads, and says why when it does not (with the module an
import did not find, as a typed field: the grader words that reason). Whatever the
isolation, an import finds only the standard library, the student-facing library and
the student's own files (`OwnFilesAndStandardLibrary`).
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import json
import os
import random
import resource
import signal
import sys
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO

from grader.hooktable import AGENT_NAME, BY_NAME, ENGINE_HOOKS, HookSpec, Unfit
from grader.sandbox.confine import can_confine, confine
from grader.sandbox.wire import (
    Answer,
    Began,
    BoardRequest,
    CallsDigest,
    Ended,
    Missing,
    Raised,
    RaisedKind,
    Ready,
    Reply,
    Searched,
    Started,
    batch_ends,
    encode,
    from_data,
    reply_message,
    to_data,
)
from solvers.errortext import describe_exception, raised_where

#: Student code that draws random numbers draws the same ones at every grading.
RANDOM_SEED = 0
#: The student-facing library, imported before any fork.
STUDENT_LIBRARY = ("solvers.board", "solvers.csp", "solvers.textformat", "solvers.engine", "play.view")

PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4
OPEN_FILES = 64  # descriptors a worker may hold at once (its own need about ten)
FATAL = (NotImplementedError, SystemExit, MemoryError, KeyboardInterrupt)


def limit_resources(memory_mb: int, contained: bool) -> None:
    """Cap memory, written files and open descriptors (each socket may queue megabytes
    no process's memory shows); die with the parent; be no process another of this user
    may trace or read (the forks running student code are this one's children); in a
    contained worker, cap processes."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        pass
    caps = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 64 << 20), (resource.RLIMIT_NOFILE, OPEN_FILES)]
    if memory_mb > 0:
        caps.append((resource.RLIMIT_AS, memory_mb << 20))
    if contained:  # a user of its own: the count is this worker's alone
        caps.append((resource.RLIMIT_NPROC, 256))
    for which, value in caps:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


class OwnFilesAndStandardLibrary:
    """Lets an import find a module only in the folders the worker's interpreter started
    with (Python's standard library, the kit's student library) and the student's own
    folder, never in installed packages (`site-packages`, `dist-packages`) whatever the
    student adds to `sys.path`: under every isolation mode what bubblewrap alone enforces
    (a worker there sees nothing else). A module found elsewhere is not found."""

    INSTALLED = frozenset({"site-packages", "dist-packages"})

    def __init__(self, started: list[str], own: str):
        """`started`: the interpreter's path as it started (installed packages inside it
        excluded); `own`: the student's folder (all of it)."""
        self.roots = tuple(dict.fromkeys((os.path.realpath(root), False) for root in started if root))
        self.roots += ((os.path.realpath(own), True),)

    def allows(self, place: str) -> bool:
        real = os.path.realpath(place)
        for root, whole in self.roots:
            if (real == root or real.startswith(root.rstrip(os.sep) + os.sep)) and (whole or not self.INSTALLED & set(Path(real[len(root) :]).parts)):
                return True
        return False

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name in sys.builtin_module_names or importlib.machinery.FrozenImporter.find_spec(name) is not None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            return None
        places = [spec.origin] if spec.has_location and spec.origin else list(spec.submodule_search_locations or [])
        if places and all(self.allows(place) for place in places):
            return spec
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def missing_module(error: BaseException, source: Path) -> Missing | None:
    """The module an import did not find (ModuleNotFoundError's own `name`), and the
    deepest line of the student's files that asked for it; None for any other error."""
    if not isinstance(error, ModuleNotFoundError) or not isinstance(error.name, str):
        return None
    folder = str(source.parent)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(folder + os.sep)]
    found = Missing(error.name, Path(frames[-1].filename).name, frames[-1].lineno or 0) if frames else Missing(error.name)
    if not found.well_formed():  # a name the wire does not carry: the exception's own words say it
        found = Missing(error.name)
    return found if found.well_formed() else None


class NoGrader:
    """Refuses imports of the grader from student code (only the worker's own modules are
    here at all; this only makes the refusal say so)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if (name == "grader" or name.startswith("grader.")) and name not in sys.modules:
            raise ImportError("student code may not import the grader")
        return None


def import_source(path: Path) -> ModuleType:
    """Load the student's file as a module (its folder first on the path, for its helpers)."""
    sys.path.insert(0, str(path.parent))
    name = "student_agent" if path.name == "agent.py" else "student_hooks"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path.name} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def student_reason(error: BaseException, source: Path, asked: str = "a hook") -> str:
    """One line for an exception of the student's code: the grader's words for an exit,
    memory run out and a stub (`asked`: the function the grader called, named when a bare
    NotImplementedError names none); else the exception and the deepest frame in the
    student's own files."""
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    if isinstance(error, MemoryError):
        return "ran out of memory (MemoryError)"
    if isinstance(error, NotImplementedError):
        hook = error.args[0] if error.args and isinstance(error.args[0], str) else asked
        if hook == AGENT_NAME:
            return (
                f"your agent's choose_move in {source.name} is still the stub (it raises NotImplementedError): write it there (part 3 of the handout)"
            )
        return f"{hook} is not implemented yet (it raises NotImplementedError)"
    return describe_exception(error, str(source.parent))


def raised_kind(error: BaseException) -> RaisedKind:
    """What the worker saw raised, by the exception's type: a hook that raises
    NotImplementedError is one not written yet, whatever its words."""
    return "not_implemented" if isinstance(error, NotImplementedError) else "raised"


def board_csp(request: Mapping[str, Any]) -> Any:
    """The CSP of a board request's board (`wire.BoardRequest`): a new one each time."""
    from solvers.board import Board
    from solvers.csp import build_csp
    from solvers.textformat import parse_rows

    parsed = parse_rows(request["board"], request["rule"])
    return build_csp(Board(parsed.clues, parsed.rule, request["mines"]))


class Answerer:
    """The student's functions, and the board the current questions are about; `broken`:
    why the file did not load (`missing`: the module an import of it did not find), the
    answer to every question then."""

    def __init__(self, module: ModuleType | None, source: Path, broken: str = "", missing: Missing | None = None):
        self.module, self.source, self.broken, self.missing = module, source, broken, missing
        self.csp: Any = None

    def use_board(self, request: Mapping[str, Any]) -> None:
        self.csp = board_csp(request)

    def answer(self, hook: str, args: dict[str, Any]) -> Answer | Raised:
        if self.broken:
            return Raised(f"cannot load {self.source.name}: {self.broken}", True, self.missing)
        function = getattr(self.module, hook, None)
        if not callable(function):
            return Raised(f"no function named {hook} in {self.source.name}", True, kind="not_implemented")  # not written yet, as a stub
        spec = BY_NAME[hook]
        try:
            value = function(*spec.positional(args, self.csp))  # fresh arguments for every call
            if spec.part == "sat":  # any iterable of iterables is a list of clauses
                value = [list(clause) for clause in value]
            if spec.part == "agent" and type(value).__name__ == "Move":
                return Answer({"move": [str(value.action), [to_data(value.cell[0]), to_data(value.cell[1])]]})
            return Answer(to_data(value))
        except BaseException as error:  # the student's failure is an answer, not our crash
            reason, where = student_reason(error, self.source, hook), raised_where(error, str(self.source.parent))
            return Raised(reason, isinstance(error, FATAL), missing_module(error, self.source), raised_kind(error), where)


def answer_batch(answerer: Answerer, request: dict[str, Any], reply: Callable[[Reply], None]) -> None:
    """Answer a batch's calls in turn, a reply each, up to where the grader stops reading."""
    for ask in request["asks"]:
        if ask["op"] == "board":
            answerer.use_board(ask)
            continue
        record = answerer.answer(ask["hook"], ask["args"])
        reply(record)
        if batch_ends(record, ask["hook"], ask["args"], request["upto"]):
            return


class _SearchEnds(Exception):
    """The grader's search of the board ends at this call: it raised, or its answer broke the contract."""


def search_board(answerer: Answerer, request: BoardRequest, reply: Callable[[Reply], None]) -> None:
    """Run the grader's search of a board (every solution) with the student's hooks, each
    call asked as the grader would ask it and replied as if it had, up to where the
    grader's search ends; then say how many calls it made, and their digest (see `wire`)."""
    from solvers.engine import Strategy, search

    answerer.use_board(request)  # the CSP the student's functions are given, apart from the engine's own
    digest = CallsDigest()

    def asked(spec: HookSpec) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            given = spec.named(args)
            arguments = encode(spec.wire_arguments(given))
            digest.add(spec.name, arguments)
            record = answerer.answer(spec.name, json.loads(arguments))
            reply(record)
            if isinstance(record, Raised):
                raise _SearchEnds
            try:
                return spec.fits(from_data(record.value), given)
            except Unfit:
                raise _SearchEnds from None

        return call

    try:
        search(board_csp(request), Strategy("student", **{s.slot: asked(s) for s in ENGINE_HOOKS}), "all")
    except _SearchEnds:
        pass
    reply(Searched(digest.calls, digest.text()))


def serve_item(answerer: Answerer, requests: BinaryIO, reply: Callable[[Reply], None]) -> None:
    """Answer one item's questions until the grader says it is done."""
    for line in requests:
        request = json.loads(line)
        if request["op"] == "board":
            answerer.use_board(request)
        elif request["op"] == "call":
            reply(answerer.answer(request["hook"], request["args"]))
        elif request["op"] == "calls":
            answer_batch(answerer, request, reply)
        elif request["op"] == "search":
            search_board(answerer, request, reply)
        else:
            return


def describe_status(status: int) -> str:
    """How a process ended, from its wait status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return f"killed by signal {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def end_leftovers(pid: int, contained: bool) -> None:
    """Kill whatever the item's process left running, were it able to start any: in a
    contained worker (never root) every other process this one may signal (its namespace's,
    or its own user id's), else the item's process group."""
    try:
        if contained and os.getuid() != 0:  # never as root: -1 would be every process of the machine
            os.kill(-1, signal.SIGKILL)  # all but this process (and a namespace's init)
        else:
            os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def confinable() -> bool:
    """Whether a fork of this process can confine itself (where a filter exists at all)."""
    if not can_confine():
        return True
    pid = os.fork()
    if pid == 0:
        os._exit(1 if confine() else 0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


#: Why a file that loads but defines no function of the hook table cannot be graded.
NOTHING_DEFINED = f"it defines none of the functions the assignment asks for ({', '.join(BY_NAME)})"


def load(source: Path, quiet: bool) -> Answerer:
    """In a fresh fork: confine this process, then load the student's file (what it prints
    while loading goes nowhere when `quiet`: the check of the file showed it already)."""
    confine()  # it worked in `confinable`
    random.seed(RANDOM_SEED)
    kept = [os.dup(1), os.dup(2)] if quiet else []
    if quiet:
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, 1)
        os.dup2(nowhere, 2)
        os.close(nowhere)
    try:
        module = import_source(source)
        defines = any(callable(getattr(module, name, None)) for name in BY_NAME)
    except BaseException as error:  # a broken file is reported, never a crash
        return Answerer(None, source, student_reason(error, source), missing_module(error, source))
    finally:
        for fd, saved in zip((1, 2), kept):
            os.dup2(saved, fd)
            os.close(saved)
    if not defines:  # an empty file, `x = 1`: nothing in it can be asked
        return Answerer(None, source, NOTHING_DEFINED)
    return Answerer(module, source)


def forked(work: Callable[[], None], reply: Callable[[Reply], None], contained: bool) -> None:
    """Run `work` in a fresh fork of this process, then say how the fork ended."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            work()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    end_leftovers(pid, contained)
    reply(Ended(describe_status(status)))


def serve(source: Path, requests: BinaryIO, reply: Callable[[Reply], None], contained: bool) -> None:
    """Check that the file loads, then serve every item in a fresh fork of this process,
    until standard input closes.

    The grader sends nothing after {"op": "task"} until the fork says it began, and
    nothing after {"op": "end"} until this process says the fork ended, so neither
    process ever reads a line meant for the other.
    """

    def check() -> None:
        answerer = load(source, quiet=False)
        reply(Ready(not answerer.broken, answerer.broken, answerer.missing))

    def item() -> None:
        answerer = load(source, quiet=True)
        reply(Began())
        serve_item(answerer, requests, reply)

    forked(check, reply, contained)
    for line in requests:
        if json.loads(line)["op"] == "task":
            forked(item, reply, contained)


def main(argv: list[str]) -> None:
    _view, source_text, fd_text, memory_text, contained = argv
    source = Path(source_text)
    replies = os.fdopen(int(fd_text), "wb", buffering=0)
    requests = sys.stdin.buffer
    limit_resources(int(memory_text), contained == "1")

    def reply(record: Reply) -> None:
        replies.write(encode(reply_message(record)))

    if not confinable():  # no student code runs unconfined: this worker fails to start (the grader's failure)
        sys.exit("the seccomp filter could not be installed")
    reply(Started())  # before any student code: from here on, a failure is the student's
    sys.meta_path[:0] = [NoGrader(), OwnFilesAndStandardLibrary(list(sys.path), str(source.parent))]
    for module in STUDENT_LIBRARY:  # loaded once here: every fork has it
        importlib.import_module(module)
    serve(source, requests, reply, contained == "1")
