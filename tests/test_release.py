"""`python -m grader release`: an instructor's solved hooks never reach students by accident,
the student copy holds exactly what it should, and the graded hook cases and games come
from private seeds that release writes into the instructor's grading.yaml."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import STUDENT_FILES, compile_packages, copy_kit, grade_json, grader_env, json_report, no_traceback, run_grader, student_copy

from answerkey.instructor.kit import student_packages
from answerkey.instructor.seeds import SEED_BITS, SeedError, write_seeds
from grader.inputs.config import load_config
from grader.inputs.searchanswers import ANSWERS_FILE
from grader.scoring.hookcases import CASES_FILE, HOOK_NAMES
from grader.scoring.modelnodes import NODES_FILE

ROOT = Path(__file__).resolve().parents[1]


def release(kit: Path, out: Path, *extra: str | Path) -> subprocess.CompletedProcess[str]:
    return run_grader("release", out, *extra, cwd=kit, env=grader_env(kit), timeout=300)


def problems_folder(folder: Path, config: str | None = None, names: tuple[str, ...] = ("course.yaml",)) -> Path:
    """A problem folder with these of the kit's problem files and, when given, this grading.yaml text
    (release writes into grading.yaml: never the kit's own folder)."""
    folder.mkdir(parents=True)
    for name in names:
        shutil.copyfile(ROOT / "problems" / name, folder / name)
    if config is not None:
        (folder / "grading.yaml").write_text(config, encoding="utf-8")
    return folder


def test_solved_hooks_are_not_published_unless_asked(tmp_path: Path) -> None:
    kit = copy_kit(tmp_path / "kit")
    shutil.copyfile(STUDENT_FILES / "model_answer.py", kit / "assignment" / "hooks.py")
    refused = release(kit, tmp_path / "out")
    assert refused.returncode == 2 and "Traceback" not in refused.stdout + refused.stderr
    assert "hooks.py: constraint_bounds" in refused.stdout and "--allow-solutions" in refused.stdout
    assert not (tmp_path / "out").exists() and not (kit / "problems" / "grading.yaml").exists()  # nor any seed
    allowed = release(kit, tmp_path / "out", "--allow-solutions")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert (tmp_path / "out" / "assignment" / "hooks.py").read_text() == (STUDENT_FILES / "model_answer.py").read_text()


@dataclass(frozen=True)
class Released:
    """A student copy released from this kit for problems/course.yaml with no grading.yaml."""

    problems: Path
    out: Path
    made: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Released:
    """One release for the module's tests that only read the copy, its problem folder or
    what release said (a test that changes the copy works on a copy of it): release writes
    the same copy and the same kind of private grading.yaml every time."""
    work = tmp_path_factory.mktemp("released")
    problems = problems_folder(work / "problems")
    made = release(ROOT, work / "copy", "--problems", problems)
    assert made.returncode == 0, made.stdout + made.stderr
    return Released(problems, compile_packages(work / "copy"), made)


def test_the_stubs_are_published_as_they_are(released: Released) -> None:
    made = released.made
    assert made.returncode == 0, made.stdout + made.stderr
    assert (released.out / "assignment" / "hooks.py").read_text() == (ROOT / "assignment" / "hooks.py").read_text()


def test_the_student_copy_explains_its_problems_to_students(released: Released) -> None:
    assert released.made.returncode == 0
    readme = (released.out / "problems" / "README.md").read_text(encoding="utf-8")
    assert "python -m grader problems/" in readme and "hidden" in readme
    assert "hook_seed" not in readme and "visibility" not in readme  # the instructor's document stays home


def named_files(text: str) -> set[str]:
    """The files and folders a README names in code spans: a span of one word that ends
    in a file's suffix or holds a `/` (a command, with spaces, is not a name)."""
    spans = re.findall(r"`([^`\s]+)`", text)
    return {span for span in spans if re.search(r"\.(md|py|yaml|yml|json|txt|toml|csv|html|zip)$", span) or "/" in span}


def unnamed_files(copy: Path) -> list[str]:
    """What the copy's READMEs name that the copy does not have (a README in problems/
    may name its files from there)."""
    missing = []
    for doc in ("README.md", "problems/README.md"):
        for name in sorted(named_files((copy / doc).read_text(encoding="utf-8"))):
            if not name.startswith(".") and not (copy / name).exists() and not (copy / doc).parent.joinpath(name).exists():
                missing.append(f"{doc} names {name}")
    return missing


def test_the_copys_readmes_name_only_files_the_copy_has(released: Released) -> None:
    """Released with no grading.yaml of the course's own, the copy has no
    problems/grading.yaml, and neither README names one; every file they name is there."""
    assert not (released.out / "problems" / "grading.yaml").exists()
    readmes = {doc: (released.out / doc).read_text(encoding="utf-8") for doc in ("README.md", "problems/README.md")}
    assert "assignment/HANDOUT.md" in named_files(readmes["README.md"]) and "grading.yaml" not in "".join(readmes.values())
    assert unnamed_files(released.out) == []


def test_the_readme_check_sees_a_file_the_copy_lacks(released: Released, tmp_path: Path) -> None:
    """The check above can fail: a README naming `problems/grading.yaml` in a copy without it."""
    copy = shutil.copytree(released.out, tmp_path / "copy")
    (copy / "README.md").write_text("the rules (`problems/grading.yaml`) and `python -m grader problems/`\n", encoding="utf-8")
    assert unnamed_files(copy) == ["README.md names problems/grading.yaml"]


def test_a_copy_beside_the_instructors_kit_grades_with_its_own_files(released: Released, tmp_path: Path) -> None:
    """A student copy run where the instructor's kit can be imported too (after the copy on
    the path, as an editable install of the kit in the same environment puts it) never uses
    that kit's answer key: `--solver reference` stops with the one line, naming the answer
    key it leaves alone, and the stubs are graded on the copy's public cases (its "Hook cases
    here" line). Run from outside, on the copy's problems, the kit that grades says so."""
    beside = grader_env(released.out, ROOT)  # the copy first, the instructor's kit after it
    refused = run_grader("problems/course.yaml", "--solver", "reference", cwd=released.out, env=beside)
    no_traceback(refused)
    lines = [line for line in (refused.stdout + refused.stderr).splitlines() if line.strip()]
    assert refused.returncode == 2 and len(lines) == 1 and "this student copy" in lines[0], lines
    assert f"the one at {ROOT / 'answerkey'} is another kit's" in " ".join(lines[0].split()), lines
    stubs = run_grader("problems/course.yaml", "--only", "forward_check", "--isolation", "none", cwd=released.out, env=beside)
    no_traceback(stubs)
    assert "Hook cases here:" in stubs.stdout and "Full marks" not in stubs.stdout, stubs.stdout
    outside = run_grader(released.out / "problems" / "course.yaml", "--only", "nctu-1", "--solver", "reference", cwd=tmp_path)
    no_traceback(outside)
    said = " ".join(outside.stdout.split())
    assert f"the kit at {ROOT} grades this" in said and f"not the copy at {released.out.resolve()}" in said, said
    inside = run_grader(ROOT / "problems" / "course.yaml", "--only", "nctu-1", "--solver", "reference", cwd=tmp_path)
    assert inside.returncode == 0 and "grades this" not in inside.stdout, inside.stdout


def scan(kit: Path, tmp_path: Path) -> str:
    """What tests/scan_for_hooks.py finds in `kit`: functions that do a hook's job."""
    import json

    from grader.scoring.hookcases import load_cases

    found = tmp_path / f"found-{kit.name}.txt"
    found.write_text("", encoding="utf-8")
    scratch = tmp_path / f"scratch-{kit.name}"  # whatever the functions write lands here
    scratch.mkdir()
    cases = json.dumps({hook: [case.data() for case in mine] for hook, mine in load_cases().items()}, default=list)
    run = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("scan_for_hooks.py")), str(kit), str(found)],
        input=cases,
        cwd=scratch,
        capture_output=True,
        text=True,
        timeout=900,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(kit), "COLUMNS": "80"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return found.read_text(encoding="utf-8")


