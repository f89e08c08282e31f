"""The board record: what the compute stage caches for one board and the build stage publishes, as typed models.

Each field says in one line what it holds and which function computes it. Loading a cached record
validates it against these models, so a record edited by hand (even with its checksum recomputed) is
refused unless it is plausible: exact values are reduced fractions whose decimal preview matches them,
probabilities lie in [0, 1]. A record being computed may hand an exact value over as a `Fraction`: its model
writes it out (`compute.numbers`), so that every part of the record gives its numbers in one form.
"""

from __future__ import annotations

import builtins
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated, Any, Literal

import gmpy2
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..numbers import decimal_string, exact_json, fraction_json

Probability = Annotated[float, Field(ge=0.0, le=1.0)]


_TEN, _TEN_40 = gmpy2.mpz(10), gmpy2.mpz(10) ** 40


class _Model(BaseModel):
    """A part of the record: strict (no unknown keys), frozen, each field described by the string below it."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


def _checked_before(info: ValidationInfo) -> bool:
    """Whether the record being read passed every check before, as these same bytes (`checked_record`): its
    arithmetic (gcds and products of fractions of up to 175,000 digits: half of the 5 s the bundled records took
    to read) is then not repeated; its structure and types still are."""
    return bool(info.context and info.context.get("checked_before"))


class Exact(_Model):
    """An exact rational: numerator and denominator as decimal strings (any length), and a decimal preview."""

    numerator: str = Field(description="The numerator, in lowest terms (a decimal string: it may be very long).")
    denominator: str = Field(description="The denominator, positive and coprime to the numerator.")
    decimal: str = Field(description="The value to 50 significant digits (compute.numbers.decimal_string).")

    @model_validator(mode="before")
    @classmethod
    def _from_fraction(cls, value: Any) -> Any:
        """A `Fraction` handed over for the model, in its JSON form (`written`)."""
        return cls.written(value) if isinstance(value, Fraction) else value

    @classmethod
    def written(cls, x: Fraction) -> dict[str, Any]:
        """The fields of the exact value x (compute.numbers.exact_json)."""
        return exact_json(x)

    @model_validator(mode="after")
    def _reduced_and_consistent(self, info: ValidationInfo) -> Exact:
        """In integers (GMP): numbers of 175,000 digits are read and checked in milliseconds. The decimal is read
        as digits times a power of ten (a record holds tens of thousands of them: no Decimal object each)."""
        if _checked_before(info):
            return self
        mantissa, _, power = self.decimal.lower().partition("e")
        whole, _, fraction = mantissa.partition(".")
        try:
            p, q = gmpy2.mpz(self.numerator), gmpy2.mpz(self.denominator)
            shown, exponent = gmpy2.mpz(whole + fraction), int(power or 0) - len(fraction)
        except ValueError:
            raise ValueError("numerator, denominator and decimal must be numbers") from None
        if q <= 0 or gmpy2.gcd(p, q) != 1:
            raise ValueError(f"{self.numerator[:20]}/{self.denominator[:20]} is not a reduced fraction")
        scale, unit = _TEN ** max(-exponent, 0), _TEN ** max(exponent, 0)
        shown *= unit
        # |shown/scale − p/q| ≤ one unit in the last printed place + 10^-40, multiplied by q·scale·10^40
        if abs(shown * q - p * scale) * _TEN_40 > q * unit * _TEN_40 + q * scale:
            raise ValueError(f"decimal {self.decimal[:20]} does not match the fraction")
        return self

    @property
    def fraction(self) -> Fraction:
        return Fraction(int(gmpy2.mpz(self.numerator)), int(gmpy2.mpz(self.denominator)))


class ExactProbability(Exact):
    """An exact value between 0 and 1."""

    @model_validator(mode="after")
    def _in_unit_interval(self, info: ValidationInfo) -> ExactProbability:
        if _checked_before(info):
            return self
        if not 0 <= gmpy2.mpz(self.numerator) <= gmpy2.mpz(self.denominator):
            raise ValueError(f"a probability must lie in [0, 1], got {self.decimal[:20]}")
        return self


class ExactValue(Exact):
    """An exact value beside certified ones, marked as exact."""

    exact: Literal[True]
    """Always true: the value is exact (beside certified values that are not)."""

    @classmethod
    def written(cls, x: Fraction) -> dict[str, Any]:
        """The fields of the exact value x, marked as exact."""
        return {**exact_json(x), "exact": True}


class ExactChance(ExactProbability):
    """An exact probability beside double-precision ones, marked as exact."""

    exact: Literal[True]
    """Always true: the chance is exact (beside double-precision chances that are not)."""


class DoubleChance(_Model):
    """A probability in double precision, marked as not exact: computed in a fixed order (the same on any
    machine) and written to the significant digits its rounding bound certifies
    (compute.experiments.variants.certified_digits)."""

    decimal: str
    """The chance, to the significant digits its rounding bound certifies."""
    exact: Literal[False]
    """Always false: a double-precision value, not an exact one."""

    @field_validator("decimal")
    @classmethod
    def _probability(cls, decimal: str) -> str:
        try:
            inside = 0 <= Decimal(decimal) <= 1
        except InvalidOperation:
            inside = False
        if not inside:
            raise ValueError(f"a probability must lie in [0, 1], got {decimal[:20]}")
        return decimal


class FirstPlayer(ExactProbability):
    """The first of two players' chance, with the size of its fraction and its leading digits."""

    truncated: str = Field(description="Its first 50 decimals, truncated (not rounded): the digits a headline shows "
                                       "before '…' (compute.numbers.fixed_decimal).")
    numerator_digits: int = Field(description="Decimal digits of the numerator (compute.numbers.digit_count).")
    denominator_digits: int = Field(description="Decimal digits of the denominator.")

    @classmethod
    def written(cls, x: Fraction) -> dict[str, Any]:
        """The fields of the chance x, with its sizes and leading digits (compute.numbers.fraction_json)."""
        return fraction_json(x)

    @model_validator(mode="after")
    def _truncated(self, info: ValidationInfo) -> FirstPlayer:
        """truncated ≤ numerator/denominator < truncated + one unit in its last place, in integers (GMP)."""
        if _checked_before(info):
            return self
        whole, point, fraction = self.truncated.partition(".")
        if not (whole + fraction).isdigit() or not point:
            raise ValueError(f"truncated {self.truncated[:20]} is not a decimal")
        shown, unit = gmpy2.mpz(whole + fraction), gmpy2.mpz(10) ** len(fraction)
        p, q = gmpy2.mpz(self.numerator), gmpy2.mpz(self.denominator)
        if not shown * q <= p * unit < (shown + 1) * q:
            raise ValueError(f"truncated {self.truncated[:20]} is not the fraction's leading digits")
        return self


