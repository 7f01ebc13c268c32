"""Asking student code and scoring its answers: hook cases and their contracts, searches
and their solutions, the SAT exercise, the agent's games, and where a search parts from
the model answer."""
