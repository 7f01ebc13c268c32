"""The insights as one self-contained page: inline CSS, inline SVG bar charts, no script,
no font, no URL; every student string escaped. It fits a phone's width: the charts scale
down, and on a narrow screen each table row is shown as a block of its cells, each cell
named by its column (`data-label`), a long word wrapped rather than widening the page."""

from __future__ import annotations

import html

from grader.reports.insights import Cell, Table

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:80em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;max-width:100%}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;
vertical-align:top}th{background:#f0f0f0}td.n{text-align:right}p.note{color:#555}svg text{font-size:11px}
svg{max-width:100%;height:auto}.flag{color:#a00;font-weight:bold}
@media (max-width:40em){body{margin:.5em}table,tbody,tr,td{display:block}
thead tr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
tr{border:1px solid #ccc;margin-bottom:.4em}td{border:0;border-top:1px solid #eee;overflow-wrap:anywhere}td.n{text-align:left}
td::before{content:attr(data-label) ": ";font-weight:bold}}"""
CHARTED = {"scores": 1, "agent_win_rates": 1}  # tables drawn as bars too: the column of their counts


def _cell(value: Cell, column: str) -> str:
    css = " class='n'" if isinstance(value, int | float) else " class='flag'" if column == "flag" and value else ""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return f"<td{css} data-label='{html.escape(column)}'>{html.escape(text)}</td>"


def table_html(table: Table) -> str:
    """One table, with its heading; a line saying so when it has no rows."""
    parts = [f"<h2 id='{html.escape(table.key)}'>{html.escape(table.title)}</h2>"]
    if table.key in CHARTED and table.rows:
        parts.append(bars(table, CHARTED[table.key]))
    if table.note:
        parts.append(f"<p class='note'>{html.escape(table.note)}</p>")
    if not table.rows:
        parts.append("<p class='note'>nothing to show</p>")
        return "\n".join(parts)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(_cell(v, c) for v, c in zip(row, table.columns)) + "</tr>" for row in table.rows)
    parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "\n".join(parts)


def bars(table: Table, column: int, width: int = 600, bar: int = 18) -> str:
    """The table's rows as horizontal bars: the first cell the label, `column` the count."""
    counts = [float(row[column]) if isinstance(row[column], int | float) else 0.0 for row in table.rows]
    widest = max(counts, default=0.0) or 1.0
    height = bar * len(counts) + 4
    rows = []
    for index, (row, count) in enumerate(zip(table.rows, counts)):
        y = index * bar + 2
        length = round((width - 220) * count / widest)
        rows.append(
            f"<text x='0' y='{y + 13}'>{html.escape(str(row[0]))}</text>"
            f"<rect x='150' y='{y + 2}' width='{length}' height='{bar - 4}' fill='#4a7ab5'/>"
            f"<text x='{155 + length}' y='{y + 13}'>{count:g}</text>"
        )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' viewBox='0 0 {width} {height}' role='img' "
        f"aria-label='{html.escape(table.title)}'>{''.join(rows)}</svg>"
    )


def insights_page(title: str, summary: str, tables: list[Table]) -> str:
    """The whole page: a heading, a line of summary, then every table."""
    links = " · ".join(f"<a href='#{html.escape(t.key)}'>{html.escape(t.title)}</a>" for t in tables)
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(summary)}</p><nav>{links}</nav>"
        + "\n".join(table_html(t) for t in tables)
        + "</main></body></html>\n"
    )
