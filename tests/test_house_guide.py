"""MAINTAINING.md followed in a scratch copy of the kit: "Adding a hook" for a toy hook of
each kind (engine-called, probed, graded on its cases alone), each graded with a right and
a wrong student file, and "Adding a problem set". The code pasted is the guide's own
blocks (a block's first line says where it goes), so the guide cannot drift from the kit.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "MAINTAINING.md"
ONLY_THE_COPY = ROOT / "tests" / "student_files" / "only_this_copy"  # hides the editable install
#: Where a block goes, from its first line: `# PATH: before|after|instead of `TEXT`` (the
#: one line holding TEXT), `# PATH: at the end`, `# PATH: a new file` (`<!-- ... -->` in Markdown).
PLACE = re.compile(
    r"^(?:# |<!-- )(?P<path>\S+): (?:(?P<where>before|after|instead of) `(?P<anchor>.+)`"
    r"|(?P<whole>at the end|a new file))(?: -->)?$"
)
#: A row of the handout's scoring table (section 5), as tests/test_house.py reads it.
TABLE_ROW = re.compile(r"^(\s*)\| `\w+` \| \d+ \| \d+ \| \d+ \| \d+ \|$")
#: A wrong version of each toy hook (appended to the right file, so it replaces the right
#: one), and every answer its reason may quote: that hook's own.
WRONG = {
    "goal_test": ("def goal_test(csp, domains):\n    return False\n", r"False"),
    "count_decided": ("def count_decided(scope, domains):\n    return 1000 + len(scope)\n", r"10\d\d"),
    "count_undecided": ("def count_undecided(domains):\n    return 2000 + len(domains)\n", r"20\d\d"),
}
#: The wrong file's constraint_bounds is wrong too (it forgets the decided variables): a toy
#: hook is graded on its own answers, never on constraint_bounds' (asked in the same run).
WRONG_BOUNDS = (
    "def constraint_bounds(scope, domains):\n    undecided = [domains[v] for v in scope if len(domains[v]) > 1]\n"
    "    return sum(min(d) for d in undecided), sum(max(d) for d in undecided)\n"
)

pytestmark = pytest.mark.slow


@dataclass
class Block:
    """One code block of the guide and where it goes."""

    path: str
    where: str  # before, after, instead of, at the end, a new file
    anchor: str
    lines: list[str]


@dataclass
class Kind:
    """A toy hook of the worked example: its kind (the bold words), its name, its blocks."""

    title: str
    hook: str
    blocks: list[Block] = field(default_factory=list)


def _section(text: str, heading: str) -> list[str]:
    """The lines of the `## heading` section."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"## {heading}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def _blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Every fenced block with a place line, after the bold paragraph it follows: (the
    paragraph's first line, the block's lines)."""
    found, paragraph, inside, block = [], "", False, list[str]()
    for line in lines:
        if line.startswith("```"):
            if inside and block and PLACE.match(block[0].rstrip("\n")):
                found.append((paragraph, block))
            inside, block = not inside, []
        elif inside:
            block.append(line)
        elif line.startswith("**"):
            paragraph = line
    return found


def _block(lines: list[str]) -> Block:
    place = PLACE.match(lines[0].rstrip("\n"))
    assert place is not None
    return Block(place["path"], place["where"] or place["whole"], place["anchor"] or "", lines[1:])


def guide_kinds() -> list[Kind]:
    """The worked example of "Adding a hook", kind by kind, in the guide's order."""
    kinds: list[Kind] = []
    for paragraph, lines in _blocks(_section(GUIDE.read_text(encoding="utf-8"), "Adding a hook")):
        title = paragraph.split("**")[1]
        if not kinds or kinds[-1].title != title:
            hook = re.search(r"`(\w+)\(", paragraph)
            assert hook is not None, f"the paragraph before a block names no hook: {paragraph}"
            kinds.append(Kind(title, hook[1]))
        kinds[-1].blocks.append(_block(lines))
    return kinds


