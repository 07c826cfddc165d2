"""The step-by-step replay of a finished game: every hand face up, so only for a game that is
over (the whole record is then public)."""

from __future__ import annotations

from typing import Any

import msgspec

from euchre.cards import card_str, cards_of, sort_hand
from euchre.match import Match
from euchre.public_view import NO_SEAT
from euchre.rules import Rules
from euchre.state import PHASES, PLAY, UPCARD_STATUS_NAMES, HandState
from euchre.web.messages import card_list, event, speaker, suit_letter
from euchre.words import Moment


def replay_rows(h: HandState) -> list[list[dict[str, Any]]]:
    """Two-handed with rows: each column's face-up card (``None`` once both were played),
    whether a card lies face down under it, and (the game being over) that card too."""
    out = []
    for seat, cols in enumerate(h.columns):
        held = h.hands[seat]
        row: list[dict[str, Any]] = []
        for top, under in cols:
            if held >> top & 1:
                row.append({"card": card_str(top), "face_down": True, "under": card_str(under)})
            elif held >> under & 1:
                row.append({"card": card_str(under), "face_down": False})
            else:
                row.append({"card": None, "face_down": False})
        out.append(row)
    return out


def replay_frames(rules: Rules, seed: int, log: list[tuple[int, int]], names: list[str]
                  ) -> list[dict[str, Any]]:
    """Every step of a finished game with all hands face up, for the step-by-step replay,
    each act in words about the seat's player (``names``)."""
    match = Match(rules, seed=seed)
    frames = []

    def frame(ev: dict[str, Any] | None, h: HandState, hand_no: int) -> dict[str, Any]:
        trick = h.trick if h.phase == PLAY else ()
        if not trick and ev is not None and ev["kind"] == "play" and h.tricks:
            trick = h.tricks[-1][1]  # show the trick just completed before it is gathered
        return {
            "hand_no": hand_no,
            "dealer": h.dealer,
            "hands": [card_list(sort_hand([c for c in cards_of(x) if c not in h.face_up(i)],
                                          h.trump)) for i, x in enumerate(h.hands)],
            "upcard": card_str(h.upcard) if h.upcard >= 0 else None,
            "upcard_status": UPCARD_STATUS_NAMES[h.up_status],
            "rows": replay_rows(h),
            "bids_tricks": h.variant.bids_tricks,
            "tricks_per_hand": h.variant.tricks_per_hand,
            "trump": suit_letter(h.trump),
            "maker": h.maker,
            "alone": h.alone,
            "trick": [[s, card_str(c)] for s, c in trick],
            "tricks_won": list(h.tricks_won),
            "scores": list(match.scores),
            "event": ev,
            "outcome": h.outcome,
        }

    frames.append(frame(None, match.hand, 1))
    who = speaker(names, NO_SEAT)
    for seat, action in log:
        h = match.hand
        hand_no = len(match.finished) + 1
        match.apply_action(action)
        at = Moment(PHASES[h.phase], seat, h.dealer, h.n, h.upcard)
        ev: dict[str, Any] = msgspec.to_builtins(event(action, at, seat, who))
        frames.append(frame(ev, h, hand_no))
    return frames
