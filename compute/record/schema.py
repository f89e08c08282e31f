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
    model_config = ConfigDict(extra="forbid", frozen=True)


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

    @classmethod
    def written(cls, x: Fraction) -> dict[str, Any]:
        """The fields of the exact value x, marked as exact."""
        return {**exact_json(x), "exact": True}


class ExactChance(ExactProbability):
    """An exact probability beside double-precision ones, marked as exact."""

    exact: Literal[True]


class DoubleChance(_Model):
    """A probability in double precision, marked as not exact: computed in a fixed order (the same on any
    machine) and written to the significant digits its rounding bound certifies
    (compute.experiments.variants.certified_digits)."""

    decimal: str
    exact: Literal[False]

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
    error_bound: str
    exact: Literal[False]


class BoardDefinition(_Model):
    """The board as read from its file (compute.record.results.board_json)."""

    slug: str
    title: str
    source: str
    squares: int = Field(ge=2)
    die: int = Field(ge=1)
    overshoot: Literal["stay", "bounce", "pass"]
    roll_again_on: int | None
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
    ladders: list[tuple[int, int]]
    chutes: list[tuple[int, int]]
    listed: bool = Field(default=True, description="Whether the board is in the menu, the home table and the "
                                                   "comparison (a test board is not).")
    choice: Literal["coin"] | None = Field(default=None, description="After each roll the player may flip a coin "
                                           "for one square more or less (absent: no choice); the results are for "
                                           "the best play (Results.strategy).")

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
    rolls: list[int]
    squares: list[int]
    probability: ExactProbability = Field(description="P(T = shortest), from compute.solve.exact.distribution.")
    path_probability: ExactProbability = Field(description="The chance of this very sequence of rolls.")


class GameLength(_Model):
    """The one-player game-length distribution's landmarks (compute.solve.exact.Distribution)."""

    mode: int = Field(ge=1, description="Most likely length (Distribution.mode).")
    lower_quartile: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 1/4 (Distribution.quantile).")
    median: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 1/2 (Distribution.quantile).")
    upper_quartile: int = Field(ge=1, description="Smallest k with P(T ≤ k) ≥ 3/4 (Distribution.quantile).")
    shortest: Shortest
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
    to: int
    kind: Literal["ladder", "chute"]
    per_game: Exact


class StrategyRow(_Model):
    """One way of playing a board with a choice, and its exact expected turns (compute.solve.strategy.compared)."""

    key: str
    label: str
    expected_turns: Exact | None = Field(description="From the start, exactly (null: the game can fail to end).")
    loss: Exact | None = Field(description="Turns it loses against the best play, exactly.")


class Duel(_Model):
    """Two players with a choice that may depend on where the other is, certified (compute.solve.duel)."""

    first: str = Field(description="The chance of the player named, moving first, to 30 decimals (both ends of its "
                                   "certified interval round to them).")
    second: str = Field(description="The same player's chance moving second, to 30 decimals.")
    error_bound: str = Field(description="A proven bound on the error of the values rounded: 10⁻⁴⁰ (the refinement "
                                         "goes on until the proven bound is below it).")
    flips: int = Field(ge=0, description="(square, roll) pairs the play flips for against some square of the "
                                         "other player.")
    depends: int = Field(ge=0, description="Of those, how many it flips for only against some of the other's "
                                           "squares: the choice depends on where the other is.")


class Strategy(_Model):
    """The best play when the rules give a choice, proven optimal (compute.record.results.strategy_json)."""

    flips: list[tuple[int, int]] = Field(description="The [square, roll] pairs where the best play flips the coin "
                                                     "(compute.solve.strategy.best_play).")
    ties: list[tuple[int, int]] = Field(description="Where flipping and moving are worth exactly the same (the best "
                                                    "play moves there).")
    rounds: int = Field(ge=1, description="Rounds of exact policy iteration.")
    bellman: Literal[True] = Field(description="Bellman's equation holds exactly at every square and roll "
                                               "(compute.solve.strategy.bellman_holds): the play is optimal.")
    strategies: list[StrategyRow] = Field(description="Named strategies compared, the best play last.")
    both_best: ExactProbability = Field(description="The first of two players' chance when both play best.")
    both_best_second: ExactProbability = Field(description="The second player's chance then (1 − both_best).")
    against_box: Duel | None = Field(description="A player who plays best against one who never flips: the best "
                                                 "player's chance (compute.solve.duel.best_against_box); null on a "
                                                 "board of more than duel.MAX_STATES squares a roll is made from, "
                                                 "or where its certification does not settle (rare).")
    both_maximise: Duel | None = Field(description="Both players maximise their own chance, each knowing where the "
                                                   "other is: the first mover's chance "
                                                   "(compute.solve.duel.both_maximise); null as against_box.")
    advice: str = Field(description="One plain sentence a player can use at the table, true on this board.")


