"""A board's page as the templates read it: its record, the names and sizes of its files, its charts.

`BoardPage` derives from one record everything its page shows beside the record's own values: where its
downloads are and how large, the share image's numbers and words, and every chart as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...compute.record.schema import BoardRecord, Duel, Experiments, FirstPlayer, Skipped
from . import figures
from .downloads import DOWNLOADS, distribution_csv, fraction_text, record_json, size_text, squares_csv
from .words import PageWords

INLINE_FRACTION_CHARS = 50_000
"""The longest first-player fraction (characters of text) put whole in its board page. Page weight: a
1,000-square board's is some 850 kB, which with the chart library would take the page over its 3 MB budget,
while every bundled board's (9 kB at most) stays inline. A longer one is loaded from its text file when its
box is opened, like the first of three players'."""


def two_players_with_a_choice(words: PageWords) -> tuple[tuple[str, str], ...]:
    """The two-player chances of a board with a choice that its page shows: each a field of the record's `Strategy`
    and the words (in the page's language) naming how the two play and whose chance it is. The field holds the first
    player's exact chance (an `Exact`: moving second, one minus it) or a `Duel` (the player's chance moving first and
    moving second). A field the record does not have, or holds as null, is left out: a new one is one more line
    here."""
    _ = words._
    return (("both_best", _("Both play best (the fewest turns on average): either player")),
            ("against_box", _("One plays best, the other never flips: the one who plays best")),
            ("both_maximise", _("Both play to win, each seeing where the other is: either player")))


