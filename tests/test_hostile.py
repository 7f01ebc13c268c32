"""Deliberate attackers against the real grader, under `bwrap` and under `user` isolation.

Each attacker is a real file in tests/student_files/hostile_*.py, graded by the real CLI
in a subprocess. Under `user`, the grader runs from a copy of the kit closed to other
users (as `setup.sh` leaves it on Gradescope); under `bwrap`, from this checkout. Every
attack must cost the attacker's own items only, with one clean reason, and leave no
process and no changed file behind.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import EVERY_HOOK_AND_NCTU_1, STUDENT_FILES, Kit, attacker, class_folder, copy_kit, entries, grade, read_rows, running_with

from grader.hooktable import CSP_HOOKS

ROOT = Path(__file__).resolve().parents[1]
CONTROL = ("\x1b", "\x07", "\x9b", "\\u001b", "\\u0007", "\\u009b", "\\ud800")  # raw, and as JSON writes them


# --- one class run per isolation mode for the attacks that cannot mask each other -------

#: The escape attacker's names in the shared class: a formula for a spreadsheet, and a window title.
ESCAPE_NAMES = ("=cmd|' -C calc'!A0.py", "\x1b]0;title\x07x.py")
FORGERIES = ("deep", "nan", "digits", "huge", "ready-lie")


@dataclass(frozen=True)
class SharedClass:
    """One class graded by the CLI (`--jobs 2`: classmates graded at the same time where the
    isolation allows it): two honest students around a copycat, a tamperer, the five
    forgers, a student that leaves files in shared folders, and the escape attacker twice.
    Each is graded in a process of its own and its test reads its own row or kept report:
    none of them can lend another a grade it checks (the copycat's classmates all have
    hooks of their own that would score, the tamperer's every file is hashed), and an
    effect on a neighbour shows as a wrong grade in that neighbour's test."""

    kit: Kit
    result: subprocess.CompletedProcess[str]
    grades: Path
    left_name: str  # the unique file name the leaver plants
    fingerprints: tuple[dict[str, str], dict[str, str]]  # the kit's files before and after the run

    @property
    def rows(self) -> dict[str, dict[str, str]]:
        return read_rows(self.grades)

    def report(self, student: str) -> dict:
        """The student's report as the run kept it (the --json report's totals and items, outputs included)."""
        kept = json.loads((self.grades.with_name(f"{self.grades.stem}-results") / f"{student}.json").read_text(encoding="utf-8"))
        report = kept["report"]
        assert report is not None and report["isolation"] == self.kit.mode, kept
        items = [{**item, "id": item["name"]} for item in report["items"]]
        row = self.rows[student]
        return {
            "score": float(row["score"]),
            "max_score": float(row["max_score"]),
            "hooks": [i for i in items if i["kind"] == "hook"],
            "problems": [i for i in items if i["kind"] == "problem"],
            "other": [i for i in items if i["kind"] not in ("hook", "problem")],
        }


@pytest.fixture(scope="module")
def shared_class(kit: Kit, tmp_path_factory: pytest.TempPathFactory) -> SharedClass:
    tmp_path = tmp_path_factory.mktemp(f"shared-{kit.mode}")
    name = f"left-{uuid.uuid4().hex}"
    attackers = {
        "mmm_copycat": ("hostile_copycat", {}),
        "mmm_tamperer": ("hostile_tamper", {"KIT": str(kit.root)}),
        **{f"nnn_forges_{forgery}": ("hostile_forges", {"FORGERY": forgery}) for forgery in FORGERIES},
        "ooo_leaves_files": ("hostile_leaves_files", {"NAME": name}),
    }
    folder = class_folder(tmp_path, kit, attackers)
    escapes = attacker(tmp_path / "s", "hostile_escapes")
    for escape_name in ESCAPE_NAMES:
        shutil.copyfile(escapes, folder / escape_name)
    before = kit.fingerprint()
    grades = tmp_path / "grades.csv"
    # every hook and the SAT item, and of the course's boards the one the forgers are read on (the others prove nothing more here)
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "10", "--only", EVERY_HOOK_AND_NCTU_1)
    after = kit.fingerprint()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return SharedClass(kit, result, grades, name, (before, after))


