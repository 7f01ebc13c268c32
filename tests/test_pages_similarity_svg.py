"""Two pages opened in a real browser with the network cut: the similarity report and the
SVG export of a trace.

- the report of a small class (two independent files and a disguised copy of one of
  them, handed in under a file name that is an HTML tag) asks for nothing but itself,
  shows the two files of a pair side by side at 1280 pixels, puts the students' names on
  the matrix's axes, and the hostile name stays text;
- an SVG trace states its width, height and viewBox and opens at that size; a trace
  longer than a page is split into files of bounded height, each named on the terminal
  with its steps.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from browser import load
from conftest import COURSE, STUDENT_FILES, needed, run_grader
from playwright.sync_api import Page
from test_similarity import planted_copy

HOSTILE = "<img src=x onerror=window.__pwned=1>"
HOSTILE_CODE = 'NOTE = "</code></pre><script>window.__pwned = 2</script><img src=x onerror=window.__pwned=3>"\n'


def local_only(urls: list[str]) -> list[str]:
    """The URLs that are neither file: nor data:."""
    return [url for url in urls if not url.startswith(("file:", "data:"))]


def small_class(folder: Path) -> None:
    """alice (the model answer), carol (whose code holds a string of HTML), and carol's code
    disguised under a hostile name."""
    folder.mkdir()
    shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "alice.py")
    carol = (STUDENT_FILES / "similarity_class" / "carol.py").read_text(encoding="utf-8") + HOSTILE_CODE
    (folder / "carol.py").write_text(carol, encoding="utf-8")
    (folder / f"{HOSTILE}.py").write_text(planted_copy(carol), encoding="utf-8")


def test_the_similarity_report_works_offline_side_by_side_with_names(tmp_path: Path, browser: Page, requested: list[str]) -> None:
    needed("the similarity report", None if importlib.util.find_spec("copydetect") else 'copydetect is not installed: pip install -e ".[instructor]"')
    small_class(tmp_path / "class")
    report = tmp_path / "report.html"
    result = run_grader("similarity", tmp_path / "class", "--out", report, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    text = report.read_text(encoding="utf-8")
    assert "http" not in text and "<script" not in text and HOSTILE not in text and "<img" not in text

    browser.set_viewport_size({"width": 1280, "height": 900})
    load(browser, report)
    assert local_only(requested) == []
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.images.length") == 0
    # the first pair (the copy) is open: its two code columns side by side
    sides = browser.evaluate("""[...document.querySelectorAll('#pair-1 .side pre')].map(e => {
        const r = e.getBoundingClientRect(); return [r.top, r.left, r.width, r.height]; })""")
    assert len(sides) == 2, sides
    (top1, left1, width1, height1), (top2, left2, width2, height2) = sides
    assert top1 == top2 and left2 >= left1 + width1 and min(width1, width2) > 400 and min(height1, height2) > 100, sides
    assert set(browser.evaluate("[...document.querySelectorAll('#pair-1 .name')].map(e => e.textContent.split(' (')[0])")) == {"carol", HOSTILE}
    # the matrix: the names on both axes, the copy's cell links to its pair
    columns = browser.evaluate("[...document.querySelectorAll('.matrix th.col')].map(e => e.title)")
    rows = browser.evaluate("[...document.querySelectorAll('.matrix th.row')].map(e => e.title)")
    assert columns == rows and sorted(columns) == sorted(["alice", "carol", HOSTILE]), columns
    row = rows.index(HOSTILE)
    cells = browser.evaluate(f"[...document.querySelectorAll('.matrix tbody tr')[{row}].querySelectorAll('td')].map(e => e.textContent)")
    assert int(cells[columns.index("carol")]) >= 60 and cells[row] == "", cells
    assert browser.evaluate(f"document.querySelectorAll('.matrix tbody tr')[{row}].querySelector('a').hash") == "#pair-1"
    assert browser.evaluate("document.querySelectorAll('.highlight-red').length") > 0
    assert "<script>window.__pwned = 2</script>" in browser.evaluate("document.querySelector('#pair-1 .sides').textContent")
    # the same at 400 pixels: the columns stack, nothing overflows the page's width
    browser.set_viewport_size({"width": 400, "height": 800})
    tops = browser.evaluate("[...document.querySelectorAll('#pair-1 .side pre')].map(e => e.getBoundingClientRect().top)")
    assert tops[1] > tops[0]
    assert browser.evaluate("document.documentElement.scrollWidth") <= 400
    browser.set_viewport_size({"width": 1280, "height": 900})


def svg_root(path: Path) -> tuple[float, float, list[float]]:
    """The root element's width, height and viewBox."""
    head = path.read_text(encoding="utf-8")[:400]
    match = re.search(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)" viewBox="([\d. ]+)"', head)
    assert match, head
    return float(match[1]), float(match[2]), [float(x) for x in match[3].split()]


