"""The exact three-player method against a direct exact solve of the three-player state system, and the
classic board against the certified enclosure of `race`."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction
from pathlib import Path

import gmpy2
import pytest
from flint import arb, ctx, fmpq, fmpq_mat, fmpz_mat
from helpers import chutes

from chutes.compute.board.file import board_files, board_from_mapping, load_board
from chutes.compute.board.model import Board, BoardError
from chutes.compute.numbers import fraction_from_json
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.races import race
from chutes.compute.solve.threeplayer import denominator_and_numerator, first_of_three_wins, modular_stage, three_setup
from chutes.site_build.project import BUNDLED_BOARDS

BOARDS = Path(__file__).parent.parent / "site_src" / "boards"


def direct_three_solve(c: TurnChain) -> Fraction:
    """P(seat 1 wins) from the system over the three players' states at the start of a round, solved exactly.

    With V(x) the chance that seat 1 wins when it is to move and the players are on x = (x1, x2, x3): either
    seat 1 finishes now, or all three move in turn without finishing (seat 2 or 3 finishing ends the game
    against seat 1), so V(x) = r(x1) + Σ_y Q(x1, y1) Q(x2, y2) Q(x3, y3) V(y), that is (I − Q⊗Q⊗Q)·V = r⊗1⊗1.
    Multiplied by s³ it is the integer system (s³·I − M⊗M⊗M)·V = s²·R⊗1⊗1, solved by fmpq_mat.solve.
    """
    d, s = c.size, c.scale
    n = d**3
    A = [0] * (n * n)
    b = [0] * n
    for x1 in range(d):
        for x2 in range(d):
            for x3 in range(d):
                row = (x1 * d + x2) * d + x3
                A[row * n + row] += s**3
                b[row] = s * s * c.finish[x1]
                for y1, w1 in c.rows[x1]:
                    for y2, w2 in c.rows[x2]:
                        for y3, w3 in c.rows[x3]:
                            A[row * n + (y1 * d + y2) * d + y3] -= w1 * w2 * w3
    X = fmpq_mat(fmpz_mat(n, n, A)).solve(fmpq_mat(n, 1, b))
    value = X[(c.start * d + c.start) * d + c.start, 0]
    return Fraction(int(value.p), int(value.q))


def random_board(rng: random.Random, overshoot: str, roll_again: bool, min_degree: int = 4) -> Board:
    """A valid random board of 6 to 10 squares with a few chutes and ladders, at most 8 chain states, and
    sequences whose annihilating polynomial has at least `min_degree` nonzero roots (so the method has work)."""
    while True:
        squares = rng.randint(6, 10)
        die = rng.randint(2, min(6, squares - 1))
        feet = rng.sample(range(1, squares), rng.randint(1, 3))
        ladders, chutes = [], []
        for foot in feet:
            head = rng.choice([h for h in range(1, squares + 1) if h != foot])
            (ladders if head > foot else chutes).append([foot, head])
        data = dict(title="random", squares=squares, die=die, overshoot=overshoot, ladders=ladders,
                    chutes=chutes, roll_again_on=rng.randint(1, die) if roll_again else None, start=0, source="t")
        try:
            board = board_from_mapping(data, "random")
        except BoardError:
            continue
        c = turn_chain(board)
        if c.size <= 8 and three_setup(c).k >= min_degree:
            return board


CASES = [("stay", False, 1), ("bounce", False, 2), ("pass", False, 3), ("stay", True, 4), ("bounce", True, 5),
         ("pass", True, 6), ("stay", False, 7), ("pass", False, 8)]


@pytest.mark.parametrize(("overshoot", "roll_again", "seed"), CASES)
def test_random_boards_equal_direct_solve(overshoot: str, roll_again: bool, seed: int):
    board = random_board(random.Random(seed), overshoot, roll_again)
    c = turn_chain(board)
    exact = first_of_three_wins(c)
    assert exact == direct_three_solve(c), board
    assert 0 < exact < 1


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_symmetric_cube_denominator_is_the_cube_root_of_the_resultant_times_its_cofactor(seed: int) -> None:
    """E from the residues (one cube root per prime) is the integer whose cube is Res(F, G̃) times the
    cofactor, computed here exactly; it lies inside the rigorous bound that fixed the number of primes."""
    setup = three_setup(turn_chain(random_board(random.Random(seed), ("stay", "bounce", "pass")[seed % 3], False)))
    cube, _ = denominator_and_numerator(setup)
    assert cube**3 == int(setup.F.resultant(setup.G_mod)) * setup.cube_cofactor
    assert abs(cube).bit_length() <= setup.bound_bits


def test_larger_minimal_polynomial_and_second_process():
    board = random_board(random.Random(11), "bounce", False, min_degree=6)
    c = turn_chain(board)
    assert first_of_three_wins(c, parallel=True) == direct_three_solve(c)


def test_tiny_board_equals_direct_solve_both_ways():
    # the bundled 10-square test board (squares 0 to 10, a ladder from 4 to 7, a chute from 9 to 2)
    board = board_from_mapping(dict(title="tiny", squares=10, die=6, overshoot="stay", ladders=[[4, 7]],
                                    chutes=[[9, 2]], source="t"), "tiny")
    c = turn_chain(board)
    direct = direct_three_solve(c)
    assert first_of_three_wins(c, parallel=False) == direct
    assert first_of_three_wins(c, parallel=True) == direct


def test_board_with_start_on_the_board():
    board = board_from_mapping(dict(title="t", squares=9, die=3, overshoot="bounce", ladders=[[2, 6]],
                                    chutes=[[8, 3]], roll_again_on=3, start=1, source="t"), "t")
    c = turn_chain(board)
    assert first_of_three_wins(c) == direct_three_solve(c)


def test_board_whose_games_end_within_two_turns():
    # Q is nilpotent: the sum has only its first terms (a1 = 1/2, then a2 = S2 = 1/2), no modular stage
    board = board_from_mapping(dict(title="t", squares=2, die=2, overshoot="pass", source="t"), "t")
    c = turn_chain(board)
    assert first_of_three_wins(c) == direct_three_solve(c) == Fraction(5, 8)


def test_classic_inside_certified_interval():
    c = turn_chain(load_board(BOARDS / "classic.toml"))
    t0 = time.perf_counter()
    setup = three_setup(c)
    t1 = time.perf_counter()
    exact = modular_stage(setup)  # first_of_three_wins(c) is these two steps
    t2 = time.perf_counter()
    num_digits = len(gmpy2.mpz(exact.numerator).digits())
    den_digits = len(gmpy2.mpz(exact.denominator).digits())
    print(f"\nclassic, first of three: {num_digits} / {den_digits} digits in {t2 - t0:.2f} s (exact setup "
          f"{t1 - t0:.2f} s, primes and CRT {t2 - t1:.2f} s; k = {setup.k}, zeros = {setup.zeros})")
    assert num_digits == den_digits == 175_755
    ball = race(c, [c.board.start] * 3).wins[0].ball
    with ctx.workprec(400):
        scaled = int(gmpy2.mpz(exact.numerator) * (gmpy2.mpz(1) << 300) // exact.denominator)
        enclosure = arb(fmpq(scaled, 2**300)).union(arb(fmpq(scaled + 1, 2**300)))
        assert ball.contains(enclosure)


def test_the_command_line_prints_the_exact_fraction_and_refuses_what_is_too_slow() -> None:
    out = chutes("solve", "tiny", "--players", "3", "--exact", "--json")
    assert out.returncode == 0, out.stderr
    p = json.loads(out.stdout)["first_player_wins"]
    exact = first_of_three_wins(turn_chain(load_board(board_files(BUNDLED_BOARDS)["tiny"])))
    assert fraction_from_json(p) == exact
    assert p["decimal"].startswith(str(float(exact))[:10]) and p["numerator_digits"] == len(p["numerator"])
    slow = chutes("solve", "noordenbos", "--players", "3", "--exact")
    assert slow.returncode == 2 and "would take about" in slow.stderr and len(slow.stderr.splitlines()) == 1
    wrong = chutes("solve", "tiny", "--exact")
    assert wrong.returncode == 2 and "--exact goes with --players 3" in wrong.stderr


@pytest.mark.parametrize(("modulus", "residue"), [(1, 0), (3, 2), (4, 3), (10, 7)])
def test_the_primes_of_a_class_are_all_its_primes_above_2_to_the_62_in_order(modulus: int, residue: int) -> None:
    """`primes_above_bits` walks the class's odd numbers; it must find what next_prime finds, kept lists included."""
    from chutes.compute.solve.modular import primes_above_bits

    expected, p = [], gmpy2.mpz(1 << 62)
    while len(expected) < 400:
        p = gmpy2.next_prime(p)
        if p % modulus == residue:
            expected.append(int(p))
    first = primes_above_bits(62 * 200, modulus, residue)  # found anew, or from the list this process keeps
    assert first == expected[:len(first)] and len(first) >= 200
    more = primes_above_bits(62 * 390, modulus, residue)  # the kept list, then new ones
    assert more == expected[:len(more)] and len(more) >= 390


def test_a_class_without_primes_is_refused() -> None:
    from chutes.compute.solve.modular import primes_above_bits

    with pytest.raises(ValueError, match="no primes above"):
        primes_above_bits(100, 4, 2)