def test_no_module_of_the_student_copy_does_a_hooks_job(released: Released, tmp_path: Path) -> None:
    """Every function of every module in the student copy, tried as each search hook on the
    hook cases: none gets a single group of cases right. The same scan of the full kit
    finds the reference hooks, so the scan can see them."""
    out = shutil.copytree(released.out, tmp_path / "copy")  # whatever the functions do, the shared copy stays as released
    assert released.made.returncode == 0
    assert scan(out, tmp_path) == ""
    full = scan(copy_kit(tmp_path / "full"), tmp_path)
    assert "answerkey.strategies.constraint_bounds gets" in full and "answerkey.strategies.forward_check_once gets" in full


def test_an_installed_copy_says_which_commands_need_a_source_checkout(tmp_path: Path) -> None:
    """Installed from a wheel or `pip install .` (the packages without pyproject.toml), the
    publishing commands and goldens refuse in one line and write nothing; grading works."""
    kit = copy_kit(tmp_path / "installed")
    (kit / "pyproject.toml").unlink()
    cases = (kit / "grader" / "scoring" / "hook_cases.yaml").read_bytes()
    for command in (["release", tmp_path / "out"], ["gradescope-bundle", tmp_path / "out.zip"], ["goldens"]):
        result = run_grader(*command, cwd=tmp_path, env=grader_env(kit))
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout.strip() == f"error: {command[0]} needs a source checkout of the kit (this one is installed without its pyproject.toml)"
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.zip").exists()
    assert (kit / "grader" / "scoring" / "hook_cases.yaml").read_bytes() == cases
    graded = run_grader(ROOT / "problems" / "course.yaml", "--solver", "reference", cwd=tmp_path, env=grader_env(kit))
    assert graded.returncode == 0 and "Full marks." in graded.stdout


