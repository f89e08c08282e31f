"""What-if experiments on a board: its variants (`variants`: other dice, other starts, one jump added) and
their sweeps, cached and run in parallel (`sweeps`)."""
