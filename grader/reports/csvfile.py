"""Every CSV the kit writes (grades, gradebooks, insights tables): one writer, no cell a
spreadsheet reads as a formula, whatever the delimiter it splits on.

Text is always quoted, so a spreadsheet that splits on `;` or a tab reads each cell whole,
never a `;=1+1` inside a name as a cell of its own; a text cell that would start a formula
(`=`, `+`, `-`, `@`, a tab or a carriage return, or one of them after leading blanks, or
their full-width forms) gets a leading `'`, as OWASP advises. Nothing else of the text
changes. Numbers (int, float, or a Decimal for a fixed form, `number_cell`) are written
unquoted, as numbers: a score column still sums.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path

Cell = str | int | float | Decimal | None  # None: an empty cell
FORMULA = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_text(text: str) -> str:
    """`text` as a cell no spreadsheet reads as a formula: a leading `'` when it starts one."""
    return "'" + text if text[:1] in FORMULA or text.lstrip()[:1] in FORMULA else text


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