def test_a_short_svg_trace_states_its_size_and_opens_at_it(tmp_path: Path, browser: Page, requested: list[str]) -> None:
    out = tmp_path / "trace.svg"
    result = run_grader(COURSE, "--solver", "reference", "--trace", "nctu-1", "--max-steps", "3", "--export", out, cwd=tmp_path)
    assert result.returncode == 0 and f"wrote {out}" in result.stdout, result.stdout + result.stderr
    width, height, box = svg_root(out)
    assert box == [0, 0, width, height] and 600 < width < 3000 and 0 < height < 4100
    assert not list(tmp_path.glob("trace-*.svg"))
    load(browser, out)
    assert local_only(requested) == []
    shown = browser.evaluate("(r => [r.width, r.height])(document.documentElement.getBoundingClientRect())")
    assert shown == pytest.approx([width, height], abs=1)


def test_a_long_svg_trace_is_split_into_files_of_bounded_height(tmp_path: Path, browser: Page, requested: list[str]) -> None:
    """nctu-1's whole search (44 steps, 500 terminal lines): four files of at most 160
    lines, each cut before a step's headline, named on the terminal with their steps."""
    out = tmp_path / "trace.svg"
    result = run_grader(COURSE, "--solver", "reference", "--trace", "nctu-1", "--export", out, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not out.exists()
    written = [
        (name, number, first, last or first)
        for name, number, first, last in re.findall(r"wrote (\S+-(\d+)\.svg): steps? (\d+)(?:-(\d+))?", result.stdout)
    ]
    assert len(written) >= 3 and [int(w[1]) for w in written] == list(range(1, len(written) + 1)), result.stdout
    assert int(written[0][2]) == 1 and all(int(b[2]) == int(a[3]) + 1 for a, b in zip(written, written[1:])), written
    assert f"the trace in {len(written)} SVG files of at most 160 lines each" in " ".join(result.stdout.split())
    for name, number, first, _ in written:
        path = Path(name)
        assert path.parent == tmp_path and path.name == f"trace-{number}.svg"
        width, height, box = svg_root(path)
        assert box == [0, 0, width, height] and height <= 160 * 24.4 + 100, (name, height)
        text = path.read_text(encoding="utf-8")
        assert f"step {first}" in text.replace("&#160;", " ") and "http://www.w3.org/2000/svg" in text
    load(browser, Path(written[1][0]))
    assert local_only(requested) == []
    shown = browser.evaluate("(r => [r.width, r.height])(document.documentElement.getBoundingClientRect())")
    assert shown == pytest.approx(list(svg_root(Path(written[1][0]))[:2]), abs=1)


def test_the_matrix_of_a_large_class_keeps_the_names_of_the_most_similar_pairs() -> None:
    """300 students: the matrix shows the 40 of the most similar pairs (said above it), and
    the page stays within 64 KB + 8 KB per student + 2 KB per pair shown + its code."""
    from grader.commands.similarity_html import MATRIX_NAMES, Settings, ShownPair, report

    students = [f"student{n:03}" for n in range(300)]
    shares = {(a, b): ((i * 7 + j * 13) % 100) / 100 for i, a in enumerate(students) for j, b in enumerate(students) if a != b}
    pairs = [ShownPair(students[n], students[n + 1], 0.9, 0.8, 100, None) for n in range(0, 120, 2)]
    page = report(students, shares, [0.5] * 44850, pairs, {}, Settings(25, 30, 0.33, "0"))
    assert page.count("<th class='row'") == MATRIX_NAMES == 40 and f"of {len(students)}" in page
    assert "student000" in page and "student039" in page and "<th class='row' title='student040'" not in page
    assert len(page.encode("utf-8")) <= (64 << 10) + (8 << 10) * len(students) + (2 << 10) * len(pairs)
