"""The second round of attacks, through the real CLI under `bwrap` and under `user`: what
the attacker gets, what its neighbours get, and what is left on the machine afterwards.

- hidden boards carried into a visible item's reason (as a clause's "literal");
- a worker's leftovers for the next worker given its user id: a daemon that kills every
  process of that id, System V IPC objects, files in nested world-writable folders;
- resources beyond the worker's own process: children, memory files, busy threads beside
  an honest student graded at the same time, a full /dev/shm;
- an answer that would make the grader's own check quadratic, and wrong answers of tens of kilobytes.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from conftest import EVERY_HOOK_AND_NCTU_1, STUDENT_FILES, Kit, attacker, class_folder, entries, grade, read_rows, running_with

HIDDEN_ROWS = ["1 . . . . 0", ". . . . 1 1", ". 2 2 2 1 .", "3 . 4 . . ."]  # secret-1 and secret-2 of hidden.yaml


def ipc_keys(first: int, count: int) -> list[str]:
    """The System V IPC objects with keys first .. first + count - 1."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            header, *rows = [line.split() for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines() if line.strip()]
        except OSError:
            continue
        key = header.index("key")
        found += [f"{kind} {row[key]}" for row in rows if first <= int(row[key]) < first + count]
    return found


def unique(name: str) -> str:
    """A student name no other process on the machine has in its command line."""
    return f"{name}_{uuid.uuid4().hex[:12]}"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_hidden_boards_never_reach_a_visible_reason(kit: Kit, tmp_path: Path, jobs: str) -> None:
    """The hidden file sorts before the SAT examples; the attacker's clause hooks answer with
    everything they were ever asked, as text. Nothing of it is shown, in any mode."""
    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(STUDENT_FILES / "hidden_set" / "hidden.yaml", problems / "a-hidden.yaml")
    shutil.copyfile(kit.root / "problems" / "sat-examples.yaml", problems / "sat-examples.yaml")
    tag = f"leak-{uuid.uuid4().hex}"
    student = attacker(tmp_path / "s", "hostile_sat_leak", TAG=tag)
    out = tmp_path / "report.json"
    # every item that meets a clause (the CSP hooks' items are the model answer's, with no clause in them)
    clauses = "at_least_clauses,at_most_clauses,sat_encoding,a-hidden,sat-examples"
    result = kit.run(problems, "--solver", student, "--json", out, "--jobs", jobs, "--timeout", "5", "--only", clauses)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    found = entries(report)
    assert "used the literal <text of" in found["at_least_clauses"]["message"], found["at_least_clauses"]
    assert found["sat_encoding"]["score"] == 0 and "used the literal <text of" in found["sat_encoding"]["message"]
    shown = result.stdout + result.stderr + out.read_text(encoding="utf-8")
    assert "LEAK" not in shown
    for row in HIDDEN_ROWS:
        assert row not in shown
    assert not Path(f"/tmp/{tag}").exists()  # its notes: in its private /tmp, or removed after it


def test_what_a_worker_leaves_reaches_no_later_worker(kit: Kit, tmp_path: Path) -> None:
    """A daemon that kills every process of its user id, IPC objects and nested files (the
    first two are refused by the kernel now): the attacker gets what its hooks deserve, the
    students graded after it, one at a time (so the same user ids come back), get full
    marks, and nothing of the attacker is left on the machine."""
    tag, key, student = f"left-{uuid.uuid4().hex}", 0x5EED0000 + uuid.uuid4().int % 0xFFFF * 4, unique("mmm_leftovers")
    folder = class_folder(tmp_path, kit, {student: ("hostile_leftovers", {"TAG": tag, "KEY": str(key)})})
    for name in ("ppp_honest", "qqq_honest", "rrr_honest"):
        attacker(folder, "correct").rename(folder / f"{name}.py")
    grades = tmp_path / "grades.csv"
    # every hook and the SAT item, on one course board: each student's workers start as often as the hooks need
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "1", "--timeout", "3", "--only", EVERY_HOOK_AND_NCTU_1)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = read_rows(grades)
    for name in ("aaa_honest", student, "ppp_honest", "qqq_honest", "rrr_honest", "zzz_honest"):
        assert float(rows[name]["score"]) == float(rows[name]["max_score"]) > 0, rows[name]
    assert running_with(student) == []
    assert ipc_keys(key, 4) == []
    assert [top for top in ("/tmp", "/var/tmp", "/dev/shm") if os.path.lexists(f"{top}/{tag}")] == []


