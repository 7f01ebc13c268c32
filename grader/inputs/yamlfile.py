"""Reading an instructor's YAML file (problem sets, grading.yaml) within bounds.

`yaml.safe_load` alone takes minutes and gigabytes on 400 bytes of nested aliases, and
a traceback on deep nesting or a 5,000-digit number. Here the document is composed into
nodes first (cheap: an alias is one shared node), checked, and only then turned into
Python values:

- at most `MAX_BYTES` bytes of UTF-8;
- no anchors or aliases (`&name`, `*name`): problem files have no use for them;
- nesting at most `MAX_DEPTH` deep;
- every number at most `MAX_DIGITS` digits, every text at most `MAX_TEXT` characters.

A violation is one `YamlRefused` naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 1 << 20
MAX_DEPTH = 32
MAX_DIGITS = 19  # a 63-bit seed has up to 19
MAX_TEXT = 200_000
_NUMBER = re.compile(r"[-+]?[0-9_.]+([eE][-+]?[0-9]+)?")


class YamlRefused(ValueError):
    """The file breaks one of the bounds, or is not YAML; `line` where known."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message, self.line = message, line


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _check(root: yaml.Node) -> None:
    """Walk the node graph once: no node twice (an alias), no depth or size past the bounds."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or getattr(node, "anchor", None):
            raise YamlRefused("uses a YAML anchor or alias (& or *), which these files do not allow", _line(node))
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise YamlRefused(f"is nested more than {MAX_DEPTH} levels deep", _line(node))
        if isinstance(node, yaml.ScalarNode):
            text = str(node.value)
            if len(text) > MAX_TEXT:
                raise YamlRefused(f"holds a text of {len(text)} characters (at most {MAX_TEXT})", _line(node))
            if node.tag.endswith((":int", ":float")) or (node.style is None and _NUMBER.fullmatch(text)):
                digits = sum(ch.isdigit() for ch in text)
                if digits > MAX_DIGITS:
                    raise YamlRefused(f"holds a number of {digits} digits (at most {MAX_DIGITS})", _line(node))
        elif isinstance(node, yaml.SequenceNode):
            stack += [(child, depth + 1) for child in node.value]
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack += [(key, depth + 1), (value, depth + 1)]


def read_yaml(path: Path) -> tuple[Any, yaml.Node | None]:
    """The file's data and its node tree (for line numbers). Raises OSError,
    UnicodeDecodeError or YamlRefused."""
    if path.stat().st_size > MAX_BYTES:
        raise YamlRefused(f"is larger than {MAX_BYTES >> 20} MiB")
    return parse_yaml(path.read_text(encoding="utf-8"))


def parse_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML text read within the bounds, and its node tree. Raises YamlRefused."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise YamlRefused(f"is larger than {MAX_BYTES >> 20} MiB")
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check(root)
        return loader.construct_document(root), root
    except RecursionError:
        raise YamlRefused(f"is nested more than {MAX_DEPTH} levels deep") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        reason = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlRefused(f"is not valid YAML: {reason}", mark.line + 1 if mark else None) from None
    finally:
        loader.dispose()
