"""A synthetic Gradescope "Export Submissions" zip of a class, built from tests/student_files,
to grade with `python -m grader problems/ --submissions export.zip --csv grades.csv`.

    python bench/gradescope_export.py --students 40 --out /tmp/export.zip

Student i hands in the i-th file (in name order, round and round) of tests/student_files that
defines a hook, as `hooks.py` of a submission folder; every fifth student also has an earlier
submission (the file before theirs), which the grader must pass over for the later one; the
last two students before the end hand in one submission as a group; the last student's
submission holds no Python file. Names, sids and emails are made up (`Student 07`, `1007`,
`s07@example.edu`); sections alternate A and B. `submission_metadata.yml` is written the
way Gradescope writes it, with keys as Ruby symbols.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import STUDENT_FILES, self_contained  # noqa: E402

from grader.hooktable import SOLVER_HOOK_NAMES  # noqa: E402
from grader.inputs.pyfacts import facts  # noqa: E402

TOP = "assignment_export"
DEADLINE = datetime(2026, 11, 20, 23, 59, tzinfo=UTC)


def hook_files() -> list[str]:
    """The names of tests/student_files that define at least one hook (read, never run)."""
    paths = sorted(STUDENT_FILES.glob("*.py"))
    read = facts(paths, frozenset(SOLVER_HOOK_NAMES))
    return [p.stem for p in paths if read[p].names & set(SOLVER_HOOK_NAMES) and p.stem != "model_answer"]


def person(number: int) -> dict[str, str]:
    return {":name": f"Student {number:02d}", ":sid": f"{1000 + number}", ":email": f"s{number:02d}@example.edu"}


def build(out: Path, students: int) -> dict[str, int]:
    """Write the export zip of `students` students to `out`; counts of what it holds."""
    files = hook_files()
    metadata: dict[str, dict] = {}
    contents: dict[str, str | None] = {}
    submission_id = 100000

    def submit(people: list[dict[str, str]], student_file: str | None, late: int) -> None:
        nonlocal submission_id
        submission_id += 1
        key = f"submission_{submission_id}"
        metadata[key] = {
            ":submitters": people,
            ":created_at": (DEADLINE + timedelta(hours=late)).isoformat(),
            ":score": 0.0,
            ":status": "processed",
            ":history": [],
        }
        contents[key] = student_file

    first = students - 3 if students >= 4 else 0  # the group: this student and the next
    for number in range(1, students + 1):
        index = number - 1
        if first and number == first + 1:
            continue  # handed in with the student before
        people = [person(number)] + ([person(number + 1)] if number == first else [])
        if number == students:
            submit(people, None, 0)
            continue
        if number % 5 == 0:
            submit(people, files[(index - 1) % len(files)], -10 * students)  # an earlier submission, passed over
        submit(people, files[index % len(files)], -number)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{TOP}/submission_metadata.yml", yaml.safe_dump(metadata, sort_keys=False))
        for key, student_file in contents.items():
            archive.writestr(f"{TOP}/{key}/", "")
            if student_file is None:
                archive.writestr(f"{TOP}/{key}/README.txt", "I forgot to attach my file.\n")
            else:
                archive.writestr(f"{TOP}/{key}/hooks.py", self_contained(student_file))
    return {"students": students, "submissions": len(metadata), "distinct files": len({f for f in contents.values() if f})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40, help="students in the class (default 40)")
    parser.add_argument("--out", type=Path, default=Path("gradescope-export.zip"), help="the zip to write")
    args = parser.parse_args()
    counts = build(args.out, args.students)
    print(f"wrote {args.out}: " + ", ".join(f"{value} {name}" for name, value in counts.items()))


if __name__ == "__main__":
    main()
