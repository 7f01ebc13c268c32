"""The private seeds of the instructor's grading.yaml: `hook_seed` (the graded hook cases
are built from it) and `agent.seed` (the agent's games are derived from it).

`python -m grader release` writes the missing ones, random, into grading.yaml (creating
it when absent): `hook_seed` on a line appended to the file, `agent.seed` on a line
inserted at the top of the agent section, each with a comment, every other byte of the
file kept. The new text must read back as the old settings plus the seeds, or nothing is
written and SeedError says what to add by hand.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import yaml

from grader.inputs.config import ConfigError, GradingConfig, parse_config
from grader.inputs.yamlfile import YamlRefused, parse_yaml

SEED_BITS = 63
HOOK_SEED, AGENT_SEED = "hook_seed", "agent.seed"
WRITTEN_BY = "written by `python -m grader release`; private: never show it to students"
NEW_CONFIG = "# The grading config: problems/README.md explains every setting.\n"
RANDOM_SEED = "python3 -c 'import secrets; print(secrets.randbits(63))'"


#: What each seed makes private, and what grading without it gives away.
MAKES_PRIVATE = {HOOK_SEED: "the graded hook cases", AGENT_SEED: "the agent's graded games"}
WITHOUT = {
    HOOK_SEED: "without hook_seed the hooks are graded on the public cases, whose answers every student has",
    AGENT_SEED: "without agent.seed the agent plays the public default games (seeds 0, 1, ...), the same at "
    "every run, which every student can replay",
}


def written(names: list[str], path: Path) -> str:
    """The line that tells the instructor which seeds were written where."""
    source = "it" if len(names) == 1 else "them"
    return (
        f"wrote a private {' and '.join(names)} into {path}: {' and '.join(MAKES_PRIVATE[n] for n in names)} "
        f"come from {source}, not from anything students have; keep that file private"
    )


class SeedError(ValueError):
    """grading.yaml cannot be given its seeds safely (the message says what to do)."""


def missing_seeds(config: GradingConfig) -> list[str]:
    """The private seeds `config` lacks: hook_seed, and agent.seed when it grades an agent."""
    missing = [HOOK_SEED] if config.hook_seed is None else []
    return missing + ([AGENT_SEED] if config.agent is not None and config.agent.seed is None else [])


def write_seeds(path: Path) -> list[str]:
    """Give the grading config at `path` (created when absent) a random value for every
    private seed it lacks; the names of the seeds written."""
    text = path.read_bytes().decode("utf-8") if path.exists() else NEW_CONFIG  # bytes: line endings kept as they are
    data, root, config = _read(text, path)
    seeds = {name: secrets.randbits(SEED_BITS) for name in missing_seeds(config)}
    if not seeds:
        return []
    if any(_has_key(data or {}, name) for name in seeds):  # `hook_seed:` with no value: a second one would be a duplicate
        raise SeedError(_by_hand(path, list(seeds)))
    seeded = text
    if AGENT_SEED in seeds:
        seeded = _with_agent_seed(seeded, root, seeds[AGENT_SEED], path)
    if HOOK_SEED in seeds:
        seeded = _with_hook_seed(seeded, seeds[HOOK_SEED])
    if not _reads_as(seeded, _expected(data, seeds)):
        raise SeedError(_by_hand(path, list(seeds)))
    if not path.exists():
        path.touch(mode=0o600)  # it holds private seeds: closed to other users from the start
    path.write_bytes(seeded.encode("utf-8"))
    return list(seeds)


def _read(text: str, path: Path) -> tuple[Any, yaml.Node | None, GradingConfig]:
    """The data, node tree and settings of a grading config's text; SeedError when it is not a good one."""
    try:
        data, root = parse_yaml(text)
        return data, root, parse_config(data)
    except (YamlRefused, ConfigError) as error:
        raise SeedError(f"{path}: fix it first: {error}") from None


def _reads_as(text: str, expected: dict[str, Any]) -> bool:
    """Whether `text` reads as the settings `expected`."""
    try:
        return parse_yaml(text)[0] == expected
    except YamlRefused:
        return False


def _has_key(data: Any, name: str) -> bool:
    """Whether the seed `name` (missing: without a value) is a key of `data` all the same."""
    if name == HOOK_SEED:
        return HOOK_SEED in data
    return "seed" in data["agent"]


def _with_hook_seed(text: str, seed: int) -> str:
    """`text` with a hook_seed line (and its comment) appended."""
    newline = "\r\n" if "\r\n" in text else "\n"
    ending = "" if not text or text.endswith("\n") else newline
    return f"{text}{ending}# hook_seed: {WRITTEN_BY}{newline}{HOOK_SEED}: {seed}{newline}"


def _with_agent_seed(text: str, root: yaml.Node | None, seed: int, path: Path) -> str:
    """`text` with a `seed:` line inserted above the first setting of its agent section,
    at that setting's indentation."""
    section = _agent_section(root)
    if section is None:
        raise SeedError(_by_hand(path, [AGENT_SEED]))
    first = section.value[0][0].start_mark
    lines = text.split("\n")  # as YAML counts them (a text it counts otherwise fails the check that follows)
    carriage = "\r" if "\r\n" in text else ""
    lines.insert(first.line, f"{' ' * first.column}seed: {seed}  # {WRITTEN_BY}{carriage}")
    return "\n".join(lines)


def _agent_section(root: yaml.Node | None) -> yaml.MappingNode | None:
    """The agent section's node when it is a block of `key: value` lines, else None."""
    if not isinstance(root, yaml.MappingNode):
        return None
    section = next((value for key, value in root.value if isinstance(key, yaml.ScalarNode) and key.value == "agent"), None)
    if isinstance(section, yaml.MappingNode) and not section.flow_style and section.value:
        return section
    return None


def _expected(data: Any, seeds: dict[str, int]) -> dict[str, Any]:
    """The settings `data` plus `seeds`, as the seeded file must read."""
    expected = dict(data or {})
    if HOOK_SEED in seeds:
        expected[HOOK_SEED] = seeds[HOOK_SEED]
    if AGENT_SEED in seeds:
        expected["agent"] = {**expected["agent"], "seed": seeds[AGENT_SEED]}
    return expected


def _by_hand(path: Path, names: list[str]) -> str:
    """The line that asks the instructor to add `names` to `path` themselves."""
    where = {HOOK_SEED: "`hook_seed: N` at the top level", AGENT_SEED: "`seed: N` under `agent:`"}
    return (
        f"{path}: cannot add {' and '.join(names)} without changing what the file says; add "
        f"{' and '.join(where[name] for name in names)} yourself (N: a private whole number, e.g. from {RANDOM_SEED})"
    )
