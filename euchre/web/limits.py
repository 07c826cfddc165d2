"""The limits an operator sets on what clients may open (``euchre serve`` flags): each refusal
says which limit was reached and what it is."""

from __future__ import annotations

import time
from collections import deque


class LimitError(Exception):
    """A request refused by an operator's limit (HTTP 429, websocket close 4429)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class CreationLimits:
    """Tables created in the last minute, per client address and in all."""

    WINDOW = 60.0

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client, self.total = per_client, total
        self.all: deque[float] = deque()
        self.by_client: dict[str, deque[float]] = {}

    def _trim(self, times: deque[float], now: float) -> deque[float]:
        while times and times[0] <= now - self.WINDOW:
            times.popleft()
        return times

    def take(self, client: str) -> None:
        """Count one new table for ``client``, or raise ``LimitError`` (counting nothing)."""
        now = time.monotonic()
        mine = self._trim(self.by_client.setdefault(client, deque()), now)
        if len(self._trim(self.all, now)) >= self.total:
            raise LimitError("busy", f"the server is creating many tables: at most "
                             f"{self.total} a minute in all; try again in a minute")
        if len(mine) >= self.per_client:
            raise LimitError("too_many_tables", f"at most {self.per_client} new tables a "
                             "minute from one address; try again in a minute")
        mine.append(now)
        self.all.append(now)
        if len(self.by_client) > 10000:  # forget the addresses that made nothing lately
            self.by_client = {k: v for k, v in self.by_client.items()
                              if self._trim(v, now)}
