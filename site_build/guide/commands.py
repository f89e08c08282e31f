"""The Command line page: every command of `chutes`, its arguments and options, read from the click commands
themselves (`chutes.cli.main`), so that the page lists exactly what the command line accepts."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import click

from ...cli import main  # the command group, read (never run): its commands, options and help
from ...compute.experiments import HOUSE_RULE_KEYS, WITHOUT_HOUSE_RULES  # two names, no mathematics
from ..checks import SiteError

ARGUMENTS = {
    "board": "A board file (a path ending in .toml) or a board's name: the project's board of that name (in its "
             "site_src/boards/, when run in a project or with `--project`), else the bundled board.",
    "directory": "The new project's folder: a new or an empty one.",
}
"""What each command's argument is (click gives arguments no help text of their own)."""
JSON_OUTPUTS = {
    "chutes solve": ("Results", "the record's `results` part: the board and its exact results. With `--players` or "
                     "`--positions`: the board, `players`, each seat's `win_probabilities` and the `expected_rounds`, "
                     "certified; with `--players 3 --exact`: the board, `players` and the first player's exact "
                     "`first_player_wins`"),
    "chutes simulate": ("", "`board`, `games`, `seed`, the `mean_turns` and `first_player_wins` estimated (each with "
                        "its `estimate`, `ci95`, the `exact` value and whether it is `inside_ci`), and the "
                        "`shortest_seen` and `longest_seen` games"),
    "chutes strategy": ("Strategy", "`board` (its rules, as in `Results`) and `strategy`, the record's "
                        "`results.strategy` part: where the best play flips the coin, proven optimal, the strategies "
                        "compared and one sentence of advice"),
    "chutes experiment dice": ("Dice", "`board` and the record's `experiments.dice` part"),
    "chutes experiment start": ("StartSweep", "`board` and the record's `experiments.start` part"),
    "chutes experiment add-jump": ("AddJumpScan", "`board` and the record's `experiments.add_jump` part (with "
                                   "`--exact FROM,TO`: that one jump, with the first player's exact chance)"),
}
"""What each command's `--json` prints: the record's part it has the form of (or "" for a form of its own), in words."""
MACHINE_DEFAULTS = {"jobs": "the machine's cores"}
"""Options whose default is read from the machine running the command, in words (not this machine's value)."""


@dataclass(frozen=True)
class Parameter:
    """An argument or option of a command as the page shows it."""

    names: str
    kind: str
    default: str
    help: str


@dataclass(frozen=True)
class Command:
    """A command (`chutes solve`, `chutes experiment dice`) with its help and parameters."""

    path: str
    help: str
    usage: str
    parameters: list[Parameter]
    json: bool

    @property
    def json_part(self) -> str:
        """The record's part (a model of the record's JSON Schema) that the command's --json output has the form of."""
        return JSON_OUTPUTS[self.path][0] if self.json else ""

    @property
    def json_output(self) -> str:
        """What the command's --json output holds, in words."""
        return JSON_OUTPUTS[self.path][1] if self.json else ""

    @property
    def refuses(self) -> str:
        """What boards the command refuses, in words ("" for none): the experiments of WITHOUT_HOUSE_RULES."""
        group, _, name = self.path.rpartition(" ")
        if group != "chutes experiment" or name not in WITHOUT_HOUSE_RULES:
            return ""
        keys = ", ".join(f"`{key}`" for key in HOUSE_RULE_KEYS)
        return (f"Refuses a board with house rules (any of {keys}), with one line: the experiment varies one fair die "
                "and follows rolls with an unlimited roll-again.")

    @property
    def anchor(self) -> str:
        """The command's heading id on the page: `chutes experiment add-jump` → chutes-experiment-add-jump."""
        return self.path.replace(" ", "-")


def _kind(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    kind = param.type
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(f"`{c}`" for c in kind.choices)
    if isinstance(kind, click.IntRange):
        low = f"{kind.min:,}" if kind.min is not None else "any"
        return f"whole number, {low} to {kind.max:,}" if kind.max is not None else f"whole number from {low}"
    if isinstance(kind, click.Path):
        return "folder" if not kind.file_okay else "file"
    metavar = param.metavar if isinstance(param, click.Option) else None
    return f"`{metavar}`" if metavar else "text"


def _default(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param, click.Argument):
        return "required" if param.required else "—"
    if isinstance(param, click.Option) and param.is_flag:
        return "off"
    if param.name in MACHINE_DEFAULTS:
        return MACHINE_DEFAULTS[param.name]
    default = param.get_default(ctx, call=False)
    if default is None or default == () or callable(default) or isinstance(default, enum.Enum):  # click's UNSET
        return "—"
    return f"`{default}`"


def _help(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param, click.Argument):
        if param.name not in ARGUMENTS:
            raise SiteError(f"{ctx.command_path} {param.human_readable_name}: an argument the guide does not describe "
                            "(site_build/guide/commands.py, ARGUMENTS)")
        return ARGUMENTS[param.name]
    text = getattr(param, "help", None) or ""
    if isinstance(param, click.Option) and param.multiple:
        text = f"{text} Repeatable." if "repeatable" not in text.lower() else text
    return " ".join(text.split())


def _parameters(command: click.Command, ctx: click.Context) -> list[Parameter]:
    out = []
    for param in command.params:
        if isinstance(param, click.Option) and param.hidden:
            continue
        names = ", ".join(f"`{n}`" for n in [*param.opts, *param.secondary_opts]) \
            if isinstance(param, click.Option) else f"`{param.human_readable_name}`"
        out.append(Parameter(names=names, kind=_kind(param), default=_default(param, ctx), help=_help(param, ctx)))
    out.append(Parameter(names="`--help`", kind="flag", default="off", help="Show the command's help and exit."))
    return out


def _walk(command: click.Command, ctx: click.Context) -> list[Command]:
    usage = " ".join(command.collect_usage_pieces(ctx))
    path = ctx.command_path
    found = [Command(path=path, help=" ".join((command.help or "").split()), usage=f"{path} {usage}".strip(),
                     parameters=_parameters(command, ctx),
                     json=any("--json" in getattr(p, "opts", ()) for p in command.params))]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                found += _walk(sub, click.Context(sub, info_name=name, parent=ctx))
    return found


def commands() -> list[Command]:
    """Every command of the command line, the group first, then each command (a group's before its own); a command
    with `--json` whose output the guide does not describe (JSON_OUTPUTS) is a SiteError."""
    found = _walk(main, click.Context(main, info_name="chutes"))
    for command in found:
        if command.json and command.path not in JSON_OUTPUTS:
            raise SiteError(f"{command.path} --json: an output the guide does not describe "
                            "(site_build/guide/commands.py, JSON_OUTPUTS)")
    return found