# --- the attacks -------------------------------------------------------------------------


def test_killing_or_freezing_the_parent_costs_only_the_attacker(kit: Kit, tmp_path: Path) -> None:
    folder = class_folder(
        tmp_path, kit, {"mmm_killer": ("hostile_kill_parent", {"SIGNAL": "SIGKILL"}), "nnn_freezer": ("hostile_kill_parent", {"SIGNAL": "SIGSTOP"})}
    )
    grades = tmp_path / "grades.csv"
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    rows = read_rows(grades)
    assert list(rows) == ["aaa_honest", "mmm_killer", "nnn_freezer", "zzz_honest"]
    for honest in ("aaa_honest", "zzz_honest"):
        assert float(rows[honest]["score"]) == float(rows[honest]["max_score"]) > 0, rows[honest]


def test_tampering_with_the_kit_changes_no_file_and_no_other_grade(shared_class: SharedClass) -> None:
    rows = shared_class.rows
    # the tamperer's hooks are correct: it gets what they deserve, and so does every student with correct hooks
    for student in ("aaa_honest", "mmm_tamperer", "ooo_leaves_files", "zzz_honest"):
        assert float(rows[student]["score"]) == float(rows[student]["max_score"]) > 0, rows[student]
    assert shared_class.fingerprints[1] == shared_class.fingerprints[0]


def test_the_answer_key_and_grading_data_are_out_of_reach(kit: Kit, tmp_path: Path) -> None:
    hidden = kit.root / "problems" / "zz-hidden.yaml" if kit.mode == "user" else STUDENT_FILES / "hidden_set" / "hidden.yaml"
    student = attacker(tmp_path / "s", "hostile_reads_answers", KIT=str(kit.root), HIDDEN=str(hidden))
    out = tmp_path / "report.json"
    report = grade(kit, student, out)
    found = entries(report)
    for hook in (spec.name for spec in CSP_HOOKS):
        assert found[hook]["score"] == 0, found[hook]  # it has no hooks unless it reached the reference
    shown = out.read_text(encoding="utf-8") + json.dumps(report)
    assert "READ " not in shown and "two public boards" not in shown


def test_a_classmate_graded_at_the_same_time_cannot_be_copied(shared_class: SharedClass) -> None:
    rows = shared_class.rows
    assert float(rows["mmm_copycat"]["score"]) == 0, rows["mmm_copycat"]
    assert float(rows["zzz_honest"]["score"]) == float(rows["zzz_honest"]["max_score"])


