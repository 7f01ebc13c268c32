"""`--case`: asking one hook case again as grading asked it, and saying so when the hook's
answer does not come back the same.

Grading asks all of a hook's cases in one item, in order, in one fresh process (see
`grader.sandbox.child`): case N comes after cases 1 to N-1, and a hook that keeps state
between calls may answer it otherwise than alone. So a rerun asks the same calls in the
same order, then asks them once more in another fresh process (the same calls must bring
the same answers, or no rerun can promise the graded one), and asks the case alone too,
to tell the student when the earlier calls changed its answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from grader.sandbox.host import Limits
from grader.sandbox.isolation import Sandbox, Scope
from grader.sandbox.tasks import Outcome, Task
from grader.scoring.case import Case, Reply
from grader.scoring.grading import run_solver_tasks
from grader.scoring.hookcases import result_text
from grader.scoring.hookitems import HookAnswers, hook_task, same_reply
from grader.scoring.problems import SearchAnswer

RANDOMNESS = (
    "its answers do not depend on its input alone (the time, os.urandom, the order of a set of objects, ...; "
    "`random` is seeded alike in every run): no rerun can promise the graded answer"
)
STATE = (
    "its answer depends on the calls before it: your hook keeps state between calls (a global, a cache, a "
    "mutable default argument, ...), and grading asks the calls of one item in order, in one process, as a search does"
)


@dataclass(frozen=True)
class Rerun:
    """The calls of a rerun: `outcome` of asking them in the graded order, `again` of
    asking them once more, `alone` of asking the last of them alone (None: not asked)."""

    outcome: Outcome[HookAnswers] | Outcome[SearchAnswer]
    again: Outcome[HookAnswers] | Outcome[SearchAnswer]
    alone: Outcome[HookAnswers] | None = None

    @property
    def answer(self) -> Any:
        """The asked case's answer, in the graded order (the task must have ended)."""
        answer = self.outcome.answered
        assert isinstance(answer, HookAnswers), "a search's call is read from its case"
        return answer.results[-1]

    def unsteady(self, labels: Sequence[str]) -> str | None:
        """The first call whose answer changed when the same calls were asked again (None:
        none did)."""
        if (self.again.status, self.again.message) != (self.outcome.status, self.outcome.message):
            return f"the second time, the run ended otherwise ({self.again.status}: {self.again.message})"
        firsts, seconds = _calls(self.outcome), _calls(self.again)
        changed = next((i for i, (one, two) in enumerate(zip(firsts, seconds)) if one != two), None)
        return None if changed is None else f"first on {labels[changed]}"

    def alone_answer(self) -> Any:
        """The asked case's answer alone, or None when it was not asked or did not end."""
        return self.alone.answered.results[0] if self.alone is not None and self.alone.ok else None


def _calls(outcome: Outcome[HookAnswers] | Outcome[SearchAnswer]) -> list[Any]:
    """The answers of a run: each case's, or the one call a search stopped at."""
    answer = outcome.answer
    if isinstance(answer, HookAnswers):
        return list(answer.results)
    return [answer.found if answer is not None else None]


def ask_in_order(solver: str, hook: str, cases: list[Case], limit: float, memory_mb: int, sandbox: Sandbox | None, scope: Scope) -> Rerun:
    """Ask `cases` of `hook` in order (the last is the one asked about) as one graded item
    does, twice; and the last alone when others come before it. One worker, a fresh
    process for each."""
    tasks: list[Task[HookAnswers]] = [hook_task(hook, cases, limit), hook_task(hook, cases, limit)]
    if len(cases) > 1:
        tasks.append(hook_task(hook, cases[-1:], limit))
    outcomes = run_solver_tasks(solver, tasks, 1, Limits(memory_mb=memory_mb), sandbox, scope)
    return Rerun(*outcomes)


def rerun_notes(hook: str, rerun: Rerun, labels: Sequence[str], expected: Any, before: str = "") -> list[str]:
    """What the student must know beside the answer: that the same calls did not bring the
    same answers, or that the answer alone differs and why (`before`: the calls asked
    before it, named)."""
    unsteady = rerun.unsteady(labels)
    if unsteady is not None:
        return [f"  not reproduced: asked the same calls again, in a fresh process, your hook answered otherwise ({unsteady}): {RANDOMNESS}"]
    alone = rerun.alone_answer()
    if alone is None or same_reply(alone, rerun.answer):
        return []
    verdict = "right" if alone == {"value": expected} else "wrong"
    return [
        f"  asked alone, in a fresh process, your hook {result_text(hook, alone)} ({verdict}); in the graded order it came after {before}: {STATE}"
    ]


def earlier_cases(cases: Sequence[Case], shown: int = 6) -> str:
    """Cases 1 to N-1 of a hook, named (the first few)."""
    names = [f'"{case.name}"' for case in cases[:-1]]
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    numbers = "case 1" if len(names) == 1 else f"cases 1-{len(names)}"
    return f"{numbers} ({', '.join(names[:shown])}{more})"


def verdict(console: Console, rerun: Rerun, labels: Sequence[str], answer: Any, expected: Any) -> int:
    """Print right, wrong or not reproduced for `answer` ({"value": ...} or {"error": ...});
    the exit code (0: right)."""
    if rerun.unsteady(labels) is not None:
        console.print(Text("not reproduced", style="red"))
        return 1
    right = answer == {"value": expected}
    console.print(Text("right" if right else "wrong", style="green" if right else "red"))
    return 0 if right else 1


def private_note(hook: str, number: int, graded: Reply, answer: Reply) -> list[str]:
    """What to make of a private case's answer here when grading got another: the copy
    cannot ask the course's cases that came before it. The same error (its type and
    line, `same_reply`) is the same answer, its words naming another file."""
    if answer == graded:
        return []
    if same_reply(answer, graded):
        kind, line = graded["where"]
        at = f"{kind}, line {line}" if line else kind
        return [f"  when graded, your hook failed with the same error here ({at}), in the file as it was named there"]
    cases = "case 1" if number == 2 else f"cases 1-{number - 1}"
    before = f"the course's private {cases}, asked before it in the same process" if number > 1 else ""
    why = (
        f"the difference is {before}: {STATE}"
        if before
        else "nothing was asked before it there either: your hook's answer does not depend on its input alone"
    )
    return [f"  when graded, your hook {result_text(hook, graded)} here. If you have not changed it since, {why}"]
