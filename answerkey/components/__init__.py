"""Components of a board: split it into independent parts (`split`), solve each (`solve`), count its solutions with the mine count (`count`)."""