class Results(_Model):
    """The exact one- and two-player results (compute.record.results.solve)."""

    board: BoardDefinition
    turn_states: int = Field(ge=1, description="Squares where a turn can start (compute.solve.chain.TurnChain.size).")
    expected_turns: Exact = Field(description="Expected turns of one player (compute.solve.exact.moments).")
    variance: Exact = Field(description="Variance of the game length (compute.solve.exact.moments).")
    standard_deviation: str = Field(description="Its square root, 60 digits (compute.record.results._sqrt_fraction).")
    first_player_wins: FirstPlayer = Field(description="Exact chance the first of two wins "
                                                       "(compute.solve.twoplayer.first_player_wins).")
    game_length: GameLength
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
    seed: int
    criterion: float = Field(gt=0, description="Agreement: within this many standard errors.")
    float_terms: int = Field(ge=1, description="Turns of the series the double-precision values sum.")
    float_bound: float = Field(gt=0, description="A bound on their relative rounding error, float_terms·(m + 2)·2⁻⁵³ "
                                                 "(m the most entries in a row or column of Q: every term is "
                                                 "nonnegative, so no cancellation), rounded to 2 digits.")
    expected_turns: CheckRow
    first_player_wins: CheckRow

    @field_validator("first_player_wins")
    @classmethod
    def _share(cls, row: CheckRow) -> CheckRow:
        if not (0 <= row.simulated <= 1 and 0 <= row.float <= 1):
            raise ValueError("the first player's chance must lie in [0, 1]")
        return row

class LengthSeries(_Model):
    """The length chart's series (compute.record.series.length_series)."""

    turns: list[int]
    probability: list[Probability]
    cumulative: list[Probability]
    simulated: list[Probability]
    simulated_cumulative: list[Probability]
    simulated_games: int = Field(ge=1)
    exact_terms: int = Field(ge=1)


class BoundSeries(_Model):
    """The bounds chart's series (compute.record.series.bound_series)."""

    turns: list[int]
    lower: list[Probability]
    upper: list[Probability]
    gap: list[Probability]


class DiagonalSeries(_Model):
    """The diagonal squares (compute.record.series.diagonal_series)."""

    turns: list[int]
    corner: list[Probability]
    side: list[Probability]


class SquareSeries(_Model):
    """Per-square values for the heat maps (compute.record.series.square_series)."""

    square: list[int]
    turns_left: list[float | None]
    visits: list[float | None]
    landing: list[float | None] | None = Field(description="The chance of landing there at least once (None on the "
                                                           "start's square 0; the list None where not computed).")


class PositionSeries(_Model):
    """Where the token is after each turn (compute.record.series.position_series)."""

    turns: list[int]
    feet: list[int] = Field(description="The jumps' feet: for them, on_square holds the landings during the turn.")
    on_square: list[list[float]] = Field(description="For each turn n, each square 0..last: the chance of being "
                                                     "there after n turns (the last square: the game is over).")


class Series(_Model):
    """Every chart's numbers as floats, each correctly rounded from an exact value (compute.record.series): 12
    significant digits, 6 for the positions."""

    length: LengthSeries
    bounds: BoundSeries
    diagonal: DiagonalSeries
    squares: SquareSeries
    positions: PositionSeries


class Seat(_Model):
    """One seat's chance: exact for two players, certified for more (compute.record.build.players_record)."""

    seat: int = Field(ge=1)
    square: int = Field(ge=0)
    decimal: str
    exact: bool
    numerator: str | None = None
    denominator: str | None = None
    error_bound: str | None = None

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
    mover_wins: list[list[Probability]]


class Calculator(_Model):
    """The turn chain in floats for the page's calculator (compute.record.build.players_record)."""

    squares: list[int]
    start: int
    rows: list[list[tuple[int, Probability]]]
    finish: list[Probability]


