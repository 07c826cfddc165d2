"""The player's statistics across games, in a small JSON file of their own.

Counted from the player's side of the table, per rules (the title the table shows, such as
``standard`` or ``standard + stick the dealer``), because a win under stick-the-dealer is not
the same feat as one without. The file lives in the per-user data folder (``platformdirs``:
``$XDG_DATA_HOME/euchre/stats.json`` on Linux) and is written whole, through a temporary file
and a rename, after every hand, so a game quit half way still counts the hands it played and a
crash never leaves half a file. A file that cannot be read is left alone (never overwritten),
and play goes on without statistics.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre.state import HandState

VERSION = 1

#: The counters of one rules set, in the order ``euchre stats`` shows them, with their headings.
COUNTERS: dict[str, str] = {
    "games": "games",
    "won": "won",
    "hands": "hands",
    "called": "called trump",
    "made": "made",
    "euchred": "euchred",
    "euchred_them": "euchred the others",
    "loners": "loners",
    "loner_marches": "loner marches",
}


#: Not a counter: how many players the rules seat, so the table says "we" only with a partner.
PLAYERS = "players"


class StatsError(Exception):
    """The statistics file exists but cannot be used (the message says why)."""


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_path("euchre")) / "stats.json"


@dataclass
class Stats:
    """Counters by rules title."""

    by_rules: dict[str, dict[str, int]] = field(default_factory=dict)

    def row(self, rules_title: str) -> dict[str, int]:
        return self.by_rules.setdefault(rules_title, dict.fromkeys(COUNTERS, 0))

    def add_hand(self, rules_title: str, hand: HandState, me: int) -> None:
        """Count one finished hand as seen from seat ``me``."""
        if hand.outcome != "scored" or hand.maker < 0:
            return  # thrown in or redealt: no hand was played
        row = self.row(rules_title)
        row[PLAYERS] = hand.rules.players
        row["hands"] += 1
        mine = hand.is_maker_side(me)
        made = hand.maker_tricks() >= 3  # by tricks: a proven renege is not a euchre
        if mine:
            row["called"] += 1
            row["made" if made else "euchred"] += 1
            if hand.alone and hand.maker == me:
                row["loners"] += 1
                row["loner_marches"] += hand.maker_tricks() == 5
        elif not made:
            row["euchred_them"] += 1

    def add_game(self, rules_title: str, won: bool) -> None:
        row = self.row(rules_title)
        row["games"] += 1
        row["won"] += won

    def to_json(self) -> str:
        return json.dumps({"format": "euchre-stats", "version": VERSION,
                           "by_rules": self.by_rules}, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Stats:
        try:
            data: Any = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise StatsError(f"not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != "euchre-stats":
            raise StatsError("not a euchre statistics file")
        if data.get("version") != VERSION:
            raise StatsError(f"version {data.get('version')!r}; this program reads {VERSION}")
        rows = data.get("by_rules")
        if not isinstance(rows, dict):
            raise StatsError("'by_rules' must be an object")
        out = cls()
        for title, row in rows.items():
            if not isinstance(row, dict):
                raise StatsError(f"{title!r}: must be an object of counts")
            clean = dict.fromkeys(COUNTERS, 0)
            for k, v in row.items():
                if k == PLAYERS and v in (2, 3, 4) and not isinstance(v, bool):
                    clean[k] = v
                elif k in COUNTERS:
                    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                        raise StatsError(f"{title!r}: {k} must be a count, not {v!r}")
                    clean[k] = v
            out.by_rules[str(title)] = clean
        return out


def load(path: Path) -> Stats:
    """The statistics in ``path``; empty when there is no file yet; StatsError when unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Stats()
    except OSError as exc:
        raise StatsError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise StatsError(f"{path} is not UTF-8 text") from None
    try:
        return Stats.from_json(text)
    except StatsError as exc:
        raise StatsError(f"{path}: {exc}") from None


def save(stats: Stats, path: Path) -> None:
    """Write ``stats`` whole (a temporary file renamed over the old one); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".stats-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(stats.to_json() + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class StatsRecorder:
    """Adds each hand and game to the file as it ends; after one failure it says so once and
    stops trying, so a read-only disk never interrupts play more than once."""

    def __init__(self, path: Path, rules_title: str, me: int) -> None:
        self.path = path
        self.title = rules_title
        self.me = me
        self.problem: str | None = None

    def _update(self, change: Any) -> None:
        if self.problem is not None:
            return
        try:
            stats = load(self.path)
            change(stats)
            save(stats, self.path)
        except StatsError as exc:
            self.problem = f"Statistics not kept: {exc}"
        except OSError as exc:
            self.problem = f"Statistics not kept: cannot write {self.path}: {exc.strerror}"

    def hand(self, hand: HandState) -> str | None:
        """Record a finished hand; a message the first time something goes wrong."""
        before = self.problem
        self._update(lambda s: s.add_hand(self.title, hand, self.me))
        return self.problem if self.problem != before else None

    def game(self, won: bool) -> str | None:
        before = self.problem
        self._update(lambda s: s.add_game(self.title, won))
        return self.problem if self.problem != before else None


def table(stats: Stats) -> list[str]:
    """Plain-text rows for ``euchre stats``: one block per rules set."""
    if not stats.by_rules:
        return ["No games recorded yet: play one with 'euchre play'."]
    lines: list[str] = []
    for title in sorted(stats.by_rules):
        r = stats.by_rules[title]
        pct = f" ({100 * r['won'] // r['games']}%)" if r["games"] else ""
        lines.append(title)
        lines.append(f"  games {r['games']}, won {r['won']}{pct}")
        times = "time" if r["called"] == 1 else "times"
        # A side of two says "we"; alone at the table (two-handed, cutthroat) it is "you".
        pair = r.get(PLAYERS, 4) == 4
        we, others = ("we", "we euchred them") if pair else ("you", "others were euchred")
        lines.append(f"  hands {r['hands']}: {we} called trump {r['called']} {times}, made it "
                     f"{r['made']}, were euchred {r['euchred']}; {others} "
                     f"{r['euchred_them']}")
        if pair or r["loners"]:
            lines.append(f"  {'my' if pair else 'your'} loners {r['loners']}, of them "
                         f"marches {r['loner_marches']}")
    return lines
