"""Reading the platforms' exports as `--submissions`: Gradescope's "Export Submissions" and
PrairieLearn's downloaded files, zipped or not, odd and hostile ones too."""

from __future__ import annotations

import csv
import resource
import stat
import zipfile
from pathlib import Path

import yaml
from conftest import no_traceback, run_grader, self_contained
from test_bounded_yaml import entry, laughs, line_of

from grader.inputs.exports import METADATA, read_export, unpack
from grader.sandbox.isolation import SUBMISSION_BYTES

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "problems" / "course.yaml"
ONLY = ("--only", "forward_check")
CHECKED = "hooks/forward_check"  # where lazy_upper loses points and correct_reexport does not


def gradescope_zip(path: Path, submissions: dict[str, tuple[list[dict[str, str]], str, str | None]]) -> Path:
    """A Gradescope export zip: {folder: (submitters, created_at, student file or None)}, keys as Ruby symbols."""
    metadata = {
        folder: {
            ":submitters": [{f":{k}": v for k, v in person.items()} for person in people],
            ":created_at": created,
            ":score": 0.0,
            ":status": "processed",
            ":history": [],
        }
        for folder, (people, created, _) in submissions.items()
    }
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"assignment_1_export/{METADATA}", yaml.safe_dump(metadata))
        for folder, (_, _, student) in submissions.items():
            archive.writestr(f"assignment_1_export/{folder}/", "")
            if student is not None:
                archive.writestr(f"assignment_1_export/{folder}/hooks.py", self_contained(student))
    return path


def person(name: str, sid: str) -> dict[str, str]:
    return {"name": name, "sid": sid, "email": f"{sid}@example.edu"}


def rows_of(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def test_a_gradescope_export_is_graded_by_student_latest_submission_and_group(tmp_path: Path) -> None:
    export = gradescope_zip(
        tmp_path / "export.zip",
        {
            "submission_101": ([person("Ada Lovelace", "s1")], "2026-11-01 10:00:00 +0000", "lazy_upper"),
            "submission_205": ([person("Ada Lovelace", "s1")], "2026-11-02 09:00:00 +0000", "correct_reexport"),
            "submission_150": ([person("Bo Li", "s2"), person("Cy Young", "s3")], "2026-11-01 12:00:00 +0000", "correct_reexport"),
            "submission_160": ([person("Di Ng", "s4")], "2026-11-01 12:00:00 +0000", "lazy_upper"),
            "submission_170": ([person("Ed No-File", "s5")], "2026-11-01 12:00:00 +0000", None),
        },
    )
    grades = tmp_path / "out" / "grades.csv"
    result = run_grader(COURSE, *ONLY, "--submissions", export, "--csv", grades, "--timeout", "5", "--gradebook", "generic")
    no_traceback(result)
    assert "submissions: Gradescope export (5 submissions, 5 students; 4 kept: each one's active or latest)" in result.stdout
    assert result.returncode == 1, result.stdout  # the submission with no file is odd
    odd = [line for line in result.stdout.splitlines() if line.startswith("! s5:")]
    assert len(odd) == 1 and "nothing to grade" in odd[0]
    rows = rows_of(grades)
    assert sorted(rows) == ["s1", "s2", "s3", "s4", "s5"]
    assert rows["s2"]["name"] == "Bo Li" and rows["s3"]["email"] == "s3@example.edu"
    full = float(rows["s1"][CHECKED])  # the later, correct submission, not the first
    assert full > float(rows["s4"][CHECKED])
    assert float(rows["s2"][CHECKED]) == float(rows["s3"][CHECKED]) == full  # the group's grade goes to both
    assert rows["s2"]["score"] == rows["s3"]["score"] == rows["s1"]["score"]
    assert float(rows["s5"]["score"]) == 0.0
    assert (grades.parent / "grades-feedback" / "s3.html").is_file()
    with (grades.parent / "grades-generic.csv").open(newline="", encoding="utf-8") as handle:
        book = {row["id"]: row["score"] for row in csv.DictReader(handle)}  # no roster: the export's sids
    assert book["s2"] == book["s3"] and sorted(book) == ["s1", "s2", "s3", "s4", "s5"]


def test_an_active_flag_wins_over_the_latest(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    for key, student in (("submission_1", "correct_reexport"), ("submission_2", "lazy_upper")):
        (folder / key).mkdir(parents=True)
        (folder / key / "hooks.py").write_text(self_contained(student), encoding="utf-8")
    metadata = {
        "submission_1": {":submitters": [{":name": "A", ":sid": "7", ":email": ""}], ":created_at": "2026-01-01", ":active": True},
        "submission_2": {":submitters": [{":name": "A", ":sid": "7", ":email": ""}], ":created_at": "2026-02-01", ":active": False},
    }
    (folder / METADATA).write_text(yaml.safe_dump(metadata), encoding="utf-8")
    export = read_export(folder, tmp_path / "scratch")
    assert export.entries is not None and [e.folder.name for e in export.entries if e.folder] == ["submission_1"]


def test_a_prairielearn_download_is_graded_by_uid_latest_submission(tmp_path: Path) -> None:
    download = tmp_path / "HW1_all_files.zip"
    with zipfile.ZipFile(download, "w") as archive:
        archive.writestr("Homework1/", "")
        archive.writestr("Homework1/ana@example.edu_1_csp_1_1_9001_hooks.py", self_contained("lazy_upper"))
        archive.writestr("Homework1/ana@example.edu_1_csp_1_2_9007_hooks.py", self_contained("correct_reexport"))
        archive.writestr("Homework1/bob@example.edu_1_csp_1_1_9003_hooks.py", self_contained("lazy_upper"))
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, *ONLY, "--submissions", download, "--csv", grades, "--timeout", "5")
    no_traceback(result)
    assert result.returncode == 0, result.stdout
    assert "submissions: PrairieLearn download (2 students)" in result.stdout
    rows = rows_of(grades)
    assert sorted(rows) == ["ana@example.edu", "bob@example.edu"]
    assert float(rows["ana@example.edu"][CHECKED]) > float(rows["bob@example.edu"][CHECKED])  # ana's later file


def test_odd_exports_get_one_line_each_and_the_class_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "export"  # Gradescope's folders with no metadata; one holds two hooks files
    (folder / "submission_1").mkdir(parents=True)
    (folder / "submission_1" / "hooks.py").write_text(self_contained("correct_reexport"), encoding="utf-8")
    (folder / "submission_2").mkdir()
    (folder / "submission_2" / "a_draft.py").write_text(self_contained("correct_reexport"), encoding="utf-8")
    (folder / "submission_2" / "b_final.py").write_text(self_contained("lazy_upper"), encoding="utf-8")
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, *ONLY, "--submissions", folder, "--csv", grades, "--timeout", "5")
    no_traceback(result)
    lines = [line for line in result.stdout.splitlines() if line.startswith("! ")]
    assert sum(f"no {METADATA}" in line for line in lines) == 1
    assert sum("submission_2/a_draft.py graded, not submission_2/b_final.py" in line for line in lines) == 1
    assert result.returncode == 1
    assert sorted(rows_of(grades)) == ["submission_1", "submission_2"]

    unknown = tmp_path / "unknown.zip"
    with zipfile.ZipFile(unknown, "w") as archive:
        archive.writestr("notes.txt", "hello")
    result = run_grader(COURSE, *ONLY, "--submissions", unknown, "--csv", tmp_path / "u.csv")
    no_traceback(result)
    assert sum("unknown layout" in line for line in result.stdout.splitlines()) == 1
    assert result.returncode == 1


