"""The trace page of a 10,000-step search: the CPU time to write it (against an older
checkout), its size, and the time to open it in headless chromium.

Run from the repository root::

    python bench/trace_page.py [--steps 10000] [--repeats 3] [--before DIR] [--write-only]
    python bench/trace_page.py --repeats 5 --shots DIR      # also the load times and screenshots

**Writing.** Each board's search is recorded up to `--steps` pops and its page written by
`solvers.trace_page.write_trace_page`, in a child process importing the kit from this
checkout (and, with `--before DIR`, from an older one, e.g. `git worktree add /tmp/before
2887dcf`; the two take turns). Boards: a sparse 8x8 and a sparse 16x16 (few clues, many
unknown cells, so the searches are far longer than `--steps`; the 16x16 with the total of
mines, a constraint over all 246 cells). Three pages per search, as the commands write
them: **reference** (the model answer's reasons, what `python -m solvers trace` and
`--solver reference` write), **student** (what a student's hooks did) and **against**
(a student's, with where it departs from the bound rule: `--against reference`).
Figures: CPU seconds (`time.process_time`) to record and to write each page, median of
`--repeats`, and of the writing, the seconds spent in the answer key's explainer
(`answerkey.explain.explain`, the bound rule's reasons); the page's size in bytes; with
`--before`, the ratio before / after and whether the two pages hold the same data (their
JSON, each step's notes spelled out).

**Opening** (needs Debian's chromium; skipped with `--write-only`). Plain backtracking on
the 8x8 at a hundredth, a tenth and all of `--steps`; each page opened `--repeats` times
from a file URL (each time after about:blank, so it is a full load): the figure is the
median time to the load event, which comes after the page's script has drawn the first
step and the tree. With `--shots`, it also writes 1280x900 screenshots of nctu-1 (three
steps, one a dead end) and of a divergence from the reference (nctu-2 with
tests/student_files/reversed_values.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):  # works uninstalled; tests/ holds the browser driver
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from browser import chromium, load, offline_page  # noqa: E402
from playwright.sync_api import Page  # noqa: E402

from answerkey.strategies import STRATEGIES  # noqa: E402
from solvers.csp import build_csp  # noqa: E402
from solvers.textformat import parse_board  # noqa: E402
from solvers.trace import record  # noqa: E402
from solvers.trace_page import PageInfo, write_trace_page  # noqa: E402

#: Few clues, many unknown cells: plain backtracking pops far more than 10,000 nodes.
SPARSE = """\
1 . . . . . . 1
. . . . . . . .
. . 2 . . . . .
. . . . . . 1 .
. . . . . . . .
. 1 . . . . . .
. . . . . 2 . .
. . . . . . . 1
"""

#: The same at 16x16 with its total of mines (a constraint over every cell).
SPARSE_16 = """\
1 . . . . . . . . . . . . . . 1
. . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . .
. . . . 2 . . . . . . . . . . .
. . . . . . . . . . . . . . . .
. . . . . . . . . . . . . 1 . .
. . . . . . . . . . . . . . . .
. . . . . . . . . 1 . . . . . .
. . . . . . . . . . . . . . . .
. . . . . . 2 . . . . . . . . .
. . 2 . . . . . . . . . . . . .
. . . . . . . . . . . . . . . .
. . . . . . . . . . . . 1 . . .
. . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . .
1 . . . . . . . . . . . . . . 1
"""

#: (name, board, mines, strategy) of the searches whose pages are written.
WRITTEN = (("8x8", SPARSE, 12, "plain"), ("16x16", SPARSE_16, 40, "plain"), ("16x16", SPARSE_16, 40, "fc-once"))
#: The pages written of each search: (kind, narrate, with the model answer's explainer).
KINDS = (("reference", False, True), ("student", True, False), ("against", True, True))

#: A child: record one search, write its pages; prints CPU seconds as JSON.
CHILD = """
import json, sys, time
from pathlib import Path
from answerkey.explain import explain
from answerkey.strategies import STRATEGIES
from solvers.csp import build_csp
from solvers.textformat import parse_board
from solvers.trace import record
from solvers.trace_page import PageInfo, write_trace_page