def paste(kit: Path, block: Block) -> None:
    """Put `block` where it says, in the scratch kit `kit`."""
    target = kit / block.path
    if block.where == "a new file":
        target.write_text("".join(block.lines), encoding="utf-8")
        return
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    if block.where == "at the end":
        lines += block.lines
    else:
        at = [i for i, line in enumerate(lines) if block.anchor in line]
        assert len(at) == 1, f"{block.path}: {len(at)} lines hold `{block.anchor}` (the guide's block needs one)"
        i = at[0]
        lines[i : i + 1] = {"before": [*block.lines, lines[i]], "after": [lines[i], *block.lines], "instead of": block.lines}[block.where]
    target.write_text("".join(lines), encoding="utf-8")


def run(kit: Path, *argv: str, ok: bool = True, copy: bool = False) -> subprocess.CompletedProcess[str]:
    """A command run in the scratch kit (its own `grader` first on the path); `copy`: in a
    student copy, which sees nothing of the kit that made it."""
    path = [str(ONLY_THE_COPY), str(kit)] if copy else [str(kit)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, *argv], cwd=kit, env=env, capture_output=True, text=True, timeout=900)
    if ok:
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def git(kit: Path, *argv: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=guide", "-c", "user.email=guide@example.org", *argv], cwd=kit, capture_output=True, text=True, check=True
    )
    return done.stdout


ROW = """
from grader.inputs.config import GradingConfig
from grader.scoring.hookcases import load_cases
cases = load_cases()[{hook!r}]
named = sum(1 for case in cases if not case.name.startswith("random"))
points = GradingConfig().hook_points[{hook!r}]
print(f"| `{hook}` | {{points:g}} | {{named}} | {{len(cases) - named}} | {{len({{c.group for c in cases}})}} |")
"""


def add_table_row(kit: Path, hook: str) -> None:
    """The hook's row of the handout's scoring table, from the stored cases (the numbers
    tests/test_house.py expects), after the table's last row."""
    row = run(kit, "-c", ROW.format(hook=hook)).stdout.strip()
    handout = kit / "assignment" / "HANDOUT.md"
    lines = handout.read_text(encoding="utf-8").splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if TABLE_ROW.match(line.rstrip("\n")))
    indent = TABLE_ROW.match(lines[last].rstrip("\n"))[1]  # type: ignore[index]
    lines.insert(last + 1, f"{indent}{row}\n")
    handout.write_text("".join(lines), encoding="utf-8")


def scratch_kit(tmp_path: Path) -> Path:
    """The kit's tracked files as they are in this tree, in a fresh repository, with this
    tree's compiled modules beside them (Python's, and pytest's rewritten test modules):
    each is used only while its source keeps its time and size, so what the guide changes
    is compiled afresh, and the rest is not compiled again by every process started there
    (PYTHONDONTWRITEBYTECODE keeps them from writing what they compile)."""
    kit = tmp_path / "kit"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (kit / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, kit / name)  # its time kept: what a compiled module was made from
            cache = source.parent / "__pycache__"
            if cache.is_dir() and not (kit / name).parent.joinpath("__pycache__").exists():
                shutil.copytree(cache, (kit / name).parent / "__pycache__")
    git(kit, "init", "-q")
    git(kit, "add", "-A")
    git(kit, "commit", "-qm", "the kit")
    return kit


