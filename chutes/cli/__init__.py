"""The `chutes` command line: solve and simulate boards, fill the results cache, build and preview the site.

The command group and the options its commands share are in `group`; the commands are in `solve` (solve,
simulate), `site` (new, compute, build, serve, cache-key) and `experiments` (experiment dice, start, add-jump),
each registered on the group when its module is imported here. Heavy modules are imported inside the commands
that use them, so that a quick command starts quickly. Here the command line is run: bad input ends with exit
status 2 and one line on standard error, never a traceback.
"""

from __future__ import annotations

import sys

import click

from . import experiments, site, solve  # noqa: F401  (each registers its commands on the group)
from .group import main, say

EXIT_BAD_INPUT = 2


def _library_error(exc: BaseException) -> int | None:
    """The exit status for one of the libraries' own errors, each a one-line message (2: bad input), else None."""
    from chutes.compute.board.problems import BoardError
    from chutes.compute.store.sweep import SweepError
    from chutes.site_build.checks import SiteError
    from chutes.site_build.project import ProjectError

    if isinstance(exc, BoardError | SweepError | ProjectError):
        return EXIT_BAD_INPUT
    if isinstance(exc, SiteError):
        return 1
    return None


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; problems become one line on stderr."""
    try:
        main.main(args=argv, prog_name="chutes", standalone_mode=False)
    except click.UsageError as exc:
        hint = f" (see 'chutes {exc.ctx.info_name} --help')" if exc.ctx and exc.ctx.parent else " (see 'chutes --help')"
        say(f"error: {exc.format_message()}{hint}")
        return EXIT_BAD_INPUT
    except click.ClickException as exc:
        say(f"error: {exc.format_message()}")
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        say("interrupted")
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except RecursionError:
        say("error: the input is nested too deeply to read")
        return EXIT_BAD_INPUT
    except Exception as exc:
        status = _library_error(exc)
        if status is not None:
            for line in str(exc).splitlines() or [""]:  # every bad board file at once: a line each
                say(f"error: {line}")
            return status
        if isinstance(exc, OSError):
            where = f"{exc.filename}: " if exc.filename else ""
            say(f"error: {where}{exc.strerror or exc}")
            return 1
        raise
    return 0


def entry() -> None:
    """Console-script entry point: SIGTERM stops a run the way Ctrl-C does (workers included). Once the command
    is done, every object left lives until the process ends, so they are moved out of the garbage collector's
    sight (`gc.freeze`): the collections of Python's own teardown would walk every imported library's objects
    for nothing, a fifth of a quick command's time (exit handlers still run)."""
    import gc
    import signal

    def terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    status = run()
    gc.freeze()
    sys.exit(status)