class Certified(_Model):
    """A value known to lie within error_bound of decimal (compute.solve.races.Certified.json)."""

    decimal: str
    """The value's decimal digits (compute.solve.races.Certified)."""
    error_bound: str
    """A proven bound on |decimal − the true value|."""
    exact: Literal[False]
    """Always false: certified within error_bound, not exact."""


class BoardWords(_Model):
    """A board's own words in one language (its file's `[translations.LANG]`): plain text, never markup."""

    title: str | None = Field(default=None, description="The board's title in this language (absent: the "
                                                        "board's own).")
    source: str | None = Field(default=None, description="Where the layout comes from, in this language (absent: "
                                                         "the board's own).")


class BoardDefinition(_Model):
    """The board as read from its file (compute.record.results.board_json)."""

    slug: str
    """The board's short name: its file's name without .toml, and its page's address."""
    title: str
    """The board's title, as its file gives it (text, never markup)."""
    source: str
    """Where the board comes from, as its file gives it (empty if it says nothing)."""
    squares: int = Field(ge=2)
    """The last square: the first player to reach it wins (players start off the board, on square 0, unless start says
    otherwise)."""
    die: int = Field(ge=1)
    """Faces of each die, numbered 1 to die."""
    overshoot: Literal["stay", "bounce", "pass"]
    """What a roll past the last square does: stay (the move is lost), bounce (it counts back from the last square) or
    pass (it wins)."""
    roll_again_on: int | None
    """The roll (a face, or a total of the dice) that gives another roll in the same turn (null: none)."""
    roll_again_limit: int | None = Field(default=None, ge=0, description="At most this many extra rolls in one "
                                         "turn (absent: no limit).")
    roll_again_penalty: Literal["undo", "start"] | None = Field(default=None, description="Where a roll of "
                                                                "roll_again_on beyond the limit sends the token.")
    enter_on: list[int] | None = Field(default=None, description="The rolls that bring a token from square 0 "
                                       "onto the board (absent: every roll).")
    dice: int | None = Field(default=None, ge=2, description="Dice summed in each roll (absent: one).")
    weights: list[int] | None = Field(default=None, description="Relative weight of each face of one die "
                                      "(absent: all equal).")
    start: int = Field(ge=0)
    """The square where each token starts (0: off the board)."""
    ladders: list[tuple[int, int]]
    """Each ladder as [from, to], going up: a roll that lands on from moves the token to to."""
    chutes: list[tuple[int, int]]
    """Each chute as [from, to], going down, with the same rules as ladders."""
    chute_word: Literal["chutes", "snakes"] = Field(default="chutes", description="What the board's file calls its "
                                                    "chutes (`snakes = [...]`: snakes), and so its pages.")
    listed: bool = Field(default=True, description="Whether the board is in the menu, the home table and the "
                                                   "comparison (a test board is not).")
    choice: Literal["coin"] | None = Field(default=None, description="After each roll the player may flip a coin "
                                           "for one square more or less (absent: no choice); the results are for "
                                           "the best play (Results.strategy).")
    translations: dict[str, BoardWords] | None = Field(default=None, description="The title and source in other "
                                                      "languages, by language code (absent: none).")

    @property
    def chute_noun(self) -> str:
        """One of the board's chutes, in its file's word: "chute" or "snake"."""
        return self.chute_word.removesuffix("s")

    @property
    def house_rules(self) -> bool:
        """Whether the board uses a rule beyond one fair die and roll-again (as `Board.house_rules`)."""
        return (bool(self.enter_on or self.dice or self.weights) or self.roll_again_limit is not None
                or self.choice is not None)


