"""The reference agent: certain moves, exact probabilities, guesses and the endgame, in layers."""
