"""Every CSV the kit writes (grades, gradebooks, insights tables): one writer, no cell a
spreadsheet reads as a formula, whatever the delimiter it splits on.

Text is always quoted. A spreadsheet that splits on `;` or a tab instead of `,` does not
see the quotes where the writer put them, so every place in a text where such a reader
could start a cell is made safe: the text's start, and the character after each `,`, `;`,
tab or line break it holds; there, after any blanks and quotes, a character that starts a
formula (`=`, `+`, `-`, `@`, a tab, a carriage return, or a full-width `=+-@`) gets a `'`
before it, as OWASP advises (`x;=1+1` is written `x;'=1+1`). Nothing else of the text
changes. Numbers (int, float, or a Decimal for a fixed form, `number_cell`) are written
unquoted, as numbers: a score column still sums.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path

Cell = str | int | float | Decimal | None  # None: an empty cell
FORMULA = "=+\\-@\t\r\uff1d\uff0b\uff0d\uff20"  # what starts a formula, as a regex class
#: Where a reader splitting on `,`, `;`, a tab or a line could start a cell, up to a formula's first character.
_STARTS = re.compile(rf'(?:^|(?<=[,;\t\r\n]))(?:[^\S\t\r\n]|")*(?=[{FORMULA}])')


def csv_text(text: str) -> str:
    """`text` as a cell no spreadsheet reads as a formula, whatever it splits on: a `'`
    before each formula character that could start a cell."""
    return _STARTS.sub(lambda found: found.group() + "'", text)


def number_cell(value: float, form: str) -> Decimal:
    """`value` as a number cell written in the format `form` (`.3f`: 0.120)."""
    return Decimal(format(value, form))


def write_table(path: Path, rows: Iterable[Sequence[Cell]]) -> None:
    """Write `rows` (the header first) to `path` as UTF-8 CSV: text quoted and made safe
    (`csv_text`), numbers unquoted."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_NONNUMERIC)
        writer.writerows([_cell(cell) for cell in row] for row in rows)


def _cell(cell: Cell) -> str | int | float | Decimal:
    if cell is None:
        return ""
    return csv_text(cell) if isinstance(cell, str) else cell
