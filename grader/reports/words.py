"""Counted words as a reader writes them: "1 node", "2 nodes"."""

from __future__ import annotations


def plural(count: int, word: str, words: str | None = None) -> str:
    """`count` and `word`, in the plural (`words`, else `word` + "s") unless `count` is 1."""
    return f"{count} {word if count == 1 else (words or word + 's')}"