class Bracket(_Model):
    """Bounds on a chance, as decimals rounded outward (compute.numbers.bracket): the lower rounded down,
    the upper rounded up, so that every shorter form of them is a bound too."""

    lower: str = Field(description="The exact lower bound rounded down to 50 decimals.")
    upper: str = Field(description="The exact upper bound rounded up to 50 decimals.")
    equal: bool = Field(description="Whether the exact bounds are equal (every game is over by then): each is "
                                    "then the chance itself.")

    @model_validator(mode="after")
    def _ordered(self) -> Bracket:
        try:
            lower, upper = Decimal(self.lower), Decimal(self.upper)
        except InvalidOperation:
            raise ValueError("the bounds must be decimals") from None
        if not 0 <= lower <= upper <= 1 or (lower == upper and not self.equal):
            raise ValueError(f"bounds {self.lower[:20]} and {self.upper[:20]} are not in order within [0, 1] "
                             f"(unequal bounds, rounded outward, differ)")
        return self


class Shortest(_Model):
    """A fastest game (compute.solve.jumps.shortest_game)."""

    turns: int = Field(ge=1)
    """The fewest turns in which the game can end."""
    rolls: list[int]
    """One sequence of rolls that ends it in that many turns (a roll that rolls again costs no turn)."""
    squares: list[int]
    """Where the token is before the first roll and after each of those rolls (after any chute or ladder), ending on the
    last square."""
    probability: ExactProbability = Field(description="P(T = shortest), from compute.solve.exact.distribution.")
    path_probability: ExactProbability = Field(description="The chance of this very sequence of rolls.")


class GameLength(_Model):
    """The one-player game-length distribution's landmarks (compute.solve.exact.Distribution)."""

    mode: int = Field(ge=1, description="Most likely length (Distribution.mode).")
    lower_quartile: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 1/4 (Distribution.quantile).")
    median: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 1/2 (Distribution.quantile).")
    upper_quartile: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 3/4 (Distribution.quantile).")
    shortest: Shortest
    """A fastest game: its turns, one sequence of rolls, and their chances (compute.solve.jumps.shortest_game)."""
    percentiles: dict[str, int] = Field(description="Smallest k with P(T ≤ k) ≥ p/100 for p = 2.5, 5, 10, 90, 95, "
                                                    "97.5 (Distribution.quantile).")
    over_within: dict[str, ExactProbability] = Field(description="P(T ≤ k) for k = 20, 50, 100 (Distribution.cdf), "
                                                     "where the exact part of the distribution decides it.")
    at_most: dict[str, ExactProbability] = Field(description="P(T ≤ k) for each length k named above (the quartiles, "
                                                 "the median, the percentiles): the true share of games over "
                                                 "within k turns, which a large atom can take far from the "
                                                 "quantile's own share (Distribution.cdf).")
    more_than: dict[str, ExactProbability] = Field(description="P(T > k) for the same lengths k.")
    exact_terms: int = Field(ge=1, description="How many terms of the distribution are exact.")


class JumpUse(_Model):
    """How often one chute or ladder is taken per game (compute.solve.jumps.jump_usage)."""

    from_: int = Field(alias="from")
    """The square where the chute or ladder starts (the square a roll lands on to take it)."""
    to: int
    """The square it leads to."""
    kind: Literal["ladder", "chute"]
    """ladder (it leads up) or chute (it leads down)."""
    per_game: Exact
    """Expected times it is taken in one game, exactly (compute.solve.jumps.jump_usage)."""


class StrategyRow(_Model):
    """One way of playing a board with a choice, and its exact expected turns (compute.solve.strategy.compared)."""

    key: str
    """The strategy's short name: never, always, chute_heads, ladder_neighbours, or best
    (compute.solve.strategy.STRATEGIES)."""
    label: str
    """The strategy in words, as the board page shows it."""
    expected_turns: Exact | None = Field(description="From the start, exactly (null: the game can fail to end).")
    loss: Exact | None = Field(description="Turns it loses against the best play, exactly.")


