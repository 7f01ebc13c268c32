"""The model answer's node counts on the public boards, carried by the student copy.

The student copy has no answer key, so `python -m grader release` writes how many nodes
the model answer pops on each public board into `model_nodes.yaml` beside this module,
and the grader reads it where it cannot ask the reference: the efficiency item and the
"(the model answer: N)" of a board's reason. A board is found by its rule, mine count
and rows, so a renamed problem keeps its count and a changed board has none. Node
counts are no answers: a student's report shows them for every visible board anyway.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from grader.inputs.searchanswers import board_key
from grader.inputs.yamlfile import YamlRefused, read_yaml
from solvers.board import Board

NODES_FILE = Path(__file__).with_name("model_nodes.yaml")
__all__ = ["NODES_FILE", "board_key", "shipped_nodes", "write_model_nodes"]
HEADER = "# The model answer's nodes on each public board. Written by `python -m grader release`: do not edit.\n"


def write_model_nodes(path: Path, nodes: dict[str, int]) -> None:
    """Write the node counts (by `board_key`) where `shipped_nodes` reads them."""
    path.write_text(HEADER + yaml.safe_dump({"nodes": nodes}, sort_keys=True, width=1000), encoding="utf-8")


@lru_cache(maxsize=1)
def _stored(path: Path) -> dict[str, int]:
    try:
        data, _ = read_yaml(path)
    except (OSError, UnicodeDecodeError, YamlRefused):
        return {}
    nodes = data.get("nodes") if isinstance(data, dict) else None
    if not isinstance(nodes, dict):
        return {}
    return {str(key): value for key, value in nodes.items() if isinstance(value, int) and not isinstance(value, bool)}


def shipped_nodes(board: Board, path: Path = NODES_FILE) -> int | None:
    """The model answer's nodes on `board` as the student copy carries them, or None."""
    return _stored(path).get(board_key(board))