# --- what the student copy holds -----------------------------------------------------------

AGENT_CONFIG = """# the course's grading config
timeout: 10   # seconds per item

agent:        # the agent plays too
  level: beginner
  games: 20   # few, for the tests
hooks:
  forward_check: 3
"""


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_the_student_copy_holds_exactly_the_student_files_and_no_seed(tmp_path: Path) -> None:
    """The student packages, the public problems with a README and the course's public
    grading config, the model answer's node counts and its answers along its searches of the public
    boards, the project file, the license and a
    README: nothing more (no stray hook case file), and no seed anywhere."""
    problems = problems_folder(tmp_path / "problems", AGENT_CONFIG, ("course.yaml", "status-grids.yaml"))
    shutil.copyfile(STUDENT_FILES / "hidden_set" / "hidden.yaml", problems / "hidden.yaml")
    out = tmp_path / "copy"
    made = release(ROOT, out, "--problems", problems)
    assert made.returncode == 0, made.stdout + made.stderr
    expected = {f"{package}/{name}" for package in student_packages(ROOT) for name in files_under(ROOT / package)}
    expected |= {
        "README.md",
        "pyproject.toml",
        "LICENSE",
        "constraints.txt",
        "problems/README.md",
        "problems/course.yaml",
        "problems/status-grids.yaml",
        "problems/hidden.yaml",
        "problems/grading.yaml",
        str(NODES_FILE.relative_to(ROOT)),
        str(ANSWERS_FILE.relative_to(ROOT)),
    }
    assert files_under(out) == expected
    cases = CASES_FILE.relative_to(ROOT)
    assert (out / cases).read_bytes() == (ROOT / cases).read_bytes()  # the public cases, as the grader reads them
    config, errors = load_config(problems / "grading.yaml")
    assert not errors and config.hook_seed is not None and config.agent is not None and config.agent.seed is not None
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            assert str(config.hook_seed).encode() not in text and str(config.agent.seed).encode() not in text, path