@dataclass(frozen=True)
class BoardPage:
    """One board's record and the names of its files on the site, in a language (`words`; default English)."""

    record: BoardRecord
    words: PageWords = field(default_factory=PageWords, compare=False, repr=False)

    @property
    def slug(self) -> str:
        return self.record.slug

    def _board_words(self, key: str) -> str | None:
        """The board's title or source in the page's language, falling back to the board file's own."""
        board = self.record.results.board
        own = getattr(board, key)
        translated = (board.translations or {}).get(self.words.language.code)
        return own if translated is None or getattr(translated, key) is None else getattr(translated, key)

    @property
    def title(self) -> str:
        """The board's title in the page's language (its `[translations.LANG]`), else its file's."""
        title = self._board_words("title")
        assert title is not None
        return title

    @property
    def source(self) -> str | None:
        """Where the board comes from, in the page's language where its file says, else in its file's words."""
        return self._board_words("source")

    @property
    def listed(self) -> bool:
        """Whether the board is in the menu, the home table and the comparison (its board file says)."""
        return self.record.results.board.listed

    @property
    def first_of_three(self) -> FirstPlayer | None:
        """The first of three players' exact chance, where the record has it (None where it says why not)."""
        three = self.record.players.first_of_three
        return None if isinstance(three, Skipped) else three

    @property
    def experiments(self) -> Experiments | None:
        """The what-if experiments, where the record has them (None where it says why not)."""
        experiments = self.record.experiments
        return None if isinstance(experiments, Skipped) else experiments

    @property
    def fraction_file(self) -> str:
        return DOWNLOADS["fraction"][0].format(slug=self.slug)

    @cached_property
    def fraction_text(self) -> str:
        """The first player's exact chance as published (data/<slug>-first-player.txt): made once, it can be long."""
        return fraction_text(self.record.results.first_player_wins)

    @property
    def fraction_inline(self) -> bool:
        """Whether the first player's fraction is short enough to be put whole in the page (INLINE_FRACTION_CHARS)."""
        return len(self.fraction_text) <= INLINE_FRACTION_CHARS

    @property
    def three_file(self) -> str | None:
        """The exact chance of the first of three players as text, where the record has it."""
        return None if self.first_of_three is None else DOWNLOADS["three"][0].format(slug=self.slug)

    @cached_property
    def three_text(self) -> str | None:
        """The first of three players' exact chance as published (`three_file`), where the record has it."""
        return None if self.first_of_three is None else fraction_text(self.first_of_three)

    @property
    def json_file(self) -> str:
        return DOWNLOADS["json"][0].format(slug=self.slug)

    @property
    def csv_file(self) -> str:
        return DOWNLOADS["csv"][0].format(slug=self.slug)

    @property
    def squares_file(self) -> str:
        return DOWNLOADS["squares"][0].format(slug=self.slug)

    @property
    def share_file(self) -> str:
        return DOWNLOADS["share"][0].format(slug=self.slug)

    @property
    def share_alt(self) -> str:
        """The words of the share image, for its alt text."""
        w = self.words
        return w._("%(title)s: %(headlines)s.", title=self.title, headlines=w.pgettext("list separator", "; ").join(
            w._("%(value)s %(words)s", value=value, words=words) for value, words in headlines(self.record, w)))

    @cached_property
    def json_text(self) -> str:
        """The record as published (data/<slug>.json): its JSON form, as stored."""
        return record_json(self.record)

    @property
    def json_size(self) -> str:
        """The size of the JSON download, for its link ("1.2 MB")."""
        return size_text(len(self.json_text.encode()), self.words)

    @property
    def fraction_size(self) -> str:
        return size_text(len(self.fraction_text.encode()), self.words)

    @property
    def three_size(self) -> str | None:
        return None if self.three_text is None else size_text(len(self.three_text.encode()), self.words)

    @property
    def csv_size(self) -> str:
        return size_text(len(distribution_csv(self.record).encode()), self.words)

    @property
    def squares_size(self) -> str:
        return size_text(len(squares_csv(self.record).encode()), self.words)

    @property
    def strategy_rows(self) -> list[tuple[str, str, str]]:
        """The strategies' table of a board with a choice: each strategy's label, its average game and what it
        loses against the best play, rounded to two decimals ("never ends", "—" where the game can fail to end
        under it); none without a choice."""
        strategy = self.record.results.strategy
        if strategy is None:
            return []
        w, chute_word = self.words, self.record.results.board.chute_word
        return [(w.words.strategy_label(row.key, chute_word),
                 w._("never ends") if row.expected_turns is None else w.rounded(row.expected_turns.decimal, 2),
                 "—" if row.loss is None else w.rounded(row.loss.decimal, 2)) for row in strategy.strategies]

    @property
    def advice(self) -> str:
        """With a choice: the best simple rule in one sentence, in the page's language (`Words.advice`)."""
        strategy, board = self.record.results.strategy, self.record.results.board
        assert strategy is not None, "a board with a choice"
        return self.words.words.advice(strategy.model_dump(mode="json"), board.model_dump(mode="json"))

    @property
    def flip_squares(self) -> int:
        """With a choice: how many squares on the board (1 and up) the best play flips on for some roll."""
        strategy = self.record.results.strategy
        return 0 if strategy is None else len({q for q, _ in strategy.flips if q >= 1})

    @property
    def later_squares(self) -> int:
        """Under a roll-again limit: how many squares on the board (1 and up) the best play plays a later roll of a
        turn on otherwise than its first (ringed on the drawing)."""
        strategy = self.record.results.strategy
        return 0 if strategy is None else len({c.square for c in strategy.later if c.square >= 1})

    @property
    def play_from_start(self) -> str | None:
        """With a choice: which rolls the best play flips for off the board (square 0, not drawn on the board), in
        words ("2, 3, 5 or 6", "none"); None without a choice or when players start on the board."""
        strategy = self.record.results.strategy
        if strategy is None or self.record.results.board.start != 0:
            return None
        rolls = figures.flip_rolls(strategy.flips).get(0, [])
        return self.words.either(rolls) if rolls else self.words._("none")

    @property
    def two_player_rows(self) -> list[tuple[str, str, str]]:
        """The two-player chances of a board with a choice (`two_players_with_a_choice`), each its words and the
        player's chance moving first and moving second, as decimals (30 digits or more); none without a choice, and
        none for a field the record lacks."""
        strategy = self.record.results.strategy
        if strategy is None:
            return []
        rows = []
        for key, words in two_players_with_a_choice(self.words):
            value = getattr(strategy, key, None)
            if value is None:
                continue
            if isinstance(value, Duel):
                rows.append((words, value.first, value.second))
            else:
                rows.append((words, value.decimal, strategy.both_best_second.decimal))
        return rows


