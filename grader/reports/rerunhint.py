"""A rerun hint's command: how it starts (`RerunCommand`) and how it is shown (`hint_text`).

A report keeps each hint as the words of its command (`ItemResult.reruns`); every place
that shows one renders it here, so that what is shown is what runs. The hints themselves
are made in `grader.scoring.rerun`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The problems path a student copy holds (`python -m grader release` writes it there).
COPY_PROBLEMS = "problems/"
DEFAULT_SOLVER = "assignment"  # `--solver`'s default: a command names the solver only when it is another


@dataclass(frozen=True)
class RerunCommand:
    """How a hint's command starts: `python -m grader`, the problems path, and the options
    of the graded run a rerun needs to ask what grading asked (the solver when it is not
    the default, --config, --only, --timeout). `copy` is the student copy's."""

    words: tuple[str, ...]

    @classmethod
    def of_run(
        cls, paths: Sequence[str], solver: str = DEFAULT_SOLVER, config: str | None = None, only: str | None = None, timeout: float | None = None
    ) -> RerunCommand:
        """The command of a run given these arguments (as its command line gave them)."""
        words = ["python", "-m", "grader", *paths]
        words += ["--solver", solver] if solver != DEFAULT_SOLVER else []
        words += ["--config", config] if config else []
        words += ["--only", only] if only else []
        words += ["--timeout", f"{timeout:g}"] if timeout else []
        return cls(tuple(words))

    @classmethod
    def copy(cls, only: Iterable[str] | None = None, timeout: float | None = None) -> RerunCommand:
        """The command a student runs in their copy, where their file is the default solver
        and the course's public problems are in `problems/` (class runs, Gradescope, PrairieLearn)."""
        return cls.of_run([COPY_PROBLEMS], only=",".join(sorted(only)) if only is not None else None, timeout=timeout)

    def argv(self, case: str) -> tuple[str, ...]:
        """The whole command that reruns `case` (the value of --case), word by word."""
        return (*self.words, "--case", case)


def hint_text(argv: Sequence[str]) -> str:
    """A hint's command as a shell reads it: a packed case quoted (`--case='HOOK:TOKEN'`), so
    that one copied from a wrapped line keeps its pieces together (`unpack` ignores whitespace)."""
    *words, option, case = argv
    packed = not case.rpartition(":")[2].isdigit()
    return f"{shlex.join(words)} {option}" + (f"='{case}'" if packed else f" {shlex.quote(case)}")