text, mines, strategy, steps, folder, kinds = sys.argv[1:]
board = parse_board(text, "classic", int(mines))
csp = build_csp(board)
started = time.process_time()
trace = record(csp, STRATEGIES[strategy], max_steps=int(steps))
seconds = {"record": time.process_time() - started}
explaining = [0.0]

def timed(*args):
    started = time.process_time()
    try:
        return explain(*args)
    finally:
        explaining[0] += time.process_time() - started

for kind, narrate, explained in json.loads(kinds):
    explaining[0] = 0.0
    started = time.process_time()
    info = PageInfo(f"{strategy}, {steps} steps", trace.complete, int(steps))
    write_trace_page(Path(folder) / f"{kind}.html", board, csp, trace.steps, info, narrate, timed if explained else None)
    seconds[kind] = time.process_time() - started
    seconds[kind + " explain"] = explaining[0]
print(json.dumps({"steps": len(trace.steps), "seconds": seconds}))
"""


def fresh_open(browser: Page, page: Path, fragment: str = "") -> float:
    """Seconds to load `page` from scratch (after about:blank)."""
    return load(browser, page, fragment)


def big_page(folder: Path, steps: int) -> tuple[Path, int, float]:
    """The page of the first `steps` steps of plain backtracking on SPARSE; (path, steps
    recorded, seconds to record and write)."""
    started = time.perf_counter()
    board = parse_board(SPARSE, "classic", 12)
    csp = build_csp(board)
    trace = record(csp, STRATEGIES["plain"], max_steps=steps)
    page = folder / f"trace-{steps}.html"
    write_trace_page(page, board, csp, trace.steps, PageInfo(f"sparse 8x8 with plain, {steps} steps", trace.complete, steps))
    return page, len(trace.steps), time.perf_counter() - started


def measure(browser: Page, page: Path, repeats: int) -> float:
    fresh_open(browser, page)  # warm-up
    return statistics.median(fresh_open(browser, page, "step=1") for _ in range(repeats))


def grader_page(out: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "grader", "problems/course.yaml", *args, "--export", str(out)], cwd=ROOT, check=True, capture_output=True, text=True
    )


def screenshots(browser: Page, folder: Path, shots: Path) -> list[Path]:
    """nctu-1 at three steps (one a dead end) and a divergence, at 1280x900."""
    shots.mkdir(parents=True, exist_ok=True)
    nctu = folder / "nctu-1.html"
    grader_page(nctu, "--trace", "nctu-1", "--solver", "reference")
    fresh_open(browser, nctu)
    outcomes = browser.evaluate('document.getElementById(\'trace-data\').textContent.match(/"outcome":"(\\w*)"/)[1]')
    dead = outcomes.index("d") + 1
    written = []
    browser.set_viewport_size({"width": 1280, "height": 900})
    for name, step in (("start", 1), ("dead-end", dead), ("solution", outcomes.index("s") + 1)):
        fresh_open(browser, nctu, f"step={step}")
        written.append(shots / f"trace-nctu-1-{name}-step-{step}.png")
        browser.screenshot(path=written[-1])
    against = folder / "against.html"
    grader_page(against, "--trace", "nctu-2", "--against", "reference", "--solver", "tests/student_files/reversed_values.py")
    fresh_open(browser, against)
    step = browser.evaluate("document.getElementById('divmark').dataset.step")
    fresh_open(browser, against, f"step={step}")
    written.append(shots / f"trace-divergence-nctu-2-step-{step}.png")
    browser.screenshot(path=written[-1])
    return written


def write_pages(code: Path, folder: Path, text: str, mines: int, strategy: str, steps: int) -> tuple[int, dict[str, float]]:
    """Record one search and write its pages with the kit at `code`, in a child process:
    (steps recorded, CPU seconds to record and to write each kind of page)."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-c", CHILD, text, str(mines), strategy, str(steps), str(folder), json.dumps(KINDS)]
    done = subprocess.run(command, cwd=code, env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"writing the pages failed under {code}: {done.stderr.strip()[-600:]}")
    answer = json.loads(done.stdout)
    return answer["steps"], answer["seconds"]


