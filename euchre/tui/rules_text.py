"""The rules of a game in a player's words: the nearest preset plus what differs from it.

The title line shows this so a player always knows what game is on (``two-handed``, ``standard +
Canadian loner``), whether the game was started from flags or resumed from a file; ``help
rules`` lists every option. The preset is worked out from the rules themselves, never taken
from how the game was started, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import fields

from euchre.rules import PRESETS, Rules, Scoring

#: Options with their words for the title (value -> words; a callable for free values).
_WORDS: dict[str, dict[object, str]] = {
    "players": {2: "two players", 3: "three players (cutthroat)", 4: "four players"},
    "deck": {24: "24 cards", 25: "Joker deck (25 cards)", 32: "32 cards (7s and 8s)"},
    "stick_the_dealer": {True: "stick the dealer", False: "dealer may pass"},
    "going_alone": {True: "going alone", False: "no going alone"},
    "defend_alone": {True: "defend alone", False: "no defending alone"},
    "canadian_loner": {True: "Canadian loner", False: "no Canadian loner"},
    "farmers_hand": {"off": "no farmer's hand", "redeal": "farmer's hand: redeal",
                     "swap": "farmer's hand: swap"},
    "no_ace_no_face": {True: "no-ace-no-face misdeal", False: "no misdeal call"},
    "renege": {"prevent": "reneges prevented", "penalize": "reneges penalized"},
    "first_dealer": {"random": "first dealer at random",
                     "black_jack": "first dealer by black Jack"},
    "alone_timing": {"with_bid": "alone with the bid",
                     "after_discard": "alone asked after the discard"},
    "dealer_may_discard_upcard": {True: "dealer may bury the up-card",
                                  False: "dealer may not bury the up-card"},
    "defend_alone_vs_partners": {True: "defend alone against pairs too",
                                 False: "defend alone only against loners"},
    "single_hand": {True: "one hand only", False: "hands to the target"},
    "renege_fix": {True: "reneges may be fixed in time", False: "no taking back a renege"},
    "renege_penalty": {"points": "a renege pays the other side",
                       "deduct": "a renege costs the offenders points",
                       "tricks": "a renege costs two tricks"},
    "misdeal_passes": {True: "a misdeal passes the deal", False: "a misdeal is redealt"},
    "rows": {True: "with rows", False: "no rows"},
    "rows_euchre": {True: "a missed bid is euchred", False: "a missed bid scores nothing"},
}

#: What each option is, for the full list of ``help rules``.
_TOPICS: dict[str, str] = {
    "players": "Players",
    "deck": "Deck",
    "target": "Game to",
    "stick_the_dealer": "Round 2",
    "going_alone": "Going alone",
    "defend_alone": "Defending alone",
    "canadian_loner": "Canadian loner",
    "farmers_hand": "Farmer's hand",
    "no_ace_no_face": "No ace, no face",
    "renege": "Reneges",
    "first_dealer": "First dealer",
    "alone_timing": "When to go alone",
    "dealer_may_discard_upcard": "Dealer's discard",
    "defend_alone_vs_partners": "Defending alone vs pairs",
    "single_hand": "Length",
    "renege_fix": "Fixing a renege",
    "renege_penalty": "A proven renege",
    "misdeal_passes": "After a misdeal",
    "rows": "Rows",
    "rows_euchre": "A missed rows bid",
    "scoring": "Scoring",
}


def _value_words(name: str, value: object) -> str:
    if name == "target":
        return f"{value} points"
    if name == "scoring":
        assert isinstance(value, Scoring)
        return ", ".join(f"{f.name.replace('_', ' ')} {getattr(value, f.name)}"
                         for f in fields(Scoring))
    return _WORDS[name].get(value, f"{name}={value}")


def _differences(rules: Rules, base: Rules) -> list[str]:
    """Words for every option (the target aside: the title shows it) that differs."""
    out: list[str] = []
    for f in fields(Rules):
        if f.name == "target":
            continue
        v, b = getattr(rules, f.name), getattr(base, f.name)
        if v == b:
            continue
        if f.name == "scoring":
            out += [f"{g.name.replace('_', ' ')} scores {getattr(v, g.name)}"
                    for g in fields(Scoring) if getattr(v, g.name) != getattr(b, g.name)]
        elif f.name == "going_alone" and rules.players != base.players:
            continue  # follows the player count
        else:
            out.append(_value_words(f.name, v))
    return out


def nearest_preset(rules: Rules) -> tuple[str, list[str]]:
    """The preset with the fewest differences (earlier presets win ties) and the differences."""
    best: tuple[str, list[str]] | None = None
    for name, base in PRESETS.items():
        diffs = _differences(rules, base)
        if best is None or len(diffs) < len(best[1]):
            best = (name, diffs)
    assert best is not None
    return best


def rules_titles(rules: Rules) -> list[str]:
    """Ways to name the rules, longest first: ``standard + defend alone, Canadian loner``,
    ``standard + 2 changes (help rules)``, ``standard + 2 changes``, ``standard+2``."""
    name, diffs = nearest_preset(rules)
    if not diffs:
        return [name]
    k = len(diffs)
    many = f"{name} + {k} change{'s' if k != 1 else ''}"
    return [f"{name} + {', '.join(diffs)}", f"{many} (help rules)", many, f"{name}+{k}"]


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
    for f in fields(Rules):
        v = getattr(rules, f.name)
        mark = "*" if v != getattr(base, f.name) else " "
        words = _value_words(f.name, v)
        if f.name == "scoring":  # seven values: four and three to a line, lined up
            items = words.split(", ")
            lines.append(f" {mark} {'Scoring:':<26}{', '.join(items[:4])},")
            lines.append(f"   {'':<26}{', '.join(items[4:])}")
            continue
        topic = "Bidding" if f.name == "stick_the_dealer" and rules.rows else _TOPICS[f.name]
        lines.append(f" {mark} {topic + ':':<26}{words}")
    if rules.rows:  # the game's own bidding and scoring (docs/rules.md)
        for i, text in enumerate(("bid 7 to 12 of the 12 tricks, non-dealer",
                                  "first, the dealer must outbid; the higher bid",
                                  "names trump and scores 'make' a trick past six",
                                  "if it takes its bid, else " + (
                                      "the other scores 'euchre'" if rules.rows_euchre
                                      else "nothing"))):
            lines.append(f"   {'With rows:' if not i else '':<26}{text}")
    lines.append("   (* differs from the preset; every option is a flag of 'euchre play')")
    return lines
