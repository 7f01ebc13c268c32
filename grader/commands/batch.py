"""Grading a whole class: every submission in a folder, a CSV of scores, a summary.

A submission is a `.py` file directly in the folder (the student is its name) or a
sub-folder (the Python file in it that defines the most hooks is the hooks file).
Submissions are graded in parallel, each in a grading process of its own
(`gradejob`); one that cannot be graded gets a row with its reason. A failure of the
grader's is retried once, then reported "not graded", with no score: never a zero.
Every step for one student (taking it in, grading, its CSV row, its feedback) runs in
that student's guard: the grader failing there makes that student "not graded" and
every other student is graded. An interrupted run still writes the students graded so far.
The results are kept beside the CSV (`grader.reports.kept`), for `python -m grader reexport`.
"""

from __future__ import annotations

import io
import os
import stat
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from grader.commands.gradejob import Job, Runner, cpu_seconds, problem_keys
from grader.inputs.config import GradingConfig
from grader.inputs.exports import Export, Identity
from grader.inputs.intake import NAME_LIMIT, file_refusal, inside, scan_folder, shown
from grader.inputs.names import export_key, file_names, shown_name, student_names
from grader.inputs.problemset import Problem, ProblemError
from grader.inputs.submission import WHAT_TO_SUBMIT, found_among, own_agent
from grader.reports.advice import label, reason_groups
from grader.reports.csvfile import Cell, number_cell, write_table
from grader.reports.feedback_page import feedback_page, note_page
from grader.reports.gradebook import Gradebook, Graded, Student, match, show_gradebook, write_gradebook
from grader.reports.kept import KeptStudent, results_folder, write_kept
from grader.reports.markdown import code_span, fenced
from grader.reports.report import NOT_GRADED, away_from_grader, show_report
from grader.reports.results import Report
from grader.reports.shown import shown_items, shown_report
from grader.reports.words import plural
from grader.sandbox import stopping
from grader.sandbox.host import become_subreaper
from grader.sandbox.isolation import Probed, Scope
from grader.sandbox.wire import clean_text
from solvers.errortext import describe_exception

STOP_POLL_SECONDS = 0.05  # how often the class run looks for a stop while it waits for its gradings (a wait on a lock, not on a descriptor)


@dataclass
class Submission:
    """One student's hooks file (None when it is not graded: `problem` says why) and
    agent file (the one of its files that defines choose_move; a file submission's is
    that file or none, never a classmate's agent.py); `scope` says which of its files
    the worker sees: the file alone, or its whole folder.
    `refused`: intake refused it (a link, a FIFO, too deep or too large...); `failed`:
    the grader failed while taking it in (not graded, the grader's fault). `entry`: the
    class folder's entry as found (safe to show); `identity`: who the student is (name,
    sid, email, section), when an export says so."""

    student: str
    hooks: Path | None
    problem: str = ""
    scope: Scope = "file"
    refused: bool = False
    failed: str = ""
    agent: Path | None = None
    entry: str = ""
    identity: Identity | None = None  # who it belongs to, when an export says
    notice: str = ""  # a line for the instructor about how it was read


def find_submissions(folder: Path, export: Export | None = None) -> list[Submission]:
    """Every submission in `folder`, sorted by entry name, or the students of the platform
    `export` (see `exports`), each with their identity; each named one of a kind, safe to
    show (`student_names`).

    Hidden entries (a leading dot or __) are skipped, and so are plain files that are
    not `.py`; every other entry that is not a plain file or folder is refused.
    """
    found: list[tuple[Submission, str, str]] = []  # each submission, its name as found, what tells it apart
    if export is not None and export.entries is not None:
        for item in export.entries:
            found.append((_exported(item.student, item.folder, item.problem, item.identity), item.student, export_key(item.student, item.folder)))
    else:
        root = folder.resolve()
        found = [(submission, _raw_name(entry), entry.name) for entry in sorted(root.iterdir()) if (submission := _taken_in(entry, root))]
        for name, why in (export.refused if export is not None else {}).items():  # taken off the disk while unpacking
            submission = _refused(_student(root / name), why)
            submission.entry = clean_text(name, NAME_LIMIT).replace("\n", " ")
            found.append((submission, _raw_name(root / name), name))
        found.sort(key=lambda item: item[2])
    return _named(found)


