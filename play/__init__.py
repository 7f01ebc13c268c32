"""The Minesweeper game: rules, the reference agent, the terminal UI, the win-rate benchmark."""