def graded(kit: Path, solver: Path, only: list[str], copy: bool = False) -> dict[str, dict]:
    """Each item of a grading run of `solver` on the course boards, by id."""
    out = solver.with_name(f"{solver.stem}{'-copy' * copy}.json")
    run(
        kit,
        "-m",
        "grader",
        "problems/course.yaml",
        "--solver",
        str(solver),
        "--only",
        ",".join([*only, "course"]),
        "--json",
        str(out),
        ok=False,
        copy=copy,
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    return {item["id"]: item for item in report["hooks"]}


def test_the_guide_adds_a_toy_hook_of_each_kind_and_grades_it(tmp_path: Path) -> None:
    """Every block of "Adding a hook" pasted where it says, kind by kind, with the goldens
    rewritten and the handout's row added; the whole quick loop passes there (in one
    process: the same tests, collected once rather than by each of xdist's workers); then a
    right file gets each toy hook's full points and a wrong one less, its reason quoting
    that hook's own answer (not another hook's); a hook graded on its cases alone has no
    search share and no `--case HOOK@BOARD:N`; a student copy released from the kit grades
    both files alike. Prints the diff stat of each kind."""
    kinds = guide_kinds()
    assert [kind.hook for kind in kinds] == list(WRONG), "the worked example's toy hooks"
    kit = scratch_kit(tmp_path)
    for kind in kinds:
        for block in kind.blocks:
            paste(kit, block)
        run(kit, "-m", "grader", "goldens")
        add_table_row(kit, kind.hook)
        git(kit, "add", "-A")
        git(kit, "commit", "-qm", kind.hook)
        print(f"\n{kind.title} ({kind.hook}):\n{git(kit, 'show', '--stat', '--format=', 'HEAD')}")
    quick = run(kit, "-m", "pytest", "-m", "not slow", "-n", "0", "-p", "no:cacheprovider")  # one process: the tests collected once
    print(f"the quick loop in the scratch kit: {quick.stdout.strip().splitlines()[-1]}")

    right = tmp_path / "right" / "hooks.py"
    right.parent.mkdir()
    shutil.copy(kit / "tests" / "student_files" / "model_answer.py", right)
    wrong = tmp_path / "wrong" / "hooks.py"
    wrong.parent.mkdir()
    wrong.write_text(
        right.read_text(encoding="utf-8") + "".join(f"\n\n{code}" for code, _ in WRONG.values()) + f"\n\n{WRONG_BOUNDS}", encoding="utf-8"
    )
    hooks = ["constraint_bounds", *WRONG]
    good, bad = graded(kit, right, hooks), graded(kit, wrong, hooks)
    for hook, (_, own) in WRONG.items():
        print(
            f"{hook}: right {good[hook]['score']:g}/{good[hook]['max_score']:g}, wrong {bad[hook]['score']:g}: {bad[hook]['message'].splitlines()[0]}"
        )
        assert good[hook]["score"] == good[hook]["max_score"] > 0, good[hook]
        assert bad[hook]["score"] < bad[hook]["max_score"], bad[hook]
        quoted = re.findall(r"^\s*returned: (.*)$", bad[hook]["message"], re.M)
        assert quoted and all(re.fullmatch(own, answer) for answer in quoted), bad[hook]["message"]
    searched = {hook: "in the grader's searches" in good[hook]["message"] for hook in WRONG}
    assert searched == {kind.hook: kind.title != "A hook graded on its cases alone" for kind in kinds}
    alone = next(kind.hook for kind in kinds if kind.title == "A hook graded on its cases alone")
    asked = run(kit, "-m", "grader", "problems/course.yaml", "--solver", str(right), "--case", f"{alone}@nctu-1:1", ok=False)
    assert asked.returncode != 0 and "its cases are all it is graded on" in asked.stdout + asked.stderr

    run(kit, "-m", "grader", "release", str(tmp_path / "copy"))  # "Cutting a release": the student copy
    for solver, course in ((right, good), (wrong, bad)):
        there = graded(tmp_path / "copy", solver, hooks, copy=True)
        assert {hook: there[hook]["score"] for hook in hooks} == {hook: course[hook]["score"] for hook in hooks}


def test_the_guide_adds_a_problem_set(tmp_path: Path) -> None:
    """The problem file of "Adding a problem set" written in a scratch copy, and the
    section's commands run there: the file checks, and the reference gets full marks."""
    kit = scratch_kit(tmp_path)
    found = _blocks(_section(GUIDE.read_text(encoding="utf-8"), "Adding a problem set"))
    assert found, "the section shows a problem file"
    for _, lines in found:
        paste(kit, _block(lines))
    text = "".join(_section(GUIDE.read_text(encoding="utf-8"), "Adding a problem set"))
    commands = re.findall(r"^python -m (grader .+)$", text, re.M)
    assert commands, "the section shows its commands"
    for command in commands:
        run(kit, "-m", *command.split())