# --- the private seeds ---------------------------------------------------------------------


def test_release_writes_the_missing_seeds_and_keeps_the_instructors_text(tmp_path: Path) -> None:
    problems = problems_folder(tmp_path / "problems", AGENT_CONFIG)
    made = release(ROOT, tmp_path / "copy", "--problems", problems)
    assert made.returncode == 0, made.stdout + made.stderr
    told = " ".join(made.stdout.split())
    assert f"wrote a private hook_seed and agent.seed into {problems / 'grading.yaml'}" in told and "keep that file private" in told
    text = (problems / "grading.yaml").read_text(encoding="utf-8")
    added = [line for line in text.splitlines() if line not in AGENT_CONFIG.splitlines()]
    assert [line for line in text.splitlines() if line in AGENT_CONFIG.splitlines()] == AGENT_CONFIG.splitlines()
    assert len(added) == 3 and added[0].startswith("  seed: ") and added[2].startswith("hook_seed: ")
    assert all("# " in line and "written by `python -m grader release`" in line for line in added[:2])
    config, errors = load_config(problems / "grading.yaml")
    assert not errors and config.hook_points["forward_check"] == 3 and config.agent is not None
    assert config.agent.games == 20 and config.timeout == 10
    for seed in (config.hook_seed, config.agent.seed):
        assert isinstance(seed, int) and 0 <= seed < 2**SEED_BITS
    again = release(ROOT, tmp_path / "copy-2", "--problems", problems)
    assert again.returncode == 0 and "seed" not in again.stdout  # nothing missing: nothing written
    assert (problems / "grading.yaml").read_text(encoding="utf-8") == text


def test_release_creates_a_private_grading_config_when_there_is_none(released: Released) -> None:
    problems, made = released.problems, released.made
    assert made.returncode == 0, made.stdout + made.stderr
    assert "wrote a private hook_seed into" in " ".join(made.stdout.split())
    config, errors = load_config(problems / "grading.yaml")
    assert not errors and config.hook_seed is not None and config.agent is None
    assert (problems / "grading.yaml").stat().st_mode & 0o077 == 0
    assert not (released.out / "problems" / "grading.yaml").exists()


UNEDITABLE = {  # grading.yaml texts a seed cannot be added to without changing what they say
    "a flow mapping": "{timeout: 10}\n",
    "a flow agent section": "agent: {games: 3}\nhook_seed: 4\n",
    "an empty hook_seed": "timeout: 10\nhook_seed:\n",
    "an empty agent seed": "agent:\n  games: 3\n  seed:\nhook_seed: 4\n",
    "an explicit document end": "timeout: 10\n...\n",
}


@pytest.mark.parametrize("text", UNEDITABLE.values(), ids=UNEDITABLE.keys())
def test_a_config_that_cannot_be_seeded_safely_is_left_as_it_is(tmp_path: Path, text: str) -> None:
    config = problems_folder(tmp_path / "problems", text) / "grading.yaml"
    with pytest.raises(SeedError, match=r"add `(hook_seed|seed): N` .*yourself"):
        write_seeds(config)
    assert config.read_text(encoding="utf-8") == text


def test_release_refuses_in_one_line_what_it_cannot_seed(tmp_path: Path) -> None:
    for number, text in enumerate([UNEDITABLE["a flow agent section"], "agent: [1\n"]):
        problems = problems_folder(tmp_path / f"problems-{number}", text)
        refused = release(ROOT, tmp_path / f"copy-{number}", "--problems", problems)
        no_traceback(refused)
        lines = refused.stdout.strip().splitlines()
        assert refused.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), refused.stdout
        assert (problems / "grading.yaml").read_text(encoding="utf-8") == text
        assert not (tmp_path / f"copy-{number}").exists()


