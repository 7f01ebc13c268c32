"""The grader's one door to the answer key (the `answerkey` package), which the student
copy of the kit leaves out.

Everything in the grader that needs the reference asks here, so that a student copy
says in one line that a command belongs to the instructor's kit instead of raising an
ImportError. A student copy never needs to: its problem files carry every `expect`,
`grader/scoring/hook_cases.yaml` carries the expected output of every hook case, and
`grader/inputs/search_answers.json` the model answer's answers along its own searches of
the public boards (`grader.scoring.searchcheck.AnswerTable`).

The instructor's commands (`answerkey/instructor/`) are reached through `InstructorTools`,
whose methods have the full signatures of what they call, so that mypy checks every call
from `grader/commands` into them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from grader.errors import UserError
from grader.hooktable import HOOKS
from solvers.board import Board
from solvers.cliargs import instructor_only

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from answerkey.instructor.checking import CheckRow
    from answerkey.instructor.prairielearn import Course
    from answerkey.instructor.release import Release
    from grader.inputs.problemset import Problem, ProblemError
    from play.view import Move, View
    from solvers.trace_view import Explainer


class ReferenceUnavailable(UserError):
    """The answer key is not installed (a student copy of the kit)."""


def require_answer_key(what: str) -> None:
    """Return when the answer key is installed; else ReferenceUnavailable saying that
    `what` belongs to the instructor's kit."""
    why = instructor_only(what)
    if why is not None:
        raise ReferenceUnavailable(why)


def reference_strategies() -> ModuleType:
    """`answerkey.strategies`: the reference hooks and the named strategies."""
    require_answer_key("the reference solution")
    from answerkey import strategies

    return strategies


def reference_hooks() -> dict[str, Callable[..., Any]]:
    """The model answer of every hook that has one (`HookSpec.reference`), by hook name."""
    require_answer_key("the reference solution")
    hooks = {}
    for spec in HOOKS:
        if spec.reference:
            module, _, name = spec.reference.rpartition(".")
            hooks[spec.name] = getattr(importlib.import_module(f"answerkey.{module}"), name)
    return hooks


def reference_agent(rules: str) -> Callable[[View], Move]:
    """The reference agent's `choose_move` under `rules`."""
    require_answer_key("the reference agent")
    from answerkey.agent.agent import Agent

    return Agent(rules).choose_move


def random_board(rng: random.Random, rows: int, cols: int, hints: int, mines: int) -> Board:
    """A board of `hints` clues on a random layout of `mines` mines, drawn with `rng` (for
    hook cases under a private seed)."""
    require_answer_key("drawing new hook cases")
    from answerkey.generate import hint_board

    return hint_board(rng, rows, cols, hints, mines)[0]


class ReleaseRefused(UserError):
    """The student copy cannot be written (a bad problem file, solutions in assignment/,
    a target that is not empty...): the message says why."""


class InstructorTools:
    """The instructor's commands of the answer key (`answerkey/instructor/`), as the
    grader's commands call them; made by `instructor_tools`, so only where the answer key
    is installed."""

    def check_problems(self, problems: list[Problem]) -> list[CheckRow]:
        """Every problem's exact solution count against its `expect`."""
        from answerkey.instructor.checking import check_problems

        return check_problems(problems)

    def show_check(self, console: Console, rows: list[CheckRow]) -> None:
        """The table of `check_problems`, with a warning for each board with no solution."""
        from answerkey.instructor.checking import show_check

        show_check(console, rows)

    def config_errors(self, path: Path | None, problems: list[Problem]) -> list[ProblemError]:
        """The mistakes of the grading config at `path` (none when None) for `problems`."""
        from answerkey.instructor.checking import config_errors

        return config_errors(path, problems)

    def write_release(self, source: Path, problems: Path, out: Path, allow_solutions: bool) -> Release:
        """Write the student copy of the kit at `source` into `out`; ReleaseRefused says why not."""
        from answerkey.instructor.release import ReleaseError, write_release

        try:
            return write_release(source, problems, out, allow_solutions)
        except ReleaseError as error:
            raise ReleaseRefused(str(error)) from None

    def seeds_written(self, names: list[str], config: Path) -> str:
        """The line that says which private seeds were written into the grading config."""
        from answerkey.instructor.seeds import written

        return written(names, config)

    def seed_refusal(self, problems: Path, public_hook_cases: bool, unseeded_agent_games: bool) -> str:
        """Why an autograder for `problems` must not be built ("" when it may)."""
        from answerkey.instructor.bundle import seed_refusal

        return seed_refusal(problems, public_hook_cases, unseeded_agent_games)

    def write_gradescope_bundle(self, source: Path, problems: Path, out: Path) -> int:
        """Write the Gradescope autograder zip; how many files it holds."""
        from answerkey.instructor.bundle import write_bundle

        return write_bundle(source, problems, out)

    def write_prairielearn_course(
        self, source: Path, problems: Path, out: Path, image: str | None, timeout: int, question_uuid: str | None
    ) -> Course:
        """Write the PrairieLearn question, course files and grader image into `out`."""
        from answerkey.instructor.prairielearn import write_course

        return write_course(source, problems, out, image, timeout, question_uuid)

    def gradescope_time_warnings(self, problems: Path) -> list[str]:
        """What in `problems`' agent settings may not finish within a Gradescope job."""
        from answerkey.instructor.agentcost import GRADESCOPE, agent_time_warnings

        return agent_time_warnings(problems, GRADESCOPE)

    def prairielearn_time_warnings(self, problems: Path, job_timeout: int) -> list[str]:
        """What in `problems`' agent settings may not finish within a PrairieLearn job of `job_timeout` s."""
        from answerkey.instructor.agentcost import agent_time_warnings, prairielearn

        return agent_time_warnings(problems, prairielearn(job_timeout))


def instructor_tools(what: str) -> InstructorTools:
    """The instructor's commands, for `what` (a command: in a student copy, ReferenceUnavailable
    says in one line that it belongs to the instructor's kit)."""
    require_answer_key(what)
    return InstructorTools()


def reference_explainer() -> Explainer | None:
    """The bound rule's explanations for traces, or None in a student copy (its traces
    show what each step did, without the rule's reasons)."""
    if instructor_only("explanations") is not None:
        return None
    from answerkey.explain import explain

    return explain


def count_solutions(board: Board) -> int:
    """The exact number of layouts of a board whose file gives no `expect`."""
    require_answer_key("counting the solutions of a problem without `expect`")
    from answerkey.oracle import count_solutions as count

    return count(board)


def has_solution(board: Board) -> bool:
    """Whether any layout fits a board whose file gives no `expect` (Glucose 4.1)."""
    require_answer_key("checking a no-solution claim on a problem without `expect`")
    from answerkey.oracle import has_solution as solvable

    return solvable(board)