def symlink_member(archive: zipfile.ZipFile, name: str, target: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive.writestr(info, target)


def test_hostile_zip_members_are_refused_one_line_each(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.zip"
    with zipfile.ZipFile(hostile, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("../../evil.py", "print('out')")
        archive.writestr("/abs.py", "print('out')")
        symlink_member(archive, "link.py", "/etc/passwd")
        archive.writestr("bomb.py", b"0" * (SUBMISSION_BYTES + 1))
        archive.writestr("fine.py", "x = 1")
    target = tmp_path / "scratch" / "unpacked"
    notes = unpack(hostile, target)
    assert len(notes) == 4, notes
    assert [p.name for p in target.rglob("*")] == ["fine.py"]
    assert not (tmp_path / "evil.py").exists() and not (tmp_path.parent / "evil.py").exists()


def test_a_member_lying_about_its_size_is_cut_off(tmp_path: Path) -> None:
    liar = tmp_path / "liar.zip"
    with zipfile.ZipFile(liar, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.py", b"1" * (SUBMISSION_BYTES + 10))
    raw = bytearray(liar.read_bytes())
    size = (SUBMISSION_BYTES + 10).to_bytes(4, "little")
    raw = raw.replace(size, (10).to_bytes(4, "little"))  # the headers now say 10 bytes
    liar.write_bytes(bytes(raw))
    target = tmp_path / "out"
    notes = unpack(liar, target)
    assert len(notes) == 1 and not (target / "big.py").exists()


def test_hostile_names_in_metadata_reach_no_page_or_terminal_raw(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>\x1b[2J"
    export = gradescope_zip(
        tmp_path / "export.zip",
        {
            "submission_1": ([{"name": evil, "sid": "<b>9</b>", "email": "=cmd|' /C calc'!A0"}], "2026-01-01", "correct_reexport"),
            "../outside": ([person("Out Side", "s8")], "2026-01-01", None),
        },
    )
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, *ONLY, "--submissions", export, "--csv", grades, "--timeout", "5")
    no_traceback(result)
    assert "\x1b[2J" not in result.stdout and "<script>" not in result.stdout
    rows = list(rows_of(grades).values())
    assert "\x1b" not in grades.read_text(encoding="utf-8")
    assert any(row["email"].startswith("'=") for row in rows)  # no formula for a spreadsheet
    pages = list((tmp_path / "grades-feedback").glob("*.html"))
    assert pages and all("<b>9</b>" not in page.read_text(encoding="utf-8") for page in pages)
    assert not (tmp_path / "outside").exists()


def test_similarity_reads_an_export_and_names_a_group_once(tmp_path: Path) -> None:
    export = gradescope_zip(
        tmp_path / "export.zip",
        {
            "submission_1": ([person("Ada", "s1")], "2026-01-01", "lazy_upper"),
            "submission_2": ([person("Ada", "s1")], "2026-01-02", "correct_reexport"),
            "submission_3": ([person("Bo", "s2"), person("Cy", "s3")], "2026-01-01", "correct_reexport"),
            "submission_4": ([person("Di", "s4")], "2026-01-01", None),
        },
    )
    out = tmp_path / "similarity.html"
    result = run_grader("similarity", export, "--out", out)
    no_traceback(result)
    assert "submissions: Gradescope export (4 submissions, 4 students; 3 kept: each one's active or latest)" in result.stdout
    assert "s2+s3" in result.stdout and "s2+s3" in out.read_text(encoding="utf-8")
    assert sum("not compared: s4: no .py file" in line for line in result.stdout.splitlines()) == 1
    assert result.returncode == 0


def test_gradescope_times_are_compared_as_times(tmp_path: Path) -> None:
    """Gradescope writes :created_at unquoted, which YAML reads as a time with its offset."""
    folder = tmp_path / "export"
    for key in ("submission_1", "submission_2"):
        (folder / key).mkdir(parents=True)
        (folder / key / "hooks.py").write_text("def constraint_bounds(*a):\n    return 0, 0\n", encoding="utf-8")
    (folder / METADATA).write_text(
        "submission_1:\n  :submitters:\n  - :name: Ada\n    :sid: '1'\n    :email: a@x.edu\n"
        "  :created_at: 2026-11-02 01:00:00.000000000 +09:00\n"
        "submission_2:\n  :submitters:\n  - :name: Ada\n    :sid: '1'\n    :email: a@x.edu\n"
        "  :created_at: 2026-11-01 20:00:00.000000000 -00:00\n",
        encoding="utf-8",
    )
    export = read_export(folder, tmp_path / "scratch")
    assert export.entries is not None and [e.folder.name for e in export.entries if e.folder] == ["submission_2"]


def test_a_hostile_export_costs_each_bad_submission_one_line_and_the_class_is_graded(tmp_path: Path) -> None:
    """A submitter's name nested 20,000 deep, billion laughs under another's name, and a third
    submission holding a file `notes` and a member `notes/hooks.py`: each is one line, and the
    honest classmate is graded as ever (before: a RecursionError traceback, gigabytes, or the
    whole export refused with exit 2)."""
    deep = "submission_2:\n  :submitters:\n  - :name: " + "[" * 20_000 + "]" * 20_000 + "\n    :sid: '2'\n"
    bomb = "submission_3:\n  :results:\n" + laughs(indent="    ") + "  :submitters:\n  - :name: *a8\n    :sid: '3'\n"
    metadata = entry("submission_1", "Ada", "s1") + deep + bomb + entry("submission_4", "Di", "s4")
    honest = self_contained("correct_reexport")
    export = tmp_path / "export.zip"
    with zipfile.ZipFile(export, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"assignment_1_export/{METADATA}", metadata)
        for number in range(1, 5):
            archive.writestr(f"assignment_1_export/submission_{number}/hooks.py", honest)
        archive.writestr("assignment_1_export/submission_4/notes", "my notes")
        archive.writestr("assignment_1_export/submission_4/notes/hooks.py", honest)
    grades = tmp_path / "grades.csv"
    result = run_grader(COURSE, *ONLY, "--submissions", export, "--csv", grades, "--timeout", "5")
    no_traceback(result)
    assert result.returncode == 1, result.stdout
    said = " ".join(result.stdout.split())  # the terminal wraps long lines
    deep_line, alias_line = line_of(metadata, "  - :name: [["), line_of(metadata, "    a1: &a1")
    assert said.count(f"submission_2 (line {deep_line}): :submitters[0].:name[0]...: is nested more than 32 levels deep: not graded") == 1
    assert said.count(f"submission_3 (line {alias_line}): :results.a1[0]: uses an alias (*a0) of a list or mapping") == 1  # its first
    assert said.count("s4: not graded: the export's member assignment_1_export/submission_4/notes/hooks.py lies in") == 1
    rows = rows_of(grades)
    assert sorted(rows) == ["s1", "s4"]  # who submission_2 and _3 are is what could not be read
    assert float(rows["s1"][CHECKED]) > 0 and float(rows["s1"]["score"]) == float(rows["s1"]["max_score"])
    assert float(rows["s4"]["score"]) == 0.0 and "notes/hooks.py" in rows["s4"]["note"]
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 1 << 20  # KiB: under 1 GiB (the bomb held 3.9 GB)