def test_release_into_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("mine\n", encoding="utf-8")
    problems = problems_folder(tmp_path / "problems")
    refused = release(ROOT, tmp_path / "taken", "--problems", problems)
    no_traceback(refused)
    assert refused.returncode == 2 and refused.stdout.strip() == f"error: {tmp_path / 'taken'} is a file; choose a new folder"
    assert not (problems / "grading.yaml").exists()


def test_seeds_keep_the_files_line_endings(tmp_path: Path) -> None:
    config = problems_folder(tmp_path / "problems", None) / "grading.yaml"
    config.write_bytes(b"timeout: 10\r\nagent:\r\n  games: 3\r\n")
    assert write_seeds(config) == ["hook_seed", "agent.seed"]
    lines = config.read_bytes().split(b"\r\n")
    assert lines[:2] == [b"timeout: 10", b"agent:"] and lines[2].startswith(b"  seed: ") and lines[3] == b"  games: 3"
    assert b"\n" not in config.read_bytes().replace(b"\r\n", b"")


def test_a_lookup_table_of_the_shipped_cases_earns_nothing_under_the_private_seed(released: Released, tmp_path: Path) -> None:
    """A submission that answers every shipped public hook case from a table (constant
    answers otherwise) earns no more than constant answers once release has written the
    private hook_seed; on the public cases the same table earns more (it does work)."""
    problems, out = released.problems, released.out
    assert released.made.returncode == 0
    shipped = yaml.safe_load((out / CASES_FILE.relative_to(ROOT)).read_text(encoding="utf-8"))["hooks"]
    lookup = student_copy(tmp_path / "lookup", "lookup_table", SHIPPED_CASES=repr(json.dumps(shipped)))
    constant = student_copy(tmp_path / "constant", "constant_answers")
    public = tmp_path / "public.yaml"
    public.write_text("timeout: 10\n", encoding="utf-8")

    def score(solver: Path, config: Path) -> float:
        _, report = grade_json(problems, solver, tmp_path / "report.json", "--config", config, "--only", ",".join(HOOK_NAMES))
        assert len(report["hooks"]) == len(HOOK_NAMES) and not report["problems"]
        return report["score"]

    private = problems / "grading.yaml"
    assert score(lookup, private) <= score(constant, private)
    assert score(lookup, public) > score(constant, public)


# --- the student copy's documents tell the truth about it -----------------------------------

#: How the handout marks what only the instructor's kit can do.
INSTRUCTORS_ONLY = "instructor's kit only"
#: The one-line refusal of a command the student copy cannot run.
REFUSED = "belongs to the instructor's kit: this student copy has no answer key"
SETUP = "python3 -m venv"  # the README's set-up line: its grading command is checked on its own


@dataclass(frozen=True)
class Shown:
    """A command a document shows, where, and whether it is marked as the instructor's."""

    command: str
    marked: bool
    where: str


def shown_commands(text: str, name: str) -> list[Shown]:
    """Every command a Markdown document shows: the lines of its bash blocks and indented
    blocks that start with `python` (a trailing `# comment` aside, `\\` continuations
    joined), and inline code spans that start with `python`. A block line is marked when
    its comment says INSTRUCTORS_ONLY, a span when its sentence does."""
    found: list[Shown] = []
    fence, pending, paragraph = None, "", []

    def prose(lines: list[str]) -> None:
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", " ".join(" ".join(lines).split())):
            for span in re.findall(r"`(python3? [^`]+)`", sentence):
                found.append(Shown(span, INSTRUCTORS_ONLY in sentence, f"{name}: {span}"))

    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            prose(paragraph)
            paragraph = []
            continue
        block_line = (fence == "bash") or (fence is None and line.startswith("    python"))
        if block_line:
            pending += line.strip().removesuffix("\\")
            if line.rstrip().endswith("\\"):
                continue
            command, _, comment = pending.partition(" # ")
            pending = ""
            if command.strip() and not command.startswith("#"):
                found.append(Shown(command.strip(), INSTRUCTORS_ONLY in comment, f"{name}:{number}"))
        elif fence is None:
            if line.strip():
                paragraph.append(line)
            else:
                prose(paragraph)
                paragraph = []
    prose(paragraph)
    return found


