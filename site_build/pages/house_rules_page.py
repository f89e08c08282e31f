"""The house-rules page's groups: each board played under other rules beside its plain board."""

from __future__ import annotations

from markdown.extensions.toc import slugify  # type: ignore[import-untyped]

from .board_page import BoardPage
from .words import PageWords

MADE_WHEN = ("a board with house rules has its plain board on the site: a listed board of the same layout (squares, "
             "die, start, chutes and ladders) played with one fair die, overshoot \"stay\", no roll-again and no house "
             "rule")
"""When the House rules page is made (`house_rule_groups` finds a group), in words for the build's note and guide."""


def house_rule_groups(pages: list[BoardPage], words: PageWords | None = None,
                      ) -> list[tuple[BoardPage, list[tuple[BoardPage, list[str]]]]]:
    """Boards played under other rules, each group beside its plain board: the same squares, chutes, ladders,
    die and start, one fair die and no roll-again. Each variant comes with the sentences of its rules that the
    plain board's rules do not have (what the family changed), in the language of `words` (default English)."""
    in_words = words or PageWords()

    def layout(page: BoardPage) -> tuple:
        b = page.record.results.board
        return b.squares, b.die, b.start, tuple(map(tuple, b.ladders)), tuple(map(tuple, b.chutes))

    def plain(page: BoardPage) -> bool:
        b = page.record.results.board
        return b.roll_again_on is None and b.overshoot == "stay" and not b.house_rules

    def sentences(page: BoardPage) -> list[str]:
        return in_words.rule_sentences(page.record.results.board)

    groups = []
    for base in (p for p in pages if plain(p)):
        known = set(sentences(base))
        variants = [(p, [s for s in sentences(p) if s not in known])
                    for p in pages if p is not base and layout(p) == layout(base) and not plain(p)]
        if variants:
            groups.append((base, variants))
    return groups


def heading_id(page: BoardPage) -> str:
    """The id of a group's heading: its plain board's English title as the table of contents makes ids, the same
    in every language, so that a link to a group keeps working in each."""
    return slugify(page.title, "-")
