"""Checks for bot authors' own test suites, like PettingZoo's ``api_test``.

``check_bot(spec)`` plays a few hundred hands under every preset and player count and random
mixes of rule options, then drills each phase a table can reach (declarations, the Joker,
two-handed take/decline, the rows auction, defending alone, renege claims and fixes), and says,
pass or fail, what went wrong::

    from euchre.testing import check_bot

    def test_my_bot() -> None:
        report = check_bot("my_pkg.bot:MyBot", hands=100)
        assert report.passed, report.to_text()

The same check is ``euchre check-bot SPEC`` on the command line. A package of its own, not a
module of the core: it plays the computer players, which the core never imports.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from euchre import actions as A
from euchre.bots.base import Bot
from euchre.bots.protocol import BotFault, tell_game_over, tell_hand_over
from euchre.bots.random_bot import RandomBot
from euchre.bots.registry import claims_determinism, make_bot
from euchre.cards import JOKER
from euchre.errors import RulesError
from euchre.match import Match
from euchre.phases import Phase
from euchre.rules import PRESETS, Rules
from euchre.seats import Seat
from euchre.state import HandState
from euchre.view import SeatView

#: Problems quoted in a report (the rest are counted).
PROBLEMS_SHOWN = 10
#: Decisions asked in each drill.
DRILLS_PER_PHASE = 4
#: Random rule mixes played besides the presets.
RULE_MIXES = 6
#: After this many problems the check stops playing: the verdict is clear by then, and a bot
#: that hangs on every decision would otherwise hold the check for hours.
MAX_PROBLEMS = 50


def _in_phase(phase: Phase) -> Callable[[SeatView], bool]:
    return lambda view: view.phase == phase


def _joker(view: SeatView) -> bool:
    return JOKER in view.hand or view.upcard == JOKER


@dataclass(frozen=True, slots=True)
class Drill:
    """A situation every bot must handle: the rules under which it happens, a test of a
    view, and its name in a report."""

    rules: Rules
    label: str
    test: Callable[[SeatView], bool]


#: The one drill that is a situation, not a phase: counted apart from the phases.
JOKER_DRILL = "joker"
#: Every phase a table can reach, and the Joker.
DRILLS: dict[str, Drill] = {
    "declare": Drill(Rules(farmers_hand="swap", no_ace_no_face=True),
                     "declarations (farmer's hand, no ace no face)", _in_phase(Phase.DECLARE)),
    "bid1": Drill(Rules(), "bidding round one", _in_phase(Phase.BID1)),
    "bid2": Drill(Rules(), "bidding round two", _in_phase(Phase.BID2)),
    "dealer_take": Drill(Rules(players=2), "two-handed: take or decline",
                         _in_phase(Phase.DEALER_TAKE)),
    "discard": Drill(Rules(), "the dealer's discard", _in_phase(Phase.DISCARD)),
    "alone": Drill(PRESETS["openspiel"], "alone or with partner (OpenSpiel)",
                   _in_phase(Phase.ALONE)),
    "defend": Drill(Rules(defend_alone=True), "defend alone", _in_phase(Phase.DEFEND)),
    "play": Drill(Rules(), "card play", _in_phase(Phase.PLAY)),
    "claim": Drill(Rules(renege="penalize"), "renege claims", _in_phase(Phase.CLAIM)),
    "fix": Drill(Rules(renege="penalize", renege_fix=True), "taking back a renege",
                 _in_phase(Phase.FIX)),
    "auction": Drill(Rules(players=2, rows=True), "the rows auction", _in_phase(Phase.AUCTION)),
    "trump": Drill(Rules(players=2, rows=True), "naming trump after the rows auction",
                   _in_phase(Phase.TRUMP)),
    "joker": Drill(Rules(deck=25), "holding or facing the Joker", _joker),
}


@dataclass
class CheckReport:
    """What :func:`check_bot` found. ``passed`` is the verdict; ``to_text`` says why."""

    spec: str
    hands: int = 0
    games: int = 0
    decisions: int = 0
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    phases: Counter[str] = field(default_factory=Counter)
    """Decisions asked in each phase (the view's ``phase``)."""
    joker: int = 0
    """Decisions asked holding or facing the Joker (in any phase): not a phase of its own, but
    a situation the check drills like one."""
    stopped: str = ""
    """Why the check stopped before the end ("" when it ran through): a bot that hung once
    would make every remaining decision wait out its move time."""
    times: list[float] = field(default_factory=list)
    deterministic: str = "not claimed"
    configurations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.problem_count == 0 and not self.missing_phases

    @property
    def missing_phases(self) -> list[str]:
        """The situations of :data:`DRILLS` in which the bot was never asked."""
        return [p for p in DRILLS if not self.asked(p)]

    def asked(self, drill: str) -> int:
        """Decisions asked in one of :data:`DRILLS`' situations."""
        return self.joker if drill == JOKER_DRILL else self.phases[drill]

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < PROBLEMS_SHOWN:
            self.problems.append(text)

    def percentile(self, q: float) -> float:
        """Decision time in milliseconds at quantile ``q`` (0..1)."""
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec, "passed": self.passed, "hands": self.hands, "games": self.games,
            "decisions": self.decisions, "problem_count": self.problem_count,
            "problems": self.problems, "phases": dict(self.phases),
            "joker_decisions": self.joker, "missing_phases": self.missing_phases,
            "stopped": self.stopped or None,
            "deterministic": self.deterministic,
            "decision_ms": {"p50": self.percentile(0.5), "p95": self.percentile(0.95),
                            "max": self.percentile(1.0)},
            "configurations": self.configurations, "seconds": self.seconds,
        }

    def to_text(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        lines = [
            f"{verdict} {self.spec}: {self.hands} hands, {self.games} games finished, "
            f"{self.decisions} decisions in {self.seconds:.1f} s under "
            f"{len(self.configurations)} rule sets",
            f"  decision time: p50 {self.percentile(0.5):.3f} ms, p95 "
            f"{self.percentile(0.95):.3f} ms, max {self.percentile(1.0):.2f} ms",
            f"  deterministic for a seed: {self.deterministic}",
            "  decisions by phase: " + ", ".join(f"{p} {self.phases[p]}" for p in DRILLS
                                                 if p != JOKER_DRILL)
            + f"; holding or facing the Joker {self.joker}",
        ]
        if self.stopped:
            lines.append(f"  stopped early: {self.stopped}")
        if self.missing_phases:
            lines.append("  never asked: " + ", ".join(
                DRILLS[p].label for p in self.missing_phases))
        if self.problem_count:
            lines.append(f"  {self.problem_count} problem(s):")
            lines += [f"    - {p}" for p in self.problems]
            if self.problem_count > len(self.problems):
                lines.append(f"    ... and {self.problem_count - len(self.problems)} more")
        else:
            lines.append("  every answer legal, no exception, a new game after each "
                         "finished one")
        return "\n".join(lines)


def _short_traceback(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def random_rules(rng: random.Random) -> Rules:
    """A valid random mix of rule options (the engine refuses impossible ones; retry)."""
    while True:
        players = rng.choice((2, 3, 4))
        options: dict[str, Any] = {
            "players": players,
            "deck": rng.choice((24, 25, 32)),
            "target": rng.choice((3, 5, 7, 10)),
            "stick_the_dealer": rng.random() < 0.5,
            "farmers_hand": rng.choice(("off", "redeal", "swap")),
            "no_ace_no_face": rng.random() < 0.3,
            "renege": rng.choice(("prevent", "penalize")),
            "misdeal_passes": rng.random() < 0.3,
            "first_dealer": rng.choice(("random", "black_jack")),
        }
        if options["renege"] == "penalize":
            options["renege_fix"] = rng.random() < 0.5
            options["renege_penalty"] = rng.choice(("points", "deduct", "tricks"))
        if players == 4:
            options["defend_alone"] = rng.random() < 0.5
            options["canadian_loner"] = rng.random() < 0.3
        if players == 2 and rng.random() < 0.3:
            options.update(rows=True, deck=24, farmers_hand="off", no_ace_no_face=False,
                           renege_fix=False, rows_euchre=rng.random() < 0.5)
        try:
            return Rules(**options)
        except RulesError:
            continue


class _Checker:
    def __init__(self, make: Callable[[int], Bot], report: CheckReport) -> None:
        self.make = make
        self.report = report
        self.fallback = RandomBot(0)

    @property
    def going(self) -> bool:
        """Whether to ask more: not after :data:`MAX_PROBLEMS` problems, nor after a hang."""
        return self.report.problem_count < MAX_PROBLEMS and not self.report.stopped

    def decide(self, bot: Bot, view: SeatView, where: str) -> int:
        """The bot's answer, timed and checked; a legal stand-in after a problem, so the game
        goes on and later phases are still checked."""
        r = self.report
        r.decisions += 1
        r.phases[view.phase.value] += 1
        if _joker(view):
            r.joker += 1
        t0 = time.perf_counter()
        try:
            action = bot.choose(view)
        except BotFault as fault:  # the program was stopped; the next decision restarts it
            r.problem(f"{where}, phase {view.phase}: {fault}")
            if fault.kind == "timeout":
                r.stopped = ("the bot hung (it answered nothing within its move time), so "
                             "the check stopped there rather than wait that long at every "
                             "remaining decision; fix the hang and run it again")
            return self.fallback.choose(view)
        except Exception as exc:  # a bot's bug is a finding, never a crash of the check
            r.problem(f"{where}, phase {view.phase}: raised {_short_traceback(exc)}")
            return self.fallback.choose(view)
        finally:
            r.times.append(time.perf_counter() - t0)
        if isinstance(action, bool) or not isinstance(action, int) \
                or action not in view.legal_actions:
            try:
                shown = A.action_to_str(action)
            except Exception:
                shown = repr(action)[:40]
            legal = ", ".join(A.action_to_str(a) for a in view.legal_actions)
            r.problem(f"{where}, phase {view.phase}: answered {shown}, not one of: {legal}")
            return self.fallback.choose(view)
        return action

    def play_games(self, rules: Rules, name: str, hands: int, seed: int) -> None:
        """Games under ``rules`` until ``hands`` hands were played: the bot in every seat but
        one, where a random player sits (it reneges and goes alone, so claims and lone
        defences happen)."""
        r = self.report
        if not self.going:
            return
        r.configurations.append(name)
        played = 0
        game = 0
        while played < hands and self.going:
            m = Match(rules, seed=seed * 1000 + game)
            other = game % rules.players
            bots: dict[int, Bot] = {}
            for s in range(rules.players):
                try:
                    bots[s] = RandomBot(seed + s) if s == other else self.make(seed * 10 + s)
                except Exception as exc:
                    r.problem(f"{name}: building the bot raised {_short_traceback(exc)}")
                    return
            where = f"{name}, game {game + 1}"
            while not m.is_terminal() and played < hands and self.going:
                seat = m.current_player
                h, scores = m.hand, tuple(m.scores)
                view = m.view(seat)
                action = (bots[seat].choose(view) if seat == other
                          else self.decide(bots[seat], view, where))
                m.apply_action(action)
                if h.is_terminal():
                    played += 1
                    r.hands += 1
                    self.notify(where, bots, other, hand=h, scores=scores)
            if m.is_terminal():
                r.games += 1
                self.notify(where, bots, other, scores=tuple(m.scores), winner=m.winner)
            game += 1

    def notify(self, where: str, bots: dict[int, Bot], other: int, *,
               scores: tuple[int, ...], hand: HandState | None = None,
               winner: Seat | None = None) -> None:
        """Tell the bots under test that ``hand`` (else the game) ended; a failure of theirs
        is a problem."""
        for s, bot in bots.items():
            if s != other:
                try:
                    if hand is not None:
                        tell_hand_over(bot, hand.view(s, scores))
                    else:
                        tell_game_over(bot, s, scores, winner)
                except Exception as exc:
                    self.report.problem(f"{where}: a hand or game end notice raised "
                                        f"{_short_traceback(exc)}")

    def drill(self, name: str, seed: int) -> None:
        """Random play under the drill's rules until some seat must decide in its situation;
        then the bot is asked there. Repeated a few times, from fresh deals."""
        drill = DRILLS[name]
        rules = drill.rules
        rng = random.Random(seed)
        asked = 0
        for attempt in range(4000):
            if asked >= DRILLS_PER_PHASE or not self.going:
                return
            h = HandState.deal(rules, attempt % rules.players, rng)
            chooser = RandomBot(rng.randrange(2**31))
            while not h.is_terminal():
                view = h.view(h.cur)
                if drill.test(view):
                    bot = self.make(seed + attempt)
                    self.decide(bot, view, f"drill {name}")
                    asked += 1
                    break
                h.apply_action(chooser.choose(view))

    def determinism(self, rules: Rules, seed: int, hands: int) -> str:
        """Two plays of the same games with the same seeds must make the same decisions."""
        runs = []
        for _ in range(2):
            actions: list[int] = []
            m = Match(rules, seed=seed)
            bots = [self.make(seed * 10 + s) for s in range(rules.players)]
            try:
                while not m.is_terminal() and len(m.finished) < hands:
                    seat = m.current_player
                    a = bots[seat].choose(m.view(seat))
                    actions.append(a)
                    if a not in m.legal_actions():
                        break
                    m.apply_action(a)
            except Exception:
                return "not checked (the bot failed; see the problems)"
            runs.append(actions)
        if runs[0] != runs[1]:
            at = next((i for i, (x, y) in enumerate(zip(runs[0], runs[1], strict=False))
                       if x != y), min(len(runs[0]), len(runs[1])))
            self.report.problem(f"claims to be deterministic, but two plays with the same "
                                f"seeds differ at decision {at + 1}")
            return "claimed, NOT deterministic"
        return f"claimed, and checked over {len(runs[0])} decisions"


def check_bot(spec: str | Callable[[int], Bot], hands: int = 300, seed: int = 0,
              move_time: float | None = None, deterministic: bool | None = None) -> CheckReport:
    """Play ``hands`` hands under every preset and some random rule mixes, drill every phase,
    and check determinism when the bot claims it (``deterministic`` overrides the claim).

    ``spec`` is anything :func:`~euchre.bots.make_bot` builds (``"rule"``, ``"cmd:node
    bot.js"``, ``"pkg.mod:factory"``) or a callable ``make(seed) -> bot``."""
    if isinstance(spec, str):
        name = spec
        options: dict[str, object] = {"move_time": move_time} if spec.startswith("cmd:") \
            and move_time is not None else {}
        make_bot(spec, 0, **options)  # a bad spec is one ValueError here, before anything runs

        def make_named(s: int) -> Bot:
            return make_bot(spec, s, **options)

        make: Callable[[int], Bot] = make_named
    else:
        name = getattr(spec, "__name__", repr(spec))
        make = spec
    report = CheckReport(name)
    checker = _Checker(make, report)
    t0 = time.perf_counter()
    rng = random.Random(seed)
    configs: list[tuple[str, Rules]] = list(PRESETS.items())
    configs += [(f"mix {i + 1}", random_rules(rng)) for i in range(RULE_MIXES)]
    per = max(1, hands // len(configs))
    for i, (label, rules) in enumerate(configs):
        checker.play_games(rules, label, per + (1 if i < hands - per * len(configs) else 0),
                           seed + i)
    for k, drill in enumerate(DRILLS):
        try:
            checker.drill(drill, seed * 100 + k)
        except Exception as exc:
            report.problem(f"drill {drill}: building the bot raised {_short_traceback(exc)}")
    claimed = deterministic
    if report.stopped:
        claimed = False  # asking again would wait for the hang once more
        report.deterministic = "not checked (the check stopped early)"
    elif claimed is None:
        try:
            probe = make(seed)
            if isinstance(spec, str) and spec.startswith("cmd:"):
                m = Match(Rules(), seed=seed)  # a program says so in its hello
                probe.choose(m.view(m.current_player))
            claimed = claims_determinism(name, probe) if isinstance(spec, str) else \
                getattr(probe, "deterministic", False) is True
        except Exception:
            claimed = False
    if claimed:
        report.deterministic = checker.determinism(Rules(), seed + 7, 3)
    report.seconds = time.perf_counter() - t0
    return report


__all__ = ["DRILLS", "CheckReport", "Drill", "check_bot", "random_rules"]
