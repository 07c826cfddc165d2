"""Analysis for players: bidding advice, game review, order-up charts, puzzles (one's own
game's mistakes among them) and the bidding trainer.

Built on the computer players (:mod:`euchre.bots`) and the double-dummy solver
(:mod:`euchre.solver`); the core never imports this package. The judge behind every number is
:mod:`euchre.analysis.values` (docs/analysis.md says how it works and why bids and card plays
are judged differently). The JSON forms of advice, reviews and puzzle sets are described by the
JSON Schemas in ``euchre/analysis/schemas/``.
"""

from __future__ import annotations

from typing import Any


def review_record(text: str, play_deals: int = 24, bid_deals: int = 24,
                  seed: int = 0) -> dict[str, Any]:
    """A game record's review in its JSON form (``review.schema.json``): what a server needs
    for the replay view. Raises :class:`euchre.errors.RecordError` for a bad record."""
    import json

    from euchre.analysis.review import review_match, review_to_json
    from euchre.record import from_json

    match = from_json(text)
    names = json.loads(text).get("players")
    rev = review_match(match, play_deals, bid_deals, seed=seed,
                       players=names if isinstance(names, list) else None)
    return review_to_json(rev)


__all__ = ["review_record"]
