"""A record is the same bytes on any machine: computed under settings that stand for other processors (numpy's
AVX-512 paths off, another OpenBLAS kernel, Numba compiling for a generic x86-64, one thread or two), the records
of small boards that take every float path (the turn chain with and without a roll-again rule, a roll-again
limit, the added-jump scan, the die sweep with a roll-again rule, the best play and the two-player games of a
choice) are identical, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = """
import json, sys
from chutes.compute.board.file import board_from_mapping
from chutes.compute.record.build import board_experiments, board_record
tiny = dict(squares=10, die=6, ladders=[[2, 6]], chutes=[[8, 3]])
boards = {"plain": tiny, "roll-again": {**tiny, "roll_again_on": 6},
          "house-rules": {**tiny, "enter_on": [5, 6], "roll_again_on": 6, "roll_again_limit": 2},
          "coin": {**tiny, "choice": "coin", "roll_again_on": 6}}
out = {}
for slug, data in boards.items():
    board = board_from_mapping(data, slug, slug)
    out[slug] = board_record(board, board_experiments(board)).json_form()
sys.stdout.write(json.dumps(out, sort_keys=True))
"""


def _avx512() -> str:
    """The AVX-512 features numpy uses on this machine (numpy refuses to disable one it does not have)."""
    from numpy._core._multiarray_umath import __cpu_features__

    return " ".join(name for name, on in __cpu_features__.items() if on and name.startswith("AVX512"))


def _records(**settings: str) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NPY_", "OPENBLAS_", "NUMBA_", "OMP_"))}
    env.update(settings)
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, timeout=600,
                          cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout


@pytest.mark.xdist_group("same-bytes")
def test_records_are_the_same_bytes_under_other_processors_kernels_and_threads() -> None:
    usual = _records()
    other_simd = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
    if _avx512():
        other_simd["NPY_DISABLE_CPU_FEATURES"] = _avx512()
    generic = {"NUMBA_CPU_NAME": "generic", "OPENBLAS_CORETYPE": "Sandybridge", "OPENBLAS_NUM_THREADS": "2",
               "NUMBA_NUM_THREADS": "2"}
    assert usual and b'"delta_first_player"' in usual and b'"mover_wins"' in usual and b'"both_maximise"' in usual
    assert _records(**other_simd) == usual
    assert _records(**generic) == usual


def test_a_fixed_order_product_adds_row_after_row() -> None:
    """x·Q in a fixed order is, bit for bit, the sum of xᵢ·Qᵢ added row after row (each step one IEEE rounding), on
    a dense turn chain (a six rolling again)."""
    from helpers import chain

    c = chain("classic-roll-again")
    x = np.random.default_rng(1).random(c.size)
    fixed = c.floats.step(x)
    by_hand = np.zeros(c.size)
    for i in range(c.size):
        by_hand += x[i] * c.Q_float[i]
    assert np.array_equal(fixed, by_hand)
