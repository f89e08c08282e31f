"""The numbers behind each chart as an HTML table: the text alternative shown behind a toggle.

Values are only formatted here (they come from the cached JSON). The biggest charts get a summary
table and a pointer to the full data on the data page, to keep pages light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .figures import flip_rolls
from .words import PageWords, plain

if TYPE_CHECKING:
    from ...compute.record.schema import BoardDefinition, BoardRecord, Experiments, LaterChoice, LengthSeries


def html_table(headers: list[str], rows: list[list[Any]], caption: str) -> str:
    """A plain accessible table (caption, header cells with scope)."""
    head = "".join(f'<th scope="col">{plain(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{plain(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<table class="chart-table" tabindex="0"><caption>{plain(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _squares_table(board: BoardDefinition, values: list[float | None], header: str, caption: str,
                   w: PageWords) -> str:
    rows = []
    for square in range(1, board.squares + 1):
        value = values[square] if square < len(values) else None
        rows.append([w.label(square), "—" if value is None else w.rounded(value, 2)])
    return html_table([w._("Square"), header], rows, caption)


def later_words(later: list[LaterChoice], w: PageWords) -> dict[int, str]:
    """Under a roll-again limit, where a later roll of a turn is played otherwise than its first, in the page's
    words: square → "a 6 as roll 2 of a turn begun on 17 or 18: move"."""
    grouped: dict[tuple[int, int, int, bool], list[int]] = {}
    for c in later:
        grouped.setdefault((c.square, c.roll, c.rolls_so_far, c.flip), []).append(c.began)
    out: dict[int, list[str]] = {}
    for (q, roll, k, flip), began in sorted(grouped.items()):
        values = {"roll": w.label(roll), "nth": w.label(k + 1), "began": w.either(sorted(began))}
        out.setdefault(q, []).append(w._("a %(roll)s as roll %(nth)s of a turn begun on %(began)s: flip", **values)
                                     if flip else
                                     w._("a %(roll)s as roll %(nth)s of a turn begun on %(began)s: move", **values))
    return {q: w.pgettext("list separator", "; ").join(words) for q, words in out.items()}


def _off_the_board(square: int, w: PageWords) -> str:
    """A square for the strategy table's first column: square 0 says it is off the board."""
    return w._("0 (off the board)") if square == 0 else w.label(square)


def board_tables(record: BoardRecord, experiments: Experiments | None, names: list[str],
                 words: PageWords | None = None) -> dict[str, str]:
    """A table for each named chart of a board page, in the page's language (`words`; default English);
    `experiments`: the record's, where it has them (None where it says why not)."""
    w = words or PageWords()
    _, label, percent = w._, w.label, w.words.percent
    r = record
    board = r.results.board
    s = r.series
    length = s.length
    out: dict[str, str] = {}
    jumps = [[w.jump_kind(board, kind), label(a), label(b)] for kind, pairs in (("ladder", board.ladders),
                                                                               ("chute", board.chutes))
             for a, b in pairs]
    out["board"] = html_table(
        [_("Kind"), _("From square"), _("To square")], jumps,
        w.ngettext("The %(n)s %(chutes)s and ladders of this %(squares)s-square board",
                   "The %(n)s %(chutes)s and ladders of this %(squares)s-square board", len(jumps),
                   chutes=w.chutes(board), squares=label(board.squares)))
    out["length"] = html_table(
        [_("Turns"), _("Exact chance it ends on this turn"), _("Simulated share")],
        [[w.number(k), percent(p, 4), percent(q, 4)]
         for k, p, q in zip(length.turns, length.probability, length.simulated)],
        _("Chance that a one-player game ends on each turn"))
    out["length-cumulative"] = html_table(
        [_("Turns"), _("Exact chance it is over by then"), _("Simulated share")],
        [[w.number(k), percent(p, 4), percent(q, 4)] for k, p, q in zip(length.turns, length.cumulative,
                                                                       length.simulated_cumulative)],
        _("Chance that a one-player game is over within each number of turns"))
    out["turns-left"] = _squares_table(board, s.squares.turns_left, _("Turns left on average"),
                                       _("Expected turns left from each square (— where no turn starts)"), w)
    out["visits"] = _squares_table(board, s.squares.visits, _("Turns begun here per game"),
                                   _("Expected number of turns begun on each square in one game"), w)
    if r.results.landing_chance is not None:
        out["landing"] = html_table([_("Square"), _("Games that land here")],
                                    [[label(int(q)), w.words.share(x)] for q, x in r.results.landing_chance.items()],
                                    _("Share of one-player games that land on each square at least once"))
    if r.results.strategy is not None:
        by_square = flip_rolls(r.results.strategy.flips)
        caption = w.ngettext("Where the best play flips the coin: %(n)s square (on every other square and roll it "
                             "moves the roll)", "Where the best play flips the coin: %(n)s squares (on every other "
                             "square and roll it moves the roll)", len(by_square))
        otherwise = later_words(r.results.strategy.later, w)
        separator = w.pgettext("list separator", ", ")
        if not otherwise:
            out["play"] = html_table([_("Square"), _("Flip on a roll of")],
                                     [[_off_the_board(q, w), separator.join(map(label, rolls))]
                                      for q, rolls in by_square.items()], caption)
        else:  # under a roll-again limit: where a later roll of a turn is played otherwise
            out["play"] = html_table(
                [_("Square"), _("Flip on a roll of"), _("Later in a turn, otherwise")],
                [[_off_the_board(q, w), separator.join(map(label, by_square.get(q, []))) or "—",
                  otherwise.get(q, "")] for q in sorted({*by_square, *otherwise})],
                _("%(caption)s; the last column: where a later roll of a turn is played otherwise, by the rolls so "
                  "far and the square where the turn began", caption=caption))
    b = s.bounds
    out["bounds"] = html_table(
        [_("Turns counted"), _("Lower bound"), _("Upper bound"), _("Gap")],
        [[w.number(n), w.rounded(lo, 12), w.rounded(hi, 12), w.scientific(g, 3)] for n, lo, hi, g in
         zip(b.turns, b.lower, b.upper, b.gap) if n <= 20 or n % 10 == 0],
        _("Bounds on the first player's chance after n turns (every turn to 20, then every tenth)"))
    d = s.diagonal
    out["diagonal"] = html_table(
        [_("Both players need (turns)"), _("Side of the square, P(T = k)")],
        [[w.number(k), w.rounded(side, 6)] for k, side in zip(d.turns, d.side)],
        _("The diagonal squares, one per game length"))
    players = r.players
    most = max(len(seats) for seats in players.seats.values())
    out["seats"] = html_table(
        [_("Players")] + [_("Seat %(seat)s", seat=label(i)) for i in range(1, most + 1)],
        [[label(int(n))] + [percent(x.decimal, 3) for x in seats] + [""] * (most - len(seats))
         for n, seats in players.seats.items()],
        _("Each seat's chance to win, players starting together"))
    sm = players.state_map
    mapped, turn_states = len(sm.squares), r.results.turn_states
    out["state-map"] = html_table(
        [_("Both players on square"), _("The player to move wins")],
        [[label(sq), percent(row[i], 2)] for i, (sq, row) in enumerate(zip(sm.squares, sm.mover_wins))],
        # where the rest of the map is: the JSON when it holds every square, else only the calculator (a big
        # board's map, and its JSON, keep an evenly spaced sample of the squares)
        _("Two players on the same square: the chance that the one about to move wins (the %(mapped)s evenly spaced "
          "squares of the map, of the %(states)s where a turn can start; the calculator below gives any other "
          "square)", mapped=w.number(mapped), states=w.number(turn_states)) if mapped < turn_states else
        _("Two players on the same square: the chance that the one about to move wins (the full table is in the JSON "
          "on the data page)"))
    if experiments is not None:
        out.update(_experiment_tables(board, experiments, w))
    return {name: out[name] for name in names if name in out}


