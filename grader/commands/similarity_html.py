"""The similarity report: one self-contained page (inline CSS, no script, no font, no URL),
drawn from copydetect's results, bounded whatever the size of the files compared.

The page holds, in order: the submissions to read by hand (code built from data); the
similarity matrix as a table with the students' names on both axes (at most
`MATRIX_NAMES` of them); the pairs by share, as bars; every pair above the threshold,
each opening to both files side by side with the shared code highlighted; how the
comparison was made. Every name and every line of code is escaped.

copydetect's own report shows both files of every pair above the threshold in full, so
one 5 MB file that matches 39 classmates is written 39 times. Here each side of a pair
shows at most `CODE_BYTES` of HTML (from a few lines before the first shared run when the
file is long), followed by a line saying what was left out; only the `PAIRS_WITH_CODE`
most similar pairs carry their code. The report then weighs at most

    64 KB + 8 KB per submission + 2 KB per pair shown + 2 * CODE_BYTES per pair with code

(the style and the text; a submission's row and column of the matrix and its flags, each
line capped; a pair's names, shares and link; its code).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

CODE_BYTES = 32 << 10  # HTML of one side of one pair, notes included: a whole hook file, and more
PAIRS_WITH_CODE = 100  # the most similar pairs show their code; the others their names and shares
CONTEXT_LINES = 3  # lines shown before the first shared run, when the start of a long file is left out
NOTE_ROOM = 512  # bytes kept in CODE_BYTES for the lines saying what was left out
MATCHED = "<h2>Matched Code</h2>"  # the heading of the pairs, below the flags
MATRIX_NAMES = 40  # submissions on the matrix's axes at most (those of the most similar pairs in a larger class)
SHORT_NAME = 24  # characters of a name on the matrix's axes (the whole name in its tooltip)


def _size(text: str) -> int:
    return len(html.escape(text, quote=False).encode("utf-8"))


def _fitting(text: str, room: int) -> str:
    """The longest start of `text` whose HTML takes at most `room` bytes."""
    low, high = 0, min(len(text), room)  # every character takes a byte at least
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if _size(text[:middle]) <= room else (low, middle - 1)
    return text[:low]


def shown_code(code: str, runs: list[tuple[int, int]], css: str, budget: int = CODE_BYTES) -> str:
    """`code` as HTML with the shared `runs` (start, end) highlighted in the class `css`:
    at most `budget` bytes, with a line for each part left out."""
    room = budget - NOTE_ROOM
    begin = 0
    if runs and _size(code[: min(runs[0][0], room)]) > room // 2:  # the first shared run is far down
        begin = code.rfind("\n", 0, runs[0][0]) + 1
        for _ in range(CONTEXT_LINES):
            begin = code.rfind("\n", 0, begin - 1) + 1 if begin else 0
    parts = [f"[lines 1-{code.count(chr(10), 0, begin)} not shown]\n"] if begin else []
    position = begin
    for start, end in [*runs, (len(code), len(code))]:
        start, end = max(start, position), max(end, position)
        for text, mark in ((code[position:start], ""), (code[start:end], css)):
            wrap = (f"<span class='{mark}'>", "</span>") if mark else ("", "")
            shown = _fitting(text, room - len(wrap[0]) - len(wrap[1]))
            if shown:
                escaped = html.escape(shown, quote=False)
                parts.append(wrap[0] + escaped + wrap[1])
                room -= len(parts[-1].encode("utf-8"))
            position += len(shown)
            if len(shown) < len(text):
                left = len(code) - position
                parts.append(f"\n\n[cut here: {left} more characters ({code.count(chr(10), position) + 1} lines) not shown; read the file itself]")
                return "".join(parts)
    return "".join(parts)


def shared_runs(slices: Any) -> list[tuple[int, int]]:
    """copydetect's slices (starts, ends) as sorted runs."""
    if len(slices) == 0 or len(slices[0]) == 0:
        return []
    return sorted((int(s), int(e)) for s, e in zip(slices[0], slices[1]))


def flags_section(flags: dict[str, list[str]]) -> str:
    """The HTML list of the submissions to read by hand, with their flags."""
    heading = "<h2>Submissions to read by hand</h2>\n"
    if not flags:
        return heading + "<p>None: no submission builds code from data, and every file could be read.</p>\n"
    items = "".join(
        f"<li><b>{html.escape(student)}</b><ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul></li>\n"
        for student, lines in sorted(flags.items())
    )
    return (
        heading + "<p>These files turn data into code, hold encoded data, or could not be read as Python: "
        "the comparison cannot see such code. A flag is a reason to look, not a verdict, and changes no grade.</p>\n"
        "<ul>\n" + items + "</ul>\n"
    )


