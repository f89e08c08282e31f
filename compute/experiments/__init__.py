"""What-if experiments on a board: its variants (`variants`: other dice, other starts, one jump added) and
their sweeps, cached and run in parallel (`sweeps`)."""

WITHOUT_HOUSE_RULES = ("dice", "add-jump")
"""The experiments that refuse a board with house rules (`Board.house_rules`): they vary one fair die and follow
rolls with an unlimited roll-again (the Command line page says so, from this)."""
HOUSE_RULE_KEYS = ("enter_on", "dice", "weights", "roll_again_limit", "choice")
"""The board keys that make a board one with house rules, as `Board.house_rules` reads them."""