def shown_data(page: Path) -> dict[str, object]:
    """A page's data with each step's notes spelled out (a page that numbers its lines of
    notes, `texts`, and one that repeats them hold the same data)."""
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('id="trace-data">', 1)[1].split("</script>", 1)[0])
    texts = data.pop("texts", None)
    if texts is not None:
        data["notes"] = [[texts[i] for i in notes] for notes in data["notes"]]
    return data


def writing(folder: Path, steps: int, repeats: int, before: Path | None) -> None:
    """Print the CPU time to write each page (after / before), its size, and whether the
    pages of the two checkouts hold the same data."""
    codes = {"after": ROOT} | ({"before": before.resolve()} if before else {})
    print(f"writing the page of {steps} steps: CPU seconds, median of {repeats} ({'after / before' if before else 'this checkout'})")
    header = ("board", 6), ("strategy", 8), ("steps", 6), ("page", 9), ("record s", 13), ("write s", 13), ("explain s", 13), ("before/after", 12)
    header += (("bytes", 19),)
    print(" ".join(f"{title:>{width}}" for title, width in header), "same data")
    for name, text, mines, strategy in WRITTEN:
        times: dict[str, list[dict[str, float]]] = {code: [] for code in codes}
        recorded = 0
        for repeat in range(repeats):
            for code in list(codes)[repeat % 2 :] + list(codes)[: repeat % 2]:  # taking turns
                recorded, seconds = write_pages(codes[code], folder / code, text, mines, strategy, steps)
                times[code].append(seconds)
        median = {code: {what: statistics.median(seconds[what] for seconds in runs) for what in runs[0]} for code, runs in times.items()}
        for kind, _, _ in KINDS:
            pages = {code: folder / code / f"{kind}.html" for code in codes}
            cells = {what: " / ".join(f"{median[code][what]:.3f}" for code in codes) for what in ("record", kind, kind + " explain")}
            size = " / ".join(str(page.stat().st_size) for page in pages.values())
            ratio = same = "-"
            if before:
                ratio = f"{median['before'][kind] / median['after'][kind]:.1f}x"
                same = "yes" if shown_data(pages["after"]) == shown_data(pages["before"]) else "NO"
            row = (name, strategy, recorded, kind, cells["record"], cells[kind], cells[kind + " explain"], ratio, size)
            print(" ".join(f"{value:>{width}}" for value, (_, width) in zip(row, header)), f"{same:>9}")


def opening(folder: Path, steps: int, repeats: int, shots: Path | None) -> None:
    """Print the time to open the page of plain backtracking on the 8x8 (a hundredth, a
    tenth and all of `steps`) in headless chromium; with `shots`, write screenshots."""
    executable = chromium()
    if executable is None:
        sys.exit("chromium is not installed (Debian: apt-get install chromium); --write-only measures the writing alone")
    with offline_page(executable) as offline:
        browser = offline.page
        rows = []
        for count in (steps // 100, steps // 10, steps):
            page, recorded, written = big_page(folder, count)
            seconds = measure(browser, page, repeats)
            rows.append((recorded, page.stat().st_size, written, seconds))
            if count == steps and shots:
                fresh_open(browser, page, f"step={count // 2}")
                browser.screenshot(path=shots / f"trace-{count}-steps.png")
        base = rows[-1][3]
        print(f"{'steps':>7} {'file KiB':>9} {'record+write s':>15} {'load s (median of ' + str(repeats) + ')':>24} {'ratio':>6}")
        for recorded, size, written, seconds in rows:
            print(f"{recorded:>7} {size / 1024:>9.0f} {written:>15.2f} {seconds:>24.3f} {seconds / base:>6.2f}")
        if shots:
            for path in screenshots(browser, folder, shots):
                print("wrote", path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", type=Path, metavar="DIR", help="also write the pages with the kit at DIR (an older checkout)")
    parser.add_argument("--write-only", action="store_true", help="measure the writing only (no browser)")
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        writing(folder, args.steps, args.repeats, args.before)
        if not args.write_only:
            print()
            opening(folder, args.steps, args.repeats, args.shots)


if __name__ == "__main__":
    main()