class Duel(_Model):
    """Two players with a choice that may depend on where the other is (under a roll-again limit also on the rolls
    so far in the turn and where it began), certified (compute.solve.duel)."""

    first: str = Field(description="The chance of the player named, moving first, to 30 decimals (both ends of its "
                                   "certified interval round to them).")
    second: str = Field(description="The same player's chance moving second, to 30 decimals.")
    error_bound: str = Field(description="A proven bound on the error of the values rounded: 10⁻⁴⁰ (the refinement "
                                         "goes on until the proven bound is below it).")
    flips: int = Field(ge=0, description="(square, roll) pairs the play flips for against some square of the "
                                         "other player (under a roll-again limit: (square, roll, rolls so far in "
                                         "the turn, square where it began)).")
    depends: int = Field(ge=0, description="Of those, how many it flips for only against some of the other's "
                                           "squares: the choice depends on where the other is.")


class LaterChoice(_Model):
    """Under a roll-again limit: a later roll of a turn where the best play's choice differs from its choice on a
    turn's first roll (`Strategy.flips`), so that it depends on the rolls so far and on where the turn began."""

    square: int = Field(ge=0, description="The square the roll is made from.")
    roll: int = Field(ge=1, description="The number rolled (only a roll of roll_again_on can differ: every other "
                                        "roll ends the turn, so its choice is the same at every roll).")
    rolls_so_far: int = Field(ge=1, description="Rolls already made in this turn (1: this is the turn's second).")
    began: int = Field(ge=0, description="The square where the turn began.")
    flip: bool = Field(description="Whether the best play flips here (the first roll's rule says the opposite).")


class SimpleRule(_Model):
    """A rule a player can follow at the table (compute.record.results.SIMPLE_RULES) and its exact expected turns."""

    rule: Literal["chute_heads", "ladder_neighbours", "both"] = Field(description="Flip when the roll would land on "
        "the head of a chute (`chute_heads`), when a square next to where it lands is the foot of a ladder "
        "(`ladder_neighbours`), or either (`both`).")
    expected_turns: Exact = Field(description="The average game's turns for a player who follows it, exactly.")


class Strategy(_Model):
    """The best play when the rules give a choice, proven optimal (compute.record.results.strategy_json)."""

    flips: list[tuple[int, int]] = Field(description="The [square, roll] pairs where the best play flips the coin "
                                                     "(compute.solve.strategy.best_play); under a roll-again limit, "
                                                     "on a turn's first roll (later rolls: `later`).")
    later: list[LaterChoice] = Field(default_factory=list, description="Under a roll-again limit, where a later "
                                     "roll of a turn is played otherwise than `flips` says (empty: the choice never "
                                     "depends on the rolls so far).")
    ties: list[tuple[int, int]] = Field(description="Where flipping and moving are worth exactly the same (the best "
                                                    "play moves there; under a limit, at some roll of a turn).")
    rounds: int = Field(ge=1, description="Rounds of exact policy iteration.")
    bellman: Literal[True] = Field(description="Bellman's equation holds exactly at every square and roll "
                                               "(compute.solve.strategy.bellman_holds): the play is optimal.")
    strategies: list[StrategyRow] = Field(description="Named strategies compared, the best play last.")
    both_best: ExactProbability = Field(description="The first of two players' chance when both play best.")
    both_best_second: ExactProbability = Field(description="The second player's chance then (1 − both_best).")
    against_box: Duel | None = Field(description="A player who plays best against one who never flips: the best "
                                                 "player's chance (compute.solve.duel.best_against_box); null only "
                                                 "where its certified interval straddles a rounding boundary "
                                                 "(never met so far).")
    both_maximise: Duel | None = Field(description="Both players maximise their own chance, each knowing where the "
                                                   "other is: the first mover's chance "
                                                   "(compute.solve.duel.both_maximise); null as against_box.")
    simple_rule: SimpleRule | None = Field(default=None, description="The best of the rules a player can follow "
                                           "at the table, where one beats never flipping (null: none does, or "
                                           "flipping never helps).")
    advice: str = Field(description="One plain sentence a player can use at the table, true on this board, in "
                                    "English (compute.record.words.Words.advice says it in any language).")


