"""`python -m chutes` runs the same command line as `chutes`."""

from chutes.cli import entry

entry()
