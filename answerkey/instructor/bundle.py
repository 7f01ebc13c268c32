"""`python -m grader gradescope-bundle OUT.zip`: the Gradescope autograder archive.

The zip holds `setup.sh` and `run_autograder` at its root (written from `templates/`) and
this kit under `kit/` (its packages, its pyproject, and the problem folder with hidden
problems and the grading config). On Gradescope the zip is unpacked to /autograder/source and:

- `setup.sh` (once, as root) finds Python 3.11 or later (installing it with apt-get if it
  must), installs the kit, not editable, in /autograder/venv with the exact dependency
  versions of its `constraints.txt`, installs bubblewrap when it
  can, and closes the source and the venv to every other user, so that student code,
  run as an unprivileged user, can read none of the grading data and write none of it;
- `run_autograder` (for each submission, as root) grades /autograder/submission into
  /autograder/results/results.json. Only the grader writes that file; when the grader
  cannot grade, there is none and the script fails, so that no score is recorded.

It is built only when the grading config holds its private seeds (`hook_seed`, and
`agent.seed` with an agent section: `seeds`), unless the instructor accepts grading
without them (`--public-hook-cases`, `--unseeded-agent-games`).

AUTOGRADER_ROOT overrides /autograder (for testing the scripts outside Gradescope);
GRADER_ISOLATION chooses the isolation (default auto: bubblewrap where Gradescope's
container allows it, else an unprivileged user).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from grader.inputs.config import load_config
from grader.inputs.problemset import CONFIG_FILE

from .kit import kit_packages
from .scripts import script
from .seeds import AGENT_SEED, HOOK_SEED, WITHOUT, missing_seeds

#: The command-line flag that accepts building without each seed.
FLAGS = {HOOK_SEED: "public-hook-cases", AGENT_SEED: "unseeded-agent-games"}

#: The files beside the kit's packages that go into the bundle: how to install them.
INSTALL_FILES = ("pyproject.toml", "README.md", "constraints.txt")


def seed_refusal(problems: Path, public_hook_cases: bool, unseeded_agent_games: bool) -> str:
    """Why the autograder for `problems` must not be built ("" when it may): its grading
    config is broken, or lacks a private seed that the instructor did not accept to lack."""
    path = problems / CONFIG_FILE
    config, errors = load_config(path if path.exists() else None)
    if errors:
        return f"fix the grading config first: {errors[0]}"
    accepted = {HOOK_SEED: public_hook_cases, AGENT_SEED: unseeded_agent_games}
    missing = [name for name in missing_seeds(config) if not accepted[name]]
    if not missing:
        return ""
    flags = " ".join(f"--{FLAGS[name]}" for name in missing)
    return (
        f"{path} has no private {' nor '.join(missing)} ({'; '.join(WITHOUT[name] for name in missing)}): "
        f"`python -m grader release OUT_DIR --problems {problems}` writes {'it' if len(missing) == 1 else 'them'}, "
        f"or pass {flags} to build anyway"
    )


def write_bundle(source: Path, problems: Path, out: Path) -> int:
    """Write the autograder zip for the kit at `source` with the problem folder
    `problems`; how many files it holds."""
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("setup.sh", script("setup.sh")), ("run_autograder", script("run_autograder.sh"))):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            archive.writestr(info, text)
            count += 1
        parts = [(source / part, f"kit/{part}") for part in (*INSTALL_FILES, *kit_packages(source))]
        parts.append((problems, "kit/problems"))
        for path, name in parts:
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
            for file in files:
                archive.write(file, name if file == path else f"{name}/{file.relative_to(path)}")
                count += 1
    return count
