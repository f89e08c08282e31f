"""What of a written guide page the search index holds: every page and heading, each section's opening paragraph,
no code (the tutorial, a notebook, is written as its cells are).

Every page of the site's first language loads the same search index when its reader first searches (the theme
holds it back until then), so the guide (in English only) is found by its headings and by what each section is
about, and a reader follows the link for the rest: a lighter index to fetch for a first search on a phone. The
parts left out are wrapped in `<div data-search-exclude markdown>`, which both engines' search leaves out of the
index and which Markdown renders as it would without the wrapper.
"""

from __future__ import annotations

import re

EXCLUDED = "<div data-search-exclude markdown>"
FENCE = re.compile(r"^(`{3,})[^\n`]*\n.*?^\1[ \t]*$", re.M | re.S)
"""A fenced code block at the start of its lines (not one inside a tab, a note or another block)."""

HEADING = re.compile(r"#{1,6} ")
FENCE_LINE = re.compile(r"(`{3,}|~{3,})")
NOT_A_PARAGRAPH = re.compile(r"\s|#{1,6} |\||<|>|`{3}|~{3}|[-*+] |\d+[.)] |!!!|\?\?\?|===|:|\{|\[[^\]]*\]:")
"""The start of a line that begins some other block than a paragraph: indented, a heading, a table, HTML, a quote,
code, a list, a note, a tab, a definition, attributes, a link reference."""
OPENS, CLOSES = re.compile(r"<div\b"), re.compile(r"</div>")
RENDERED_AS_DIV = re.compile(r"<div\b|^(!!!|\?\?\?|===) |^\s+(`{3}|~{3})", re.M)
"""A block that renders as a <div> or holds one: HTML, a note, tabs, code inside a list."""


def unsearched_code(markdown: str) -> str:
    """The page with each of its top-level code blocks (commands, examples, files) in a block left out of the search
    index: the guide is found by its words and headings, and the index every page loads stays small. A block the
    template already leaves out is not wrapped again (the end of a <div> inside one would end it for the search)."""
    return FENCE.sub(lambda m: m.group(0) if markdown.endswith(f"{EXCLUDED}\n\n", 0, m.start())
                     else f"{EXCLUDED}\n\n{m.group(0)}\n\n</div>", markdown)


def searched_by_their_leads(markdown: str) -> str:
    """The page with what follows each section's first paragraph (up to the next heading) left out of the search
    index, its code blocks too. A heading or a paragraph counts only at the margin, outside code and HTML blocks,
    so that every part left out is whole Markdown. A block that renders as a <div> (code, already left out; HTML, a
    note, tabs) is not wrapped: Material's search reader takes the end of any <div> inside a left-out one for the
    end of the part left out."""
    out: list[str] = []
    blocks: list[list[str]] = [[]]
    fence: str | None = None
    depth = 0
    lead, after_lead = False, False

    def leave_out() -> None:
        kept: list[str] = []
        for block in [b for b in blocks if any(line.strip() for line in b)]:
            block = block if not block[-1].strip() else [*block, ""]
            if RENDERED_AS_DIV.search("\n".join(block)):
                out.extend([*_left_out(kept), *block])
                kept = []
            else:
                kept.extend(block)
        out.extend(_left_out(kept))
        blocks[:] = [[]]

    for line in unsearched_code(markdown).split("\n"):
        if fence is None and depth == 0 and HEADING.match(line):
            leave_out()
            lead, after_lead = False, False
            out.append(line)
            continue
        (blocks[-1] if after_lead else out).append(line)
        if fence is not None:
            fence = None if line.strip() == fence else fence
            continue
        opened = FENCE_LINE.match(line)
        if opened:
            fence = opened.group(1)
            continue
        depth = max(0, depth + len(OPENS.findall(line)) - len(CLOSES.findall(line)))
        if depth:
            continue
        if after_lead:
            if not line.strip():
                blocks.append([])
        elif lead and not line.strip():
            after_lead = True
        elif not lead and line.strip() and not NOT_A_PARAGRAPH.match(line):
            lead = True
    leave_out()
    return "\n".join(out)


def _left_out(lines: list[str]) -> list[str]:
    """`lines` (whole blocks, each ending in a blank line) in one block left out of the search, if any."""
    return [EXCLUDED, "", *lines, "</div>", ""] if lines else []