def run_shown(copy: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Run a shown command in the student copy, as its student would (`python` is this Python)."""
    words = shlex.split(command)
    if words[:3] == ["python", "-m", "play"] and "bench" not in words:  # the game: played headless
        words = ["python", str(Path(__file__).with_name("copy_game_probe.py")), *words[3:]]
    env = grader_env(copy, STUDENT_FILES / "only_this_copy")
    return subprocess.run([sys.executable, *words[1:]], cwd=copy, env=env, capture_output=True, text=True, timeout=300)


def test_every_command_the_student_copy_shows_works_there_or_is_marked(released: Released, tmp_path: Path) -> None:
    """The student copy's handout, READMEs and stubs: each command they show runs in the
    copy (for a student who wrote the hooks and an agent), or is marked "instructor's kit
    only" and then stops there with the one-line refusal; none names a folder of the kit
    the copy lacks (bench/, answerkey/...)."""
    out = shutil.copytree(released.out, tmp_path / "copy")  # its own: this test writes into the copy
    assert released.made.returncode == 0
    texts = {doc: (out / doc).read_text(encoding="utf-8") for doc in ["assignment/HANDOUT.md", "README.md", "problems/README.md"]}
    texts |= {f"assignment/{stub}": (out / "assignment" / stub).read_text(encoding="utf-8").split('"""')[1] for stub in ("agent.py", "hooks.py")}
    shown = [c for doc, text in texts.items() for c in shown_commands(text, doc)]
    lacking = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".") and not (out / p.name).exists()}
    assert (
        "bench" in lacking
        and [
            f"{doc} names {folder}/"
            for doc, text in texts.items()
            for folder in sorted(lacking)
            if re.search(rf"(?<![\w/.]){re.escape(folder)}/", text)
        ]
        == []
    )
    commands = {c.command: c for c in shown if not c.command.startswith(SETUP)}
    handout = (out / "assignment" / "HANDOUT.md").read_text(encoding="utf-8")
    nodes = next(block for block in handout.split("```python")[1:] if "load_problems" in block).split("```")[0]
    (out / "nodes.py").write_text(nodes, encoding="utf-8")  # "save this as nodes.py"
    shutil.copyfile(STUDENT_FILES / "standalone_correct.py", out / "assignment" / "hooks.py")
    shutil.copyfile(STUDENT_FILES / "agent_guesses.py", out / "assignment" / "agent.py")
    marked = {c for c, s in commands.items() if s.marked}
    assert {
        "python -m grader problems/ --solver reference",
        "python -m solvers sat board.txt --stats",
        "python -m grader problems/course.yaml --trace nctu-2 --against reference",
        "python -m grader problems/course.yaml --compare",
    } == marked
    assert len(commands) - len(marked) >= 13 and "python nodes.py" in commands and "python -m play" in commands
    for command, where in sorted((c, s.where) for c, s in commands.items()):
        run = run_shown(out, command)
        said = run.stdout + run.stderr
        no_traceback(run)
        if command in marked:
            lines = [line for line in said.splitlines() if line.strip()]
            assert run.returncode == 2 and len(lines) == 1 and REFUSED in lines[0], (where, said)
        else:
            assert run.returncode == 0 and REFUSED not in said, (where, said)
    game = run_shown(out, "python -m play")
    assert "opened: MenuScreen" in game.stdout and "your agent (assignment/agent.py)" in game.stdout  # h: your agent
    assert f"p: exact probabilities are {INSTRUCTORS_ONLY}" in game.stdout


# --- the course's rules go with the copy ------------------------------------------------------

