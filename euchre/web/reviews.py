"""The computer analysis of a finished game, for the review page: every decision valued by the
analysis's review (:func:`euchre.analysis.review.review_match`), off the event loop and within
bounds.

Only a finished game is reviewed: a review shows each deciding seat's hand, which a game in
play keeps hidden. The hands of a game are reviewed side by side in a worker pool of its own,
whose processes run below the computer players' priority, and at most ``at_once`` games at a
time: the rest wait their turn, shown as queued, and past ``waiting_max`` waiting a request is
refused. A review is kept in memory by (table, deals, objective): a request while it runs
joins it, and a later one reads its result.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from euchre import actions as A
from euchre.analysis.review import (
    Review,
    combine,
    count_decisions,
    review_match,
    review_to_json,
    unreviewable,
)
from euchre.analysis.values import OBJECTIVES, Objective, default_objective
from euchre.cards import card_str, sort_hand
from euchre.match import Match
from euchre.phases import Phase
from euchre.public_view import NO_SEAT
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.view import SeatView
from euchre.web import messages as M
from euchre.web.limits import LimitError
from euchre.web.runner import stop_pool
from euchre.web.table import Table

__all__ = [
    "DEFAULT_DEALS",
    "MAX_DEALS",
    "MIN_DEALS",
    "Budget",
    "ReviewRun",
    "Reviews",
    "moment",
    "parse_budget",
    "review_page_json",
]

log = logging.getLogger("euchre.web")

#: Deals valued per decision by default: a whole game (about 240 decisions to ten points) in
#: a few seconds on two cores, each loss with its error bar (docs/web.md has the figures).
DEFAULT_DEALS = 48
MIN_DEALS = 8
MAX_DEALS = 400
#: Reviews kept in memory (the oldest finished one goes first).
KEPT = 32

Game = tuple[dict[str, Any], int, list[tuple[int, int]], list[str]]
"""What a worker needs to rebuild a finished game: its rules, seed, action log and names."""


@dataclass(frozen=True, slots=True)
class Budget:
    deals: int
    """Deals valued per decision (card plays and bids alike)."""
    objective: Objective | None
    """What a loss is measured in; None: the review's own default."""


def parse_budget(params: Mapping[str, str]) -> Budget:
    """A review's budget from the query string (``ValueError`` says what is allowed)."""
    unknown = sorted(set(params) - {"deals", "objective"})
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}: a review takes deals "
                         f"({MIN_DEALS}..{MAX_DEALS}) and objective ({', '.join(OBJECTIVES)})")
    raw = params.get("deals")
    deals = DEFAULT_DEALS
    if raw is not None:
        if not re.fullmatch(r"[0-9]{1,6}", raw) or not MIN_DEALS <= int(raw) <= MAX_DEALS:
            raise ValueError(f"deals must be a whole number from {MIN_DEALS} to {MAX_DEALS} "
                             f"(the deals valued per decision; {DEFAULT_DEALS} by default), "
                             f"not {raw[:20]!r}")
        deals = int(raw)
    raw_objective = params.get("objective")
    objective: Objective | None = None
    if raw_objective is not None:
        objective = next((k for k in OBJECTIVES if k == raw_objective), None)
    if raw_objective is not None and objective is None:
        words = "; ".join(f"{k}: {v}" for k, v in OBJECTIVES.items())
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)} ({words}), not "
                         f"{raw_objective[:20]!r}")
    return Budget(deals, objective)


def check_objective(rules: Rules, objective: Objective | None) -> None:
    """Refuse the chance to win the game where the game has no such chance (three-handed,
    one hand): ``ValueError`` saying so."""
    if objective == "win" and default_objective(Match(rules, seed=0).view(0)) != "win":
        raise ValueError("objective win needs a two-sided game played to a target score; "
                         "this one is judged by points")


# In the worker pool ---------------------------------------------------------------------------


def _match(rules: dict[str, Any], seed: int, actions: Sequence[tuple[int, int]]) -> Match:
    m = Match(Rules.from_dict(rules), seed=seed)
    for _, a in actions:
        m.apply_action(a)
    return m


def plan_job(game: Game) -> tuple[int, int]:
    """(hands to review, decisions in all) of a finished game."""
    rules, seed, actions, _ = game
    m = _match(rules, seed, actions)
    hands = len(m.finished) + (0 if m.is_terminal() or not m.hand.history else 1)
    return hands, count_decisions(m)