class Results(_Model):
    """The exact one- and two-player results (compute.record.results.solve)."""

    board: BoardDefinition
    """The board as read from its file, the definition every result is of."""
    turn_states: int = Field(ge=1, description="Squares where a turn can start (compute.solve.chain.TurnChain.size).")
    expected_turns: Exact = Field(description="Expected turns of one player (compute.solve.exact.moments).")
    variance: Exact = Field(description="Variance of the game length (compute.solve.exact.moments).")
    standard_deviation: str = Field(description="Its square root, 60 digits (compute.record.results._sqrt_fraction).")
    first_player_wins: FirstPlayer = Field(description="Exact chance the first of two wins "
                                                       "(compute.solve.twoplayer.first_player_wins).")
    game_length: GameLength
    """The one-player game length's landmarks: mode, quartiles, percentiles, the shortest game."""
    bounds: dict[str, tuple[Probability, Probability]] = Field(description="Lower and upper bounds on the first "
                                                                           "player's chance (solve.exact.bounds).")
    bounds_outward: dict[str, Bracket] = Field(description="The same bounds as decimals rounded outward, and "
                                                           "whether they are equal (compute.numbers.bracket).")
    expected_turns_from: dict[str, Exact] = Field(description="Expected turns left from each square "
                                                              "(solve.exact.expected_turns).")
    expected_visits: dict[str, Exact] = Field(description="Expected turns begun on each square "
                                                          "(compute.solve.exact.expected_visits).")
    landing_chance: dict[str, ExactProbability] | None = Field(
        description="For each square 1..last, the chance that a game lands on it by a roll at least once (for a "
                    "jump's foot: that the game takes the jump); null above the size it is computed for "
                    "(compute.solve.landing.landing_chances).")
    jump_usage: list[JumpUse]
    """For each chute and ladder, how often one game takes it (compute.solve.jumps.jump_usage)."""
    strategy: Strategy | None = Field(default=None, description="With a choice: the best play and the strategies "
                                                                "compared (absent without one).")


def _twenty_digits(value: Any) -> Any:
    """An exact value handed over as a `Fraction`, to 20 significant digits (compute.numbers.decimal_string)."""
    return decimal_string(value, 20) if isinstance(value, Fraction) else value


class CheckRow(_Model):
    """One headline number three ways (compute.record.build._row)."""

    exact: Annotated[str, BeforeValidator(_twenty_digits)] = Field(description="The exact value, 20 digits.")
    float: builtins.float = Field(description="The same in double precision by the Neumann series Σ Qᵏ, in a fixed "
                                              "order (compute.solve.floats): the same on any machine; 12 digits.")
    float_error: builtins.float = Field(ge=0, description="|float − exact|, exactly, to 3 significant digits.")
    float_agrees: bool = Field(description="Whether float_error is within the rounding bound (Checks.float_bound "
                                           "times the exact value).")
    simulated: builtins.float = Field(description="The simulated value (compute.solve.simulate).")
    standard_error: builtins.float = Field(ge=0, description="The standard error, from the exact distribution (0 when "
                                           "every game ends the same way: the simulation then gives the exact value).")
    standard_errors_apart: builtins.float = Field(ge=0, description="|simulated − exact| in standard errors.")
    agrees: bool = Field(description="Whether that is within the criterion (compute.record.criteria.SIMULATION_Z).")


class Checks(_Model):
    """Exact vs double precision vs simulation (compute.record.build.three_ways)."""

    games: int = Field(ge=1)
    """Simulated two-player games (compute.record.key.SIMULATED_GAMES) whose first player's share is checked; the
    average game length is checked on their players' games."""
    seed: int
    """The simulation's random seed (compute.record.key.SIMULATION_SEED): the same games on every run."""
    criterion: float = Field(gt=0, description="Agreement: within this many standard errors.")
    float_terms: int = Field(ge=1, description="Turns of the series the double-precision values sum.")
    float_bound: float = Field(gt=0, description="A bound on their relative rounding error, float_terms·(m + 2)·2⁻⁵³ "
                                                 "(m the most entries in a row or column of Q: every term is "
                                                 "nonnegative, so no cancellation), rounded to 2 digits.")
    expected_turns: CheckRow
    """The expected turns of one player, exact vs double precision vs simulated."""
    first_player_wins: CheckRow
    """The first of two players' chance, exact vs double precision vs simulated."""

    @field_validator("first_player_wins")
    @classmethod
    def _share(cls, row: CheckRow) -> CheckRow:
        if not (0 <= row.simulated <= 1 and 0 <= row.float <= 1):
            raise ValueError("the first player's chance must lie in [0, 1]")
        return row

class LengthSeries(_Model):
    """The length chart's series (compute.record.series.length_series)."""

    turns: list[int]
    """The game lengths k charted: 1, 2, … until 1 − 10⁻⁶ of the games are over (or the chart's limit, or the end of the
    exact part)."""
    probability: list[Probability]
    """P(T = k) for each k, correctly rounded from the exact value."""
    cumulative: list[Probability]
    """P(T ≤ k) for each k, correctly rounded from the exact value."""
    simulated: list[Probability]
    """The share of simulated games that lasted k turns."""
    simulated_cumulative: list[Probability]
    """The share of simulated games over within k turns."""
    simulated_games: int = Field(ge=1)
    """How many simulated game lengths those shares are of."""
    exact_terms: int = Field(ge=1)
    """How many terms of the distribution are exact (as GameLength.exact_terms)."""


class BoundSeries(_Model):
    """The bounds chart's series (compute.record.series.bound_series)."""

    turns: list[int]
    """The turns n charted: 1, 2, … until the gap is below the chart's smallest (or its limit)."""
    lower: list[Probability]
    """A lower bound on the first of two players' chance from the first n turns' terms."""
    upper: list[Probability]
    """An upper bound on it from the same terms."""
    gap: list[Probability]
    """upper − lower, correctly rounded from the exact gap (no cancellation)."""


