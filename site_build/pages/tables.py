"""The numbers behind each chart as an HTML table: the text alternative shown behind a toggle.

Values are only formatted here (they come from the cached JSON). The biggest charts get a summary
table and a pointer to the full data on the data page, to keep pages light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .figures import flip_rolls, later_words
from .words import PageWords, plain

_EN = PageWords()  # the tables' English until they are given the page's language

if TYPE_CHECKING:
    from ...compute.record.schema import BoardDefinition, BoardRecord, Experiments, LengthSeries


def html_table(headers: list[str], rows: list[list[Any]], caption: str) -> str:
    """A plain accessible table (caption, header cells with scope)."""
    head = "".join(f'<th scope="col">{plain(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{plain(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<table class="chart-table" tabindex="0"><caption>{plain(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _squares_table(board: BoardDefinition, values: list[float | None], header: str, caption: str) -> str:
    rows = []
    for square in range(1, board.squares + 1):
        value = values[square] if square < len(values) else None
        rows.append([square, "—" if value is None else _EN.rounded(value, 2)])
    return html_table(["Square", header], rows, caption)


def _state_map_note(mapped: int, turn_states: int) -> str:
    """Where the rest of the state map is: the JSON when it holds every square, else only the calculator
    (a big board's map, and its JSON, keep an evenly spaced sample of the squares)."""
    if mapped < turn_states:
        return (f"(the {mapped:,} evenly spaced squares of the map, of the {turn_states:,} where a turn can start; "
                "the calculator below gives any other square)")
    return "(the full table is in the JSON on the data page)"


def board_tables(record: BoardRecord, experiments: Experiments | None, names: list[str]) -> dict[str, str]:
    """A table for each named chart of a board page; `experiments`: the record's, where it has them (None where
    it says why not)."""
    r = record
    board = r.results.board
    s = r.series
    length = s.length
    out: dict[str, str] = {}
    jumps = [[kind, a, b] for kind, pairs in (("Ladder", board.ladders), (board.chute_noun.capitalize(), board.chutes))
             for a, b in pairs]
    out["board"] = html_table(["Kind", "From square", "To square"], jumps,
                              f"The {len(jumps)} {board.chute_word} and ladders of this {board.squares}-square board")
    out["length"] = html_table(
        ["Turns", "Exact chance it ends on this turn", "Simulated share"],
        [[k, _EN.words.percent(p, 4), _EN.words.percent(q, 4)]
         for k, p, q in zip(length.turns, length.probability, length.simulated)],
        "Chance that a one-player game ends on each turn")
    out["length-cumulative"] = html_table(
        ["Turns", "Exact chance it is over by then", "Simulated share"],
        [[k, _EN.words.percent(p, 4), _EN.words.percent(q, 4)] for k, p, q in zip(length.turns, length.cumulative,
                                                              length.simulated_cumulative)],
        "Chance that a one-player game is over within each number of turns")
    out["turns-left"] = _squares_table(board, s.squares.turns_left, "Turns left on average",
                                       "Expected turns left from each square (— where no turn starts)")
    out["visits"] = _squares_table(board, s.squares.visits, "Turns begun here per game",
                                   "Expected number of turns begun on each square in one game")
    if r.results.landing_chance is not None:
        out["landing"] = html_table(["Square", "Games that land here"],
                                    [[q, _EN.words.share(x)] for q, x in r.results.landing_chance.items()],
                                    "Share of one-player games that land on each square at least once")
    if r.results.strategy is not None:
        by_square = flip_rolls(r.results.strategy.flips)
        caption = (f"Where the best play flips the coin: {len(by_square)} squares (on every other square and roll "
                   "it moves the roll)")
        otherwise = later_words(r.results.strategy.later)
        if not otherwise:
            out["play"] = html_table(["Square", "Flip on a roll of"],
                                     [["0 (off the board)" if q == 0 else q, ", ".join(map(str, rolls))]
                                      for q, rolls in by_square.items()], caption)
        else:  # under a roll-again limit: where a later roll of a turn is played otherwise
            out["play"] = html_table(
                ["Square", "Flip on a roll of", "Later in a turn, otherwise"],
                [["0 (off the board)" if q == 0 else q, ", ".join(map(str, by_square.get(q, []))) or "—",
                  otherwise.get(q, "")] for q in sorted({*by_square, *otherwise})],
                caption + "; the last column: where a later roll of a turn is played otherwise, by the rolls so far "
                "and the square where the turn began")
    b = s.bounds
    out["bounds"] = html_table(
        ["Turns counted", "Lower bound", "Upper bound", "Gap"],
        [[n, _EN.rounded(lo, 12), _EN.rounded(hi, 12), f"{g:.3e}"] for n, lo, hi, g in
         zip(b.turns, b.lower, b.upper, b.gap) if n <= 20 or n % 10 == 0],
        "Bounds on the first player's chance after n turns (every turn to 20, then every tenth)")
    d = s.diagonal
    out["diagonal"] = html_table(
        ["Both players need (turns)", "Side of the square, P(T = k)"],
        [[k, f"{side:.6f}"] for k, side in zip(d.turns, d.side)],
        "The diagonal squares, one per game length")
    players = r.players
    most = max(len(seats) for seats in players.seats.values())
    out["seats"] = html_table(
        ["Players"] + [f"Seat {i}" for i in range(1, most + 1)],
        [[n] + [_EN.words.percent(w.decimal, 3) for w in seats] + [""] * (most - len(seats))
         for n, seats in players.seats.items()],
        "Each seat's chance to win, players starting together")
    sm = players.state_map
    out["state-map"] = html_table(
        ["Both players on square", "The player to move wins"],
        [[sq, _EN.words.percent(row[i], 2)] for i, (sq, row) in enumerate(zip(sm.squares, sm.mover_wins))],
        "Two players on the same square: the chance that the one about to move wins "
        + _state_map_note(len(sm.squares), r.results.turn_states))
    if experiments is not None:
        out.update(_experiment_tables(board, experiments))
    return {name: out[name] for name in names if name in out}


def _experiment_tables(board: BoardDefinition, x: Experiments) -> dict[str, str]:
    """The tables of the what-if charts."""
    out: dict[str, str] = {}
    dice = x.dice.dice
    out["dice-turns"] = html_table(
        ["Faces", "Average game (turns)"],
        [[d.faces, "never ends" if d.expected_turns is None else _EN.rounded(d.expected_turns.decimal, 4)]
         for d in dice], "Average game length for each die")
    out["dice-first"] = html_table(
        ["Faces", "First of two players wins"],
        [[d.faces, "—" if d.first_player_wins is None else _EN.words.percent(d.first_player_wins.decimal, 3)]
         for d in dice], "The first player's chance for each die")
    values: list[float | None] = [None] * (board.squares + 1)
    for square, v in x.start.expected_turns_from.items():
        values[int(square)] = float(v.decimal)
    out["start"] = _squares_table(board, values, "Average game if started here",
                                  "Average game length when starting on each square")
    odd = [row for row in x.add_jump.jumps if row.counterintuitive]
    out["add-jump"] = html_table(
        ["Jump", "Change in the average game (turns)"],
        [[f"{row.kind} {row.from_} → {row.to}", _EN.rounded(row.delta_turns.decimal, 3)] for row in odd
         if row.delta_turns is not None],
        f"The {len(odd)} counter-intuitive jumps (every candidate is in the JSON on the data page)")
    return out


def overlay_table(curves: list[tuple[str, LengthSeries]], cumulative: bool, caption: str) -> str:
    """One row per number of turns, one column per board (blank past a board's last charted turn): the chance
    that the game ends on that turn, or with `cumulative` that it is over by then."""
    columns = [(title, c.cumulative if cumulative else c.probability) for title, c in curves]
    longest = max(len(values) for _, values in columns)
    rows = [[k + 1] + [_EN.words.percent(values[k], 4) if k < len(values) else "" for _, values in columns]
            for k in range(longest)]
    return html_table(["Turns"] + [title for title, _ in columns], rows, caption)