def hand_job(game: Game, hand_no: int, deals: int, objective: Objective | None) -> Review:
    """Review one hand of a finished game (valued as in a review of the whole game)."""
    rules, seed, actions, _ = game
    m = _match(rules, seed, actions)
    more: dict[str, Any] = {} if objective is None else {"objective": objective}
    return review_match(m, deals, deals, hands={hand_no}, **more)


def finish_job(parts: list[Review], game: Game) -> tuple[bytes, bytes]:
    """The hands' reviews as one, in the page's JSON, and every clear mistake as a puzzle
    (:func:`puzzles_page_json`), both encoded."""
    rules, seed, actions, names = game
    target = Rules.from_dict(rules).target
    rev = combine(parts)
    return (msgspec.json.encode(review_page_json(rev, names, target)),
            msgspec.json.encode(puzzles_page_json(rev, _match(rules, seed, actions), names)))


def puzzles_page_json(rev: Review, match: Match, names: list[str]) -> dict[str, Any]:
    """Every clear mistake of the game as a puzzle (``puzzles.schema.json``, every seat's; the
    puzzles page shows one seat's), each with, for the page, the table as the deciding seat saw
    it (``moment``), when it was, the options with their labels and values (and errors), and
    what the player chose."""
    from euchre.analysis.assess import firm_z, span
    from euchre.analysis.puzzles import mistake_puzzles, puzzles_to_json
    from euchre.words import option_words

    ps = mistake_puzzles(rev, match, None, {"names": names})
    out = puzzles_to_json(ps)
    by = {(d.hand, d.index): d for d in rev.decisions}
    for p, row in zip(ps.puzzles, out["puzzles"], strict=True):
        d = by[(p.hand, p.index)]
        row["moment"] = moment(d.view, names)
        row["when"] = d.when
        row["choice_label"] = d.choice_label
        row["answer_label"] = d.best_label
        row["choice_action"] = A.action_to_str(d.choice)
        row["answer_action"] = A.action_to_str(d.best)
        valued = {o.action for o in d.options}
        # the range each option is behind the best by, the one the pick's verdict rests on
        z = firm_z(d.pick_values.n_eff) if d.pick_values is not None else float("inf")
        order = ([c for c in sort_hand(d.view.hand, d.view.trump) if c in valued]
                 if d.phase == Phase.PLAY else [x for x in d.view.legal_actions if x in valued])
        # the options to answer from, in the hand's or the bids' own order (not best first)
        row["choices"] = [{"action": A.action_to_str(x), "label": option_words(x, d.view)}
                          for x in order]
        row["options"] = [
            {"action": A.action_to_str(o.action), "label": option_words(o.action, d.view),
             "points": round(o.points, 4), "ci95": _ci(o.ci95),
             # how far behind the best, paired on the picking deals, in the review's unit
             "behind": round(o.behind, 4), "behind_ci95": _ci(1.96 * o.behind_se),
             "range": None if o.action == d.best else span(o, z, rev.objective),
             "firm": o.firm,
             **({} if o.win is None else {"win": round(o.win, 4),
                                          "win_ci95": _ci(o.win_ci95 or 0.0)})}
            for o in d.options]
    return out


def _ci(x: float) -> float | None:
    return round(x, 4) if x == x and x != float("inf") else None


def warm_job() -> None:
    """Load the solver's compiled kernels in a fresh worker (about 2 s), before a first
    review waits for it: a one-hand game reviewed at the smallest budget."""
    from euchre.bots import make_bot

    m = Match(Rules(target=1), seed=0)
    bot = make_bot("rule", 0)
    while not m.is_terminal():
        m.apply_action(bot.choose(m.view(m.current_player)))
    review_match(m, MIN_DEALS, MIN_DEALS)


def moment(view: SeatView, names: list[str], viewer: Seat = NO_SEAT) -> dict[str, Any]:
    """The table as the deciding seat saw it when deciding, drawn like a replay frame: its own
    hand face up, how many cards each other seat held, the up-card, the bidding so far (in
    words about the players, ``names``; to ``viewer``, its own seat "You") and the trick."""
    return {
        "seat": view.seat,
        "dealer": view.dealer,
        "hands": [M.card_list(sort_hand(view.hand, view.trump)) if s == view.seat else n
                  for s, n in enumerate(view.hand_sizes)],
        "upcard": card_str(view.upcard) if view.upcard >= 0 else None,
        "upcard_status": view.upcard_status,
        "trump": M.suit_letter(view.trump),
        "maker": view.maker,
        "alone": view.alone,
        "bids": msgspec.to_builtins(M.bid_events(view, M.speaker(names, viewer))),
        "trick": [[s, card_str(c)] for s, c in view.current_trick] if view.phase == Phase.PLAY
        else [],
        "tricks_won": list(view.tricks_won),
        "scores": list(view.scores),
    }