COURSE_CONFIG = """# the instructor's grading.yaml: custom weights, a private note that must stay home
timeout: 8
hooks:
  forward_check: 6
  order_values: 3
problem_sets:
  course.yaml: 5
  secret-boards.yaml: 7   # a hidden set: its name must not reach students
efficiency:
  points: 4
  thresholds: [[1.5, 1.0], [3.0, 0.5]]
agent:
  games: 30
  seed: 424242
  points: 10
  thresholds: [[0.5, 1.0]]
hook_seed: 737373
"""


def test_the_copy_grades_out_of_the_courses_points_by_its_rules(tmp_path: Path) -> None:
    """The instructor's weights and agent rules reach the copy's problems/grading.yaml, its
    seeds and the names of sets it does not ship do not: the stubs are graded there out of
    the same maximum, item by item, as by the instructor's grader; a correct search earns
    the efficiency points there too (the model answer's nodes go with the copy)."""
    problems = problems_folder(tmp_path / "problems", COURSE_CONFIG)
    out = tmp_path / "copy"
    assert release(ROOT, out, "--problems", problems).returncode == 0
    text = (out / "problems" / "grading.yaml").read_text(encoding="utf-8")
    assert "`problems/grading.yaml`" in (out / "README.md").read_text(encoding="utf-8") and unnamed_files(out) == []
    for private in ("424242", "737373", "seed:", "secret-boards", "private note"):
        assert private not in text, private
    config, errors = load_config(out / "problems" / "grading.yaml")
    assert not errors and config.hook_points["forward_check"] == 6 and config.set_points == {"course.yaml": 5}
    assert config.agent is not None and (config.agent.games, config.agent.points, config.agent.thresholds) == (30, 10, ((0.5, 1.0),))
    assert config.efficiency is not None and config.timeout == 8 and config.hook_seed is None and config.agent.seed is None

    def items(report: dict) -> dict[str, float]:
        return {e["id"]: e["max_score"] for e in report["hooks"] + report["problems"] + report.get("other", [])}

    _, course = grade_json(problems, "assignment", tmp_path / "course.json", timeout=300)
    env = grader_env(out, STUDENT_FILES / "only_this_copy")
    mine = run_grader("problems/", "--json", tmp_path / "copy.json", cwd=out, env=env, timeout=300)
    no_traceback(mine)
    copy = json.loads((tmp_path / "copy.json").read_text(encoding="utf-8"))
    assert items(copy) == items(course) and copy["max_score"] == course["max_score"] == sum(items(course).values())
    agent = next(e for e in copy["other"] if e["id"] == "agent")
    assert "the course's autograder plays other games of the same kind" in agent["message"]
    assert "set a private agent.seed" not in agent["message"]  # the instructor's advice is not the student's
    correct = run_grader(
        "problems/",
        "--solver",
        STUDENT_FILES / "standalone_correct.py",
        "--only",
        "efficiency,course",
        "--json",
        tmp_path / "correct.json",
        cwd=out,
        env=env,
        timeout=300,
    )
    no_traceback(correct)
    graded = json.loads((tmp_path / "correct.json").read_text(encoding="utf-8"))
    efficiency = next(e for e in graded["other"] if e["id"] == "efficiency")
    assert efficiency["score"] == 4 and "(1.00x)" in efficiency["message"], efficiency
    assert all("(the model answer: " in p["message"] for p in graded["problems"]), graded["problems"]
    (out / "problems" / "mine.yaml").write_text(  # a board of the student's own: no model answer's count for it
        "problems:\n  - id: row\n    mines: 2\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n", encoding="utf-8"
    )
    added = run_grader(
        "problems/",
        "--solver",
        STUDENT_FILES / "standalone_correct.py",
        "--only",
        "efficiency,course,mine",
        "--json",
        tmp_path / "added.json",
        cwd=out,
        env=env,
        timeout=300,
    )
    no_traceback(added)
    efficiency = next(e for e in json_report(tmp_path / "added.json", added)["other"] if e["id"] == "efficiency")
    assert efficiency["score"] == 0 and efficiency["message"].startswith("not graded here: the model answer's node counts")