def _named(found: list[tuple[Submission, str, str]]) -> list[Submission]:
    """The submissions, each given its name in the class (`student_names`); a name that had
    to change says why in the submission's notice."""
    names = student_names([(raw, key) for _, raw, key in found])
    alike = Counter(shown_name(raw) for _, raw, _ in found)
    for (submission, raw, _), name in zip(found, names):
        submission.student = name
        if name != shown_name(raw):
            count = alike[shown_name(raw)]
            why = f"{count} submissions are named {shown_name(raw)[:NAME_LIMIT]}" if count > 1 else "its name is too long or a path"
            submission.notice = "; ".join(filter(None, [f"named so in every output: {why}", submission.notice]))
    return [submission for submission, _, _ in found]


def _exported(student: str, folder: Path | None, problem: str, identity: Identity) -> Submission:
    """The submission of one student of an export: their folder, read as a class folder's sub-folder."""
    if folder is None:
        submission = Submission(student, None, problem)
    else:
        try:
            submission = _folder_submission(student, folder.resolve(), folder.resolve().parent)
        except Exception as error:  # one student's intake never stops the class
            submission = Submission(student, None, failed=ours("taking in this submission", error))
    submission.identity = identity
    return submission


def ours(step: str, error: Exception) -> str:
    """One line: the grader failed at `step` of one student's work, and this is no fault of theirs."""
    said = clean_text(describe_exception(error, limit=200))
    return f"the grader failed while {step} ({said}): a fault of the grader's, not of the submission"


def _raw_name(entry: Path) -> str:
    """The name of the class folder's entry `entry`, as found: a `.py` file's without `.py`."""
    return entry.stem if entry.suffix == ".py" else entry.name


def _student(entry: Path) -> str:
    """The student of the class folder's entry `entry`, safe to show (`student_names` makes it one of a kind)."""
    return shown_name(_raw_name(entry))


def _taken_in(entry: Path, root: Path) -> Submission | None:
    """The submission at `entry`, or one not graded when taking it in failed."""
    try:
        submission = _submission(entry, root)
    except Exception as error:  # one student's intake never stops the class
        submission = Submission(_student(entry), None, failed=ours("taking in this submission", error))
    if submission is not None:
        submission.entry = clean_text(entry.name, NAME_LIMIT).replace("\n", " ")
    return submission


def _submission(entry: Path, root: Path) -> Submission | None:
    """The submission at `entry` in the class folder `root` (None when it is not one),
    refused when it is not plain."""
    student = _student(entry)
    try:
        mode = entry.lstat().st_mode
    except OSError as error:
        return _refused(student, f"not graded: {shown(entry, root)} cannot be read ({error.strerror})")
    if entry.name.startswith((".", "__")) or (stat.S_ISREG(mode) and entry.suffix != ".py"):
        return None
    if stat.S_ISDIR(mode):
        return _folder_submission(student, entry, root)
    refusal = file_refusal(entry, root)
    return _refused(student, refusal) if refusal else _contained(student, entry, root, "file", own_agent(entry))


def _folder_submission(student: str, folder: Path, root: Path) -> Submission:
    """The submission folder `folder`: refused, nothing to grade, or its hooks file."""
    scan = scan_folder(folder, root)
    if scan.refusal:
        return _refused(student, scan.refusal)
    found = found_among(list(scan.files))
    if found.hooks is None:
        unread = f" ({clean_text(found.unread[0], NAME_LIMIT * 2)})" if found.unread else ""
        return Submission(student, None, f"nothing to grade{unread}: {WHAT_TO_SUBMIT}", "folder")
    submission = _contained(student, found.hooks, root, "folder", found.agent)
    if found.rivals:
        others = ", ".join(shown(p, root) for p in found.rivals)
        submission.notice = (
            f"{shown(found.hooks, root)} graded, not {others}: it defines the most hooks (the first by name of those defining as many)"
        )
    return submission


