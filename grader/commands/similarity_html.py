"""The similarity report's HTML, bounded whatever the size of the files compared.

copydetect's own report shows both files of every pair above the threshold in full, so
one 5 MB file that matches 39 classmates is written 39 times. Here each side of a pair
shows at most `CODE_BYTES` of HTML (from a few lines before the first shared run when the
file is long), followed by a line saying what was left out; only the `PAIRS_WITH_CODE`
most similar pairs carry their code; and the submissions that build code from data are
listed above the pairs. Besides copydetect's two plots (PNG images of matplotlib's fixed
size, 640 by 480 pixels, whatever the class), the report then weighs at most

    64 KB + 8 KB per submission + 2 KB per pair shown + 2 * CODE_BYTES per pair with code

(the template and settings; a submission's lines in the file lists and its flags, each
line capped; a pair's names, shares and buttons; its code).

This module imports copydetect: import it only once copydetect is known to be installed.
"""

from __future__ import annotations

import html
from typing import Any

from copydetect import CopyDetector

CODE_BYTES = 32 << 10  # HTML of one side of one pair, notes included: a whole hook file, and more
PAIRS_WITH_CODE = 100  # the most similar pairs show their code; the others their names and shares
CONTEXT_LINES = 3  # lines shown before the first shared run, when the start of a long file is left out
NOTE_ROOM = 512  # bytes kept in CODE_BYTES for the lines saying what was left out
MATCHED = "<h2>Matched Code</h2>"  # copydetect's heading, before which the flags are shown


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
    if runs and _size(code[:min(runs[0][0], room)]) > room // 2:  # the first shared run is far down
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
                parts.append(f"\n\n[cut here: {left} more characters ({code.count(chr(10), position) + 1} lines) "
                             "not shown; read the file itself]")
                return "".join(parts)
    return "".join(parts)


def _runs(slices: Any) -> list[tuple[int, int]]:
    """copydetect's slices (starts, ends) as sorted runs."""
    if len(slices) == 0 or len(slices[0]) == 0:
        return []
    return sorted((int(s), int(e)) for s, e in zip(slices[0], slices[1]))


class BoundedDetector(CopyDetector):
    """copydetect's detector whose report shows bounded code (see the module)."""

    threshold: float
    shown_names: dict[str, str]

    def get_copied_code_list(self) -> list[list[Any]]:
        """copydetect's rows (share, share, name, name, code, code, tokens), the code of
        each side bounded, only the first `PAIRS_WITH_CODE` rows with code."""
        rows = []
        matrix = self.similarity_matrix
        files = list(self.test_files)
        for i, first in enumerate(files):
            for j in range(i + 1, len(files)):
                a, b = (float(x) for x in matrix[i][j])
                if max(a, b) > self.threshold:
                    rows.append((a, b, first, files[j]) if a >= b else (b, a, files[j], first))
        rows.sort(key=lambda row: (-row[0], -row[1], row[2], row[3]))
        listed = []
        for rank, (share, other_share, test, ref) in enumerate(rows):
            if rank < PAIRS_WITH_CODE:
                slices = self.slice_matrix.get((test, ref)) or self.slice_matrix[(ref, test)][::-1]
                code = [shown_code(self.file_data[name].raw_code, _runs(part), css)
                        for name, part, css in ((test, slices[0], "highlight-red"), (ref, slices[1], "highlight-green"))]
            else:
                code = [f"(the report shows the code of the {PAIRS_WITH_CODE} most similar pairs only)"] * 2
            tokens = self.token_overlap_matrix[files.index(test)][files.index(ref)]
            listed.append([share, other_share, self.shown_names[test], self.shown_names[ref], *code, tokens])
        return listed


def flags_section(flags: dict[str, list[str]]) -> str:
    """The HTML list of the submissions to read by hand, with their flags."""
    heading = "<h2>Submissions to read by hand</h2>\n"
    if not flags:
        return heading + "<p>None: no submission builds code from data, and every file could be read.</p>\n"
    items = "".join(f"<li><b>{html.escape(student)}</b><ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
                    + "</ul></li>\n" for student, lines in sorted(flags.items()))
    return (heading + "<p>These files turn data into code, hold encoded data, or could not be read as Python: "
            "the comparison cannot see such code. A flag is a reason to look, not a verdict, and changes no grade.</p>\n"
            "<ul>\n" + items + "</ul>\n")


def with_flags(report: str, flags: dict[str, list[str]]) -> str:
    """copydetect's `report` with the flags' section before the matched code."""
    section = flags_section(flags)
    return report.replace(MATCHED, section + MATCHED, 1) if MATCHED in report else report + section