class Skipped(_Model):
    """A result left out, and why."""

    reason: str = Field(alias="skipped")


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
    ninety: int = Field(ge=1)
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
    expected_rounds: dict[str, Annotated[ExactValue | Certified, Field(discriminator="exact")]] = Field(
        description="Expected rounds until someone wins: exact for one player, certified for 2 to "
                    "MAX_PLAYERS (compute/board/limits.py).")
    state_map: StateMap
    calculator: Calculator


class DieRow(_Model):
    """One die size (experiments.variants.die_row): null values and a note where the game can fail to end; the
    first player's chance is exact unless a roll-again rule applies."""

    faces: int = Field(ge=1)
    expected_turns: Exact | None
    first_player_wins: Annotated[ExactChance | DoubleChance, Field(discriminator="exact")] | None
    note: str | None


class Dice(_Model):
    """Hochman's die-size experiment (experiments.sweeps.dice)."""

    max_faces: int = Field(ge=1)
    dice: list[DieRow]
    longer_with_bigger_die: list[int] = Field(description="Die sizes n after which one more face lengthens the game.")


class StartSweep(_Model):
    """Hochman's starting-square experiment (experiments.variants.start_sweep)."""

    expected_turns_from: dict[str, Exact]
    worse_than_previous: list[int] = Field(description="Squares that are a worse start than the one before.")


class AddedJump(_Model):
    """One more chute or ladder and what it changes (experiments.variants.scan_json)."""

    from_: int = Field(alias="from")
    to: int
    kind: Literal["ladder", "chute"]
    status: Literal["changed", "no effect", "never ends"]
    delta_turns: Exact | None
    delta_first_player: float | None = Field(description="The change of the first player's chance, in double "
                                             "precision in a fixed order, to 9 decimals (within one unit of the "
                                             "last: compute.experiments.variants.first_player_floats).")
    counterintuitive: bool


class JumpCounts(_Model):
    """How many added jumps have each status."""

    changed: int = Field(ge=0)
    no_effect: int = Field(ge=0, alias="no effect")
    never_ends: int = Field(ge=0, alias="never ends")


class TopJumps(_Model):
    """The ten added jumps that change the average game most, each way, for each kind."""

    helpful_ladders: list[AddedJump]
    harmful_chutes: list[AddedJump]
    lengthening_ladders: list[AddedJump]
    shortening_chutes: list[AddedJump]


class AddJumpScan(_Model):
    """Hochman's scan of every single added chute or ladder (experiments.variants.scan_json)."""

    min_length: int = Field(ge=1)
    candidates: int = Field(ge=0)
    counts: JumpCounts
    counterintuitive: int = Field(ge=0)
    counterintuitive_ladders: int = Field(ge=0)
    counterintuitive_chutes: int = Field(ge=0)
    first_player_base: Probability = Field(description="The board's exact first-player chance, correctly rounded "
                                                       "to 12 digits: what delta_first_player is measured from.")
    top: TopJumps
    jumps: list[AddedJump]


class Experiments(_Model):
    """Hochman's what-if experiments (experiments.sweeps)."""

    dice: Dice
    start: StartSweep
    add_jump: AddJumpScan


ExperimentsPart = Annotated[Annotated[Experiments, Tag("computed")] | Annotated[Skipped, Tag("skipped")],
                            Discriminator(_computed_or_skipped)]
"""The experiments, or why they are left out."""


class ComputedRecord(_Model):
    """A board's record as computed (record.build.board_record), before the cache stores it with its checksum."""

    schema_: int = Field(alias="schema", description="The result schema's version (SCHEMA_VERSION).")
    version: str = Field(description="The package version that computed it.")
    key: str = Field(description="Hash of everything the results depend on (compute.record.key.cache_key).")
    slug: str
    results: Results
    series: Series
    checks: Checks
    players: Players
    experiments: ExperimentsPart = Field(description="Die size, starting square, added jumps (experiments.sweeps), "
                                                     "or why not.")

    def json_form(self) -> dict[str, Any]:
        """The record as the cache stores it: plain JSON under the record's own names, unset fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class BoardRecord(ComputedRecord):
    """Everything the site shows about one board (record.build.board_record)."""

    checksum: str


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
