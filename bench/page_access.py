"""axe-core's accessibility violations on every page a kit writes, by rule and impact.

Run from the repository root (chromium, the `test` extra)::

    python bench/page_access.py [--kit PATH]

Writes each kind of page with the grader of the kit at `--kit` (this one by default; a
checkout of another commit gives its figures beside these) as tests/test_pages_access.py
does, opens it in headless chromium with every section open (a trace page with a
divergence at that step), runs axe-core on it, and prints each violated rule with its
impact and how many elements break it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import chromium, load, offline_page  # noqa: E402
from test_pages_access import by_rule, show_everything, violations, write_pages  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kit", type=Path, default=ROOT, help="the kit whose grader writes the pages (default: this one)")
    args = parser.parse_args()
    executable = chromium()
    if executable is None:
        sys.exit("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as scratch, offline_page(executable) as offline:
        for name, page in write_pages(Path(scratch), args.kit.resolve()).items():
            load(offline.page, page)
            show_everything(offline.page)
            found = by_rule(violations(offline.page))
            print(f"{name:17} " + (", ".join(f"{rule} ({told})" for rule, told in sorted(found.items())) or "none"))
        outside = [url for url in offline.requested if not url.startswith("file:")]
        print("asked for besides the files:", outside or "nothing")


if __name__ == "__main__":
    main()