def review_page_json(rev: Review, names: list[str], target: int) -> dict[str, Any]:
    """The review's JSON (``review.schema.json``, its ``players`` the seats) with, for the
    page, the table's ``names`` and ``target`` score, each decision's ``moment`` and each
    option's chance to win the game (and its 95% half-width) where the score made it known."""
    out = review_to_json(rev)
    out["names"] = names
    out["target"] = target
    out["objective_words"] = OBJECTIVES[rev.objective]
    rows: list[dict[str, Any]] = out["decisions"]  # type: ignore[assignment]
    for d, row in zip(rev.decisions, rows, strict=True):
        row["moment"] = moment(d.view, names)
        for est, opt in zip(d.options, row["options"], strict=True):
            if est.win is not None:
                opt.setdefault("win", round(est.win, 4))
                if est.win_ci95 is not None:
                    opt.setdefault("win_ci95", round(est.win_ci95, 4))
    return out


# On the event loop: bookkeeping only ------------------------------------------------------------

State = Literal["queued", "running", "done", "failed"]


@dataclass(eq=False)
class ReviewRun:
    """One game's review at one budget, from its request to its result."""

    table: str
    budget: Budget
    state: State = "queued"
    hands: int = 0
    hands_done: int = 0
    decisions: int = 0
    decisions_done: int = 0
    started: float | None = None
    seconds: float | None = None
    """Wall time from the start of the work to its result (the wait in the queue apart)."""
    result: bytes | None = None
    """The review's JSON, encoded, once done."""
    puzzles: bytes | None = None
    """Every clear mistake as a puzzle (:func:`puzzles_page_json`), encoded, once done."""
    error: str | None = None