@pytest.mark.parametrize("mode", ["processes", "memfd"])
def test_no_process_and_no_unmapped_memory_beside_the_worker(kit: Kit, tmp_path: Path, mode: str) -> None:
    """Children and memory files would use memory and CPU no reading of the worker counts:
    the kernel refuses them (the worker's seccomp filter), the hook's own error."""
    name = unique("hostile_resources")
    student = attacker(tmp_path / "s", "hostile_resources", MODE=mode).rename(tmp_path / "s" / f"{name}.py")
    report = grade(kit, student, tmp_path / "report.json", "--only", "forward_check,constraint_bounds,select_variable,order_values")
    found = entries(report)
    assert found["forward_check"]["status"] == "fail", found["forward_check"]
    assert "PermissionError: [Errno 1] Operation not permitted" in found["forward_check"]["message"]
    for hook in ("constraint_bounds", "select_variable", "order_values"):
        assert found[hook]["status"] == "pass", found[hook]
    assert running_with(name) == []


def test_a_full_dev_shm_is_the_attackers_own_error(tmp_path: Path) -> None:
    """Under bwrap, /dev/shm is a private tmpfs of 16 MB and the rest of /dev is read-only."""
    kit = Kit("bwrap", Path(__file__).resolve().parents[1])
    student = attacker(tmp_path / "s", "hostile_resources", MODE="shm")
    found = entries(grade(kit, student, tmp_path / "report.json", "--only", "forward_check"))
    assert found["forward_check"]["status"] == "fail" and "No space left on device" in found["forward_check"]["message"]


def test_files_kept_in_memory_count_in_the_workers_memory(kit: Kit, tmp_path: Path) -> None:
    """2.4 GB of files in /dev/shm, each under the file size limit: under user (the
    machine's own tmpfs) they count in the worker's memory (its control group's) and end
    the item; under bwrap the private /dev/shm is full at 16 MB. Nothing of them is left."""
    name = unique("hostile_resources")
    student = attacker(tmp_path / "s", "hostile_resources", MODE="shm files").rename(tmp_path / "s" / f"{name}.py")
    found = entries(grade(kit, student, tmp_path / "report.json", "--only", "forward_check"))  # the hook that writes them
    said = "MB of memory" if kit.mode == "user" else "No space left on device"
    stopped = [item for item in found.values() if said in item["message"]]  # the first worker to write them
    assert stopped and all(item["score"] == 0 for item in stopped), found
    assert [entry for entry in os.listdir("/dev/shm") if entry.startswith(name)] == []


def test_busy_threads_cost_a_neighbour_graded_at_the_same_time_nothing(kit: Kit, tmp_path: Path) -> None:
    busy = unique("aab_busy")
    folder = class_folder(tmp_path, kit, {busy: ("hostile_resources", {"MODE": "busy"})})
    grades = tmp_path / "grades.csv"
    # 1 s of CPU per item: ten times what an honest item takes, and a third of the spinning of --timeout 3
    result = kit.run(kit.course, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    rows = read_rows(grades)
    for honest in ("aaa_honest", "zzz_honest"):
        assert float(rows[honest]["score"]) == float(rows[honest]["max_score"]) > 0, rows[honest]
    assert float(rows[busy]["score"]) < float(rows[busy]["max_score"])  # its time: its own items
    assert "forward_check" in rows[busy]["lost"]
    assert running_with(busy) == []


def test_a_clause_of_twenty_thousand_literals_is_checked_in_linear_time(tmp_path: Path) -> None:
    """The grader's check of a clause is linear in its length: the grading ends (the old
    quadratic check ran for hours on a clause six times as long) and the clause costs the
    SAT items only."""
    kit = Kit("bwrap", Path(__file__).resolve().parents[1])
    student = attacker(tmp_path / "s", "hostile_big_clause")
    found = entries(grade(kit, student, tmp_path / "report.json", "--only", "at_least_clauses,at_most_clauses,sat_encoding,forward_check,nctu-1"))
    for item in ("at_least_clauses", "at_most_clauses", "sat_encoding"):
        assert found[item]["score"] < found[item]["max_score"], found[item]
    assert found["forward_check"]["status"] == "pass" and found["nctu-1"]["status"] == "pass"


def test_huge_wrong_answers_make_small_reports(tmp_path: Path) -> None:
    """Every value quoted in a reason is cut near 200 characters: answers of almost 1 MiB
    leave the terminal, the JSON report, the CSV and the feedback files small."""
    kit = Kit("bwrap", Path(__file__).resolve().parents[1])
    student = attacker(tmp_path / "s", "hostile_huge_answers")
    out = tmp_path / "report.json"
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "5")
    found = entries(json.loads(out.read_text(encoding="utf-8")))
    assert "more]" in found["constraint_bounds"]["message"] and "more" in found["forward_check"]["message"]
    assert all(len(item["message"]) <= 4000 for item in found.values())
    assert len(result.stdout) < 100_000 and out.stat().st_size < 100_000
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(student, folder / "huge.py")
    grades = tmp_path / "grades.csv"
    kit.run(kit.course, "--submissions", folder, "--csv", grades, "--timeout", "5")
    assert grades.stat().st_size < 20_000
    assert all(path.stat().st_size < 100_000 for path in (tmp_path / "grades-feedback").iterdir())
