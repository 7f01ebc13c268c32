"""Reading YAML from outside the kit within bounds: problem sets, grading.yaml, and a
Gradescope export's `submission_metadata.yml`.

`yaml.safe_load` alone holds gigabytes after minutes on 450 bytes of nested aliases
("billion laughs"), ends in a RecursionError on a value nested 20,000 deep, and raises
ValueError on a 5,000-digit number or a 13th month. Here a PyYAML `SafeLoader` composes
node by node and counts as it goes (`Limits`), so nothing past a bound is ever built:

- the file: at most `bytes` bytes, checked before it is read, and never more read;
- nesting: at most `depth` deep, counted in `compose_node`; a deeper part is passed over
  event by event, never composed;
- anchors and aliases (`&name`, `*name`): with `aliases` 0 (problem files, grading.yaml)
  none at all; otherwise (an export's metadata: Ruby's writer may repeat a shared string
  that way) at most `aliases` aliases, each of a plain value: an alias of a list or mapping,
  the whole of "billion laughs", is refused where it stands;
- every number at most `digits` digits, every text at most `text` characters.

A part past a bound becomes a `_Cut` node where it stood. `parse_yaml`/`read_yaml` refuse
a file holding one (`YamlRefused`, with the field and line); `read_entries` reads a
top-level mapping entry by entry and refuses a faulty entry alone, the others kept.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml
from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, MappingEndEvent, MappingStartEvent, NodeEvent, StreamEndEvent
from yaml.scanner import ScannerError

_NUMBER = re.compile(r"[-+]?[0-9_.]+([eE][-+]?[0-9]+)?")
_NULL = "tag:yaml.org,2002:null"
FIELD_PARTS = 4  # of a refused part's field named in its line


@dataclass(frozen=True)
class Limits:
    """What one file may hold (see the module's docstring)."""

    bytes: int = 1 << 20
    depth: int = 32
    aliases: int = 0
    digits: int = 19  # a 63-bit seed has up to 19
    text: int = 200_000


INSTRUCTOR = Limits()  # problem sets, grading.yaml, and what the kit writes from them (model_nodes.yaml)
EXPORT = Limits(bytes=32 << 20, aliases=10_000, digits=40, text=1 << 20)  # a platform's metadata


class YamlRefused(ValueError):
    """The file breaks one of the bounds, or is not YAML; `line` where known."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message, self.line = message, line


@dataclass(frozen=True)
class MappingEntry:
    """One entry of a top-level mapping: its key and value as read, or `refused` (and the key
    when it could be read)."""

    key: Any
    value: Any
    line: int
    refused: YamlRefused | None = None


class _Cut(yaml.ScalarNode):
    """Where a part past a bound stood: read as null, and refused by whoever reads it."""

    def __init__(self, why: str, event: NodeEvent):
        start: Any = event.start_mark  # PyYAML's marks, of its C or Python parser
        super().__init__(_NULL, "", start, start)
        self.why = why


class _Loader(yaml.SafeLoader):
    """A SafeLoader that counts depth and aliases while it composes, cutting what breaks `limits`."""

    def __init__(self, text: str, limits: Limits):
        super().__init__(text)
        self.limits, self.depth, self.aliases = limits, 0, 0
        self.cut: set[str] = set()  # anchors of parts passed over
        self.possible_simple_keys = OrderedDict()  # by flow level; see next_possible_simple_key

    # PyYAML's scanner looks through every flow level's possible key at each token: on one line
    # of 20,000 `[` that is a minute and more. The keys are saved level after level, each level's
    # after the lower ones' (a level's key goes when the level closes), so the lowest is the
    # nearest and the stale ones come first: the same answers from the front alone.
    def next_possible_simple_key(self) -> int | None:
        for key in self.possible_simple_keys.values():
            return key.token_number
        return None

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        while keys:
            level, key = next(iter(keys.items()))
            if key.line == self.line and self.index - key.index <= 1024:
                return
            if key.required:
                raise ScannerError("while scanning a simple key", key.mark, "could not find expected ':'", self.get_mark())
            del keys[level]

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        event = cast(NodeEvent, self.peek_event())  # a node starts with one
        if isinstance(event, AliasEvent):
            return self._alias(event)
        if event.anchor is not None and not self.limits.aliases:
            return self._cut(f"uses a YAML anchor or alias (&{event.anchor}), which these files do not allow", event)
        if self.depth >= self.limits.depth:
            return self._cut(f"is nested more than {self.limits.depth} levels deep", event)
        self.depth += 1
        try:
            node = cast(yaml.Node, super().compose_node(parent, index))
        finally:
            self.depth -= 1
        return self._bounded(node, event) if isinstance(node, yaml.ScalarNode) else node

    def _alias(self, event: AliasEvent) -> yaml.Node:
        node = self.anchors.get(event.anchor)
        if not self.limits.aliases:
            return self._cut(f"uses a YAML anchor or alias (*{event.anchor}), which these files do not allow", event)
        if event.anchor in self.cut or node is None:
            return self._cut(f"uses an alias (*{event.anchor}) of nothing readable", event)
        if not isinstance(node, yaml.ScalarNode):
            return self._cut(f"uses an alias (*{event.anchor}) of a list or mapping, which this file does not allow", event)
        self.aliases += 1
        if self.aliases > self.limits.aliases:
            return self._cut(f"uses more than {self.limits.aliases} aliases", event)
        self.get_event()
        return node

    def _cut(self, why: str, event: NodeEvent) -> _Cut:
        """Pass over the node starting at `event`, event by event (no node built), and stand in for it."""
        level = 0
        while True:
            passed = self.get_event()
            level += isinstance(passed, CollectionStartEvent) - isinstance(passed, CollectionEndEvent)
            if level == 0:
                break
        if event.anchor is not None and not isinstance(event, AliasEvent):
            self.cut.add(event.anchor)
        return _Cut(why, event)

    def _bounded(self, node: yaml.ScalarNode, event: NodeEvent) -> yaml.Node:
        """`node`, or a cut in its place (its anchor refused too) when its text or number is too long."""
        text, why = str(node.value), None
        if len(text) > self.limits.text:
            why = f"holds a text of {len(text)} characters (at most {self.limits.text})"
        elif node.tag.endswith((":int", ":float")) or (node.style is None and _NUMBER.fullmatch(text)):
            digits = sum(ch.isdigit() for ch in text)
            if digits > self.limits.digits:
                why = f"holds a number of {digits} digits (at most {self.limits.digits})"
        if why is None:
            return node
        if event.anchor is not None:
            self.cut.add(event.anchor)
        return _Cut(why, event)


def _first_cut(root: yaml.Node) -> YamlRefused | None:
    """The first part of `root` cut while composing, named by its field and line, or None."""
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, field = stack.pop()
        if isinstance(node, _Cut):
            named = "".join(field[:FIELD_PARTS]) + ("..." if len(field) > FIELD_PARTS else "")
            return YamlRefused(f"{named.lstrip('.')}: {node.why}" if field else node.why, node.start_mark.line + 1)
        if isinstance(node, yaml.SequenceNode):
            stack += [(child, (*field, f"[{index}]")) for index, child in reversed(list(enumerate(node.value)))]
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                plain = isinstance(key, yaml.ScalarNode) and not isinstance(key, _Cut)
                stack += [(value, (*field, f".{key.value}") if plain else field), (key, field)]
    return None


def _built(loader: _Loader, node: yaml.Node) -> Any:
    """The Python value of `node`; YamlRefused when YAML cannot make one of it (a 13th month)."""
    if cut := _first_cut(node):
        raise cut
    try:
        return loader.construct_document(node)
    except (yaml.YAMLError, ValueError, OverflowError) as error:
        reason = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlRefused(f"holds a value YAML cannot read ({reason})", node.start_mark.line + 1) from None


def read_text(path: Path, limits: Limits = INSTRUCTOR) -> str:
    """The text of `path`, at most `limits.bytes` bytes of UTF-8 (checked before reading, and
    no more read). Raises OSError, UnicodeDecodeError or YamlRefused."""
    refused = YamlRefused(f"is larger than {limits.bytes >> 20} MiB")
    if path.stat().st_size > limits.bytes:
        raise refused
    chunks: list[bytes] = []
    size = 0
    with path.open("rb") as handle:  # by chunks: one read of the bound would take its size at once
        while size <= limits.bytes and (chunk := handle.read(min(1 << 20, limits.bytes + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    if size > limits.bytes:
        raise refused
    return b"".join(chunks).decode("utf-8")


def read_yaml(path: Path, limits: Limits = INSTRUCTOR) -> tuple[Any, yaml.Node | None]:
    """The file's data and its node tree (for line numbers). Raises OSError,
    UnicodeDecodeError or YamlRefused."""
    return parse_yaml(read_text(path, limits), limits)


def parse_yaml(text: str, limits: Limits = INSTRUCTOR) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML text read within `limits`, and its node tree. Raises YamlRefused."""
    if len(text.encode("utf-8")) > limits.bytes:
        raise YamlRefused(f"is larger than {limits.bytes >> 20} MiB")
    loader = _Loader(text, limits)
    try:
        root = loader.get_single_node()
        return (None, None) if root is None else (_built(loader, root), root)
    except yaml.YAMLError as error:
        raise _invalid(error) from None
    finally:
        loader.dispose()


def read_entries(path: Path, limits: Limits = EXPORT) -> list[MappingEntry]:
    """The entries of the top-level mapping of `path`, read one at a time: an entry past a
    bound is refused alone (`MappingEntry.refused`), the others read. Raises OSError,
    UnicodeDecodeError, or YamlRefused when the file as a whole is not a readable mapping."""
    loader = _Loader(read_text(path, limits), limits)
    try:
        loader.get_event()  # the stream's start
        if loader.check_event(StreamEndEvent):
            return []
        loader.get_event()  # the document's start
        if not loader.check_event(MappingStartEvent):
            raise YamlRefused("is not a mapping", loader.peek_event().start_mark.line + 1)
        loader.get_event()
        loader.depth = 1
        entries = []
        while not loader.check_event(MappingEndEvent):
            entries.append(_entry(loader))
        loader.get_event()
        loader.get_event()  # the document's end
        if not loader.check_event(StreamEndEvent):
            raise YamlRefused("holds more than one YAML document", loader.peek_event().start_mark.line + 1)
        return entries
    except yaml.YAMLError as error:
        raise _invalid(error) from None
    finally:
        loader.dispose()


def _entry(loader: _Loader) -> MappingEntry:
    """The next entry of the mapping `loader` is in, composed, checked and built (or refused)."""
    line = loader.peek_event().start_mark.line + 1
    key_node = loader.compose_node(None, None)
    value_node = loader.compose_node(None, None)
    try:
        key = _built(loader, key_node)
    except YamlRefused as refused:
        return MappingEntry(None, None, line, refused)
    try:
        return MappingEntry(key, _built(loader, value_node), line)
    except YamlRefused as refused:
        return MappingEntry(key, None, line, refused)


def _invalid(error: yaml.YAMLError) -> YamlRefused:
    mark = getattr(error, "problem_mark", None)
    reason = getattr(error, "problem", None) or str(error).splitlines()[0]
    return YamlRefused(f"is not valid YAML: {reason}", mark.line + 1 if mark else None)
