"""Long work is never silent: a line per board and per build step in a log, a ticking bar on a terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import random
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from helpers import chutes, new_project


def test_a_build_in_a_log_says_each_board_s_estimate_then_its_time_then_each_step(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p", ["short"])
    out = chutes("build", cwd=project.root)
    assert out.returncode == 0, out.stderr
    lines = out.stderr.splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    assert at("short: computing (about") < at("short: computed in") < at("writing the pages...")
    assert at("writing the pages...") < at("writing the pages: done in") < at("building the site with MkDocs...")
    assert at("building the site with MkDocs: done in") < at("checking the site...") < at("site built in")
    again = chutes("build", cwd=project.root)
    assert "short: up to date" in again.stderr and "computing" not in again.stderr


def _random_board(path: Path, squares: int = 400) -> Path:
    """A board whose solve is estimated at a few seconds (above the threshold for showing progress)."""
    rng = random.Random(3)
    used: set[int] = set()
    jumps: dict[str, list[list[int]]] = {"ladders": [], "chutes": []}
    while len(jumps["ladders"]) + len(jumps["chutes"]) < 40:
        a = rng.randrange(2, squares - 1)
        b = a + rng.choice([-1, 1]) * rng.randrange(5, 40)
        if a in used or b in used or not 1 <= b < squares:
            continue
        used |= {a, b}
        jumps["ladders" if b > a else "chutes"].append([a, b])
    path.write_text(f"squares = {squares}\ndie = 6\nladders = {jumps['ladders']}\nchutes = {jumps['chutes']}\n")
    return path


def test_a_long_solve_on_a_terminal_shows_a_bar_that_keeps_moving(tmp_path: Path) -> None:
    board = _random_board(tmp_path / "big.toml")
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "chutes", "solve", str(board)], stdin=follower,
                               stdout=subprocess.DEVNULL, stderr=follower, cwd=tmp_path)
    os.close(follower)
    frames: list[bytes] = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        frames += [part for part in chunk.split(b"\r") if b"s estimated" in part]
    os.close(leader)
    assert process.wait(timeout=60) == 0
    percents = [int(f.split(b"%")[0].split(b":")[-1]) for f in frames if b"%" in f]
    assert len(percents) >= 3, f"the bar was drawn {len(percents)} times"
    assert percents == sorted(percents) and percents[-1] > percents[0], "the bar moves forward"
