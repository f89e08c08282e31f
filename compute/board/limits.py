"""The limits on a board, in a module of their own so that the command line can state them without loading
the validation machinery."""

MAX_SQUARES = 1000
"""The largest board accepted (with the time estimate of `compute.board.cost`; benchmarks/ times the work there)."""
MAX_DIE = 20
"""The largest die accepted (the die-size experiment goes up to it)."""
MAX_FILE_BYTES = 1_000_000
"""The largest board file read."""
MAX_DICE = 4
"""The most dice a roll may sum (their totals widen every row of the turn matrix)."""
MAX_WEIGHT = 1_000_000
"""The largest weight of one face (the simulation draws a face from their sum in 32 random bits)."""
MAX_ROLL_AGAIN_LIMIT = 20
"""The most extra rolls a roll-again limit may allow (the turn is a sum over that many roll paths)."""
MAX_PLAYERS = 20
"""The most players in a race (a class of 20 playing together): the certified sum costs O(n) a turn and needs
fewer turns as n grows (benchmarks/players.py)."""

RANGES = {
    "squares": f"a board has 2 to {MAX_SQUARES:,} squares",
    "die": f"a die has 1 to {MAX_DIE} faces",
    "dice": f"a roll sums 1 to {MAX_DICE} dice",
    "weights": f"each face weighs 0 to {MAX_WEIGHT:,}",
    "roll_again_limit": f"0 to {MAX_ROLL_AGAIN_LIMIT} extra rolls in one turn",
    "start": "a square from 0, off the board, to the last",
}
"""What each key with a range allows, in words: the end of a message about a value outside it (the command
line's and the design page's)."""