def test_files_left_in_shared_folders_are_removed(shared_class: SharedClass) -> None:
    name = shared_class.left_name
    report = shared_class.report("ooo_leaves_files")
    assert report["score"] == report["max_score"]
    left = [f"{d}/{name}" for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue") if os.path.lexists(f"{d}/{name}")]
    assert left == []


@pytest.mark.parametrize(
    "forgery, words",
    [
        ("deep", "nested more than"),
        ("nan", "non-finite"),
        ("digits", "4000 digits"),
        ("huge", "over 1048576 bytes"),
        ("ready-lie", "unknown kind"),
    ],
)
def test_forged_answers_cost_one_item_with_a_clear_reason(shared_class: SharedClass, forgery: str, words: str) -> None:
    report = shared_class.report(f"nnn_forges_{forgery}")
    found = entries(report)
    assert found["constraint_bounds"]["status"] == "error" and words in found["constraint_bounds"]["message"]
    assert found["forward_check"]["status"] == "pass" and found["nctu-1"]["status"] == "pass"


def test_escape_sequences_never_reach_a_terminal_a_report_or_a_spreadsheet(kit: Kit, tmp_path: Path, shared_class: SharedClass) -> None:
    student = attacker(tmp_path / "s", "hostile_escapes")
    out = tmp_path / "report.json"
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "3")
    report = json.loads(out.read_text(encoding="utf-8"))
    found = entries(report)
    assert found["order_values"]["status"] == "fail" and "ValueError" in found["order_values"]["message"]
    assert "surrogate" in found["constraint_bounds"]["message"]
    assert "not an unassigned variable" in found["nctu-1"]["message"]
    for text in (result.stdout, result.stderr, out.read_text(encoding="utf-8")):
        assert not any(c in text for c in CONTROL), repr(text[:500])
    batch, grades = shared_class.result, shared_class.grades  # the same attacker twice, in the shared class, by these names
    assert not any(c in batch.stdout + grades.read_text(encoding="utf-8") for c in CONTROL)
    assert "'=cmd|' -C calc'!A0" in read_rows(grades)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_the_grader_leaves_no_process_behind(kit: Kit, tmp_path: Path, how: signal.Signals) -> None:
    """A batch stopped while a student's hook loops: SIGTERM writes the CSV (every student
    graded or marked not graded) and exits with 128 + 15; with SIGTERM or SIGKILL, no
    process of the grading is left."""
    looper = f"mmm_loops_{uuid.uuid4().hex[:12]}"  # in its worker's command line: unique on this machine
    folder = class_folder(tmp_path, kit, {looper: ("loop_bounds", {})})
    grades = tmp_path / "g.csv"
    grader = subprocess.Popen(
        kit.command(kit.course, "--submissions", folder, "--csv", grades, "--timeout", "60", "--jobs", "2"),
        cwd=kit.root,
        env=kit.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not running_with(looper) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running_with(looper), "the looping student's worker never started"
        time.sleep(1.0)  # into its endless loop
        grader.send_signal(how)
        output, _ = grader.communicate(timeout=30)
        if how == signal.SIGTERM:
            assert grader.returncode == 128 + signal.SIGTERM, output
            assert "interrupted (SIGTERM)" in output and "Traceback" not in output
            rows = read_rows(grades)
            assert list(rows) == ["aaa_honest", looper, "zzz_honest"]
            assert rows[looper]["score"] == "" and rows[looper]["note"] == "not graded: the run was interrupted"
            assert all(row["score"] == row["max_score"] or row["note"] == "not graded: the run was interrupted" for row in rows.values()), rows
        deadline = time.monotonic() + 10
        while running_with(looper) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running_with(looper) == [], "the looping student's processes outlived the grader"
    finally:
        grader.kill()
        for pid in running_with(looper):
            os.kill(pid, signal.SIGKILL)


def test_a_class_is_never_graded_without_isolation_unless_asked(tmp_path: Path) -> None:
    """With no bubblewrap on the PATH and a kit anyone can read, auto has only `none` left:
    a class is refused with one line; `--isolation none` grades it, with a warning."""
    open_kit = Path(tempfile.mkdtemp(prefix="open-kit-", dir="/tmp"))
    try:
        os.chmod(open_kit, 0o755)
        copy_kit(open_kit)
        folder = tmp_path / "class"
        attacker(folder, "correct")
        env = {**Kit("auto", open_kit).env(), "PATH": str(tmp_path / "no-tools")}
        command = [
            sys.executable,
            "-m",
            "grader",
            str(open_kit / "problems" / "course.yaml"),
            "--submissions",
            str(folder),
            "--csv",
            str(tmp_path / "g.csv"),
        ]
        refused = subprocess.run(command, cwd=open_kit, env=env, capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2 and "no isolation is available" in refused.stdout, refused.stdout + refused.stderr
        assert "Traceback" not in refused.stdout + refused.stderr and not (tmp_path / "g.csv").exists()
        asked = subprocess.run([*command, "--isolation", "none"], cwd=open_kit, env=env, capture_output=True, text=True, timeout=120)
        assert asked.returncode == 0 and "warning: with --isolation none" in asked.stdout, asked.stdout + asked.stderr
        assert (tmp_path / "g.csv").exists()
    finally:
        shutil.rmtree(open_kit, ignore_errors=True)
