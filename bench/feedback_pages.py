"""Feedback pages of a small class run in headless chromium: screenshots of the first
screen at 1280x900 and 400x900, the page sizes, and the load times of the pages beside
each other (ratios against the smallest; timings belong here, never in the tests).

    python bench/feedback_pages.py --shots /tmp/shots

Grades three submissions of tests/student_files (full marks; forward_check wrong; a
hostile file name and output) with `python -m grader problems/ --submissions DIR --csv`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser import chromium, load, offline_page  # noqa: E402
from conftest import self_contained  # noqa: E402

HOSTILE = '<img src=x onerror="window.__pwned=1">'
HOSTILE_CODE = """
def select_variable(csp, domains, assigned):
    print('<img src=x onerror="window.__pwned=1"></details><script>window.__pwned=1</script>')
    raise ValueError('</details><script>window.__pwned=1</script>')
"""


def class_run(where: Path) -> Path:
    """Grade the three submissions; the feedback folder."""
    folder = where / "submissions"
    folder.mkdir()
    (folder / "alice.py").write_text(self_contained("correct_reexport"), encoding="utf-8")
    (folder / "bob.py").write_text(self_contained("flips_values"), encoding="utf-8")
    (folder / f"{HOSTILE}.py").write_text(self_contained("correct_reexport") + HOSTILE_CODE, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "grader", str(ROOT / "problems"), "--submissions", str(folder), "--csv", str(where / "grades.csv")],
        cwd=where,
        check=False,
        capture_output=True,
    )
    return where / "grades-feedback"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, default=Path("shots"), help="folder for the screenshots")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    executable = chromium()
    if executable is None:
        sys.exit("chromium is not installed")
    args.shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary, offline_page(executable) as offline:
        browser = offline.page
        pages = sorted(class_run(Path(temporary)).glob("*.html"))
        times = {}
        for page in pages:
            browser.set_viewport_size({"width": 1280, "height": 900})
            times[page.name] = min(load(browser, page) for _ in range(args.repeats))
        fastest = min(times.values())
        for page in pages:
            print(f"{page.name:45} {page.stat().st_size / 1024:6.1f} KiB  load x{times[page.name] / fastest:.2f} ({times[page.name] * 1000:.0f} ms)")
        shown = next(page for page in pages if page.name == "bob.html")
        for width in (1280, 400):
            browser.set_viewport_size({"width": width, "height": 900})
            load(browser, shown)
            out = args.shots / f"feedback-{width}.png"
            browser.screenshot(path=out)
            print(f"wrote {out}")


if __name__ == "__main__":
    main()