def _contained(student: str, hooks: Path, root: Path, scope: Scope, agent: Path | None) -> Submission:
    """The submission of `hooks` (and `agent`), refused unless they lie in the class folder `root`."""
    outside = next((path for path in (hooks, agent) if path is not None and not inside(path, root)), None)
    if outside is not None:
        return _refused(student, f"not graded: {shown(outside, root)} lies outside the class folder")
    return Submission(student, hooks, scope=scope, agent=agent)


def _refused(student: str, why: str) -> Submission:
    return Submission(student, None, why, refused=True)


@dataclass
class BatchRow:
    """One student's result; `not_graded` says why the grader could not grade it (no
    score then, never a zero); `submission` and `identity` as in its Submission; the
    seconds its grading process spent (CPU, its workers' included) and took (wall, every
    try), None when no process graded it."""

    student: str
    report: Report | None
    problem: str = ""
    not_graded: str = ""
    submission: str = ""
    identity: Identity | None = None
    cpu_seconds: float | None = None
    wall_seconds: float | None = None

    def fail(self, why: str) -> None:
        """Not graded after all: the grader failed on this student's report (`why`)."""
        self.report, self.problem, self.not_graded = None, "", why

    @property
    def ungraded(self) -> str:
        """Why this student has no grade ("" when graded)."""
        return self.not_graded or (self.report.ungraded or "" if self.report else "")

    @property
    def score(self) -> float | None:
        if self.ungraded:
            return None
        return self.report.score if self.report else 0.0


@dataclass(frozen=True)
class ClassRun:
    """What every submission of a class is graded with."""

    problems: list[Problem]
    config: Path | None
    mode: str
    timeout: float | None
    spared: frozenset[int] = frozenset()  # processes of the grader's own that are no grading process
    probed: Probed | None = None  # what the grader found of the machine when it chose the mode
    only: frozenset[str] | None = None  # the items --only grades (None: every item)


class Interrupted(Exception):
    """The run was stopped (SIGINT, SIGTERM, SIGHUP): `rows` hold who was graded."""

    def __init__(self, name: str, rows: list[BatchRow]):
        super().__init__(name)
        self.name, self.rows = name, rows


def _job(run: ClassRun, submission: Submission, out: Path) -> Job:
    assert submission.hooks is not None
    hooks = str(submission.hooks.resolve())
    agent = str(submission.agent.resolve()) if submission.agent else None
    probed = run.probed.to_data() if run.probed is not None else None
    config = str(run.config) if run.config else None
    only = sorted(run.only) if run.only is not None else None
    return Job(
        problem_keys(run.problems), config, run.mode, run.timeout, hooks, submission.scope, agent, str(out.resolve()), probed, only, os.getcwd()
    )


def grade_batch(submissions: list[Submission], run: ClassRun, jobs: int, console: Console) -> list[BatchRow]:
    """Grade every submission (`jobs` at a time, each in a process of its own) with a
    progress bar; rows in input order. Interrupted carries the rows when a stop is asked
    (`stopping`: the main thread polls for it every STOP_POLL_SECONDS), once every grading
    process is gone."""
    become_subreaper()  # what a dead grading process leaves comes to us
    runner = Runner(run.spared)
    rows: list[BatchRow | None] = [None] * len(submissions)
    try:
        with stopping.polled():
            _grade_all(submissions, run, jobs, console, runner, rows)
    except KeyboardInterrupt:
        raise Interrupted(stopping.asked() or "SIGINT", _finished(submissions, rows)) from None
    return [row for row in rows if row is not None]


