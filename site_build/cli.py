"""The full `chutes` command: the compute stage's commands plus `build` and `serve` for the site."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from compute.cli import main, run


@main.command(help="Build the website into site/: compute (cached), write the pages, run MkDocs, check it.")
@click.option("--force", is_flag=True, help="Recompute every board even when the cache is up to date.")
@click.option("--boards", "boards_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of board files [default: site_src/boards].")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Cache folder [default: .cache/results].")
@click.option("--site-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to put the site [default: site].")
def build(force: bool, boards_dir: Path | None, cache_dir: Path | None, site_dir: Path | None) -> None:
    """Build and check the site."""
    from site_build.pipeline import SITE_DIR, build_site

    started = time.perf_counter()
    out = build_site(boards_dir, cache_dir, site_dir or SITE_DIR, force=force)
    pages = len(list(out.rglob("*.html")))
    click.echo(f"chutes: site built in {time.perf_counter() - started:.1f} s: {pages} pages in {out}/ "
               f"(open {out}/index.html through a web server, e.g. 'chutes serve')", err=True)


@main.command(help="Preview the site at http://127.0.0.1:8000/ with live reload.")
@click.option("--dev-addr", default="127.0.0.1:8000", show_default=True, metavar="IP:PORT",
              help="Address to serve on.")
def serve(dev_addr: str) -> None:
    """Serve the site for preview."""
    from site_build.pipeline import serve as serve_site

    serve_site(dev_addr)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(run())
