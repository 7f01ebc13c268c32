"""The similarity report against students who hide or swamp: code shipped as data is
flagged beside its student, a huge file that matches everyone keeps the report within a
bound computed from the class, and a file no parser can read gives one line.

- a classmate's hooks base64-encoded and run with `exec` share nothing with the original
  (strings are one token): the submission is flagged on the terminal and in the HTML
  report, while a plain disguised copy is still found first, as before;
- a 4.9 MB file holding every classmate's code (under the 5 MB intake limit) used to be
  written once per classmate: the report now weighs at most a fixed amount per student
  and per pair shown;
- files the syntax tree cannot be built from (600 KB of `1+1+...`, NUL bytes) each give
  one "could not be read" line, and the report is written.
"""

from __future__ import annotations

import base64
import importlib.util
import random
import re
import shutil
from pathlib import Path

import pytest
from conftest import STUDENT_FILES, needed, run_grader
from test_similarity import module, planted_copy

CLASS = STUDENT_FILES / "similarity_class"
SHOWN = 0.33  # the report shows pairs sharing more than this


@pytest.fixture(autouse=True)
def copydetect_installed() -> None:
    missing = importlib.util.find_spec("copydetect") is None
    needed("the similarity report", 'copydetect is not installed: pip install -e ".[test]"' if missing else None)


def honest_class(folder: Path) -> None:
    """Five independent solutions: alice, bob, carol, dave, erin."""
    folder.mkdir()
    shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "alice.py")
    shutil.copyfile(STUDENT_FILES / "standalone_correct.py", folder / "bob.py")
    for name in ("carol", "dave", "erin"):
        shutil.copyfile(CLASS / f"{name}.py", folder / f"{name}.py")


def similarity(folder: Path, report: Path, cwd: Path) -> tuple[str, list[tuple[str, str, int, int]]]:
    """The terminal's text (lines joined) and its ranked pairs (name, name, share, share)."""
    result = run_grader("similarity", folder, "--out", report, "--top", "1000", cwd=cwd, timeout=900, columns=200)
    output = result.stdout + result.stderr
    assert result.returncode == 0 and "Traceback" not in output and report.is_file(), output
    ranked = re.findall(r"│\s*\d+\s*│\s*(\S+)\s*│\s*(\S+)\s*│\s*(\d+)% / (\d+)%\s*│", result.stdout)
    return result.stdout, [(a, b, int(x), int(y)) for a, b, x, y in ranked]


def flagged(output: str) -> dict[str, list[str]]:
    """The students the terminal flags, with their lines."""
    found: dict[str, list[str]] = {}
    current = None
    for line in output.splitlines():
        if match := re.fullmatch(r"! read by hand: (\S+)", line.rstrip()):
            current = found.setdefault(match[1], [])
        elif current is not None and line.startswith("    "):
            current.append(line.strip())
        else:
            current = None
    return found


def test_a_copy_shipped_in_base64_and_run_with_exec_is_flagged_beside_its_student(tmp_path: Path) -> None:
    """mallory runs carol's file from a base64 string: it shares almost nothing with
    carol, so it is flagged (exec of a computed value, a base64 literal) on the terminal
    and in the HTML report; oscar's plain disguised copy of dave still ranks first; no
    honest student is flagged."""
    folder = tmp_path / "class"
    honest_class(folder)
    carol = (CLASS / "carol.py").read_text(encoding="utf-8")
    payload = base64.b64encode(carol.encode("utf-8")).decode("ascii")
    hidden = (STUDENT_FILES / "similarity_hidden_copy.py").read_text(encoding="utf-8").replace("{{PAYLOAD}}", payload)
    (folder / "mallory.py").write_text(hidden, encoding="utf-8")
    (folder / "oscar.py").write_text(planted_copy((CLASS / "dave.py").read_text(encoding="utf-8")), encoding="utf-8")
    original, copy = module(carol), module(hidden)
    assert all(original[name]([1, 2, 3, 4], 2) == copy[name]([1, 2, 3, 4], 2) for name in ("at_least_clauses", "at_most_clauses"))

    report = tmp_path / "report.html"
    output, ranked = similarity(folder, report, tmp_path)
    assert len(ranked) == 21, output
    assert {ranked[0][0], ranked[0][1]} == {"dave", "oscar"} and max(ranked[0][2:]) >= 60, output
    [hidden_pair] = [r for r in ranked if {r[0], r[1]} == {"carol", "mallory"}]
    assert max(hidden_pair[2:]) * 0.01 <= SHOWN, hidden_pair  # the comparison is blind to it: the flag is what shows it
    flags = flagged(output)
    assert list(flags) == ["mallory"], output
    assert any(re.fullmatch(r"mallory\.py: line \d+: exec\(\) of a value computed at run time", line) for line in flags["mallory"])
    assert any(re.fullmatch(r"mallory\.py: line \d+: a \d+-character base64 literal", line) for line in flags["mallory"])
    assert "1 to read by hand (code built from data, or not readable)" in " ".join(output.split()), output
    html = report.read_text(encoding="utf-8")
    section = html[html.index("Submissions to read by hand") : html.index("Matched Code")]
    assert "<b>mallory</b>" in section and "exec() of a value computed at run time" in section
    assert not any(f"<b>{name}</b>" in section for name in ("alice", "bob", "carol", "dave", "erin", "oscar"))