class Reviews:
    """Every review asked for, the queue and the pool they run in."""

    def __init__(self, pool: Executor, at_once: int, waiting_max: int, kept: int = KEPT,
                 work: Callable[[Game, int, int, Objective | None], Review] = hand_job
                 ) -> None:
        self.pool, self.at_once, self.waiting_max, self.kept = pool, at_once, waiting_max, kept
        self.work = work
        self.slots = asyncio.Semaphore(at_once)
        self.runs: OrderedDict[tuple[str, int, str | None], ReviewRun] = OrderedDict()
        self.queue: list[ReviewRun] = []
        self.admitted = 0
        """Reviews queued or running."""
        self.running = 0
        self.most_running = 0
        """The most reviews that ran at once (what the bound keeps at ``at_once``)."""
        self.tasks: set[asyncio.Task[None]] = set()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        stop_pool(self.pool)

    def request(self, table_id: str, game: Game, budget: Budget) -> ReviewRun:
        """The review of a finished game at ``budget``: the one asked for before, or a new one
        in the queue (``LimitError`` when the queue is full)."""
        key = (table_id, budget.deals, budget.objective)
        run = self.runs.get(key)
        if run is not None:
            self.runs.move_to_end(key)
            return run
        if self.admitted >= self.at_once + self.waiting_max:
            raise LimitError("reviews_busy", f"the server is reviewing {self.at_once} other "
                             f"game(s) and {self.waiting_max} more wait their turn, the most "
                             "it keeps waiting: ask again in a minute")
        self.admitted += 1
        run = ReviewRun(table_id, budget)
        self.runs[key] = run
        self._forget_old()
        self.queue.append(run)
        task = asyncio.create_task(self._run(run, game))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return run

    def warm(self, workers: int) -> None:
        """Have the workers load what a review needs now, not in the first review."""
        for _ in range(workers):
            self.pool.submit(warm_job)

    def answer(self, table: Table, params: Mapping[str, str]) -> tuple[int, bytes]:
        """(HTTP status, body) for a request of a finished ``table``'s review: 202 while
        queued or running, 200 with the review, 400 for a budget or game it cannot review
        (what is allowed), 503 with the queue full, 500 for a fault of ours."""
        try:
            budget = parse_budget(params)
            why = unreviewable(table.rules)
            if why is not None:
                raise ValueError(f"{why}; the replay shows it")
            check_objective(table.rules, budget.objective)
            run = self.request(table.id, (table.rules_dict, table.seed, list(table.log),
                                          table.names()), budget)
        except ValueError as exc:
            return 400, msgspec.json.encode({"error": str(exc)})
        except LimitError as exc:
            return 503, msgspec.json.encode({"error": str(exc)})
        return {"done": 200, "failed": 500}.get(run.state, 202), self.status(run)

    def puzzles_answer(self, table: Table, params: Mapping[str, str],
                       player: tuple[str, Callable[[Seat], set[int]]] | None = None
                       ) -> tuple[int, bytes]:
        """(HTTP status, body) for the clear mistakes of one ``seat`` of a finished ``table``
        as puzzles, from its review at the budget asked (the review is worked out first if it
        has not been: 202 with its progress meanwhile); 400 for a bad seat or budget, or a
        ``player`` (their name, and the seat's decisions that were theirs: indices into the
        log) who made none of that seat's decisions. With a player, only the mistakes they
        made: a seat two people held in turn poses each their own."""
        raw = params.get("seat")
        if raw is None or not re.fullmatch(r"[0-9]", raw) or int(raw) >= table.n:
            return 400, msgspec.json.encode(
                {"error": f"seat must be the seat whose mistakes to pose, 0..{table.n - 1}, "
                          f"not {(raw or '')[:20]!r}"})
        mine = None if player is None else player[1](int(raw))
        if player is not None and not mine:
            return 400, msgspec.json.encode(
                {"error": f"{player[0]} made no decision at seat {raw} of this game: ask for "
                          "a seat they held, or leave out player for the whole seat's"})
        rest = {k: v for k, v in params.items() if k not in ("seat", "player")}
        status, body = self.answer(table, rest)
        if status != 200:
            return status, body
        run = self.runs[self._key(table.id, parse_budget(rest))]
        assert run.puzzles is not None
        every = msgspec.json.decode(run.puzzles)
        seat = int(raw)
        every["puzzles"] = [p for p in every["puzzles"] if p["seat"] == seat and (
            mine is None or table.log_index(p["hand"], p["index"]) in mine)]
        every["source"] = {"table": table.id, "seat": seat,
                           "players": every["source"].get("names", []),
                           **({} if player is None else {"player": player[0]})}
        return 200, msgspec.json.encode(every)

    @staticmethod
    def _key(table_id: str, budget: Budget) -> tuple[str, int, str | None]:
        return (table_id, budget.deals, budget.objective)

    def position(self, run: ReviewRun) -> int:
        """1 for the next review to start, 0 for one not waiting."""
        return self.queue.index(run) + 1 if run in self.queue else 0

    def status(self, run: ReviewRun) -> bytes:
        """What the page polls: the state, the progress, the review once done."""
        head: dict[str, Any] = {"state": run.state, "table": run.table,
                                "deals": run.budget.deals, "reviews_at_once": self.at_once}
        if run.state == "queued":
            head["position"] = self.position(run)
        else:
            head.update(hands=run.hands, hands_done=run.hands_done,
                        decisions=run.decisions, decisions_done=run.decisions_done)
        if run.seconds is not None:
            head["seconds"] = round(run.seconds, 2)
        if run.error is not None:
            head["error"] = run.error
        if run.state == "failed":  # said once; the next request tries again
            self.runs.pop((run.table, run.budget.deals, run.budget.objective), None)
        raw = msgspec.json.encode(head)
        if run.result is None:
            return raw
        return raw[:-1] + b',"review":' + run.result + b"}"

    def _forget_old(self) -> None:
        while len(self.runs) > self.kept:
            old = next((k for k, r in self.runs.items() if r.state in ("done", "failed")),
                       None)
            if old is None:
                return
            del self.runs[old]

    async def _run(self, run: ReviewRun, game: Game) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with self.slots:
                self.queue.remove(run)
                self.running += 1
                self.most_running = max(self.most_running, self.running)
                try:
                    run.state, run.started = "running", time.monotonic()
                    run.hands, run.decisions = await loop.run_in_executor(
                        self.pool, plan_job, game)
                    futures = [loop.run_in_executor(self.pool, self.work, game, h,
                                                    run.budget.deals, run.budget.objective)
                               for h in range(1, run.hands + 1)]
                    parts = []
                    for next_done in asyncio.as_completed(futures):
                        part = await next_done
                        parts.append(part)
                        run.hands_done += 1
                        run.decisions_done += len(part.decisions)
                    run.result, run.puzzles = await loop.run_in_executor(
                        self.pool, finish_job, parts, game)
                    run.seconds = time.monotonic() - run.started
                    run.state = "done"
                finally:
                    self.running -= 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a fault of ours: the page says so, the log says what
            log.error("could not review table %s: %r", run.table, exc)
            run.state = "failed"
            run.error = "the review could not be worked out; nothing changed"
        finally:
            self.admitted -= 1
            if run in self.queue:
                self.queue.remove(run)