def _experiment_tables(board: BoardDefinition, x: Experiments, w: PageWords) -> dict[str, str]:
    """The tables of the what-if charts."""
    _, label = w._, w.label
    out: dict[str, str] = {}
    dice = x.dice.dice
    out["dice-turns"] = html_table(
        [_("Faces"), _("Average game (turns)")],
        [[label(d.faces), _("never ends") if d.expected_turns is None else w.rounded(d.expected_turns.decimal, 4)]
         for d in dice], _("Average game length for each die"))
    out["dice-first"] = html_table(
        [_("Faces"), _("First of two players wins")],
        [[label(d.faces), "—" if d.first_player_wins is None else w.words.percent(d.first_player_wins.decimal, 3)]
         for d in dice], _("The first player's chance for each die"))
    values: list[float | None] = [None] * (board.squares + 1)
    for square, v in x.start.expected_turns_from.items():
        values[int(square)] = float(v.decimal)
    out["start"] = _squares_table(board, values, _("Average game if started here"),
                                  _("Average game length when starting on each square"), w)
    odd = [row for row in x.add_jump.jumps if row.counterintuitive]
    out["add-jump"] = html_table(
        [_("Jump"), _("Change in the average game (turns)")],
        [[w.jump(board, row.kind, row.from_, row.to), w.rounded(row.delta_turns.decimal, 3)] for row in odd
         if row.delta_turns is not None],
        w.ngettext("The %(n)s counter-intuitive jump (every candidate is in the JSON on the data page)",
                   "The %(n)s counter-intuitive jumps (every candidate is in the JSON on the data page)", len(odd)))
    return out


def overlay_table(curves: list[tuple[str, LengthSeries]], cumulative: bool, caption: str,
                  words: PageWords | None = None) -> str:
    """One row per number of turns, one column per board (blank past a board's last charted turn): the chance
    that the game ends on that turn, or with `cumulative` that it is over by then, in a page's language (`words`;
    default English; `caption` is already in it)."""
    w = words or PageWords()
    columns = [(title, c.cumulative if cumulative else c.probability) for title, c in curves]
    longest = max(len(values) for _, values in columns)
    rows = [[w.number(k + 1)] + [w.words.percent(values[k], 4) if k < len(values) else "" for _, values in columns]
            for k in range(longest)]
    return html_table([w._("Turns")] + [title for title, _ in columns], rows, caption)
