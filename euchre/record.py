"""Versioned JSON game records: the rules, each hand's dealer and deck order, every action.

A record replays to the identical result on any machine because it stores deck orders, not
generator state. Reading one validates everything (shape, cards, actions, the final score) and
turns every problem into a :class:`~euchre.errors.RecordError` naming where it is; the library
never touches files: ``to_json``/``from_json`` work on strings, the CLI does the I/O.
"""

from __future__ import annotations

import json
from typing import Any

from euchre.actions import action_from_str, action_to_str
from euchre.cards import Card, CardParseError, card_str, deck_cards, parse_card
from euchre.errors import EuchreError, NotationError, RecordError, RulesError, quote
from euchre.match import Match
from euchre.rules import Rules

FORMAT = "euchre-record"
VERSION = 1

# Limits on what a record may hold, so a hostile file cannot tie up a program that accepts
# uploaded records (a 15 MB record of 32,000 hands took 5 s to replay). A real game is far
# inside them: a game to 10 is about 20 hands of about 600 characters, and even a game to the
# highest target (1,000) is a few thousand hands.
MAX_RECORD_CHARS = 8_000_000
"""The longest record text :func:`from_json` reads."""
MAX_HANDS = 12_000
"""The most hands a record may hold."""
MAX_HAND_ACTIONS = 400
"""The most actions one hand may hold (a hand has at most a few dozen)."""


def match_to_record(match: Match, players: list[str] | None = None) -> dict[str, Any]:
    """A JSON-ready dict of a match so far (finished hands plus the one in progress)."""
    hands: list[dict[str, Any]] = [
        {
            "dealer": f.dealer,
            "deck": [card_str(c) for c in f.deck],
            "actions": [action_to_str(a) for a in f.actions],
            "outcome": f.outcome,
            "points": list(f.points),
        }
        for f in match.finished
    ]
    if not match.is_terminal() and match.hand.history:
        h = match.hand
        hands.append(
            {
                "dealer": h.dealer,
                "deck": [card_str(c) for c in h.deck],
                "actions": [action_to_str(a) for _, a in h.history],
            }
        )
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "hands": hands,
        "scores": list(match.scores),
        "winner": match.winner,
    }
    if players:
        rec["players"] = list(players)
    return rec


def to_json(match: Match, players: list[str] | None = None) -> str:
    return json.dumps(match_to_record(match, players), indent=1)


def _need(cond: bool, where: str, msg: str) -> None:
    if not cond:
        raise RecordError(f"{where}: {msg}")


def _is_int(v: Any) -> bool:
    """JSON ``true`` is a Python int too: a count or a seat must be a real integer."""
    return isinstance(v, int) and not isinstance(v, bool)


def _int_list(v: Any) -> bool:
    return isinstance(v, list) and all(_is_int(x) for x in v)


def _check_deck(deck: tuple[Card, ...], rules: Rules, where: str) -> None:
    """Name the card that is doubled or missing, rather than letting the deal fail later
    (when the hand before it ends) with a message about the wrong hand."""
    full = deck_cards(rules.deck)
    seen: set[int] = set()
    for c in deck:
        _need(c in full, where, f"deck: {card_str(c)} is not in the {rules.deck}-card deck")
        _need(c not in seen, where, f"deck: {card_str(c)} appears twice")
        seen.add(c)
    missing = [card_str(c) for c in full if c not in seen]
    _need(not missing, where, f"deck: holds {len(deck)} cards, not {rules.deck}; missing "
          + " ".join(missing))


