"""The rules of a game in a player's words: the nearest preset plus what differs from it.

The title line shows this so a player always knows what game is on (``two-handed``, ``standard +
Canadian loner``), whether the game was started from flags or resumed from a file; ``help
rules`` lists every option. The preset is worked out from the rules themselves, never taken
from how the game was started, so the two can never disagree.
"""

from __future__ import annotations

from euchre.rules import PRESETS, Rules, nearest_preset, rules_titles
from euchre.variants import variant_for

__all__ = ["nearest_preset", "rules_lines", "rules_title", "rules_titles"]


def rules_title(rules: Rules, room: int = 79) -> str:
    """The longest of :func:`rules_titles` within ``room`` columns (the shortest if none)."""
    titles = rules_titles(rules)
    return next((t for t in titles if len(t) <= room), titles[-1])


def rules_lines(rules: Rules) -> list[str]:
    """Every option of the game, one line each, for ``help rules``."""
    name, diffs = nearest_preset(rules)
    lines = [f"Rules: {name}" + (f" with {len(diffs)} change{'s' if len(diffs) != 1 else ''}"
                                 if diffs else " preset")]
    base = PRESETS[name]
    width = max(len(o.label) for o in Rules.options()) + 2
    for o in Rules.options():
        v = getattr(rules, o.name)
        mark = "*" if v != getattr(base, o.name) else " "
        words = o.describe(v)
        if o.kind == "group":  # the scoring table: four values and three to a line, lined up
            items = words.split(", ")
            lines.append(f" {mark} {o.label + ':':<{width}}{', '.join(items[:4])},")
            lines.append(f"   {'':<{width}}{', '.join(items[4:])}")
            continue
        lines.append(f" {mark} {o.label + ':':<{width}}{words}")
    if variant_for(rules).bids_tricks:  # the game's own bidding and scoring (docs/rules.md)
        for i, text in enumerate(("bid 7 to 12 of the 12 tricks, non-dealer",
                                  "first, the dealer must outbid; the higher bid",
                                  "names trump and scores 'make' a trick past six",
                                  "if it takes its bid, else " + (
                                      "the other scores 'euchre'" if rules.rows_euchre
                                      else "nothing"))):
            lines.append(f"   {'Bidding:' if not i else '':<{width}}{text}")
    lines.append("   (* differs from the preset; every option is a flag of 'euchre play')")
    return lines