class DiagonalSeries(_Model):
    """The diagonal squares (compute.record.series.diagonal_series)."""

    turns: list[int]
    """The game lengths k with P(T = k) > 0, in order, until nearly every game is over (DIAGONAL_MASS) or the picture's
    limit."""
    corner: list[Probability]
    """Where k's square starts on the diagonal: P(T < k)."""
    side: list[Probability]
    """The side of k's square: P(T = k)."""


class SquareSeries(_Model):
    """Per-square values for the heat maps (compute.record.series.square_series)."""

    square: list[int]
    """The squares 0 to the last, in order."""
    turns_left: list[float | None]
    """Expected turns left from each square (0 on the last; null where no turn starts)."""
    visits: list[float | None]
    """Expected turns begun on each square in one game (null where no turn starts)."""
    landing: list[float | None] | None = Field(description="The chance of landing there at least once (None on the "
                                                           "start's square 0; the list None where not computed).")


class PositionSeries(_Model):
    """Where the token is after each turn (compute.record.series.position_series)."""

    turns: list[int]
    """The turns n = 0, 1, … shown, until nearly every game is over (or the animation's limit)."""
    feet: list[int] = Field(description="The jumps' feet: for them, on_square holds the landings during the turn.")
    on_square: list[list[float]] = Field(description="For each turn n, each square 0..last: the chance of being "
                                                     "there after n turns (the last square: the game is over).")


class Series(_Model):
    """Every chart's numbers as floats, each correctly rounded from an exact value (compute.record.series): 12
    significant digits, 6 for the positions."""

    length: LengthSeries
    """The game-length chart: P(T = k) and P(T ≤ k), exact and simulated."""
    bounds: BoundSeries
    """The bounds chart: the first player's chance bracketed after n turns."""
    diagonal: DiagonalSeries
    """The diagonal picture's squares, one per game length."""
    squares: SquareSeries
    """The heat maps' values, one per square."""
    positions: PositionSeries
    """The board coming alive: where the token is after each turn."""


class Seat(_Model):
    """One seat's chance: exact for two players, certified for more (compute.record.build.players_record)."""

    seat: int = Field(ge=1)
    """The seat, in turn order: 1 moves first."""
    square: int = Field(ge=0)
    """The square its player starts on (the board's start)."""
    decimal: str
    """Its chance to win: 50 digits when exact, else the certified digits."""
    exact: bool
    """Whether the chance is exact (two players) or certified within error_bound (more)."""
    numerator: str | None = None
    """The exact chance's numerator (exact seats only)."""
    denominator: str | None = None
    """The exact chance's denominator (exact seats only)."""
    error_bound: str | None = None
    """A proven bound on the error of decimal (certified seats only)."""

    @model_validator(mode="before")
    @classmethod
    def _from_chance(cls, value: Any) -> Any:
        """A seat handed over with its exact `chance` (a `Fraction`): that chance's fields, marked as exact."""
        if isinstance(value, dict) and "chance" in value:
            chance = ExactValue.written(value["chance"])
            return {key: x for key, x in value.items() if key != "chance"} | chance
        return value

    @model_validator(mode="after")
    def _probability(self, info: ValidationInfo) -> Seat:
        if self.exact and _checked_before(info):
            return self
        if self.exact:
            ExactProbability(numerator=self.numerator or "", denominator=self.denominator or "",
                             decimal=self.decimal)
        elif not 0 <= Decimal(self.decimal) <= 1 or self.error_bound is None:
            raise ValueError(f"seat {self.seat}: a certified chance in [0, 1] with its error bound")
        return self


class StateMap(_Model):
    """The two-player state map: the chance that the player to move wins, for each pair of squares
    (compute.solve.floats.FloatChain.series, in a fixed order: the same on any machine), to 6 digits."""

    squares: list[int]
    """The squares the map shows: every square where a turn can start, or evenly spaced ones on a large board."""
    mover_wins: list[list[Probability]]
    """For each of those squares of the player to move (row) and of the other player (column): the chance that the
    player to move wins."""


class Calculator(_Model):
    """The turn chain in floats for the page's calculator (compute.record.build.players_record)."""

    squares: list[int]
    """The squares where a turn can start, in the chain's order (the rows' and columns' order)."""
    start: int
    """The square the players start on."""
    rows: list[list[tuple[int, Probability]]]
    """For each of those squares, the turn's outcomes that stay on the board: [index into squares, chance], in double
    precision."""
    finish: list[Probability]
    """For each of those squares, the chance that a turn begun there ends the game."""


