"""The half-degree two-player method against the full-degree one, exactly, and its denominator identity."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import gmpy2
import pytest
from flint import fmpz_poly
from helpers import LONGEST, chain

from chutes.compute.board.file import board_from_mapping, load_board
from chutes.compute.board.model import BoardError
from chutes.compute.solve import modular, twoplayer
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.reference import first_player_wins_full, pair_wins_full
from chutes.compute.solve.twoplayer import first_player_wins, pair_wins

REPOSITORY = Path(__file__).parent.parent
BOARD_FILES = sorted((REPOSITORY / "site_src" / "boards").glob("*.toml"))
CLASSIC_DATA = Path(__file__).parent / "data" / "classic_first_player.txt"
RULES = ("stay", "bounce", "pass")


def classic_lines() -> list[str]:
    """The stored fraction's digits: comment lines start with '#', then the numerator and the denominator."""
    return [x.strip() for x in CLASSIC_DATA.read_text().splitlines() if x.strip() and not x.startswith("#")]


def classic_fraction() -> Fraction:
    """The stored 4,453-digit fraction (read by GMP: Python refuses int() of over 4,300 digits by default)."""
    numerator, denominator = classic_lines()[:2]
    return Fraction(int(gmpy2.mpz(numerator)), int(gmpy2.mpz(denominator)))


