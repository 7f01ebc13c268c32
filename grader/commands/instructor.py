"""The instructor's commands of the answer key (`answerkey/instructor/`), as the grader's
commands call them: typed, so that mypy checks every call into them.

They sit in the grader's top room, above both the grader's scoring and the answer key's
instructor package, which imports that scoring (the student copy's cases and recorded
answers, the reference agent's games timed for a platform's limit). Reached from
`grader/reference.py` instead, they would close an import circle through it: scoring asks
that door for the model answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grader.errors import UserError
from grader.reference import require_answer_key

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from answerkey.instructor.checking import CheckRow
    from answerkey.instructor.prairielearn import Course
    from answerkey.instructor.release import Release
    from grader.inputs.problemset import Problem, ProblemError


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
