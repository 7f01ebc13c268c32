"""One file never stops a class: pathological submissions beside honest ones, graded by
the real CLI under `bwrap` and `user`.

The odd files are made here, in the test's own folder (one of them is 5 MB): a 600 KB
line `1+1+...`, 5,000 nested parentheses and lists, binary bytes, a NUL byte, UTF-16
with a BOM, Latin-1 with a coding cookie, a file of exactly the intake limit and one a
byte over it, and a folder named like a `.py` file. Every honest student (Latin-1 and
the 5 MB file included) keeps full marks; every other one gets its row and one line
saying why; the CSV is written.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from conftest import COURSE, Kit, attacker, by_id, json_report, no_traceback, read_rows, run_grader, timings_aside

from grader.sandbox.isolation import SUBMISSION_BYTES

PLUS_LINE = "x = " + "+".join(["1"] * 300_000) + "\n"  # 600 KB on one line
PARENS = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
LISTS = "x = " + "[" * 5000 + "]" * 5000 + "\n"


def honest(folder: Path) -> bytes:
    """The text of a correct, self-contained submission (as UTF-8 bytes)."""
    return attacker(folder / "made", "correct").read_bytes()


def padded(text: bytes, size: int) -> bytes:
    """`text` followed by comment lines, `size` bytes in all."""
    line = b"# " + b"-" * 97 + b"\n"
    body = text + line * ((size - len(text)) // len(line))
    return body + b"#" * (size - len(body) - 1) + b"\n"


def pathological_class(folder: Path) -> tuple[list[str], dict[str, str]]:
    """A class folder: the honest students (full marks expected), and the odd ones with
    what their file is."""
    folder.mkdir(parents=True)
    good = honest(folder.parent)
    files: dict[str, bytes] = {
        "aaa_honest.py": good,
        "latin1.py": b"# -*- coding: latin-1 -*-\n# caf\xe9, na\xefve, \xa7 3\n" + good,
        "big_under.py": padded(good, SUBMISSION_BYTES),
        "big_over.py": padded(good, SUBMISSION_BYTES + 1),
        "plus_line.py": good + PLUS_LINE.encode(),
        "nested_parens.py": good + PARENS.encode(),
        "nested_lists.py": good + LISTS.encode(),
        "binary.py": bytes(range(256)) * 64,
        "nul_byte.py": good + b"y = 1\0\n",
        "utf16.py": codecs.BOM_UTF16_LE + good.decode().encode("utf-16-le"),
        "zzz_honest.py": good,
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    # A folder named like a file, and an honest folder holding the odd files beside its hooks.
    (folder / "dir_named.py").mkdir()
    (folder / "dir_named.py" / "hooks.py").write_bytes(good)
    (folder / "folder_honest").mkdir()
    (folder / "folder_honest" / "hooks.py").write_bytes(good)
    for name in ("plus_line.py", "nested_lists.py", "binary.py", "nul_byte.py"):
        (folder / "folder_honest" / f"scratch_{name}").write_bytes(files[name])
    honest_students = ["aaa_honest", "latin1", "big_under", "dir_named", "folder_honest", "zzz_honest"]
    odd = {"big_over": "refused", **dict.fromkeys(
        ["plus_line", "nested_parens", "nested_lists", "binary", "nul_byte", "utf16"], "cannot load")}
    return honest_students, odd


def test_one_file_never_stops_the_class(kit: Kit, tmp_path: Path) -> None:
    """Every honest student has full marks, every odd one its row (a zero for a file
    Python cannot load, a refusal for one over the limit) and one line in the note and
    the summary; the CSV and the feedback are written; exit 1 (a file was refused)."""
    honest_students, odd = pathological_class(tmp_path / "class")
    grades = tmp_path / "grades.csv"
    result = kit.run(kit.course, "--submissions", tmp_path / "class", "--csv", grades, "--jobs", "2",
                     "--timeout", "3", timeout=900)
    no_traceback(result)
    assert grades.is_file(), result.stdout[-3000:] + result.stderr[-3000:]
    rows = read_rows(grades)
    assert sorted(rows) == sorted([*honest_students, *odd]), rows
    for student in honest_students:
        row = rows[student]
        assert row["score"] and float(row["score"]) == float(row["max_score"]) > 0, (student, row)
        assert row["note"] == "", (student, row)
    said = result.stdout.splitlines()
    for student in odd:
        row = rows[student]
        assert row["score"] in ("0", "0.0"), (student, row)  # the file's own fault: Python cannot load it, or it is refused
        # One line: the note (and the summary's line), or, for a file that ran out of
        # time while Python compiled it on a loaded machine, the one cause of the lost points.
        why = row["note"] or row["lost"]
        assert why and "\n" not in why and " | " not in why, (student, row)
        summary = [line for line in said if line.startswith(f"! {student}:")]
        assert len(summary) == (1 if row["note"] else 0), (student, result.stdout[-3000:])
    assert "larger than" in rows["big_over"]["note"]
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    feedback = tmp_path / "grades-feedback"
    assert sorted(p.stem for p in feedback.glob("*.md")) == sorted([*honest_students, *odd])


@pytest.mark.parametrize("name", ["plus_line", "nested_lists", "binary", "utf16", "dir_named"])
def test_the_single_file_cli_says_one_line(tmp_path: Path, name: str) -> None:
    """`--solver FILE` on an odd file alone in its folder: a report and no traceback (a
    file Python cannot load scores nothing and says why in one line; a folder named like
    a file is graded)."""
    pathological_class(tmp_path / "class")
    alone = tmp_path / "alone" / f"{name}.py"
    alone.parent.mkdir()
    (tmp_path / "class" / f"{name}.py").rename(alone)
    out = tmp_path / "report.json"
    result = run_grader(COURSE, "--solver", alone, "--json", out, "--timeout", "3")
    no_traceback(result)
    report = json_report(out, result)
    reasons = {timings_aside(e["message"]) for e in by_id(report).values() if e["score"] < e["max_score"]}
    if name == "dir_named":
        assert reasons == set() and report["score"] == report["max_score"], report
    else:
        assert len(reasons) == 1 and report["score"] == 0, reasons
