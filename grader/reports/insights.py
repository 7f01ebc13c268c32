"""What a class got wrong, counted from its students' reports: one `Table` per question.

Every table is plain rows of text and numbers, so that the terminal, the CSV files and
the HTML page show the same counts. The counts read only typed facts of the reports
(scores, statuses, a hook's `first_wrong` case and `mistake`, a board's `lost_to`, the
agent's `game_outcomes`), never a reason's text, except a lost board's first reason line
shown as it is.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from grader.inputs.names import shown_name
from grader.reports.advice import label
from grader.reports.results import ItemResult, Report
from grader.reports.shown import shown_report

ALMOST_ALL = 0.9  # a board failed by at least this share of the graded students is flagged
NAMES_SHOWN = 8  # students named in one cell at most (the rest counted)
BINS = 10  # bars of the score histogram
RATE_BINS = 5  # bars of the win-rate distribution
Cell = str | float | int


@dataclass(frozen=True)
class StudentResult:
    """One student as the insights read them: `not_graded` says why they have no grade;
    `report` as `shown_report` shows it (the tables name no hidden item's details); every
    table names them by `shown`."""

    student: str
    report: Report | None
    not_graded: str = ""
    section: str = ""
    name: str = ""  # their name, when an export gave one (the student is then their id)

    @property
    def shown(self) -> str:
        """How a table names them: their id, and their name beside it when it differs (one
        line each, no control character)."""
        student, name = shown_name(self.student), shown_name(self.name)
        return f"{student} ({name})" if name and name != student else student

    def __post_init__(self) -> None:
        if self.report is not None:
            object.__setattr__(self, "report", shown_report(self.report))

    @property
    def score(self) -> float | None:
        """The score (0 with nothing graded), None when the grader could not grade them."""
        if self.not_graded or (self.report is not None and self.report.ungraded):
            return None
        return self.report.score if self.report else 0.0


@dataclass
class Table:
    """One table: `key` names its CSV file, `rows` hold cells in the order of `columns`."""

    key: str
    title: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    note: str = ""


def names(students: list[str]) -> str:
    """Students for one cell: the first `NAMES_SHOWN`, then how many more."""
    more = len(students) - NAMES_SHOWN
    return ", ".join(students[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")


def graded(students: list[StudentResult]) -> list[tuple[StudentResult, Report]]:
    return [(s, s.report) for s in students if s.report is not None and s.score is not None]


def items_table(students: list[StudentResult]) -> Table:
    """Per item: the shares of full, partial and no points, the mean, who lost the most."""
    table = Table("items", "Items", ["item", "students", "full", "partial", "none", "mean", "max", "lost the most"])
    by_item: dict[str, list[tuple[str, ItemResult]]] = {}
    for student, report in graded(students):
        for item in report.items:
            by_item.setdefault(label(item), []).append((student.shown, item))
    for name, results in by_item.items():
        count = len(results)
        full = sum(i.score >= i.max_score for _, i in results)
        none = sum(i.score <= 0 < i.max_score for _, i in results)
        worst = max((i.max_score - i.score for _, i in results), default=0.0)
        losers = [s for s, i in results if worst > 0 and i.max_score - i.score == worst]
        table.rows.append(
            [
                name,
                count,
                _share(full, count),
                _share(count - full - none, count),
                _share(none, count),
                round(statistics.mean(i.score for _, i in results), 2),
                results[0][1].max_score,
                f"{names(losers)} (-{worst:g})" if losers else "",
            ]
        )
    return table


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else ""


def first_wrong_table(students: list[StudentResult]) -> Table:
    """Per hook: each first wrong case (and the mistake it looks like), with its students,
    the commonest first: what to teach again."""
    table = Table("first_wrong", "First wrong cases (what to teach again)", ["hook", "first wrong case", "looks like", "students", "who"])
    groups: dict[tuple[str, str, str], list[str]] = {}
    for student, report in graded(students):
        for item in report.items:
            if item.kind == "hook" and (key := first_wrong(item)):
                groups.setdefault((item.name, *key), []).append(student.shown)
    for (hook, case, mistake), who in sorted(groups.items(), key=lambda pair: (-len(pair[1]), pair[0])):
        table.rows.append([hook, case, mistake, len(who), names(who)])
    return table


def first_wrong(item: ItemResult) -> tuple[str, str] | None:
    """A lost hook's first wrong case and its mistake; None when the hook lost nothing or
    the student's file did not load (nothing about the hook to teach)."""
    if (item.score >= item.max_score and item.status == "pass") or item.unloadable:
        return None
    if item.first_wrong:
        return item.first_wrong, item.mistake
    if item.status == "fail":
        return "(right on the named cases, wrong in the grader's searches)", ""
    return f"({item.status.replace('_', ' ')})", ""


def boards_table(students: list[StudentResult]) -> Table:
    """Per board: who failed it and the commonest reason; flagged when almost everyone
    or nobody fails it."""
    table = Table("boards", "Boards", ["board", "failed", "of", "share", "who", "commonest reason", "flag"])
    by_board: dict[str, list[tuple[str, ItemResult]]] = {}
    for student, report in graded(students):
        for item in report.items:
            if item.kind == "problem":
                by_board.setdefault(label(item), []).append((student.shown, item))
    for board, results in by_board.items():
        failed = [(s, i) for s, i in results if i.score < i.max_score]
        share = len(failed) / len(results)
        reasons = Counter(_reason(i) for _, i in failed).most_common(1)
        flag = "almost everyone fails it: the problem's fault?" if share >= ALMOST_ALL else "nobody fails it: worth nothing?" if not failed else ""
        table.rows.append(
            [
                board,
                len(failed),
                len(results),
                f"{share:.0%}",
                names([s for s, _ in failed]),
                f"{reasons[0][0]} ({reasons[0][1]})" if reasons else "",
                flag,
            ]
        )
    return table


def _reason(item: ItemResult) -> str:
    """What a lost board is lost to: the hook, else its status and the first line of its reason."""
    if item.lost_to:
        return f"lost to {item.lost_to}"
    line = item.message.splitlines()[0] if item.message else ""
    return f"{item.status}: {line[:80]}" if line else item.status


def agent_tables(students: list[StudentResult]) -> tuple[Table, Table]:
    """The agent item: how many students won what share of their games, and how the lost
    games were lost (games and students counted)."""
    rates = Table("agent_win_rates", "Agent: win rates", ["win rate", "students", "who"])
    causes = Table("agent_losses", "Agent: how games were lost", ["how", "games", "students"])
    bins: list[list[str]] = [[] for _ in range(RATE_BINS)]
    games: Counter[str] = Counter()
    players: Counter[str] = Counter()
    for student, report in graded(students):
        for item in report.items:
            if item.kind == "agent" and item.game_outcomes:
                played = sum(count for _, count in item.game_outcomes)
                won = dict(item.game_outcomes).get("won", 0)
                bins[min(int(won / played * RATE_BINS), RATE_BINS - 1)].append(student.shown)
                for way, count in item.game_outcomes:
                    if way != "won":
                        games[way] += count
                        players[way] += 1
    if any(bins):
        for index, who in enumerate(bins):
            closing = "]" if index == RATE_BINS - 1 else ")"
            rates.rows.append([f"[{index / RATE_BINS:.0%}, {(index + 1) / RATE_BINS:.0%}{closing}", len(who), names(who)])
    causes.rows = [[way, count, players[way]] for way, count in games.most_common()]
    return rates, causes


def help_table(students: list[StudentResult]) -> Table:
    """Who needs help: not graded, zero, stuck at a first wrong case others share, timed out."""
    table = Table("needs_help", "Who needs help", ["student", "why"])
    shared = Counter(
        (item.name, key) for _, report in graded(students) for item in report.items if item.kind == "hook" and (key := first_wrong(item))
    )
    for student in students:
        reasons = []
        if student.score is None:
            reasons.append(f"not graded: {student.not_graded or (student.report and student.report.ungraded)}")
        elif student.score == 0:
            reasons.append("scored 0")
        if student.report is not None and student.score is not None:
            for item in student.report.items:
                key = first_wrong(item) if item.kind == "hook" else None
                if key and item.first_wrong and shared[(item.name, key)] > 1:
                    others = shared[(item.name, key)] - 1
                    looks = f", looking like {item.mistake}" if item.mistake else ""
                    reasons.append(f'stuck at {item.name}\'s case "{item.first_wrong}"{looks} (as {others} other{"s" * (others != 1)})')
            timed = [label(i) for i in student.report.items if i.status == "timeout"]
            if timed:
                reasons.append(f"ran out of time: {names(timed)}")
        if reasons:
            table.rows.append([student.shown, "; ".join(reasons)])
    return table


def histogram(students: list[StudentResult], max_score: float, bins: int = BINS) -> Table:
    """How many students scored in each tenth of the full marks."""
    table = Table("scores", "Scores", ["range", "students"])
    top = max_score or 1.0
    counts = [0] * bins
    for student in students:
        if (score := student.score) is not None:
            counts[max(0, min(int(score / top * bins), bins - 1))] += 1
    for index, count in enumerate(counts):
        closing = "]" if index == bins - 1 else ")"
        table.rows.append([f"[{top * index / bins:g}, {top * (index + 1) / bins:g}{closing}", count])
    return table


def sections_table(students: list[StudentResult]) -> Table:
    """Scores by section, when the students have sections."""
    table = Table("sections", "Scores by section", ["section", "students", "graded", "mean", "median"])
    by_section: dict[str, list[StudentResult]] = {}
    for student in students:
        if student.section:
            by_section.setdefault(student.section, []).append(student)
    for section, members in sorted(by_section.items()):
        scores = [s for m in members if (s := m.score) is not None]
        table.rows.append(
            [
                section,
                len(members),
                len(scores),
                round(statistics.mean(scores), 2) if scores else "",
                round(statistics.median(scores), 2) if scores else "",
            ]
        )
    return table


def class_max(students: list[StudentResult]) -> float:
    return max((s.report.max_score for s in students if s.report is not None), default=0.0)


def all_tables(students: list[StudentResult]) -> list[Table]:
    """Every table of the insights, in the page's order."""
    rates, causes = agent_tables(students)
    return [
        histogram(students, class_max(students)),
        items_table(students),
        first_wrong_table(students),
        boards_table(students),
        rates,
        causes,
        help_table(students),
        sections_table(students),
    ]


def moved(before: list[StudentResult], after: list[StudentResult]) -> list[Table]:
    """What moved between two result sets: students' scores, item means, who came and went."""
    old = {s.student: s for s in before}
    new = {s.student: s for s in after}
    scores = Table("moved_scores", "Scores that moved", ["student", "before", "after", "change"])
    for name, student in new.items():
        if name in old and old[name].score != student.score:
            was, now = old[name].score, student.score
            change = round(now - was, 2) if was is not None and now is not None else ""
            scores.rows.append([student.shown, "not graded" if was is None else was, "not graded" if now is None else now, change])
    scores.rows.sort(key=lambda row: -abs(row[3]) if isinstance(row[3], float) else 0)
    means = Table("moved_items", "Item means that moved", ["item", "before", "after", "change"])
    was_means, now_means = _means(before), _means(after)
    for item in dict.fromkeys([*was_means, *now_means]):
        was, now = was_means.get(item), now_means.get(item)
        if was != now:
            means.rows.append(
                [item, "" if was is None else was, "" if now is None else now, round(now - was, 2) if was is not None and now is not None else ""]
            )
    people = Table("moved_students", "Students added or removed", ["student", "change"])
    people.rows += [[s.shown, "added"] for n, s in new.items() if n not in old]
    people.rows += [[s.shown, "removed"] for n, s in old.items() if n not in new]
    return [scores, means, people]


def _means(students: list[StudentResult]) -> dict[str, float]:
    return {row[0]: row[5] for row in items_table(students).rows if isinstance(row[0], str) and isinstance(row[5], float)}
