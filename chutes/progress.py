"""What the command line shows while long work runs, so that it is never silent for more than a moment.

On a terminal: a tqdm bar redrawn every half second (its clock runs even while one long step is under
way), measured against the cost model's estimate where there is one. Elsewhere (CI logs, pipes): one line
when a step starts, with its estimate, and one when it ends, with the time it took.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tqdm import tqdm

TICK_SECONDS = 0.5


def on_terminal() -> bool:
    """Whether progress goes to a person watching a terminal (standard error is one)."""
    return sys.stderr.isatty()


def say(message: str) -> None:
    """One line on standard error, the command line's voice."""
    print(f"chutes: {message}", file=sys.stderr, flush=True)


def about(seconds: float) -> str:
    """An estimate for people: 'about 3 s', 'about 2 min'."""
    return f"about {seconds:.0f} s" if seconds < 100 else f"about {seconds / 60:.0f} min"


class Bar:
    """A tqdm bar over `total` units redrawn every TICK_SECONDS by a thread of its own, so that its clock runs
    while one long step is under way. With `clock`, the bar follows the seconds elapsed (its total is an
    estimate in seconds) and never reaches the end before the work does."""

    def __init__(self, label: str, total: float | None, unit: str, clock: bool = False) -> None:
        fmt = ("{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} " + unit + " [{elapsed}<{remaining}]"
               if total else "{desc}: {elapsed}")
        self.bar = tqdm(total=total, desc=label, bar_format=fmt, file=sys.stderr, leave=False, dynamic_ncols=True)
        self.clock = clock and bool(total)
        self.started = time.perf_counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)
        self.thread.start()

    def _tick(self) -> None:
        while not self.stop.wait(TICK_SECONDS):
            if self.clock:
                self.bar.n = min(time.perf_counter() - self.started, 0.99 * self.bar.total)
            self.bar.refresh()

    def advance(self, amount: float = 1) -> None:
        self.bar.update(amount)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.bar.close()


@contextmanager
def step(label: str, estimate: float | None = None) -> Iterator[None]:
    """One long step: a ticking bar on a terminal (elapsed against the estimate), else a line before and after."""
    started = time.perf_counter()
    if on_terminal():
        bar = Bar(label, round(estimate, 1) if estimate else None, "s estimated", clock=True)
        try:
            yield
        finally:
            bar.close()
    else:
        say(f"{label}..." + (f" ({about(estimate)})" if estimate else ""))
        yield
    say(f"{label}: done in {time.perf_counter() - started:.1f} s")


class BoardProgress:
    """The compute stage's boards as they start and finish (`compute.stage.update`'s on_start and on_done):
    a line for each (the estimate before, the time after), and on a terminal a ticking bar under them,
    measured in estimated seconds."""

    def __init__(self) -> None:
        self.bar: Bar | None = None

    def _line(self, text: str) -> None:
        if self.bar is not None:
            self.bar.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr, flush=True)

    def start(self, slug: str, estimate: float) -> None:
        if on_terminal():
            if self.bar is None:
                self.bar = Bar("computing", 0.0, "s estimated")
            self.bar.bar.total = round(self.bar.bar.total + estimate, 1)
        self._line(f"  {slug}: computing ({about(estimate)})")

    def done(self, slug: str, computed: bool, seconds: float, estimate: float | None, file: str) -> None:
        what = f"computed in {seconds:.1f} s" if computed else "up to date"
        self._line(f"  {slug}: {what} ({file})")
        if self.bar is not None and computed and estimate:
            self.bar.advance(estimate)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
