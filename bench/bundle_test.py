"""Where the time of `gradescope-bundle --test` goes: setup.sh once, then each
run_autograder, against grading the same submissions on the command line, in one run.

Run as root from the repository root (run_autograder isolates with bubblewrap, else an
unprivileged user)::

    python bench/bundle_test.py [SUBMISSION...] [--rounds 2] [--json FILE]

The Gradescope bundle of the kit's problems (`--public-hook-cases`) is built and unpacked
once into a scratch /autograder, and setup.sh run there once, timed in its two parts (the
venv, the pip install of the kit). Then, in turns for each round and submission (default
tests/student_files/model_answer.py and crash.py): run_autograder as `--test` runs it
(`grader.commands.bundletest.run_one`), and `python -m grader problems/ --solver FILE
--format gradescope` with this checkout's interpreter, on the same problems. Wall seconds
(what the instructor waits; a bubblewrap worker's CPU is counted in its own control group,
out of reach of this process's), medians over the rounds; the ratio is run_autograder's
over the command line's: 1 when `--test` adds nothing to the grading. Last, the whole
`gradescope-test` command on the same submissions, against setup.sh and the runs timed
above: what the command adds around them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.commands.bundletest import bare_env, bundle_secrets, run_one, unpack  # noqa: E402

DEFAULT = [ROOT / "tests" / "student_files" / "model_answer.py", ROOT / "tests" / "student_files" / "crash.py"]


def timed(command: list[str], **kwargs: object) -> float:
    """Wall seconds of `command`, which must succeed."""
    started = time.monotonic()
    subprocess.run(command, check=True, capture_output=True, timeout=3600, **kwargs)  # type: ignore[call-overload]
    return time.monotonic() - started


def setup_parts(root: Path) -> dict[str, float]:
    """setup.sh's two costly parts, as it runs them (bare environment), in seconds."""
    env = bare_env(root)
    python = shutil.which("python3", path=env["PATH"])
    assert python is not None, "no python3 on the system's PATH"
    venv = timed([python, "-m", "venv", str(root / "venv")], env=env)
    kit = root / "source" / "kit"
    pip = [str(root / "venv" / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    install = timed([*pip, "-c", str(kit / "constraints.txt"), str(kit)], env=env)
    return {"venv": venv, "pip install": install}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submissions", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-bundle-"))
    try:
        archive = work / "autograder.zip"
        built = [sys.executable, "-m", "grader", "gradescope-bundle", str(archive), "--public-hook-cases"]
        subprocess.run(built, check=True, capture_output=True, cwd=ROOT, timeout=600)
        root = work / "autograder"
        unpack(archive, root)
        started = time.monotonic()
        subprocess.run(["bash", str(root / "source" / "setup.sh")], check=True, capture_output=True, cwd=root / "source", env=bare_env(root))
        setup = time.monotonic() - started
        (work / "parts").mkdir()
        (work / "parts" / "source").symlink_to(root / "source")  # the same kit, installed again in parts
        parts = setup_parts(work / "parts")
        secrets = bundle_secrets(root / "source" / "kit")
        problems = root / "source" / "kit" / "problems"
        rows: dict[str, dict[str, list[float]]] = {s.name: {"run_autograder": [], "command line": []} for s in args.submissions}
        for _ in range(args.rounds):
            for submission in args.submissions:
                ran = run_one(root, submission, secrets)
                assert ran.results is not None, ran.said
                rows[submission.name]["run_autograder"].append(ran.seconds)
                direct = [sys.executable, "-m", "grader", str(problems), "--solver", str(submission), "--format", "gradescope"]
                rows[submission.name]["command line"].append(timed([*direct, "--output", str(work / "direct.json")], cwd=ROOT))
        whole = [sys.executable, "-m", "grader", "gradescope-test", str(archive), *map(str, args.submissions)]
        command = timed(whole, cwd=ROOT)  # setup.sh once more, then a run each, as an instructor waits for them
        medians = {name: {way: statistics.median(times) for way, times in ways.items()} for name, ways in rows.items()}
        total_run = sum(m["run_autograder"] for m in medians.values())
        total_direct = sum(m["command line"] for m in medians.values())
        print(f"setup.sh, once: {setup:.1f} s (its parts, run again: " + ", ".join(f"{k} {v:.1f} s" for k, v in parts.items()) + ")")
        print(f"{'submission':<24}{'run_autograder':>16}{'command line':>14}{'ratio':>8}")
        for name, m in medians.items():
            print(f"{name:<24}{m['run_autograder']:>14.1f} s{m['command line']:>12.1f} s{m['run_autograder'] / m['command line']:>8.2f}")
        print(f"{'all':<24}{total_run:>14.1f} s{total_direct:>12.1f} s{total_run / total_direct:>8.2f}")
        parts_sum = setup + total_run
        print(f"gradescope-test, the whole command: {command:.1f} s; setup.sh and the runs above: {parts_sum:.1f} s; ratio {command / parts_sum:.2f}")
        if args.json:
            figures = {"setup": setup, "setup_parts": parts, "medians": medians, "ratio": total_run / total_direct, "command": command}
            args.json.write_text(json.dumps(figures, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
