"""Keeping results: checked JSON files (`files`), the results cache (`results`), and sweeps whose finished
pieces are kept as they come (`sweep`). Nothing here knows what a board is."""
