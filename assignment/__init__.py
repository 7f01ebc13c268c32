"""The student's part of the kit: the search hooks in `hooks.py`, described in HANDOUT.md."""
