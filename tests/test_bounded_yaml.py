"""What the grader reads from outside is bounded, and one bad part costs one line: YAML
(problem files, grading.yaml, a Gradescope export's metadata) read by `grader.inputs.yamlfile`,
and export zips unpacked by `grader.inputs.exports`. Hostile inputs beside honest ones, which
read exactly as `yaml.safe_load` reads them."""

from __future__ import annotations

import tracemalloc
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import python_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.commands.batch import find_submissions
from grader.commands.similarity import submission_files
from grader.inputs import exports
from grader.inputs.exports import METADATA, read_export
from grader.inputs.yamlfile import EXPORT, INSTRUCTOR, YamlRefused, _Loader, parse_yaml, read_entries, read_yaml
from grader.sandbox.isolation import SUBMISSION_BYTES

ROOT = Path(__file__).resolve().parents[1]
DEEP = 20_000


def laughs(levels: int = 9, indent: str = "") -> str:
    """Billion laughs: `a{levels-1}` expands to 9**levels strings."""
    lines = [f'{indent}a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def entry(key: str, name: str, sid: str) -> str:
    """One submission of Gradescope's metadata, as Gradescope writes it."""
    return (
        f"{key}:\n  :submitters:\n  - :name: {name}\n    :sid: '{sid}'\n    :email: {sid}@x.edu\n"
        "  :created_at: 2026-11-01 10:00:00.000000000 Z\n  :score: 0.0\n  :status: processed\n"
        "  :results:\n    score: 0.0\n    tests: []\n    extra_data: \n  :history: []\n"
    )


def line_of(text: str, start: str) -> int:
    """The line (from 1) of `text` that starts with `start`."""
    return next(number for number, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def peak_mb(read: Callable[[], Any]) -> float:
    """The most memory (MB) Python held at once while `read` ran."""
    tracemalloc.start()
    try:
        read()
    except YamlRefused:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / 1e6


def refused(read: Callable[[], Any]) -> YamlRefused:
    with pytest.raises(YamlRefused) as caught:
        read()
    return caught.value


# --- honest files read as before ---------------------------------------------------------


def test_the_kits_yaml_files_read_exactly_as_safe_load_reads_them() -> None:
    files = [*ROOT.glob("problems/*.yaml"), *ROOT.glob("grader/scoring/*.yaml")]
    assert len(files) >= 6
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert parse_yaml(text, EXPORT if path.parent.name == "scoring" else INSTRUCTOR)[0] == yaml.safe_load(text), path


def test_an_honest_metadata_reads_entry_by_entry_as_safe_load_reads_it(tmp_path: Path) -> None:
    path = tmp_path / METADATA
    text = "---\n" + entry("submission_1", "Ada Lovelace", "01") + entry("submission_2", "'Bo: Li'", "02")
    text += "submission_3:\n  :submitters:\n  - :name: &1 Cy\n    :sid: *1\n  :history: []\n"  # Ruby's writer shares a string so
    path.write_text(text, encoding="utf-8")
    read = read_entries(path)
    assert all(item.refused is None for item in read)
    assert {item.key: item.value for item in read} == yaml.safe_load(text)
    assert [item.line for item in read] == [line_of(text, f"submission_{n}:") for n in (1, 2, 3)]


nested = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=40,
)


@pytest.mark.slow  # a differential test: a few seconds of CPU
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=nested, flow=st.sampled_from([None, True, False]), width=st.sampled_from([20, 80, 100_000]))
def test_any_data_within_the_bounds_reads_as_safe_load_reads_it(data: Any, flow: bool | None, width: int) -> None:
    """The loader's own scanner bookkeeping (one line of many `[` stays linear) gives the same
    events as PyYAML's on data written every way: flow, block, long and wrapped lines."""
    text = yaml.safe_dump({"data": data}, default_flow_style=flow, width=width)
    assert parse_yaml(text, EXPORT)[0] == yaml.safe_load(text)
    ours, theirs = _Loader(text, EXPORT), yaml.SafeLoader(text)
    while theirs.check_event():
        assert repr(ours.get_event()) == repr(theirs.get_event())
    assert not ours.check_event()