class Skipped(_Model):
    """A result left out, and why: in English words (`reason`), and as what the words say (`why` and its numbers),
    for `words.Words.skipped` to say in any language."""

    reason: str = Field(alias="skipped")
    """Why the part is left out, in English words."""
    why: Literal["house_rules", "squares", "seconds"] = "house_rules"
    """The kind of reason: house rules (the part is for boards without them), the board's size, the time it takes."""
    limit: int | None = None
    """With `why` "squares": the most squares the part is computed for; with "seconds": the site's budget."""
    seconds: int | None = None
    """With `why` "seconds": about how long the part would take."""


def _computed_or_skipped(part: Any) -> str:
    """Which form a part that may be left out has: "skipped" for a `Skipped` (or its JSON {"skipped": reason}, in
    place of the part), else "computed". The JSON needs no tag of its own: no computed part has that key."""
    if isinstance(part, Skipped) or (isinstance(part, dict) and "skipped" in part):
        return "skipped"
    return "computed"


FirstOfThree = Annotated[Annotated[FirstPlayer, Tag("computed")] | Annotated[Skipped, Tag("skipped")],
                         Discriminator(_computed_or_skipped)]
"""The first of three players' exact chance, or why it is left out."""


class Rounds(_Model):
    """Rounds until someone wins (solve.races.rounds_record)."""

    median: int = Field(ge=1)
    """The median rounds until someone wins: the smallest r with P(R ≤ r) ≥ 1/2
    (compute.solve.races.rounds_quantile)."""
    ninety: int = Field(ge=1)
    """The rounds within which 9 games in 10 are over: the smallest r with P(R ≤ r) ≥ 9/10."""
    median_share: ExactProbability = Field(description="P(R ≤ median): the true share of games over within the "
                                                       "median (solve.races.rounds_share).")
    ninety_share: ExactProbability = Field(description="P(R ≤ ninety).")


class Players(_Model):
    """Several players (compute.record.build.players_record)."""

    first_of_three: FirstOfThree = Field(description="The exact chance that the first of three players "
                                                     "wins (solve.threeplayer.first_of_three_wins), or "
                                                     "why it is left out (beyond THREE_PLAYER_BUDGET).")
    rounds: dict[str, Rounds] = Field(
        description="For 1 to 4 players starting together: the median number of rounds until someone wins, and "
                    "the number within which 9 games in 10 are over (compute.solve.races.rounds_quantile).")
    seats: dict[str, list[Seat]] = Field(description="Each seat's chance to win, for 2 to MAX_PLAYERS players "
                                                     "starting together (compute/board/limits.py).")
    seats_vs_fair_share: dict[str, list[float]]
    """For 2 to MAX_PLAYERS players: each seat's chance times the number of players (1 is a fair share), to 10
    digits."""
    expected_rounds: dict[str, Annotated[ExactValue | Certified, Field(discriminator="exact")]] = Field(
        description="Expected rounds until someone wins: exact for one player, certified for 2 to "
                    "MAX_PLAYERS (compute/board/limits.py).")
    state_map: StateMap
    """The two-player state map: who is likely to win from each pair of squares."""
    calculator: Calculator
    """The turn chain in double precision, for the board page's calculator."""


class DieRow(_Model):
    """One die size (experiments.variants.die_row): null values and a note where the game can fail to end; the
    first player's chance is exact unless a roll-again rule applies."""

    faces: int = Field(ge=1)
    """Faces of the die this row plays with."""
    expected_turns: Exact | None
    """Expected turns of one player with that die, exactly (null: the game can fail to end)."""
    first_player_wins: Annotated[ExactChance | DoubleChance, Field(discriminator="exact")] | None
    """The first of two players' chance with that die: exact without roll-again, else in double precision (null: the
    game can fail to end)."""
    note: str | None
    """Why the row is null, or which rule had to change for that die (no roll-again where the die lacks the face); null
    otherwise."""
    unending: list[int] | None
    """Where the game can fail to end with that die: the squares a player can reach from the start from which the last
    square can never be reached (the note's squares, for a page to say them in its language); null otherwise."""


class Dice(_Model):
    """Hochman's die-size experiment (experiments.sweeps.dice)."""

    max_faces: int = Field(ge=1)
    """The largest die tried: the rows are for 1 to max_faces faces."""
    dice: list[DieRow]
    """One row per die size."""
    longer_with_bigger_die: list[int] = Field(description="Die sizes n after which one more face lengthens the game.")


class StartSweep(_Model):
    """Hochman's starting-square experiment (experiments.variants.start_sweep)."""

    expected_turns_from: dict[str, Exact]
    """Expected turns from each square where a turn can start, exactly (compute.solve.exact.expected_turns)."""
    worse_than_previous: list[int] = Field(description="Squares that are a worse start than the one before.")