def board_pages(records: list[BoardRecord], words: PageWords | None = None
                ) -> tuple[list[BoardPage], list[BoardPage]]:
    """Every board's page in slug order, in a language (`words`; default English), and those in the menu, the home
    table and the comparison: the listed ones (a site of test boards only lists them all)."""
    words = words or PageWords()
    pages = [BoardPage(r, words) for r in sorted(records, key=lambda r: r.slug)]
    return pages, [p for p in pages if p.listed] or pages


def headlines(record: BoardRecord, words: PageWords | None = None) -> list[tuple[str, str]]:
    """The share image's numbers, in a language (default English): each a value and the words under it (its alt
    text says the same)."""
    w = words or PageWords()
    res = record.results
    g = res.game_length
    average = w.rounded(res.expected_turns.decimal, 1)
    return [(w._("%(turns)s turns", turns=average), w._("on average for one player to finish")),
            (w.ngettext("%(n)s turn", "%(n)s turns", g.median),
             w._("or fewer in %(games)s (the median)", games=w.words.games(g.at_most[str(g.median)]))),
            (w._("%(count)s in %(thousand)s", count=w.words.per_thousand(res.first_player_wins.decimal),
                 thousand=w.number(1000)), w._("games won by the first of two players"))]


def chart_figures(page: BoardPage, words: PageWords | None = None) -> dict[str, figures.Figure]:
    """Every chart of a board page, keyed by chart name, in the page's language (`words`; default: the page's)."""
    w = words or page.words
    _ = w._
    r = page.record
    board = r.results.board
    series = r.series
    p_first = float(r.results.first_player_wins.decimal)
    figs = {
        "board": figures.board_figure(board, w),
        **({} if r.results.strategy is None else {"play": figures.play_figure(board, r.results.strategy.flips,
                                                                                   r.results.strategy.later, w)}),
        "alive": figures.alive_figure(board, series.positions, w),
        "length": figures.length_figure(series.length, cumulative=False, words=w),
        "length-cumulative": figures.length_figure(series.length, cumulative=True, words=w),
        "turns-left": figures.board_heatmap(board, series.squares.turns_left, _("expected turns left"),
                                            _("turns left on average"), _("turns left"), w),
        "visits": figures.board_heatmap(board, series.squares.visits, _("expected visits"),
                                        _("turns begun here per game, on average"), _("turns begun here"), w),
        **({} if series.squares.landing is None else {
            "landing": figures.board_heatmap(board, [None if x is None else 100 * x for x in series.squares.landing],
                                             _("chance of landing here (%)"), _("% of games land here at least once"),
                                             _("% of games"), w)}),
        "bounds": figures.bounds_figure(series.bounds, p_first, w),
        "diagonal": figures.diagonal_figure(series.diagonal, w),
        "seats": figures.seats_figure(r.players.seats_vs_fair_share, w),
        "state-map": figures.state_map_figure(r.players.state_map, w),
    }
    x = page.experiments
    if x is not None:
        figs.update({
            "dice-turns": figures.dice_figure(x.dice.dice, turns=True, words=w),
            "dice-first": figures.dice_figure(x.dice.dice, turns=False, words=w),
            "start": figures.start_figure(board, x.start, w),
            "add-jump": figures.jump_heatmap(board, x.add_jump, w),
        })
    return figs
