"""Open the trace page of a large search in headless chromium: load time and file size.

Run from the repository root (needs Debian's chromium)::

    python bench/trace_page.py [--steps 10000] [--repeats 5] [--shots DIR]

It records plain backtracking on a sparse 8x8 board (its search is far longer than
`--steps`, so the recording stops at the cap, as `--max-steps` does), writes the page with
`solvers.trace_page`, and opens it `--repeats` times from a file URL (each time after
about:blank, so it is a full load): the figure is the median time to the load event,
which comes after the page's script has drawn the first step and the tree. Peers in the
same run: the same board at a tenth and a hundredth of the steps. With `--shots`, it also
writes 1280x900 screenshots of nctu-1 (three steps, one a dead end) and of a divergence
from the reference (nctu-2 with tests/student_files/reversed_values.py).
"""

from __future__ import annotations

import argparse
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

from browser import Browser, chromium  # noqa: E402

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


def fresh_open(browser: Browser, page: Path, fragment: str = "") -> float:
    """Seconds to load `page` from scratch (after about:blank)."""
    browser.call("Page.navigate", {"url": "about:blank"})
    browser.wait_for("Page.loadEventFired")
    return browser.open(page, fragment)


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


def measure(browser: Browser, page: Path, repeats: int) -> float:
    fresh_open(browser, page)  # warm-up
    return statistics.median(fresh_open(browser, page, "step=1") for _ in range(repeats))


def grader_page(out: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "grader", "problems/course.yaml", *args, "--export", str(out)], cwd=ROOT, check=True, capture_output=True, text=True
    )


def screenshots(browser: Browser, folder: Path, shots: Path) -> list[Path]:
    """nctu-1 at three steps (one a dead end) and a divergence, at 1280x900."""
    shots.mkdir(parents=True, exist_ok=True)
    nctu = folder / "nctu-1.html"
    grader_page(nctu, "--trace", "nctu-1", "--solver", "reference")
    fresh_open(browser, nctu)
    outcomes = browser.evaluate('document.getElementById(\'trace-data\').textContent.match(/"outcome":"(\\w*)"/)[1]')
    dead = outcomes.index("d") + 1
    written = []
    browser.resize(1280, 900)
    for name, step in (("start", 1), ("dead-end", dead), ("solution", outcomes.index("s") + 1)):
        fresh_open(browser, nctu, f"step={step}")
        written.append(shots / f"trace-nctu-1-{name}-step-{step}.png")
        browser.screenshot(written[-1])
    against = folder / "against.html"
    grader_page(against, "--trace", "nctu-2", "--against", "reference", "--solver", "tests/student_files/reversed_values.py")
    fresh_open(browser, against)
    step = browser.evaluate("document.getElementById('divmark').dataset.step")
    fresh_open(browser, against, f"step={step}")
    written.append(shots / f"trace-divergence-nctu-2-step-{step}.png")
    browser.screenshot(written[-1])
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder")
    args = parser.parse_args()
    executable = chromium()
    if executable is None:
        sys.exit("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as temporary, Browser(executable) as browser:
        folder = Path(temporary)
        rows = []
        for steps in (args.steps // 100, args.steps // 10, args.steps):
            page, recorded, written = big_page(folder, steps)
            seconds = measure(browser, page, args.repeats)
            rows.append((recorded, page.stat().st_size, written, seconds))
            if steps == args.steps and args.shots:
                fresh_open(browser, page, f"step={steps // 2}")
                browser.screenshot(args.shots / f"trace-{steps}-steps.png")
        base = rows[-1][3]
        print(f"{'steps':>7} {'file KiB':>9} {'record+write s':>15} {'load s (median of ' + str(args.repeats) + ')':>24} {'ratio':>6}")
        for recorded, size, written, seconds in rows:
            print(f"{recorded:>7} {size / 1024:>9.0f} {written:>15.2f} {seconds:>24.3f} {seconds / base:>6.2f}")
        if args.shots:
            for path in screenshots(browser, folder, args.shots):
                print("wrote", path)


if __name__ == "__main__":
    main()
