"""A live line while one solver is graded: items done out of those planned, the last one
done, the time so far. Shown on a terminal only, and gone when the report is printed, so
the report, JSON and piped output are what they were without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from grader.sandbox.tasks import Task


class LiveLine:
    """A `Watch` (grader.sandbox.tasks) drawing a progress bar, redrawn as each item ends;
    a hidden item is named only as "a hidden item", as the report names none of them either."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.bar: TaskID = progress.add_task("starting the sandbox", total=None)

    def planned(self, count: int) -> None:
        total = self.progress.tasks[0].total or 0
        self.progress.update(self.bar, total=total + count, description="grading")

    def finished(self, task: Task[Any]) -> None:
        shown = "a hidden item" if task.hidden else task.name
        self.progress.update(self.bar, advance=1, description=f"graded {shown}")
        self.progress.refresh()  # each item as it ends, not only those a timed refresh catches


@contextmanager
def live_line(console: Console) -> Iterator[LiveLine | None]:
    """A live line on `console` while the block runs, when it is a terminal (else None)."""
    if not console.is_terminal:
        yield None
        return
    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.description}", markup=False))
    with Progress(*columns, console=console, transient=True) as progress:
        yield LiveLine(progress)
