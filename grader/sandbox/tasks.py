"""Running the grader's items with a solver's hooks: in chains, in parallel, and retried
when a failure is the grader's own.

An item is a `Task`: grader work that asks a solver's hooks questions (`run(asker)`),
with a time limit (seconds of CPU, see `Budget`), the hooks it needs, the chain it
belongs to and whether it touches hidden data. Each kind of task answers with a record of
its own (the type `A` of `Task[A]` and `Outcome[A]`), made here on the host from what the
worker's checked replies said, and read by its scorer by attribute.

- **Chains.** The caller puts each task in a named chain. A chain runs its tasks in
  order with one worker, every task in a fresh fork of it; chains run `jobs` at a time.
  Which tasks share a worker, and in what order, is fixed by the chains alone, so no
  outcome depends on `--jobs` or on timing. The largest chains start first (by their
  tasks' `size`), so that the last to end is a short one.
- **Ours, not theirs.** A failure of the grader's or the machine's (a worker that cannot
  start, an exception in the grader's own code) is retried once in a fresh worker; if it
  fails again, the outcome is "ungraded", never a score. Everything after the student's
  code started is the student's (`grader.sandbox.host`).
- **Unloadable.** When the worker's load report says the student's file does not load,
  every task of the chain fails with that reason and the kind "unloadable". Every failed
  task's `error_kind` (`grader.errors.ErrorKind`) is such a typed fact, set where the
  failure was seen, which the reports read, never a reason's text.
- **Hung hooks.** Once `HUNG_AFTER` tasks of a chain ran out of time in the same hook,
  the chain's later tasks that need that hook are not run: they fail at once, saying why,
  with the status "not_run" (they did not run out of time themselves).
- **Hidden data.** Hidden tasks run in chains of their own, after every visible chain, so
  no worker that saw anything of a hidden problem ever answers for a visible item.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from grader.errors import ErrorKind, HookError
from grader.sandbox.host import Asker, WorkerFailure, become_subreaper, interrupt
from solvers.errortext import describe_exception

HUNG_AFTER = 2  # tasks of one chain that ran out of time in a hook before the rest needing it are not run

#: not_run: never started (its hook ran out of time before); ungraded: the grader's failure or the machine's, twice
Failure = Literal["error", "timeout", "not_run", "ungraded"]
Status = Literal["ok"] | Failure
A = TypeVar("A")
"""What a kind of task answers: a record of its own (the hooks' answers, a search's, ...)."""


@dataclass(frozen=True)
class WorkerLost(Generic[A]):
    """A task's answer when its worker died on the way and the task finished without it
    (the chain drops that worker and starts a fresh one for its next task)."""

    answer: A


@dataclass(frozen=True)
class Outcome(Generic[A]):
    """What became of one task: `status` "ok" when its run ended (`answer`: what it
    returned), else how it failed and why (`message`; `hook`: the call it failed in;
    `error_kind`: how the student's code failed, None for a failure that is none of its
    doing). `seconds` of the item's time it used, what the student's code printed
    (`output`) and its hook calls timed, (hook, calls, seconds) the slowest first, either way."""

    status: Status
    answer: A | None
    message: str = ""
    output: str = ""
    seconds: float = 0.0
    hook: str | None = None
    calls_timed: tuple[tuple[str, int, float], ...] = ()
    error_kind: ErrorKind | None = None
    load_reason: str = ""  # for "unloadable": why the file did not load (`WorkerFailure.why`)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def answered(self) -> A:
        """The answer of a task that ran to its end (every "ok" outcome has one)."""
        if self.answer is None:
            raise ValueError(f"a task that ended with {self.status} has no answer")
        return self.answer

    @property
    def unloadable(self) -> bool:
        """The student's file did not load."""
        return self.error_kind == "unloadable"


@dataclass(frozen=True)
class Task(Generic[A]):
    """Grader work that asks hooks questions: `run(asker)` within `limit` seconds.

    `name` says which item it is in reasons; `needs` are the hooks it asks; tasks with the
    same `chain` run in order in one worker; `hidden` tasks touch hidden problems; `size`:
    how many boards it searches or solves, about (when its chain starts depends on it).
    """

    run: Callable[[Asker], A | WorkerLost[A]]
    limit: float
    name: str = ""
    chain: str = "main"
    needs: frozenset[str] = frozenset()
    hidden: bool = False
    size: int = 1


class Watch(Protocol):
    """Who follows a run as it goes (a live line on a terminal): told how many tasks
    are planned, then of each task as it ends, from the thread that ran it."""

    def planned(self, count: int) -> None: ...

    def finished(self, task: Task[Any]) -> None: ...


class Ours(Exception):
    """A failure of the grader's or the machine's, with the reason to report."""


def failed(status: Failure, message: str, output: str = "", seconds: float = 0.0, hook: str | None = None) -> Outcome[Any]:
    """The outcome of a task that did not run to its end."""
    return Outcome(status, None, message, output, seconds, hook)


def outcome_of(failure: WorkerFailure, output: str = "", seconds: float = 0.0, calls: tuple[tuple[str, int, float], ...] = ()) -> Outcome[Any]:
    """The outcome of a task its worker failed (a failure of the student's), kind kept."""
    status: Failure = "timeout" if failure.kind == "timeout" else "error"
    return Outcome(status, None, failure.message, output, seconds, failure.hook, calls, failure.kind, failure.why)


