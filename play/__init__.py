"""The Minesweeper game (seed 003): rules, the reference agent, the terminal UI, the win-rate benchmark."""