@pytest.mark.parametrize(
    "text",
    ["{[a, b]: c, d: [e: f, {g: h}]}\n", "a: [b, {c: d}, [e]]\n? [x]\n: y\n", "a\nb: c\n", "a: [b\n, c]\n", "- [[[[[[[a: b]]]]]]]\n"],
)
def test_simple_keys_in_flow_and_their_errors_are_pyyamls(text: str) -> None:
    def events(loader: yaml.SafeLoader) -> list[str]:
        try:
            return [repr(loader.get_event()) for _ in iter(loader.check_event, False)]
        except yaml.YAMLError as error:
            return [str(error)]

    assert events(_Loader(text, EXPORT)) == events(yaml.SafeLoader(text))


# --- hostile YAML: refused by structure, where it stands ------------------------------------


@pytest.mark.slow  # seconds of CPU: 80,000 events read, twice under tracemalloc
def test_a_value_nested_20000_deep_is_refused_with_its_field_and_line_and_little_memory() -> None:
    for text in ("a: 1\nproblems: " + "[" * DEEP + "]" * DEEP + "\n", "a: 1\nproblems: " + "{a: " * DEEP + "}" * DEEP + "\n"):
        error = refused(lambda: parse_yaml(text))  # noqa: B023
        assert error.line == 2 and "problems" in error.message and "nested more than 32 levels deep" in error.message
        assert peak_mb(lambda: parse_yaml(text)) < 20  # noqa: B023  no node past the 32nd level is built
    block = "a:\n" + "".join(" " * level + "- \n" for level in range(1, 200))  # block lists 200 deep
    assert "nested more than 32" in refused(lambda: parse_yaml(block)).message


def test_billion_laughs_is_refused_at_its_first_alias_and_never_expands(tmp_path: Path) -> None:
    bomb = laughs() + "problems: *a8\n"
    assert "anchor or alias" in refused(lambda: parse_yaml(bomb)).message  # problem files, grading.yaml: none at all
    path = tmp_path / METADATA
    path.write_text(laughs() + "submission_1:\n  :submitters:\n  - :name: *a8\n" + entry("submission_2", "Bo", "02"), encoding="utf-8")
    read = {item.key: item for item in read_entries(path)}
    assert read["submission_2"].refused is None and read["a0"].refused is None
    cut = read["submission_1"].refused
    assert (
        cut is not None
        and cut.line == line_of(path.read_text(), "  - :name: *a8")
        and cut.message.startswith(":submitters[0].:name: uses an alias (*a8) of a list or mapping")
    )
    assert all(read[f"a{i}"].refused is not None for i in range(1, 9))
    assert peak_mb(lambda: read_entries(path)) < 5  # nothing expanded: 9**9 strings would be gigabytes


def test_aliases_of_plain_values_are_counted(tmp_path: Path) -> None:
    path = tmp_path / METADATA
    many = "".join("  - *x\n" for _ in range(EXPORT.aliases + 1))
    path.write_text(f"a: &x plain\nb:\n{many}c: 1\n", encoding="utf-8")
    read = {item.key: item for item in read_entries(path)}
    assert read["a"].value == "plain" and read["c"].value == 1
    assert read["b"].refused is not None and f"more than {EXPORT.aliases} aliases" in read["b"].refused.message


def test_a_file_past_its_size_is_refused_before_it_is_read(tmp_path: Path) -> None:
    sparse = tmp_path / METADATA
    with sparse.open("wb") as handle:
        handle.truncate(EXPORT.bytes + 1)  # no byte written: a read would take seconds
    assert "larger than 32 MiB" in refused(lambda: read_entries(sparse)).message
    endless = tmp_path / "endless.yaml"
    endless.symlink_to("/dev/zero")  # its size says 0: the read stops at the bound all the same
    assert "larger than 1 MiB" in refused(lambda: read_yaml(endless)).message