def random_small_board(seed: int):
    """A valid random board of 4-30 squares: rule RULES[seed % 3], a roll-again face on every other seed triple."""
    rng = random.Random(seed)
    overshoot = RULES[seed % 3]
    roll_again = (seed // 3) % 2 == 1
    while True:
        squares = rng.randint(4, 30)
        die = rng.randint(2 if roll_again else 1, min(6, squares))
        ladders, chutes, used = [], [], set()
        for _ in range(rng.randint(0, squares // 3)):
            a, b = rng.randrange(1, squares), rng.randrange(0, squares + 1)
            if a == b or a in used or b in used:
                continue
            used |= {a, b}
            (ladders if b > a else chutes).append([a, b])
        data = dict(title="t", squares=squares, die=die, overshoot=overshoot, ladders=ladders, chutes=chutes,
                    roll_again_on=rng.randint(1, die) if roll_again else None, source="t")
        try:
            return board_from_mapping(data, "t")
        except BoardError:
            continue


def stein_determinant(m: list[int], s: int) -> int:
    """Π_{i≤j}(s² − μ_iμ_j) over the roots μ of monic m, as the square root of |Res(m, m#)·m(s)·m(−s)|."""
    k = len(m) - 1
    mp = fmpz_poly(m)
    m_sharp = fmpz_poly([m[k - i] * (s * s) ** (k - i) for i in range(k + 1)])
    root, exact = gmpy2.iroot(gmpy2.mpz(abs(int(mp.resultant(m_sharp)) * int(mp(s)) * int(mp(-s)))), 2)
    assert exact
    return int(root)


def test_bundled_boards_are_there():
    assert {p.stem for p in BOARD_FILES} >= {"classic", "classic-47", "classic-pass", "noordenbos", "tiny"}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in LONGEST else p
                                  for p in BOARD_FILES], ids=lambda p: p.stem)
def test_bundled_board_half_equals_full(path: Path):
    c = turn_chain(load_board(path))
    assert first_player_wins(c) == first_player_wins_full(c)
    start, last = c.board.start, c.states[-1]
    assert pair_wins(c, start, last) == pair_wins_full(c, start, last)
    assert pair_wins(c, last, start) == pair_wins_full(c, last, start)


def test_classic_equals_the_stored_fraction():
    p = first_player_wins(turn_chain(load_board(REPOSITORY / "site_src" / "boards" / "classic.toml")))
    assert [len(x) for x in classic_lines()[:2]] == [4453, 4453]
    assert p == classic_fraction()
    assert gmpy2.mpz(p.numerator).digits() == classic_lines()[0]


SEEDS = range(36)


def test_random_boards_cover_every_rule():
    boards = [random_small_board(seed) for seed in SEEDS]
    assert {b.overshoot for b in boards} == set(RULES)
    assert sum(b.roll_again_on is not None for b in boards) >= 12
    assert all(4 <= b.squares <= 30 for b in boards)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_board_half_equals_full(seed: int):
    c = turn_chain(random_small_board(seed))
    assert first_player_wins(c) == first_player_wins_full(c)
    for mover, other in ((c.board.start, c.states[-1]), (c.states[len(c.states) // 2], c.board.start)):
        assert pair_wins(c, mover, other) == pair_wins_full(c, mover, other)


def _half_parts(c: TurnChain):
    gamma = twoplayer.krylov(c, c.start, list(c.finish), 2 * c.size)
    m = twoplayer.minimal_polynomial(gamma, c.size, c.scale)
    return gamma, m


@pytest.mark.parametrize("seed", SEEDS)
def test_minimal_polynomial_annihilates_and_divides_the_characteristic_polynomial(seed: int):
    c = turn_chain(random_small_board(seed))
    gamma, m = _half_parts(c)
    k = len(m) - 1
    assert m[-1] == 1 and 1 <= k <= c.size
    assert all(sum(m[j] * gamma[n + j] for j in range(k + 1)) == 0 for n in range(2 * c.size - k))
    assert (c.M.charpoly() % fmpz_poly(m)).is_zero()


def test_a_roll_again_turn_s_minimal_polynomial_comes_from_a_few_primes(monkeypatch) -> None:
    """With a six rolling again the scale has 49 bits, so the bound asks for 66 primes; the coefficients scaled
    back from Π(x − λ) are found from 4 or 8, and the polynomial is the same: it annihilates the sequence and
    divides the characteristic polynomial."""
    c = chain("classic-roll-again")
    found = []

    def recorded(values: list[int], modulus: int, scale: int) -> list[int] | None:
        found.append((modulus.bit_length(), scaled_back(values, modulus, scale)))
        return found[-1][1]

    scaled_back = modular._scaled_back
    monkeypatch.setattr(modular, "_scaled_back", recorded)
    gamma, m = _half_parts(c)
    k = len(m) - 1
    assert found and found[-1][1] == m and found[-1][0] <= 8 * 63
    assert all(sum(m[j] * gamma[n + j] for j in range(k + 1)) == 0 for n in range(2 * c.size - k))
    assert (c.M.charpoly() % fmpz_poly(m)).is_zero()


def test_the_minimal_polynomial_of_a_sequence_that_ends_is_a_power_of_x():
    """A board on which every game ends within a few turns (a nilpotent M) gives a sequence ending in zeros,
    which a polynomial of its terms would drop: 5, 2, 0, 0, 0, 0 satisfies γₙ₊₂ = 0 and nothing shorter."""
    assert twoplayer.minimal_polynomial([5, 2, 0, 0, 0, 0], 3, 6) == [0, 0, 1]
    assert twoplayer.minimal_polynomial([0, 0, 7, 0, 0, 0], 3, 6) == [0, 0, 0, 1]


def setup_denominator(setup: twoplayer._HalfSetup, m: list[int], s: int) -> int:
    """The denominator the setup's residues give, from the Stein determinant W: W itself, or with P divided by
    its content κ, W·2^(k(k−1)/2)/κ^(k+1) (the second denominator, from Cramer's rule)."""
    W = stein_determinant(m, s)
    if setup.two_power:
        return W
    k = len(m) - 1
    content = int(fmpz_poly([m[k - i] * s ** (k - i) for i in range(k + 1)]).content())
    reduced, rest = divmod(W << (k * (k - 1) // 2), content ** (k + 1))
    assert rest == 0
    return reduced


@pytest.mark.parametrize("seed", SEEDS)
def test_denominator_is_the_stein_determinant_or_its_reduced_form(seed: int):
    """The residues' W is ±Res(E, O)·m(s)·m(−s)/2^(k(k−1)/2) = ±Π_{i≤j}(s² − μ_iμ_j), or the same with P
    divided by its content (whichever bound is smaller); either way a multiple of the chance's denominator."""
    c = turn_chain(random_small_board(seed))
    gamma, m = _half_parts(c)
    setup = twoplayer._HalfSetup(c, m, gamma, gamma)
    W = setup_denominator(setup, m, c.scale)
    assert (W * setup.scale).bit_length() <= setup.bound_bits
    primes = twoplayer.primes_above_bits(setup.bound_bits)
    residues = twoplayer._half_residues(*setup.args(), primes)
    signs = {(r[1] - W) % p == 0 for p, r in zip(primes, residues) if r is not None}
    assert len(signs) == 1  # the same sign at every prime
    for p, r in zip(primes, residues):
        if r is not None:
            assert r[1] in (W % p, -W % p)
    same_turn = 2 * first_player_wins_full(c) - 1
    assert (same_turn * setup.scale * W).denominator == 1


def test_a_large_scale_takes_the_reduced_denominator():
    """A six rolling again on the classic board: the turn chain's scale has 49 bits, so the Stein bound needs
    about 300,000 bits of primes; P's content leaves about 19,000, and the chance is the full-degree method's."""
    c = turn_chain(load_board(REPOSITORY / "site_src" / "boards" / "classic-roll-again.toml"))
    gamma, m = _half_parts(c)
    k = len(m) - 1
    setup = twoplayer._HalfSetup(c, m, gamma, gamma)
    assert setup.two_power == 0 and setup.bound_bits * 10 < k * (k + 1) * c.scale.bit_length()
    W = setup_denominator(setup, m, c.scale)
    assert (W * setup.scale).bit_length() <= setup.bound_bits
    assert first_player_wins(c, parallel=False) == first_player_wins_full(c)


def test_a_wrong_spare_residue_is_caught(monkeypatch):
    real = twoplayer._half_residues

    def corrupt(*args):
        out = real(*args)
        p, (n, w) = args[-1][-1], out[-1]
        return out[:-1] + [((n + 1) % p, w)]

    monkeypatch.setattr(twoplayer, "_half_residues", corrupt)
    with pytest.raises(ArithmeticError, match="certificate"):
        first_player_wins(turn_chain(load_board(REPOSITORY / "site_src" / "boards" / "tiny.toml")), parallel=False)


def test_deterministic_game():
    """A one-faced die: both players need the same number of turns, so the first always wins."""
    c = turn_chain(board_from_mapping(dict(title="t", squares=7, die=1, source="t"), "t"))
    assert first_player_wins(c) == 1 == first_player_wins_full(c)