def _grade_all(submissions: list[Submission], run: ClassRun, jobs: int, console: Console, runner: Runner, rows: list[BatchRow | None]) -> None:
    """`grade_batch`'s work: each row set as its student is graded; on a stop (or any
    other exception) every grading process is stopped before this returns."""
    with tempfile.TemporaryDirectory(prefix="grader-class-") as scratch:

        def grade_one(index: int, submission: Submission) -> BatchRow:
            if submission.hooks is None:
                return BatchRow(submission.student, None, submission.problem)
            why, start = "", time.monotonic()
            for attempt in (1, 2):  # a failure of the grader's is tried once more
                job = _job(run, submission, Path(scratch) / f"{index}-{attempt}.json")
                result = runner.grade(job)
                if isinstance(result, Report):
                    return BatchRow(
                        submission.student, result, load_note(result), cpu_seconds=cpu_seconds(job), wall_seconds=time.monotonic() - start
                    )
                why = result
                if runner.stopping:
                    break
            return BatchRow(submission.student, None, not_graded=clean_text(why, 300), wall_seconds=time.monotonic() - start)

        def guarded(index: int, submission: Submission) -> BatchRow:
            """grade_one, in the student's guard."""
            if submission.failed:
                return _found(submission, BatchRow(submission.student, None, not_graded=submission.failed))
            try:
                return _found(submission, grade_one(index, submission))
            except Exception as error:  # one student's grading never stops the class
                why = ours("grading this submission", error)
                return _found(submission, BatchRow(submission.student, None, not_graded=why))

        columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task("grading", total=len(submissions))
            pool = ThreadPoolExecutor(max_workers=max(1, jobs))
            try:
                futures = {pool.submit(guarded, index, s): index for index, s in enumerate(submissions)}
                pending = set(futures)
                while pending:
                    stopping.check()
                    done, pending = wait(pending, timeout=STOP_POLL_SECONDS, return_when=FIRST_COMPLETED)
                    for future in done:
                        rows[futures[future]] = future.result()
                        progress.advance(task)
            except BaseException:
                runner.stop()
                raise
            finally:
                pool.shutdown(wait=True, cancel_futures=True)


def load_note(report: Report) -> str:
    """The row's note for a file that did not load: the reason, as `shown_report` shows it."""
    unloadable = shown_report(report).unloadable()
    return unloadable.message if unloadable else ""


def _finished(submissions: list[Submission], rows: list[BatchRow | None]) -> list[BatchRow]:
    """Every student: those graded before the run was stopped, and the others not graded."""
    return [row or _found(s, BatchRow(s.student, None, not_graded="the run was interrupted")) for s, row in zip(submissions, rows)]


def _found(submission: Submission, row: BatchRow) -> BatchRow:
    """`row`, told which submission it grades and whose it is."""
    row.submission, row.identity = submission.entry, submission.identity
    return row


def write_csv(path: Path, rows: list[BatchRow]) -> None:
    """student, score, max_score, one column per graded item (every item of any row), a
    note, a short reason per lost item, and the seconds of grading (cpu_seconds,
    wall_seconds: blank when no process graded it); hidden items as `shown_items` shows them.

    A row fills its own items by name and leaves empty those its report does not have
    (the practice agent item of a student who wrote choose_move); a student who could not
    be graded scores 0 on every item.
    """
    step = "writing its CSV row"
    scored = {id(row): found for row in rows if (found := guard(row, step, _item_scores)) is not None}
    graded = [row.report for row in rows if row.report]  # after the guard: a row it failed has no report
    columns = item_columns([list(scored[id(row)]) for row in rows if row.report])
    class_max = max((report.max_score for report in graded), default=0.0)

    def cells(row: BatchRow) -> list[Cell]:
        scores: dict[str, float] = dict(scored.get(id(row), {})) if row.report else dict.fromkeys(columns, 0.0)
        if row.ungraded:  # no score at all, never a zero
            scores = {}
        return [
            row.student,
            row.score,
            row.report.max_score if row.report else class_max,
            *(scores.get(name) for name in columns),
            note(row),
            lost_points(row),
            _seconds(row.cpu_seconds),
            _seconds(row.wall_seconds),
        ]

    lines = [guard(row, step, cells) or cells(row) for row in rows]  # a row it failed is written not graded
    who: tuple[str, ...] = ()
    if any(row.identity for row in rows):  # an export named the students: their names and emails too
        who = ("name", "email")
        lines = [[line[0], *(getattr(row.identity or Identity(), key) for key in who), *line[1:]] for row, line in zip(rows, lines)]
    write_table(path, [["student", *who, "score", "max_score", *columns, "note", "lost", "cpu_seconds", "wall_seconds"], *lines])


def _seconds(value: float | None) -> Cell:
    return None if value is None else number_cell(value, ".3f")