@pytest.mark.parametrize(
    "bad, words",
    [
        ("  :created_at: 2026-13-45 10:00:00 Z\n", "month must be in 1..12"),
        ("  :score: " + "9" * 5000 + "\n", "5000 digits"),
        ("  :notes: " + "y" * (EXPORT.text + 1) + "\n", "characters"),
        ("  :notes: !!python/object:os.system x\n", "could not determine a constructor"),
        ("  :notes: &y [1]\n  :again: *y\n", "alias (*y) of a list"),
    ],
)
def test_an_unreadable_entry_is_refused_alone(tmp_path: Path, bad: str, words: str) -> None:
    path = tmp_path / METADATA
    path.write_text(entry("submission_1", "Ada", "01") + "submission_2:\n" + bad + entry("submission_3", "Cy", "03"), encoding="utf-8")
    read = {item.key: item for item in read_entries(path)}
    assert read["submission_1"].refused is None and read["submission_3"].refused is None
    cut = read["submission_2"].refused
    assert cut is not None and words in cut.message and cut.line == line_of(path.read_text(), bad.splitlines()[-1]), cut


# --- exports: a bad entry or member costs its own submission ---------------------------------


def gradescope(path: Path, metadata: str, members: Mapping[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"export/{METADATA}", metadata)
        for name, text in members.items():
            archive.writestr(f"export/{name}", text)
    return path


def test_a_deep_or_aliased_metadata_entry_is_one_line_and_the_class_is_read(tmp_path: Path) -> None:
    deep = "submission_2:\n  :submitters:\n  - :name: " + "[" * DEEP + "]" * DEEP + "\n"
    bomb = "submission_3:\n  :results:\n" + laughs(indent="    ") + "  :submitters:\n  - :name: *a8\n"
    metadata = entry("submission_1", "Ada", "01") + deep + bomb + entry("submission_4", "Di", "04")
    members = {f"submission_{n}/hooks.py": "x = 1\n" for n in range(1, 5)}
    export = read_export(gradescope(tmp_path / "e.zip", metadata, members), tmp_path / "scratch")
    assert export.entries is not None and [(e.student, e.folder is not None) for e in export.entries] == [("01", True), ("04", True)]
    assert len(export.notes) == 2, export.notes
    line = line_of(metadata, "  - :name: [")
    assert f"submission_2 (line {line}): :submitters[0].:name[0]...: is nested more than 32 levels deep: not graded" in export.notes[0]
    assert "submission_3" in export.notes[1] and "alias (*a0) of a list or mapping" in export.notes[1]


def test_a_file_and_a_folder_of_one_name_refuse_that_submission_alone(tmp_path: Path) -> None:
    metadata = entry("submission_1", "Ada", "01") + entry("submission_2", "Bo", "02")
    members = {
        "submission_1/hooks.py": "x = 1\n",
        "submission_2/notes": "n",
        "submission_2/notes/hooks.py": "x = 2\n",
        "submission_2/hooks.py": "x = 3\n",
    }
    export = read_export(gradescope(tmp_path / "e.zip", metadata, members), tmp_path / "scratch")
    assert export.notes == []
    assert export.entries is not None
    ada, bo = export.entries
    assert ada.folder is not None and (ada.folder / "hooks.py").read_text() == "x = 1\n"
    assert bo.folder is None and "submission_2/notes/hooks.py lies in export/submission_2/notes, also a file" in bo.problem
    assert not (tmp_path / "scratch" / "unpacked" / "export" / "submission_2").exists()  # nothing of it is left to grade


def symlink(archive: zipfile.ZipFile, name: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = (0o120777) << 16
    archive.writestr(info, "/etc/passwd")


def twice(archive: zipfile.ZipFile, folder: str) -> None:
    archive.writestr(f"{folder}/hooks.py", "x = 1\n")
    archive.writestr(f"{folder}/hooks.py", "x = 2\n")


def folder_then_file(archive: zipfile.ZipFile, folder: str) -> None:
    archive.writestr(f"{folder}/a/b.py", "")
    archive.writestr(f"{folder}/a", "")


ODD: dict[str, Callable[[zipfile.ZipFile, str], None]] = {
    "twice": twice,
    "a folder then a file": folder_then_file,
    "climbing out": lambda z, d: z.writestr(f"{d}/../../evil.py", ""),
    "a link": lambda z, d: symlink(z, f"{d}/hooks.py"),
    "too large": lambda z, d: z.writestr(f"{d}/big.py", b"0" * (SUBMISSION_BYTES + 1)),
    "a name too long": lambda z, d: z.writestr(f"{d}/{'n' * 300}.py", ""),
}


@pytest.mark.filterwarnings("ignore:Duplicate name")  # zipfile's, writing the duplicate on purpose
@pytest.mark.parametrize("odd", sorted(ODD))
def test_each_odd_member_refuses_its_own_submission_in_every_layout(tmp_path: Path, odd: str) -> None:
    plain = tmp_path / "plain.zip"  # a zipped class folder: one folder per student
    with zipfile.ZipFile(plain, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("class/ana/hooks.py", "x = 1\n")
        ODD[odd](archive, "class/bob")
        archive.writestr("class/cyd.py", "x = 1\n")
    export = read_export(plain, tmp_path / "plain")
    found = find_submissions(export.folder, export)
    assert [(s.student, s.refused, s.hooks is not None) for s in found] == [("ana", False, True), ("bob", True, False), ("cyd", False, True)]
    assert found[1].problem.startswith("not graded: the export's member class/bob/")
    assert export.notes == ["plain.zip: a zip of an unknown layout: read as a folder of submissions"]
    compared, left_out = submission_files(export.folder, export.refused)  # what `similarity` compares
    assert sorted(compared) == ["ana", "cyd"] and len(left_out) == 1 and left_out[0].startswith("bob: the export's member class/bob/")

    download = tmp_path / "pl.zip"  # PrairieLearn's flat files
    with zipfile.ZipFile(download, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("HW1/ana@x.edu_1_csp_1_1_9001_hooks.py", "x = 1\n")
        archive.writestr("HW1/bob@x.edu_1_csp_1_1_9002_hooks.py", "x = 1\n")
        ODD[odd](archive, "HW1/bob@x.edu_1_csp_1_2_9003_notes")
    export = read_export(download, tmp_path / "pl")
    assert export.entries is not None and [(e.student, e.folder is not None) for e in export.entries] == [("ana@x.edu", True), ("bob@x.edu", False)]
    assert export.notes == [] and export.entries[1].problem.startswith("not graded: the export's member HW1/bob@x.edu_1_csp_1_2_9003_notes")


def test_members_past_the_count_refuse_the_submissions_they_lie_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exports, "ZIP_MEMBERS", 3)
    metadata = "".join(entry(f"submission_{n}", f"S{n}", f"0{n}") for n in range(1, 4))
    members = {"submission_1/hooks.py": "", "submission_2/hooks.py": "", "submission_2/more.py": "", "submission_3/hooks.py": ""}
    export = read_export(gradescope(tmp_path / "e.zip", metadata, members), tmp_path / "scratch")  # the metadata is the first member
    assert export.entries is not None and [e.folder is not None for e in export.entries] == [True, False, False]
    assert "submission_2/more.py lies past the export's first 3 members" in export.entries[1].problem


def test_a_member_outside_every_submission_is_one_line_and_the_class_is_read(tmp_path: Path) -> None:
    metadata = entry("submission_1", "Ada", "01")
    path = gradescope(tmp_path / "e.zip", metadata, {"submission_1/hooks.py": "x = 1\n"})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("/etc/evil.py", "")
        archive.writestr("export/../../evil.py", "")
    export = read_export(path, tmp_path / "scratch")
    assert export.entries is not None and export.entries[0].folder is not None
    assert len(export.notes) == 2 and all("points outside the export: not unpacked" in note for note in export.notes)
    assert not (tmp_path / "evil.py").exists()


# --- one reader --------------------------------------------------------------------------

#: PyYAML's loaders, which read without bounds.
LOADERS = {"load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all", "compose", "parse", "SafeLoader", "CSafeLoader", "Loader"}
#: Who may name them: the bounded reader, and the reader of the kit's own hook cases (written by
#: `python -m grader goldens`, never by a user).
OWN = {"grader/inputs/yamlfile.py", "grader/scoring/case.py"}


def test_every_yaml_from_outside_goes_through_the_bounded_reader() -> None:
    import ast

    named = []
    for path in sorted(p for room in ("grader", "answerkey", "play", "solvers", "assignment", "bench") for p in (ROOT / room).rglob("*.py")):
        for node in ast.walk(python_tree(path)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "yaml" and node.attr in LOADERS:
                named.append(str(path.relative_to(ROOT)))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("yaml") and {a.name for a in node.names} & LOADERS:
                named.append(str(path.relative_to(ROOT)))
    assert set(named) <= OWN, sorted(set(named) - OWN)
    assert "grader/inputs/yamlfile.py" in named  # the test sees what it looks for
