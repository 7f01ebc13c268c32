"""Screenshots of the similarity report (network cut) and of a long SVG trace, at 1280x900.

Run from the repository root (chromium and the `instructor` extra installed)::

    python bench/shots_similarity_svg.py [--out /tmp/shots]

Writes `similarity-report.png` (the top of the report: flags and matrix),
`similarity-pair.png` (the first pair's two files side by side), `svg-trace-1.png` and
`svg-trace-2.png` (the first two files of nctu-1's whole trace, split by the export), and
prints the URLs each page asked for besides itself (none expected).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import chromium, load, offline_page  # noqa: E402

HOSTILE = "<img src=x onerror=window.__pwned=1>"


def grader(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/shots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    executable = chromium()
    if executable is None:
        sys.exit("chromium is not installed")
    from test_similarity import planted_copy

    with tempfile.TemporaryDirectory() as scratch, offline_page(executable) as offline:
        browser = offline.page
        work = Path(scratch)
        folder = work / "class"
        folder.mkdir()
        files = ROOT / "tests" / "student_files"
        shutil.copyfile(files / "model_answer.py", folder / "alice.py")
        shutil.copyfile(files / "standalone_correct.py", folder / "bob.py")
        for name in ("carol", "dave", "erin"):
            shutil.copyfile(files / "similarity_class" / f"{name}.py", folder / f"{name}.py")
        carol = (files / "similarity_class" / "carol.py").read_text(encoding="utf-8")
        (folder / f"{HOSTILE}.py").write_text(planted_copy(carol), encoding="utf-8")
        grader("similarity", folder, "--out", work / "report.html", cwd=work)
        load(browser, work / "report.html")
        browser.screenshot(path=args.out / "similarity-report.png")
        browser.evaluate("document.getElementById('pair-1').scrollIntoView()")
        browser.screenshot(path=args.out / "similarity-pair.png")
        print("similarity: pwned =", browser.evaluate("typeof window.__pwned"))
        print(
            grader(
                ROOT / "problems" / "course.yaml", "--solver", "reference", "--trace", "nctu-1", "--export", work / "trace.svg", cwd=work
            ).splitlines()[-6:]
        )
        for number in (1, 2):
            load(browser, work / f"trace-{number}.svg")
            browser.screenshot(path=args.out / f"svg-trace-{number}.png")
        outside = [url for url in offline.requested if not url.startswith(("file:", "data:"))]
        print("asked for besides the files:", outside or "nothing")
    print(f"wrote {args.out}/similarity-report.png, similarity-pair.png, svg-trace-1.png, svg-trace-2.png")


if __name__ == "__main__":
    main()