@dataclass(frozen=True)
class ShownPair:
    """A pair above the threshold as the report shows it: `first` is the side with the
    larger share; its code and the other's as HTML (None past `PAIRS_WITH_CODE`)."""

    first: str
    second: str
    first_share: float
    second_share: float
    tokens: int
    code: tuple[str, str] | None


@dataclass(frozen=True)
class Settings:
    """How the comparison was made, stated at the foot of the report."""

    noise: int
    guarantee: int
    threshold: float
    version: str


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def matrix_names(students: list[str], pairs: list[ShownPair]) -> list[str]:
    """The submissions on the matrix's axes: all when the class has at most
    `MATRIX_NAMES`, else those of the most similar pairs; in the order of `students`."""
    if len(students) <= MATRIX_NAMES:
        return students
    chosen: set[str] = set()
    for pair in pairs:
        for name in (pair.first, pair.second):
            if len(chosen) < MATRIX_NAMES:
                chosen.add(name)
    return [name for name in students if name in chosen]


def matrix_section(students: list[str], shares: dict[tuple[str, str], float], pairs: list[ShownPair]) -> str:
    """The similarity matrix as a table with the names on both axes: the cell of row A and
    column B is the share of A's code found in B, shaded by tenths; a pair shown below
    links to its code."""
    names = matrix_names(students, pairs)
    anchors = {frozenset((p.first, p.second)): f"pair-{rank}" for rank, p in enumerate(pairs, start=1)}
    head = "".join(f"<th class='col' title='{_e(n)}'><span>{_e(_short(n))}</span></th>" for n in names)
    rows = []
    for row in names:
        cells = []
        for column in names:
            share = shares.get((row, column), -1.0)
            if row == column:
                cells.append("<td class='self'></td>")
            elif share < 0:
                cells.append("<td class='none'>·</td>")
            else:
                label = f"{share:.0%}".removesuffix("%")
                anchor = anchors.get(frozenset((row, column)))
                text = f"<a href='#{anchor}'>{label}</a>" if anchor else label
                cells.append(f"<td class='t{min(int(share * 10), 9)}'>{text}</td>")
        rows.append(f"<tr><th class='row' title='{_e(row)}'>{_e(_short(row))}</th>{''.join(cells)}</tr>\n")
    note = "" if len(names) == len(students) else f"<p>The {len(names)} submissions of the most similar pairs, of {len(students)}.</p>\n"
    return (
        "<h2>Similarity matrix</h2>\n<p>Each cell: the share (%) of the row's code found in the column's; "
        "darker is more. A linked number opens the pair's code below.</p>\n"
        + note
        + "<div class='matrix' tabindex='0'><table><thead><tr><td></td>"
        + head
        + "</tr></thead>\n<tbody>\n"
        + "".join(rows)
        + "</tbody></table></div>\n"
    )


def _short(name: str) -> str:
    return name if len(name) <= SHORT_NAME else name[: SHORT_NAME - 1] + "…"


def histogram_section(shares: list[float], threshold: float) -> str:
    """How many pairs fall in each tenth of the larger share, as bars."""
    counts = [0] * 10
    for share in shares:
        counts[min(int(share * 10), 9)] += 1
    top = max(counts) or 1
    rows = "".join(
        f"<tr><th>{10 * tenth}-{10 * tenth + 10}%</th><td><span class='bar{' over' if tenth / 10 >= threshold else ''}' "
        f"style='width:{count / top * 100:.0f}%'></span></td><td>{count}</td></tr>\n"
        for tenth, count in enumerate(counts)
    )
    return "<h2>Pairs by share</h2>\n<table class='histogram'><tbody>\n" + rows + "</tbody></table>\n"


def pairs_section(pairs: list[ShownPair], threshold: float) -> str:
    """Every pair above the threshold, most similar first; each opens to both files side by
    side, the shared code highlighted (the first pair open)."""
    items = []
    for rank, pair in enumerate(pairs, start=1):
        summary = (
            f"<summary><span class='rank'>{rank}</span> <i>{_e(pair.first)}</i> {pair.first_share:.0%} · "
            f"<i>{_e(pair.second)}</i> {pair.second_share:.0%} · {pair.tokens} tokens in common</summary>"
        )
        if pair.code is None:
            body = f"<p>(the report shows the code of the {PAIRS_WITH_CODE} most similar pairs only)</p>"
        else:
            body = (
                "<div class='sides'>"
                + "".join(
                    f"<div class='side'><div class='name'>{_e(name)} ({share:.0%} found in the other)</div>"
                    f"<pre tabindex='0'><code>{code}</code></pre></div>"
                    for name, share, code in ((pair.first, pair.first_share, pair.code[0]), (pair.second, pair.second_share, pair.code[1]))
                )
                + "</div>"
            )
        items.append(f"<details class='pair' id='pair-{rank}'{' open' if rank == 1 else ''}>{summary}{body}</details>\n")
    if not items:
        items = [f"<p>No pair shares more than {threshold:.0%}.</p>\n"]
    return (
        f"{MATCHED}\n<p>The pairs sharing more than {threshold:.0%}, most similar first: "
        "red on the left and green on the right is code found in both.</p>\n" + "".join(items)
    )