class AddedJump(_Model):
    """One more chute or ladder and what it changes (experiments.variants.scan_json)."""

    from_: int = Field(alias="from")
    """The square where the added jump starts."""
    to: int
    """The square it leads to."""
    kind: Literal["ladder", "chute"]
    """ladder (it leads up) or chute (it leads down)."""
    status: Literal["changed", "no effect", "never ends"]
    """changed (it changes the average game), no effect (no roll lands on its start, or the game is already won there),
    or never ends (the game could go on for ever)."""
    delta_turns: Exact | None
    """The exact change of the expected turns, to 20 digits (null unless changed)."""
    delta_first_player: float | None = Field(description="The change of the first player's chance, in double "
                                             "precision in a fixed order, to 9 decimals (within one unit of the "
                                             "last: compute.experiments.variants.first_player_floats).")
    counterintuitive: bool
    """A ladder that lengthens the average game, or a chute that shortens it."""


class JumpCounts(_Model):
    """How many added jumps have each status."""

    changed: int = Field(ge=0)
    """Added jumps that change the average game."""
    no_effect: int = Field(ge=0, alias="no effect")
    """Added jumps that change nothing."""
    never_ends: int = Field(ge=0, alias="never ends")
    """Added jumps that would make the game endless."""


class TopJumps(_Model):
    """The ten added jumps that change the average game most, each way, for each kind."""

    helpful_ladders: list[AddedJump]
    """The ladders that shorten the average game most."""
    harmful_chutes: list[AddedJump]
    """The chutes that lengthen it most."""
    lengthening_ladders: list[AddedJump]
    """The ladders that lengthen it most (counter-intuitive)."""
    shortening_chutes: list[AddedJump]
    """The chutes that shorten it most (counter-intuitive)."""


class AddJumpScan(_Model):
    """Hochman's scan of every single added chute or ladder (experiments.variants.scan_json)."""

    min_length: int = Field(ge=1)
    """The shortest jump considered, in squares."""
    candidates: int = Field(ge=0)
    """How many single jumps of at least min_length fit: both ends on squares 0 to the last, neither the foot of an
    existing chute or ladder (experiments.variants.candidates)."""
    counts: JumpCounts
    """How many candidates have each status."""
    counterintuitive: int = Field(ge=0)
    """Candidates that do the opposite of what intuition says."""
    counterintuitive_ladders: int = Field(ge=0)
    """Of those, the ladders that lengthen the average game."""
    counterintuitive_chutes: int = Field(ge=0)
    """Of those, the chutes that shorten it."""
    first_player_base: Probability = Field(description="The board's exact first-player chance, correctly rounded "
                                                       "to 12 digits: what delta_first_player is measured from.")
    top: TopJumps
    """The ten candidates that change the average game most, each way, for each kind."""
    jumps: list[AddedJump]
    """Every candidate, by its start and then its end."""


class Experiments(_Model):
    """Hochman's what-if experiments (experiments.sweeps)."""

    dice: Dice
    """The same board with dice of 1 to max_faces faces."""
    start: StartSweep
    """The expected turns from every starting square."""
    add_jump: AddJumpScan
    """Every single chute or ladder that could be added, and its effect."""


ExperimentsPart = Annotated[Annotated[Experiments, Tag("computed")] | Annotated[Skipped, Tag("skipped")],
                            Discriminator(_computed_or_skipped)]
"""The experiments, or why they are left out."""


class ComputedRecord(_Model):
    """A board's record as computed (record.build.board_record), before the cache stores it with its checksum."""

    schema_: int = Field(alias="schema", description="The result schema's version (SCHEMA_VERSION).")
    version: str = Field(description="The package version that computed it.")
    key: str = Field(description="Hash of everything the results depend on (compute.record.key.cache_key).")
    slug: str
    """The board's short name (as Results.board.slug)."""
    results: Results
    """The exact one- and two-player results."""
    series: Series
    """Every chart's numbers."""
    checks: Checks
    """How we know: the headline numbers exact, in double precision and simulated."""
    players: Players
    """Two to MAX_PLAYERS players: each seat's chance, the rounds, the state map."""
    experiments: ExperimentsPart = Field(description="Die size, starting square, added jumps (experiments.sweeps), "
                                                     "or why not.")

    def json_form(self) -> dict[str, Any]:
        """The record as the cache stores it: plain JSON under the record's own names, unset fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class BoardRecord(ComputedRecord):
    """Everything the site shows about one board (record.build.board_record)."""

    checksum: str
    """SHA-256 of the record without this field (compute.store.files): a record altered afterwards is refused."""


def record_problem(exc: ValidationError) -> str:
    """Why a record failed its model, in one line: where, what, and how many more problems it has."""
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"implausible record: {where}: {error['msg']}{more}"


def checked_record(record: Any, checked_before: bool = False) -> tuple[BoardRecord | None, str | None]:
    """`record` as its typed model and None, or None and why it is not a plausible board record (one line).
    `checked_before`: these bytes passed every check of this code before, so the arithmetic is not repeated."""
    try:
        return BoardRecord.model_validate(record, context={"checked_before": checked_before}), None
    except ValidationError as exc:
        return None, record_problem(exc)
    except RecursionError:
        return None, "implausible record: nested too deeply"
