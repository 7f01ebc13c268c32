"""The project's own files: the license, the changelog and the version, the pinned
installs, and the small promises of the README and the commands (the SAT example's
counts, `check`'s warning about a board with no solution, the SVG export's fonts)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from conftest import ROOT, run_grader
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from answerkey.instructor.bundle import write_bundle
from answerkey.instructor.scripts import script


def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)


def test_the_license_is_the_mit_license_pyproject_names() -> None:
    assert pyproject()["project"]["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


def test_the_version_moves_with_the_changelog() -> None:
    version = pyproject()["project"]["version"]
    headings = re.findall(r"^## (\d+\.\d+\.\d+)\b", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert headings and headings[0] == version, (headings, version)  # the newest release is the version
    assert headings == sorted(headings, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    shown = run_grader("--version")
    assert shown.returncode == 0 and shown.stdout.split()[-1] == version, shown.stdout  # as installed: reinstall after a bump


def pins() -> dict[str, str]:
    lines = [line.strip() for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()]
    found = {}
    for line in lines:
        if line and not line.startswith("#"):
            name, equals, version = line.partition("==")
            assert equals and re.fullmatch(r"[\w.-]+", name) and re.fullmatch(r"[\w.+!-]+", version), line  # exact pins only
            found[canonicalize_name(name)] = version
    return found


def test_the_constraints_pin_every_dependency_within_its_range() -> None:
    project = pyproject()["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    wanted += [Requirement(text) for extra in project["optional-dependencies"].values() for text in extra]
    pinned = pins()
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (requirement, pinned[name])
    assert canonicalize_name(project["name"]) not in pinned  # `pip install -e .` of the kit itself stays free


def test_every_install_of_the_kit_uses_the_constraints(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setups = [line for line in readme.splitlines() if line.startswith("python3 -m venv .venv")]
    assert len(setups) == 2 and all("pip install -e" in s and "-c constraints.txt" in s for s in setups)  # what CI runs
    assert "pip freeze --exclude minesweeper-csp-kit > constraints.txt" in readme  # how to refresh them
    assert '-c "$root/source/kit/constraints.txt"' in script("setup.sh")
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "course.yaml").write_bytes((ROOT / "problems" / "course.yaml").read_bytes())
    write_bundle(ROOT, problems, tmp_path / "a.zip")
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        assert archive.read("kit/constraints.txt") == (ROOT / "constraints.txt").read_bytes()


def test_no_install_downloads_a_browser() -> None:
    """The pages' tests drive the system's chromium (CI installs Debian's with apt): no file
    of the project asks playwright for a browser of its own, and the browser is launched by
    its path."""
    download = re.compile(r"playwright\s+install|install_browsers|PLAYWRIGHT_BROWSERS_PATH")
    folders = ("solvers", "grader", "assignment", "play", "answerkey", "tests", "bench", ".ci")
    files = [*ROOT.glob("*.*"), ROOT / ".ci" / "run", *(path for folder in folders for path in (ROOT / folder).rglob("*.*"))]
    texts = [path for path in files if path.suffix in (".py", ".md", ".toml", ".txt", ".sh", ".yaml", ".html", "") and path.is_file()]
    asking = sorted({path.relative_to(ROOT).as_posix() for path in texts if download.search(path.read_text(encoding="utf-8", errors="replace"))})
    assert asking == [Path(__file__).relative_to(ROOT).as_posix()], asking  # this test alone names them
    assert "executable_path=executable" in (ROOT / "tests" / "browser.py").read_text(encoding="utf-8")
    assert "chromium" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")  # apt-get install ... chromium


def test_the_readme_sat_example_shows_a_formula_glucose_solves() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [command] = [line.split("#")[0].split() for line in readme.splitlines() if line.startswith("python -m solvers sat ")]
    ran = subprocess.run(
        [sys.executable, *command[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "COLUMNS": "100"},
    )
    assert ran.returncode == 0, ran.stderr
    counts = {name: int(value) for name, value in re.findall(r"│ (variables|clauses)\s*│\s*(\d+) │", ran.stdout)}
    assert counts["variables"] > 0 and counts["clauses"] > 0, ran.stdout
    assert f"{counts['variables']} variables, {counts['clauses']} clauses" in readme  # the README says what it prints


def test_check_warns_about_a_board_with_no_solution_unless_expected(tmp_path: Path) -> None:
    (tmp_path / "drafts.yaml").write_text(
        "problems:\n"
        "  - id: typo\n    board: |\n      1 .\n      . 5\n"
        "  - id: meant\n    expect: 0\n    board: |\n      1 .\n      . 5\n"
        "  - id: fine\n    board: |\n      1 .\n      . .\n",
        encoding="utf-8",
    )
    result = run_grader("check", tmp_path / "drafts.yaml")
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert result.returncode == 0 and warnings == ["warning: drafts/typo has no solution; if that is meant, say `expect: 0` in its file"], (
        result.stdout
    )


def test_the_svg_export_needs_no_network_for_its_font(tmp_path: Path) -> None:
    target = tmp_path / "trace.svg"
    result = run_grader(ROOT / "problems" / "course.yaml", "--solver", "reference", "--trace", "nctu-1", "--compact", "--export", target)
    assert result.returncode == 0, result.stdout + result.stderr
    svg = target.read_text(encoding="utf-8")
    assert "@font-face" not in svg and "@import" not in svg and not re.search(r"url\(\s*['\"]?(https?:)?//", svg)
    assert re.search(r"font-family: [^;]*\"DejaVu Sans Mono\"[^;]*, monospace;", svg)


def test_the_instructors_new_commands_answer_help_and_version() -> None:
    version = pyproject()["project"]["version"]
    for command in ("gradescope-test", "prairielearn", "similarity"):
        shown = run_grader(command, "--version")
        assert shown.returncode == 0 and shown.stdout.split()[-1] == version, (command, shown.stdout)
        helped = run_grader(command, "--help")
        assert helped.returncode == 0 and "usage:" in helped.stdout, command
    assert "--test SUBMISSION" in run_grader("gradescope-bundle", "--help").stdout
    listed = run_grader("--help").stdout
    assert all(f"{command} " in listed for command in ("gradescope-test", "prairielearn", "similarity"))
