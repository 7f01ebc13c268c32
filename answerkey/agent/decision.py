"""What the agent hands back: a move with the layer that chose it and the reason, in words."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from play.view import Move
from solvers.board import Cell, cell_name

Layer = Literal["first", "single", "subset", "count", "guess", "endgame"]

LAYER_NAMES: dict[str, str] = {
    "first": "first click",
    "single": "(a) single clue",
    "subset": "(b) subset of two clues",
    "count": "(c) exact count",
    "guess": "(d) safest guess",
    "endgame": "(d) endgame lookahead",
}


@dataclass(frozen=True)
class Decision:
    """A move, the layer that chose it, why (in words) and the cell's mine probability when counted."""

    move: Move
    layer: Layer
    reason: str
    probability: Fraction | None = None

    @property
    def certain(self) -> bool:
        return self.layer in ("single", "subset", "count")

    def __str__(self) -> str:
        return f"{self.move}: {LAYER_NAMES[self.layer]}: {self.reason}"


def place(cell: Cell) -> str:
    return cell_name(cell)


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
