"""`chutes experiment`: what-if experiments on a board (after Hochman): die size, starting square, one more jump."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from chutes.compute.board.limits import MAX_DIE

from .group import (
    PLAIN_DIGITS,
    CommandFunction,
    emit_json,
    find_board,
    main,
    open_project,
    printable,
    project_option,
    scheduler_option,
)

if TYPE_CHECKING:
    from chutes.compute.board.model import Board


@main.group(help="What-if experiments on a board (after Hochman): die size, starting square, one more jump.")
def experiment() -> None:
    """Experiment commands."""


def _parallel_options(fn: CommandFunction) -> CommandFunction:
    fn = scheduler_option("Run on this Dask cluster (e.g. tcp://10.0.0.5:8786) instead of local processes.")(fn)
    fn = click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default=True,
                      help="Local worker processes.")(fn)
    fn = click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Where finished sweeps and their pieces are kept [default: the project's "
                           ".cache/results/experiments; none outside a project].")(fn)
    fn = project_option(fn)
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")(fn)


def _folder(cache_dir: Path | None, project: Path | None) -> Path | None:
    """Where sweeps are cached: --cache, else the project's experiments folder, else nowhere."""
    from chutes.site_build.project import absolute

    if cache_dir is not None:
        return absolute(cache_dir)
    here = open_project(project, need_config=False)
    return here.experiments_dir if here.config_file.is_file() else None


@experiment.command(help="Expected turns and the first player's chance for dice of 1 to N faces.")
@click.argument("board")
@click.option("--max-faces", type=click.IntRange(1, MAX_DIE), default=MAX_DIE, show_default=True, help="Largest die.")
@_parallel_options
def dice(board: str, max_faces: int, as_json: bool, project: Path | None, jobs: int, scheduler: str | None,
         cache_dir: Path | None) -> None:
    """Die-size experiment."""
    from chutes.compute.experiments.sweeps import dice as run_dice

    b = find_board(board, project)
    result = run_dice(b, max_faces, jobs, scheduler, _folder(cache_dir, project))
    if as_json:
        emit_json({"board": b.slug or board, **result})
        return
    click.echo(f"{printable(b.title)}: the same board with other dice")
    click.echo(f"  {'faces':>5}  {'average game (turns)':>22}  {'first of two players wins':>26}")
    for row in result["dice"]:
        if row["expected_turns"] is None:
            click.echo(f"  {row['faces']:>5}  never finishes ({row['note']})")
            continue
        first = row["first_player_wins"]
        mark = "" if first["exact"] else " (double precision)"
        note = f"  [{row['note']}]" if row["note"] else ""
        click.echo(f"  {row['faces']:>5}  {float(row['expected_turns']['decimal']):>22.7f}  "
                   f"{float(first['decimal']):>26.10f}{mark}{note}")


@experiment.command(help="Expected turns from every starting square; squares worse than the previous one.")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@project_option
def start(board: str, as_json: bool, project: Path | None) -> None:
    """Starting-square experiment."""
    from chutes.compute.experiments.sweeps import start as run_start

    b = find_board(board, project)
    result = run_start(b)
    if as_json:
        emit_json({"board": b.slug or board, **result})
        return
    worse = result["worse_than_previous"]
    click.echo(f"{printable(b.title)}: starting somewhere else")
    click.echo(f"  From the usual start ({b.start}): "
               f"{float(result['expected_turns_from'][str(b.start)]['decimal']):.7f} turns on average.")
    click.echo(f"  {len(worse)} squares are worse to start on than the square before them: "
               f"{', '.join(map(str, worse))}")


@experiment.command(name="add-jump", help="Every single chute or ladder that could be added, and its effect.")
@click.argument("board")
@click.option("--min-length", type=click.IntRange(1, 10_000), default=10, show_default=True,
              help="Shortest jump considered.")
@click.option("--exact", "exact_pair", metavar="FROM,TO", default=None,
              help="Only this jump, with the first player's chance exactly.")
@_parallel_options
def add_jump(board: str, min_length: int, exact_pair: str | None, as_json: bool, project: Path | None, jobs: int,
             scheduler: str | None, cache_dir: Path | None) -> None:
    """Single-jump scan."""
    b = find_board(board, project)
    if exact_pair is not None:
        from chutes.compute.experiments.variants import exact_candidate

        source, target = _parse_pair(exact_pair, b)
        result = exact_candidate(b, source, target)
        if as_json:
            emit_json({"board": b.slug or board, **result})
        else:
            click.echo(f"{printable(b.title)} with a jump from {source} to {target}:\n"
                       f"  average game {float(result['expected_turns']['decimal']):.7f} turns "
                       f"= {result['expected_turns']['numerator']}/{result['expected_turns']['denominator']}\n"
                       f"  first of two players wins {result['first_player_wins']['decimal']}")
        return
    from chutes.compute.experiments.sweeps import add_jump as run_scan

    result = run_scan(b, min_length, jobs, scheduler, _folder(cache_dir, project))
    if as_json:
        emit_json({"board": b.slug or board, **result})
        return
    c = result["counts"]
    if not result["candidates"]:
        click.echo(f"{printable(b.title)}: no single chute or ladder of length {min_length} or more fits on this board "
                   f"(squares 0 to {b.squares}, without the feet of its own jumps)")
        return
    click.echo(f"{printable(b.title)}: {result['candidates']:,} possible single jumps of length {min_length} or more")
    click.echo(f"  {c['changed']:,} change the average game; {c['no effect']:,} have no effect; "
               f"{c['never ends']:,} would make the game endless.")
    click.echo(f"  Against intuition: {result['counterintuitive']:,} "
               f"({result['counterintuitive_ladders']:,} ladders that lengthen the game, "
               f"{result['counterintuitive_chutes']:,} chutes that shorten it).")
    for title, key, none in (("Ladders that lengthen the game most", "lengthening_ladders", "ladder lengthens"),
                             ("Chutes that shorten the game most", "shortening_chutes", "chute shortens")):
        rows = result["top"][key][:5]
        click.echo(f"  {title}:" if rows else f"  No added {none} the game.")
        for row in rows:
            click.echo(f"    {row['from']:>3} → {row['to']:<3} {float(row['delta_turns']['decimal']):+.4f} turns")


def _parse_pair(text: str, board: Board) -> tuple[int, int]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p and set(p) <= PLAIN_DIGITS for p in parts):
        raise click.BadParameter(f"expected two squares FROM,TO in plain digits, got {text!r}", param_hint="--exact")
    source, target = (int(p) for p in parts)
    for sq in (source, target):
        if not 0 <= sq <= board.squares:
            raise click.BadParameter(f"square {sq} is not on the board (0 to {board.squares})", param_hint="--exact")
    if source == target or source in board.jumps or target in board.jumps:
        raise click.BadParameter("the ends must differ and not be the foot of an existing jump", param_hint="--exact")
    return source, target