def replay_record(rec: Any) -> Match:
    """Rebuild the match a record describes, checking every step; raises RecordError."""
    _need(isinstance(rec, dict), "record", "must be a JSON object")
    _need(rec.get("format") == FORMAT, "record",
          f"'format' must be {FORMAT!r}, not {quote(rec.get('format'))}")
    version = rec.get("version")
    _need(_is_int(version) and version == VERSION, "record",
          f"unsupported version {quote(version)}: this program reads version {VERSION}")
    try:
        rules = Rules.from_dict(rec.get("rules", {}))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    hands = rec.get("hands")
    _need(isinstance(hands, list), "record", "'hands' must be a list")
    assert isinstance(hands, list)
    _need(len(hands) <= MAX_HANDS, "record",
          f"holds {len(hands)} hands; a record may hold at most {MAX_HANDS}")
    decks: list[tuple[int, ...]] = []
    for i, h in enumerate(hands):
        where = f"hand {i + 1}"
        _need(isinstance(h, dict), where, "must be an object")
        deck = h.get("deck")
        _need(isinstance(deck, list) and all(isinstance(c, str) for c in deck), where,
              "'deck' must be a list of cards like \"9C\"")
        try:
            parsed = tuple(parse_card(c) for c in deck)
        except CardParseError as exc:
            raise RecordError(f"{where}: deck: {exc}") from None
        _check_deck(parsed, rules, where)
        decks.append(parsed)
    first = rec.get("first_dealer")
    _need(_is_int(first) and 0 <= first < rules.players, "record",
          f"'first_dealer' must be a seat 0..{rules.players - 1}")
    seed = rec.get("seed")
    _need(seed is None or _is_int(seed), "record", "'seed' must be an integer or null")
    names = rec.get("players")
    _need(names is None or (isinstance(names, list) and len(names) == rules.players
                            and all(isinstance(x, str) for x in names)), "record",
          f"'players' must be a list of {rules.players} names")
    try:
        match = Match(rules, seed=seed if seed is not None else 0, first_dealer=first,
                      decks=decks)
    except EuchreError as exc:
        raise RecordError(f"hand 1: {exc}") from None
    for i, h in enumerate(hands):
        where = f"hand {i + 1}"
        _need(match.winner is None, where, "the match was already over before this hand")
        _need(len(match.finished) == i, where, "out of step with the hands before it")
        _need(_is_int(h.get("dealer")) and h.get("dealer") == match.hand.dealer, where,
              f"dealer should be seat {match.hand.dealer} (the deal passes left), "
              f"not {quote(h.get('dealer'))}")
        acts = h.get("actions")
        _need(isinstance(acts, list) and all(isinstance(a, str) for a in acts), where,
              "'actions' must be a list of action texts")
        assert isinstance(acts, list)
        _need(len(acts) <= MAX_HAND_ACTIONS, where,
              f"holds {len(acts)} actions; a hand may hold at most {MAX_HAND_ACTIONS}")
        for j, text in enumerate(acts):
            _need(len(match.finished) == i, f"{where}, action {j + 1}",
                  f"{quote(text)} comes after the hand was over")
            try:
                match.apply_action(action_from_str(text))
            except (NotationError, EuchreError) as exc:
                raise RecordError(f"{where}, action {j + 1} ({quote(text)}): {exc}") from None
        done = len(match.finished) > i
        if "points" in h:
            _need(done, where, "has points but its actions do not finish it")
            got = list(match.finished[i].points)
            _need(_int_list(h["points"]) and got == h["points"], where,
                  f"points {quote(h['points'])} do not match the replay's {got}")
        if "outcome" in h:
            _need(done, where, "has an outcome but its actions do not finish it")
            outcome = match.finished[i].outcome
            _need(h["outcome"] == outcome, where,
                  f"outcome {quote(h['outcome'])} does not match the replay's {outcome!r}")
        if i < len(hands) - 1:
            _need(done, where, "is unfinished but more hands follow")
    if "scores" in rec:
        _need(_int_list(rec["scores"]) and rec["scores"] == list(match.scores), "record",
              f"scores {quote(rec['scores'])} do not match the replay's {match.scores}")
    if "winner" in rec:
        winner = rec["winner"]
        _need((winner is None or _is_int(winner)) and winner == match.winner, "record",
              f"winner {quote(rec['winner'])} does not match the replay's {match.winner!r}")
    return match


def from_json(text: str | bytes) -> Match:
    """Parse and replay a record; every problem is a RecordError, never a traceback.

    ``text`` is the record's JSON text (bytes are read as UTF-8); anything else, text longer
    than :data:`MAX_RECORD_CHARS`, an integer literal too long for Python to read, or nesting
    too deep for the parser is refused with a one-line message."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not a record: not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {quote(text)}")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"record too large: {len(text):,} characters; the limit is "
                          f"{MAX_RECORD_CHARS:,}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    except ValueError:  # an integer literal past Python's digit limit (CVE-2020-10735)
        raise RecordError("not a record: it holds a number too long to read") from None
    return replay_record(data)