T = TypeVar("T")


def guard(row: BatchRow, step: str, work: Callable[[BatchRow], T]) -> T | None:
    """`work(row)`, or None with the row made not graded (the grader's fault) when it raises."""
    try:
        return work(row)
    except Exception as error:  # one student's report never stops the class
        row.fail(ours(f"{step} for this submission", error))
        return None


def _item_scores(row: BatchRow) -> dict[str, float]:
    return item_scores(row.report) if row.report else {}


def item_scores(report: Report) -> dict[str, float]:
    """Each item's score by its column name: its label (a hidden item's as `shown_items`
    names it), numbered from the second item of the same label on ("label (2)"), so that
    no item hides another."""
    scores: dict[str, float] = {}
    for item in shown_items(report.items):
        name, number = label(item), 1
        while name in scores:
            number += 1
            name = f"{label(item)} ({number})"
        scores[name] = item.score
    return scores


def item_columns(rows: list[list[str]]) -> list[str]:
    """Every column name of any row, once, each row's order kept: a name first met in a
    later row goes right after the name before it in that row."""
    columns: list[str] = []
    for names in rows:
        previous = -1
        for name in names:
            if name not in columns:
                columns.insert(previous + 1, name)
            previous = columns.index(name)
    return columns


def note(row: BatchRow) -> str:
    """Why a student has no grade, or what stood in the way of grading their file."""
    return f"not graded: {row.ungraded}" if row.ungraded else row.problem


def lost_points(row: BatchRow, limit: int = 80) -> str:
    """ "items: first line of their reason" for every cause of lost points (items alike
    share one), joined by " | "."""
    if row.report is None or row.ungraded:
        return ""
    items = shown_items(row.report.items)
    return " | ".join(f"{group.who(len(items))}: {group.headline(limit)}" for group in reason_groups(items))


def write_feedback(folder: Path, rows: list[BatchRow], errors: list[ProblemError]) -> int:
    """One file per student, NAME.md with the report as the terminal shows it and NAME.html
    as a page (hidden items masked in both), NAME as `file_names` gives it; how many students got one. Written before the CSV: a
    student whose feedback the grader fails to write is not graded there either."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for row, name in zip(rows, file_names([row.student for row in rows])):
        write = partial(_feedback, folder / name, errors)
        # a report that fails is written again, as not graded
        written += bool(guard(row, "writing its feedback", write) or guard(row, "writing its feedback", write))
    return written


def _feedback(path: Path, errors: list[ProblemError], row: BatchRow) -> bool:
    """Write one student's feedback as `path`.md (the terminal's text) and `path`.html (a page)."""
    console = Console(record=True, width=100, file=io.StringIO(), color_system="truecolor")
    if row.ungraded:
        console.print(Text(f"{row.student}: not graded: {row.ungraded}; {NOT_GRADED}."))
    elif row.report is None:
        console.print(Text(f"{row.student}: {row.problem}"))
    else:
        show_report(console, away_from_grader(row.report), errors, for_student=True)
    text = f"# Grading report: {code_span(row.student)}\n\n{fenced(console.export_text(clear=False))}"
    path.with_name(f"{path.name}.md").write_text(text, encoding="utf-8")
    if row.report is not None and not row.ungraded:
        page = feedback_page(row.student, away_from_grader(row.report), errors)
    else:
        page = note_page(row.student, console.export_text(clear=False).strip())
    path.with_name(f"{path.name}.html").write_text(page, encoding="utf-8")
    return True


def show_export(console: Console, export: Export, submissions: list[Submission]) -> bool:
    """The layout of the submissions in one line, then one line per oddity of the export and
    per submission read with a notice; whether an export held anything odd."""
    console.print(Text(f"submissions: {export.layout}"))
    lines = [*export.notes, *(f"{s.student}: {s.notice}" for s in submissions if s.notice)]
    for line in lines:
        console.print(Text.assemble(("! ", "red"), line))
    empty = any(s.hooks is None and s.problem for s in submissions)  # the summary names them
    return bool(export.notes) or (export.entries is not None and (bool(lines) or empty))


def show_summary(console: Console, rows: list[BatchRow], bins: int = 10) -> None:
    """Mean, median and a histogram of the scores."""
    if not rows:
        console.print("No submissions found.")
        return
    max_score = next((r.report.max_score for r in rows if r.report), 0.0) or 1.0
    scores = [score for r in rows if (score := r.score) is not None]
    graded = plural(len(rows), "submission") if len(scores) == len(rows) else f"{len(scores)} of {plural(len(rows), 'submission')} graded"
    if scores:
        console.print(f"{graded}: mean {statistics.mean(scores):.2f}, median {statistics.median(scores):.2f} out of {max_score:g}")
    counts = [0] * bins
    for score in scores:
        counts[min(int(score / max_score * bins), bins - 1)] += 1
    table = Table(title="Scores", title_justify="left", show_header=True)
    table.add_column("range", justify="right")
    table.add_column("students", justify="right")
    table.add_column("")
    widest = max(counts) or 1
    for index, count in enumerate(counts):
        low, high = max_score * index / bins, max_score * (index + 1) / bins
        closing = "]" if index == bins - 1 else ")"
        table.add_row(Text(f"[{low:g}, {high:g}{closing}"), str(count), "█" * round(30 * count / widest))
    console.print(table)
    for row in rows:
        if note(row):
            console.print(Text.assemble(("! ", "red"), f"{row.student}: {note(row)}"))
    try:  # the insights in short: a failure there changes no grade and no exit status
        from grader.commands.insights import show_short
        from grader.reports.insights import StudentResult

        who = [(r.identity.section, r.identity.name) if r.identity else ("", "") for r in rows]
        show_short(console, [StudentResult(r.student, r.report, r.ungraded, section, name) for r, (section, name) in zip(rows, who)])
    except Exception as error:
        console.print(Text(ours("summing up the class's insights", error)))


def _identity(row: BatchRow) -> dict[str, str]:
    """Who the row's student is, as kept results write it (empty when no export said)."""
    return asdict(row.identity) if row.identity else {}


