"""`python -m grader gradescope-bundle OUT.zip`: the Gradescope autograder archive.

The zip holds `setup.sh` and `run_autograder` at its root and this kit under `kit/`.
On Gradescope the zip is unpacked to /autograder/source; `setup.sh` installs the kit in
a virtual environment, and `run_autograder` grades /autograder/submission and writes
/autograder/results/results.json. AUTOGRADER_ROOT and AUTOGRADER_PYTHON override the
root and the interpreter (for testing the scripts outside Gradescope).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, while building the autograder image.
set -euo pipefail
apt-get update
apt-get install -y python3 python3-venv python3-pip
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install /autograder/source/kit
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; it must leave results/results.json behind.
set -uo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
python="${AUTOGRADER_PYTHON:-$root/venv/bin/python}"
mkdir -p "$root/results"
hooks="$(find "$root/submission" -name hooks.py -type f | sort | head -n 1)"
if [ -z "$hooks" ]; then
  hooks="$(find "$root/submission" -name '*.py' -type f | sort | head -n 1)"
fi
cd "$root/source/kit"
"$python" -m grader problems/ --solver "${hooks:-no hooks.py was submitted}" \\
  --format gradescope --output "$root/results/results.json"
exit 0
"""

#: What of the kit goes into the bundle (problems with hidden ones and the grading config).
KIT_PARTS = ("pyproject.toml", "README.md", "solvers", "grader", "assignment", "play", "problems")


def write_bundle(source: Path, out: Path) -> int:
    """Write the autograder zip for the kit at `source`; how many files it holds."""
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("setup.sh", SETUP_SH), ("run_autograder", RUN_AUTOGRADER)):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            archive.writestr(info, text)
            count += 1
        for part in KIT_PARTS:
            path = source / part
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
            for file in files:
                archive.write(file, f"kit/{file.relative_to(source)}")
                count += 1
    return count
