"""A trace saved as SVG pictures that open at their own size and stay readable.

Rich draws what a recording console printed as one SVG whose root has a viewBox only: a
viewer then scales the whole picture into its window, and a trace of hundreds of steps
becomes a thin unreadable strip. Here every file's root also carries its width and
height (in pixels, the viewBox's), and a trace longer than `PAGE_LINES` terminal lines is
split into `NAME-1.svg`, `NAME-2.svg`, ... of at most `PAGE_LINES` lines each (about
4,000 pixels high), cut just before a step's headline so that a step is never split
(unless one step alone is longer than a page). A trace that fits in one page keeps the
name it was given.
"""

from __future__ import annotations

import io
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from rich.ansi import AnsiDecoder
from rich.console import Console
from rich.text import Text

#: Terminal lines per SVG file at most: 160 lines of 24.4 px, about 4,000 px high.
PAGE_LINES = 160
#: A step's headline, as `trace_view` prints it, in full and in compact views.
HEADLINE = re.compile(r"step (\d+) · depth ")


@dataclass(frozen=True)
class SvgPage:
    """One written file and the steps whose headlines it holds (0, 0 when none)."""

    path: Path
    first_step: int
    last_step: int

    def describe(self) -> str:
        steps = (
            ""
            if not self.first_step
            else (f": step {self.first_step}" if self.first_step == self.last_step else f": steps {self.first_step}-{self.last_step}")
        )
        return f"{self.path}{steps}"


#: Fonts installed on most machines, then the viewer's own monospace: an SVG that loads
#: nothing from the network (Rich's default asks a web server for Fira Code).
LOCAL_MONOSPACE = '"Fira Code", "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace'


def sized_svg_format() -> str:
    """Rich's SVG template with local fonts only (no @font-face, no URL) and a root that
    states its width and height besides its viewBox."""
    from rich.console import CONSOLE_SVG_FORMAT

    text = re.sub(r"@font-face\s*\{\{.*?\}\}\s*", "", CONSOLE_SVG_FORMAT, flags=re.S)
    text = re.sub(r"font-family:\s*Fira Code,\s*monospace", f"font-family: {LOCAL_MONOSPACE}", text)
    text = re.sub(r"font-family:\s*arial;", "font-family: arial, sans-serif;", text)
    return text.replace('viewBox="0 0 {width} {height}"', 'width="{width}" height="{height}" viewBox="0 0 {width} {height}"', 1)


def page_breaks(lines: list[str], limit: int = PAGE_LINES) -> list[int]:
    """Where each page of `lines` starts: pages of at most `limit` lines, each cut before
    the last step headline that fits (a hard cut when a step alone is longer)."""
    starts, start = [0], 0
    while len(lines) - start > limit:
        end = start + limit
        cut = next((i for i in range(end, start, -1) if HEADLINE.match(lines[i])), end)
        starts.append(cut)
        start = cut
    return starts


def _steps(lines: list[str]) -> tuple[int, int]:
    numbers = [int(match[1]) for line in lines if (match := HEADLINE.match(line))]
    return (numbers[0], numbers[-1]) if numbers else (0, 0)


def save_svg_pages(console: Console, path: Path, title: str) -> list[SvgPage]:
    """Write what the recording `console` printed as SVG: `path` itself when it fits in
    one page, else `STEM-1.svg`, `STEM-2.svg`, ... beside it; the files written."""
    ansi = console.export_text(styles=True, clear=False)
    plain = console.export_text(clear=False).split("\n")
    styled = ansi.split("\n")
    if plain and plain[-1] == "":
        plain, styled = plain[:-1], styled[:-1]
    starts = page_breaks(plain)
    decoder, pages = AnsiDecoder(), []
    for number, start in enumerate(starts, start=1):
        end = starts[number] if number < len(starts) else len(plain)
        target = path if len(starts) == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")
        page = Console(record=True, width=console.width, file=io.StringIO(), color_system="truecolor", force_terminal=True, legacy_windows=False)
        page.print(Text("\n").join(decoder.decode("\n".join(styled[start:end]))), overflow="ignore", crop=False, no_wrap=True, soft_wrap=False)
        part = title if len(starts) == 1 else f"{title} ({number} of {len(starts)})"
        unique = f"trace-{zlib.adler32(chr(10).join(plain[start:end]).encode('utf-8'))}-{number}"  # rich's own is slow
        target.write_text(page.export_svg(title=part, code_format=sized_svg_format(), unique_id=unique), encoding="utf-8")
        pages.append(SvgPage(target, *_steps(plain[start:end])))
    return pages