class Chain:
    """One chain's tasks, run in order with one asker at a time."""

    def __init__(
        self, start: Callable[[float], Asker], stop: Callable[[Asker], None], failures: tuple[type[HookError], ...], watch: Watch | None = None
    ):
        self.start, self.stop, self.failures, self.watch = start, stop, failures, watch
        self.asker: Asker | None = None
        self.load_error: WorkerFailure | None = None  # the student's file does not load: every task fails alike
        self.timed_out: dict[str, list[str]] = {}  # hook -> the items that ran out of time in it

    def run(self, tasks: list[Task[Any]]) -> list[Outcome[Any]]:
        outcomes = []
        try:
            for task in tasks:
                outcomes.append(self._outcome(task))
                if self.watch is not None:
                    self.watch.finished(task)
            return outcomes
        finally:
            self._drop()

    def _outcome(self, task: Task[Any]) -> Outcome[Any]:
        if self.load_error is not None:
            return outcome_of(self.load_error)
        hung = next((hook for hook in sorted(task.needs) if len(self.timed_out.get(hook, ())) >= HUNG_AFTER), None)
        if hung is not None:
            earlier = " and ".join(self.timed_out[hung][:HUNG_AFTER])
            return failed("not_run", f"not run: {hung} ran out of time on {earlier}", hook=hung)
        try:
            outcome = self._attempt(task)
        except Ours:
            try:
                outcome = self._attempt(task)
            except Ours as again:
                return failed("ungraded", f"{again} (tried twice)")
        if outcome.status == "timeout" and outcome.hook:
            self.timed_out.setdefault(outcome.hook, []).append(task.name or "an item")
        return outcome

    def _attempt(self, task: Task[Any]) -> Outcome[Any]:
        """One try at the task; Ours when the failure is not the student's."""
        asker: Asker | None = None
        try:
            asker = self._asker(task)
            asker.begin(task.limit)
            try:
                ran: object = task.run(asker)
            except self.failures as error:  # costs this task only
                ran = error
        except WorkerFailure as failure:
            seconds, output = (asker.used() if asker is not None else 0.0), self._output()
            calls = tuple(asker.calls.rows()) if asker is not None else ()
            self._drop()
            if failure.ours:
                raise Ours(failure.message) from None
            return outcome_of(failure, output, seconds, calls)
        except Exception as error:  # a bug of the grader's: never the student's zero
            self._drop()
            raise Ours(f"the grader failed: {describe_exception(error)}") from None
        seconds, calls = asker.used(), tuple(asker.calls.rows())
        if isinstance(ran, WorkerLost):  # the task finished without it
            output = self._output()
            self._drop()
        else:
            output = asker.take_output()
            self._end(asker)
        if isinstance(ran, HookError):
            return Outcome("error", None, str(ran), output, seconds, calls_timed=calls, error_kind=ran.kind)
        return Outcome("ok", ran.answer if isinstance(ran, WorkerLost) else ran, output=output, seconds=seconds, calls_timed=calls)

    def _asker(self, task: Task[Any]) -> Asker:
        if self.asker is None:
            try:
                self.asker = self.start(task.limit)
            except WorkerFailure as failure:
                if failure.ours:
                    raise
                self.load_error = failure
                raise
        return self.asker

    def _end(self, asker: Asker) -> None:
        try:
            asker.end()
        except WorkerFailure:  # the item's process would not end: start afresh
            self._drop()

    def _output(self) -> str:
        return self.asker.take_output() if self.asker is not None else ""

    def _drop(self) -> None:
        if self.asker is not None:
            self.stop(self.asker)
            self.asker = None


def run_tasks(
    start: Callable[[float], Asker],
    stop: Callable[[Asker], None],
    tasks: list[Task[Any]],
    jobs: int = 1,
    failures: tuple[type[HookError], ...] = (),
    watch: Watch | None = None,
) -> list[Outcome[Any]]:
    """Every task's outcome, in order.

    `start(limit)` gives a ready asker, `stop` ends one; `failures` are the exceptions a
    task may raise that cost that task only (a broken contract, say). Visible chains run
    first, then hidden ones, `jobs` at a time. `watch` follows the run.
    """
    become_subreaper()
    if watch is not None:
        watch.planned(len(tasks))
    outcomes: list[Outcome[Any] | None] = [None] * len(tasks)
    for hidden in (False, True):
        chains: dict[str, list[int]] = {}
        for index, task in enumerate(tasks):
            if task.hidden == hidden:
                chains.setdefault(("hidden " if hidden else "") + task.chain, []).append(index)
        largest_first = sorted(chains.values(), key=lambda indices: -sum(tasks[index].size for index in indices))
        parts = _run_chains(start, stop, tasks, largest_first, jobs, failures, watch)
        for indices, part in zip(largest_first, parts):
            for index, outcome in zip(indices, part):
                outcomes[index] = outcome
    return [outcome for outcome in outcomes if outcome is not None]


def _run_chains(
    start: Callable[[float], Asker],
    stop: Callable[[Asker], None],
    tasks: list[Task[Any]],
    chains: list[list[int]],
    jobs: int,
    failures: tuple[type[HookError], ...],
    watch: Watch | None,
) -> list[list[Outcome[Any]]]:
    def run(indices: list[int]) -> list[Outcome[Any]]:
        return Chain(start, stop, failures, watch).run([tasks[index] for index in indices])

    if jobs <= 1 or len(chains) <= 1:
        return [run(indices) for indices in chains]
    pool = ThreadPoolExecutor(max_workers=min(jobs, len(chains)))
    try:
        return list(pool.map(run, chains))
    except KeyboardInterrupt:
        interrupt()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