def honest_code(seed: int) -> str:
    """A student's own file: functions of random arithmetic (names read alike to copydetect,
    the numbers and operators do not)."""
    rng = random.Random(seed)
    lines = [f'"""Student {seed}."""', ""]
    names = ["board", "cells", "limit", "scope", "domains", "count", "value", "total"]
    for number in range(10):
        args = rng.sample(names, 3)
        lines.append(f"def hook_{number}({', '.join(args)}):")
        for _ in range(rng.randint(4, 8)):
            a, b = rng.sample(args, 2)
            lines.append(f"    {a} = ({b} {rng.choice('+-*%')} {rng.randint(2, 999)}) {rng.choice('+-*%')} {a}")
        lines += [f"    return {args[0]} + {rng.randint(2, 999)}", ""]
    return "\n".join(lines) + "\n"


def test_a_huge_file_that_matches_everyone_keeps_the_report_within_its_bound(tmp_path: Path) -> None:
    """hoarder hands in 4.9 MB: a long docstring, then every classmate's code. Each of the
    eight classmates matches it fully, and each pair used to carry the whole file (40 MB
    here). Now the report weighs at most 64 KB, plus 8 KB per student, plus 2 KB per pair
    shown and 64 KB of code for each of the first 100 of them; the hoarder's side starts a
    few lines before the shared code and says what was left out; the file is flagged as
    too large to read. The matrix and the bars are counted too (the page has no image)."""
    folder = tmp_path / "class"
    folder.mkdir()
    classmates = [honest_code(seed) for seed in range(8)]
    for seed, code in enumerate(classmates):
        (folder / f"student{seed}.py").write_text(code, encoding="utf-8")
    everyone = "\n".join(classmates)
    padding = '"""' + "Notes on the search, kept for later.\n" * ((4_900_000 - len(everyone)) // 37) + '"""\n\n'
    (folder / "hoarder.py").write_text(padding + everyone, encoding="utf-8")
    size = (folder / "hoarder.py").stat().st_size
    assert 4_800_000 < size < 5 << 20

    report = tmp_path / "report.html"
    output, ranked = similarity(folder, report, tmp_path)
    students = 9
    shown = sum(max(r[2:]) > SHOWN * 100 for r in ranked)
    assert len(ranked) == 36 and shown >= 8 and all(max(r[2:]) == 100 for r in ranked if "hoarder" in r[:2]), output
    html = report.read_text(encoding="utf-8")
    assert "<img" not in html and "<script" not in html  # the matrix and the bars are HTML: nothing left out below
    bound = (64 << 10) + (8 << 10) * students + (2 << 10) * shown + (64 << 10) * min(shown, 100)
    weight = len(html.encode("utf-8"))
    assert weight <= bound < size, (weight, bound)
    assert html.count("not shown]") >= 8 and html.count("<b>hoarder</b>") == 1
    [[line]] = flagged(output).values()
    assert line == f"hoarder.py: could not be read: {size / 2**20:.1f} MB, more than the 1 MB this check parses", output


def test_files_no_syntax_tree_can_be_built_from_give_one_line_each(tmp_path: Path) -> None:
    """600 KB of `1+1+...` (the parser's recursion runs out) and a file with NUL bytes:
    each gives one "could not be read" line beside its student; a file in Latin-1 is read
    (its odd bytes replaced) and not flagged; a file over the intake limit is not compared,
    in one line; the others are compared and the report is written."""
    folder = tmp_path / "class"
    honest_class(folder)
    (folder / "deep.py").write_text("total = " + "1+" * 300_000 + "1\n", encoding="utf-8")
    (folder / "nul.py").write_bytes((CLASS / "dave.py").read_bytes() + b"\x00\x00 = 1\n")
    (folder / "latin.py").write_bytes(b"# r\xe9sum\xe9\n" + (CLASS / "erin.py").read_bytes())
    with open(folder / "huge.py", "wb") as huge:
        huge.truncate(6 << 20)
    report = tmp_path / "report.html"
    output, ranked = similarity(folder, report, tmp_path)
    assert len(ranked) == 28 and "not compared: huge: huge.py is larger than 5 MB" in " ".join(output.split()), output
    assert flagged(output) == {
        "deep": ["deep.py: could not be read: nested too deep"],
        "nul": ["nul.py: could not be read: source code string cannot contain null bytes"],
    }
    html = report.read_text(encoding="utf-8")
    assert "deep.py: could not be read: nested too deep" in html and "<html" in html.lower()


PAYLOAD = base64.b64encode((CLASS / "carol.py").read_bytes()).decode("ascii")
HIDING = {
    "base64 and exec": f"import base64\nexec(base64.b64decode({PAYLOAD!r}))\n",
    "zlib bytes": "import zlib\nexec(zlib.decompress(" + repr(__import__("zlib").compress((CLASS / "carol.py").read_bytes())) + "))\n",
    "a literal too long": "exec(" + repr((CLASS / "carol.py").read_text(encoding="utf-8")) + ")\n",
    "a computed builtin name": "import builtins\nrun = getattr(builtins, 'ex' + 'ec')\n",
    "getattr with a literal": "import builtins\ngetattr(builtins, 'exec')(code)\n",
    "the builtins mapping": "__builtins__['exec'](code)\n",
    "the builtins' __dict__": "import builtins as b\nb.__dict__['eval'](code)\n",
    "an alias": "run = exec\n",
    "an import under another name": "from builtins import exec as go\ngo(code)\n",
    "a module imported at run time": "import importlib\nm = importlib.import_module('bu' + 'iltins')\n",
    "a module kept in a name": "m = __import__('builtins')\nm.exec(code)\n",
    "sys.modules": "import sys\nsys.modules['builtins'].eval(code)\n",
    "a pickle": "import pickle\nhooks = pickle.loads(data)\n",
    "marshal and FunctionType": "import marshal, types\nf = types.FunctionType(marshal.loads(data), {})\n",
    "rot13": "import codecs\nname = codecs.decode('rkrp', 'rot13')\n",
    "subclasses": "found = ().__class__.__base__.__subclasses__()\n",
    "base64 cut in pieces": "parts = [" + ", ".join(repr(PAYLOAD[i : i + 60]) for i in range(0, 600, 60)) + "]\n",
    "byte values": "data = bytes([" + ", ".join(map(str, (CLASS / "carol.py").read_bytes()[:300])) + "])\n",
    "hex": "data = bytes.fromhex(" + repr((CLASS / "carol.py").read_bytes()[:200].hex()) + ")\n",
}


@pytest.mark.parametrize("source", HIDING.values(), ids=HIDING.keys())
def test_each_way_of_running_data_as_code_is_flagged(source: str) -> None:
    from grader.commands.codeflags import read_flags

    assert read_flags("x.py", source), source


HONEST = [
    STUDENT_FILES / "model_answer.py",
    STUDENT_FILES / "standalone_correct.py",
    *sorted(CLASS.glob("*.py")),
    *sorted((STUDENT_FILES.parent.parent / "assignment").glob("*.py")),
]


@pytest.mark.parametrize("path", HONEST, ids=lambda p: p.name)
def test_honest_files_are_not_flagged(path: Path) -> None:
    from grader.commands.codeflags import read_flags

    assert read_flags(path.name, path.read_text(encoding="utf-8")) == []


def test_what_only_looks_like_running_code_is_not_flagged() -> None:
    """A short literal evaluated, a regular expression compiled, a student's own `compile`."""
    from grader.commands.codeflags import read_flags

    source = "import re\nx = eval('1 + 1')\np = re.compile(pattern)\ndef compile(c):\n    return c\ny = compile(3)\n"
    assert read_flags("x.py", source) == []


@pytest.mark.parametrize(
    "source",
    ["x = " + "1+" * 300_000 + "1\n", "x = 1\x00\n", "x = " + "(" * 100_000, "def f(:\n", "x = 1\n" * 200_000, "x = " + "not " * 200_000 + "1\n"],
    ids=["deep sum", "NUL byte", "deep parentheses", "syntax error", "over the limit", "deep not"],
)
def test_a_file_the_parser_refuses_gives_one_line(source: str) -> None:
    from grader.commands.codeflags import read_flags

    [line] = read_flags("x.py", source)
    assert line.startswith("x.py: could not be read: "), line


def test_the_flags_of_a_file_are_capped() -> None:
    """Twenty exec calls: five lines and a count of the rest."""
    from grader.commands.codeflags import FLAGS_SHOWN, read_flags

    lines = read_flags("x.py", "exec(code)\n" * 20)
    assert len(lines) == FLAGS_SHOWN + 1 and lines[-1] == f"x.py: {20 - FLAGS_SHOWN} more"


def test_each_side_of_a_pair_stays_within_its_budget() -> None:
    """Random text full of characters HTML escapes and of wide ones, random shared runs:
    never more than CODE_BYTES of HTML; a short file is shown whole."""
    from grader.commands.similarity_html import CODE_BYTES, shown_code

    rng = random.Random(7)
    for size in (10, 2_000, 50_000, 400_000):
        code = "".join(rng.choice("ab<>&\"'\n é€😀") for _ in range(size))
        cuts = sorted(rng.sample(range(size), min(size, 40)))
        runs = list(zip(cuts[::2], cuts[1::2]))
        for shown in (shown_code(code, runs, "h"), shown_code(code, runs[len(runs) // 2 :], "h"), shown_code(code, [], "h")):
            assert len(shown.encode("utf-8")) <= CODE_BYTES
    small = "def f(x):\n    return x < 1 & 2\n"
    assert shown_code(small, [(4, 9)], "h") == "def <span class='h'>f(x):</span>\n    return x &lt; 1 &amp; 2\n"