def report(
    students: list[str],
    shares: dict[tuple[str, str], float],
    larger: list[float],
    pairs: list[ShownPair],
    flags: dict[str, list[str]],
    settings: Settings,
) -> str:
    """The whole page: the flags, the matrix and the histogram, the pairs with their code,
    and how the comparison was made. Self-contained: no script, no font, no URL."""
    flagged = len(pairs)
    intro = (
        f"<p>{len(students)} submissions, {len(larger)} pairs compared; {flagged} share more than "
        f"{settings.threshold:.0%}. A high share is a reason to read both files, not a verdict.</p>\n"
    )
    foot = (
        f"<p class='foot'>Compared by copydetect {_e(settings.version)}: runs of fewer than {settings.noise} tokens "
        f"are not counted, runs of {settings.guarantee} are always found; names of variables, functions and classes "
        "read alike, comments and layout are dropped; the handout's stubs are left out.</p>\n"
    )
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n<title>Similarity report</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>Similarity report</h1>\n"
        + intro
        + flags_section(flags)
        + matrix_section(students, shares, pairs)
        + histogram_section(larger, settings.threshold)
        + pairs_section(pairs, settings.threshold)
        + foot
        + "</main>\n</body>\n</html>\n"
    )


STYLE = """
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif; color: #1d1d1f; background: #fafafa; }
main { max-width: 1400px; margin: 0 auto; padding: 1em 1.5em 3em; }
h1 { font-size: 1.6em; margin: .4em 0; } h2 { font-size: 1.2em; margin: 1.6em 0 .5em; border-bottom: 1px solid #ddd; }
.matrix { overflow: auto; max-height: 80vh; border: 1px solid #ddd; background: #fff; display: inline-block; max-width: 100%; }
.matrix table { border-collapse: collapse; font-size: 12px; }
.matrix td { width: 2.4em; height: 2em; text-align: center; border: 1px solid #eee; padding: 0; }
.matrix td a { color: inherit; display: block; text-decoration: underline; }
.matrix th { font-weight: 600; white-space: nowrap; background: #fff; position: sticky; }
.matrix th.row { text-align: right; padding: 0 .5em; left: 0; z-index: 1; }
.matrix thead th { top: 0; z-index: 2; vertical-align: bottom; }
.matrix th.col span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; padding: .4em 0; }
.matrix td.self { background: #e8e8e8; } .matrix td.none { color: #999; }
.t0 { background: #fff; } .t1 { background: #fde9e7; } .t2 { background: #fbd3cf; } .t3 { background: #f8bdb6; }
.t4 { background: #f5a69d; } .t5 { background: #f08f84; color: #fff; } .t6 { background: #e8766a; color: #fff; }
.t7 { background: #dc5c50; color: #fff; } .t8 { background: #c94237; color: #fff; } .t9 { background: #ad2b22; color: #fff; }
.histogram { border-collapse: collapse; width: min(100%, 640px); font-size: 13px; }
.histogram th { text-align: right; font-weight: normal; padding-right: .6em; white-space: nowrap; width: 6em; }
.histogram td:last-child { width: 3em; padding-left: .5em; }
.bar { display: block; height: 1em; background: #8aa4c8; min-width: 1px; } .bar.over { background: #c94237; }
.pair { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: .6em 0; }
.pair summary { cursor: pointer; padding: .5em .8em; overflow-wrap: anywhere; }
.rank { display: inline-block; min-width: 2em; font-weight: 600; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .8em; padding: 0 .8em .8em; }
.side { min-width: 0; } .name { font-weight: 600; margin-bottom: .3em; overflow-wrap: anywhere; }
.side pre { margin: 0; padding: .6em; background: #f6f6f6; border: 1px solid #e3e3e3; overflow: auto; max-height: 70vh;
  font: 12.5px/1.4 "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace; }
.highlight-red { background-color: #f2b6b6; } .highlight-green { background-color: #b6f2b6; }
.foot { color: #555; font-size: 13px; margin-top: 2em; }
@media (max-width: 640px) { .sides { grid-template-columns: minmax(0, 1fr); } }
@media print { .pair { break-inside: avoid; } .side pre { max-height: none; } }
"""