def keep_results(csv_path: Path, rows: list[BatchRow], run_info: dict[str, object]) -> Path:
    """Keep every student's result and `run_info` beside the CSV at `csv_path`; the folder."""
    folder = results_folder(csv_path)
    write_kept(
        folder,
        run_info,
        [
            KeptStudent(
                row.student, _identity(row), row.submission, row.report, row.not_graded or None, row.cpu_seconds, row.wall_seconds, row.problem
            )
            for row in rows
        ],
    )
    return folder


def run_info(config: GradingConfig, problems: list[Problem], rows: list[BatchRow]) -> dict[str, object]:
    """What a kept run says of itself: the config's points, the problems, the full marks, when."""
    points = {
        "hook_points": config.hook_points,
        "set_points": config.set_points,
        "timeout": config.timeout,
        "efficiency_points": config.efficiency.points if config.efficiency else None,
        "agent_points": config.agent.points if config.agent else None,
    }
    return {
        "config": points,
        "problems": [{"id": problem.id, "file": Path(problem.file).name} for problem in problems],
        "max_score": max((row.report.max_score for row in rows if row.report), default=0.0),
        "graded_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def class_gradebook(
    console: Console, path: Path, rows: list[BatchRow], roster: list[Student], form: str, assignment: str, missing: str = "blank"
) -> Gradebook:
    """Write the gradebook of `rows` for `roster` to `path` (roster students with no
    submission left out, or 0 with `missing="zero"`) and say what it leaves out."""
    graded = [Graded(row.student, row.score, row.report.max_score if row.report else 0.0, row.identity.name if row.identity else "") for row in rows]
    book = match(graded, roster)
    zeroed = book.absent if missing == "zero" else []
    if zeroed:
        book.rows, book.absent = book.rows + [(student, 0.0) for student in zeroed], []
    write_gradebook(path, book, form, assignment)
    show_gradebook(console, path, book)
    if zeroed:
        names = ", ".join(clean_text(student.submission, NAME_LIMIT).replace("\n", " ") for student in zeroed)
        console.print(Text(f"0 in {path.name} (--missing zero): roster lines with no submission ({len(zeroed)}): {names}"))
    return book
