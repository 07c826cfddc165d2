"""Every way to name a computer player, in one place.

A *spec* is what a user types wherever a level is asked for (``euchre play --partner``,
``euchre tournament``, ``euchre check-bot``, ``euchre serve --bot``, :func:`make_bot`):

- a level name: a built-in one (``rule``, ``search``, ...), one added by :func:`register`, or
  one an installed package declares in the entry-point group ``euchre.bots``
  (``[project.entry-points."euchre.bots"] my-bot = "my_pkg.bot:MyBot"``);
- ``package.module:factory`` or ``path/to/file.py:factory``: a callable taking ``seed`` (and
  keyword options) or a class;
- ``cmd:<command line>``: a program in any language speaking the line protocol of
  :mod:`euchre.bots.protocol`;
- ``openspiel:<bot>``: one of OpenSpiel's own bots, refereed by OpenSpiel's game; these play
  only in ``euchre tournament`` (today ``openspiel:ismcts``).

:func:`player_levels` is what the menus offer a person: the rating ladder (:data:`LADDER`,
``beginner``, ``casual``, ``club``, ``expert``, weakest first, each with its measured rating,
:func:`ladder_rating`, and a line on how it plays) and any plug-ins. :func:`level_names` adds
the players by their own names (``random``, ``rule`` (the ``club`` level), ``search`` (the
``expert`` level), which stored games and scripts use) and the levels kept to measure against
(``search-rollout``, ``rule-v1``, ``pimc-naive``, ``pimc-full``, ``pimc-uniform``).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NamedTuple

from euchre.bots.base import Bot
from euchre.bots.beginner import BeginnerBot
from euchre.bots.casual import CasualBot
from euchre.bots.legacy_rule import LegacyRuleBot
from euchre.bots.random_bot import RandomBot
from euchre.bots.rule_based import RuleBasedBot

#: The entry-point group an installed package names its bots in.
ENTRY_POINT_GROUP = "euchre.bots"
#: Spec prefixes that are not level names.
CMD_PREFIX = "cmd:"
OPENSPIEL_PREFIX = "openspiel:"

Factory = Callable[..., Any]
"""Builds a bot: called as ``factory(seed, **options)`` (a class is a factory too)."""


@dataclass(frozen=True, slots=True)
class Level:
    """A named player: how to build it and whether the menus offer it to a person."""

    name: str
    factory: Factory
    for_players: bool = True
    """Listed in ``euchre play``'s choices, the web form and the players' docs; the baselines
    kept for measurement are not (they stay available to the tournament and ``make_bot``)."""
    summary: str = ""
    deterministic: bool = True
    """Plays the same for the same seed (``euchre check-bot`` holds it to that)."""
    same_as: str = ""
    """The ladder level this name plays as (``rule`` is ``club``), "" for none: the two names
    build the same player and share its rating."""


def _search(seed: int | None, think: object = None) -> Bot:
    # Imported on use: the search player pulls in the solver, which the other levels never need.
    from euchre.bots.learned import LearnedBidBot

    return LearnedBidBot(seed, think)


def _rollout(seed: int | None, think: object = None) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think)


def _naive(seed: int | None, think: object = None) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think, naive_bidding=True)


def _full(seed: int | None, think: object = None) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think, perfect_bidding=True)


def _uniform(seed: int | None, think: object = None) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think, perfect_bidding=True, weighting=False)


def _seeded(cls: Callable[[int | None], Bot]) -> Factory:
    def make(seed: int | None, think: object = None) -> Bot:
        return cls(seed)

    return make


#: The levels a person picks from, weakest first: the rating ladder, each level measured
#: against the others (``euchre rate --levels``, the ratings in ``data/ladder.json``).
LADDER: tuple[Level, ...] = (
    Level("beginner", _seeded(BeginnerBot),
          summary="a new player's habits: orders on two trumps, always plays high, sometimes "
                  "forgets to trump in"),
    Level("casual", _seeded(CasualBot),
          summary="knows a good player's habits but follows them about half the time"),
    Level("club", _seeded(RuleBasedBot),
          summary="a good table player: counts its tricks before it bids, plays to its "
                  "partner, reads the score"),
    Level("expert", _search,
          summary="the strongest: bids from a network fitted to simulated deals, plays each "
                  "card over many deals it could face"),
)
#: The level a table's computers play at unless someone chooses another.
TABLE_LEVEL = "club"
#: The strongest level a person can pick (the browser's hint plays as it).
STRONGEST_LEVEL = "expert"

#: The levels that ship with the package: the ladder, then the players by their own names,
#: then the baselines kept for measurement.
BUILTIN: tuple[Level, ...] = (
    *LADDER,
    Level("random", _seeded(RandomBot), for_players=False,
          summary="plays any legal card: the floor of the rating ladder"),
    Level("rule", _seeded(RuleBasedBot), for_players=False, same_as="club",
          summary="the club level, by its player's name"),
    Level("search", _search, for_players=False, same_as="expert",
          summary="the expert level, by its player's name"),
    Level("search-rollout", _rollout, for_players=False,
          summary="search bidding by playing each option out over sampled deals (the default "
                  "before the learned bids; a baseline)"),
    Level("pimc-naive", _naive, for_players=False,
          summary="search bidding from double-dummy results (a baseline)"),
    Level("pimc-full", _full, for_players=False,
          summary="textbook PIMC bidding, later bids seen double-dummy too (a baseline)"),
    Level("pimc-uniform", _uniform, for_players=False,
          summary="pimc-full on uniform deals, reading nothing into the bids, as the published "
                  "PIMC comparisons do (a baseline)"),
    Level("rule-v1", _seeded(LegacyRuleBot), for_players=False,
          summary="the first rule player, frozen as a measured baseline"),
)
#: Their names, in that order.
BUILTIN_NAMES: tuple[str, ...] = tuple(level.name for level in BUILTIN)
_BUILTIN_NAMES = frozenset(BUILTIN_NAMES)
_registered: dict[str, Level] = {}
_installed: dict[str, Level] | None = None


def register(name: str, factory: Factory | str, *, for_players: bool = True,
             summary: str = "", deterministic: bool = False) -> None:
    """Make ``name`` a level everywhere in this process (notebooks, tests, ``euchre serve
    --bot``). ``factory`` is a callable ``factory(seed, **options)`` (a class will do) or a
    spec string (``"cmd:node bot.js"``, ``"pkg.mod:factory"``) that the name stands for."""
    if not isinstance(name, str) or not name or not name.isprintable() or ":" in name \
            or name != name.strip():
        raise ValueError(f"a level name is printable text without ':', not {name!r}")
    if name in _BUILTIN_NAMES:
        raise ValueError(f"{name!r} is a built-in level; choose another name")
    if isinstance(factory, str):
        check_spec(factory)
        spec = factory

        def from_spec(seed: int | None = None, **options: object) -> Bot:
            return make_bot(spec, seed, **options)

        factory = from_spec
    elif not callable(factory):
        raise ValueError(f"a bot factory is a callable or a spec string, not {factory!r}")
    _registered[name] = Level(name, factory, for_players, summary, deterministic)


def unregister(name: str) -> None:
    """Remove a level :func:`register` added (tests clean up with it)."""
    _registered.pop(name, None)


def _entry_point_levels() -> dict[str, Level]:
    """Levels installed packages declare, read once per process."""
    global _installed
    if _installed is None:
        found: dict[str, Level] = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name in _BUILTIN_NAMES or ":" in ep.name:
                continue  # a package cannot take over a built-in level's name

            def load(seed: int | None = None, _ep: Any = ep, **options: object) -> Bot:
                return _call_factory(_ep.load(), seed, options, _ep.name)

            found[ep.name] = Level(ep.name, load, True, f"from {ep.value}", False)
        _installed = found
    return _installed


def refresh_installed() -> None:
    """Read the ``euchre.bots`` entry points again (after installing a package in a running
    process; tests)."""
    global _installed
    _installed = None


def levels() -> dict[str, Level]:
    """Every level by name: built-in (weakest first), then registered, then installed."""
    out = {level.name: level for level in BUILTIN}
    out.update(_registered)
    for name, level in _entry_point_levels().items():
        out.setdefault(name, level)
    return out


def level_names() -> tuple[str, ...]:
    """Every level ``make_bot`` builds by name, baselines included."""
    return tuple(levels())


def player_levels() -> tuple[str, ...]:
    """The levels a person picks from (menus, the web form, the players' docs), weakest first."""
    return tuple(name for name, level in levels().items() if level.for_players)


def is_level(name: str) -> bool:
    return name in levels()


#: The calibration run's result: each ladder level's rating (``euchre rate --levels`` writes
#: it; schema in :mod:`euchre.tournament.ratings`).
LADDER_FILE = Path(__file__).with_name("data") / "ladder.json"


class LevelRating(NamedTuple):
    """A level's measured rating: mean, uncertainty (a standard deviation) and the games it
    was measured over. :class:`euchre.tournament.ratings.Rating` is the same on the scale's
    own terms; the registry reads the numbers without the rating library."""

    mu: float
    sigma: float
    games: int

    @property
    def half_width(self) -> float:
        """Half its 95% interval, as :class:`euchre.tournament.ratings.Rating` gives it: a
        rating is shown with its margin wherever a person reads it."""
        from euchre.tournament.stats import Z95  # here: the tournament package reads this one

        return Z95 * self.sigma

    def shown(self) -> str:
        """``1639 ± 34``: the rating as a menu or a help text shows it."""
        return f"{self.mu:.0f} ± {self.half_width:.0f}"


_ladder_ratings: dict[str, LevelRating] | None = None
_ladder_anchor: str | None = None


def ladder_ratings() -> dict[str, LevelRating]:
    """Every calibrated level's rating by name (the ladder and the floor, ``random``), read
    once per process from :data:`LADDER_FILE`; empty where the file is missing."""
    global _ladder_ratings, _ladder_anchor
    if _ladder_ratings is None:
        try:
            data = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
            _ladder_ratings = {name: LevelRating(float(r["mu"]), float(r["sigma"]),
                                                 int(r["games"]))
                               for name, r in data["levels"].items()}
            anchor = data.get("anchor")
            _ladder_anchor = anchor if anchor in _ladder_ratings else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            _ladder_ratings, _ladder_anchor = {}, None
    return _ladder_ratings


def ladder_anchor() -> str | None:
    """The level the scale is measured from (``club``, at 1500 by definition): a rating
    that no game may move, or the numbers on every level would drift with the site's games.
    None where the calibration file is missing."""
    ladder_ratings()
    return _ladder_anchor


def ladder_rating(name: str) -> LevelRating | None:
    """The measured rating of a level (or of the ladder level a name plays as: ``rule`` is
    ``club``), or None for one that was not calibrated (plug-ins, the baselines)."""
    level = levels().get(name)
    if level is None:
        return None
    return ladder_ratings().get(level.same_as or name)


#: What the anchor's rating is, said beside it wherever it is shown (menus, help texts, the
#: site's pages): its "± 0" is no measured certainty but the scale's definition, every other
#: rating being measured from it.
ANCHOR_NOTE = "the scale's fixed anchor"


def describe_level(name: str) -> str:
    """A level in a line for a menu: its name, its rating and how it plays."""
    level = levels().get(name)
    if level is None:
        raise ValueError(f"unknown level {name!r}")
    rating = ladder_rating(name)
    anchor = f", {ANCHOR_NOTE}" if (level.same_as or name) == ladder_anchor() else ""
    shown = f" ({rating.shown()}{anchor})" if rating is not None else ""
    return f"{name}{shown}: {level.summary}" if level.summary else f"{name}{shown}"


def describe_spec_forms() -> str:
    """The spec forms in a line, for help texts and error messages."""
    return ("a level (" + ", ".join(player_levels()) + "), package.module:factory, "
            "cmd:COMMAND LINE or openspiel:BOT")


def _split_module_spec(spec: str) -> tuple[str, str] | None:
    """(module, attribute) of a ``package.module:factory`` or ``path/to/file.py:factory``
    spec, or None for another form."""
    module, sep, attr = spec.rpartition(":")
    if not sep or spec.startswith((CMD_PREFIX, OPENSPIEL_PREFIX)) or not attr.isidentifier():
        return None
    if module.endswith(".py") or all(p.isidentifier() for p in module.split(".")):
        return module, attr
    return None


def openspiel_peer_name(spec: str) -> str | None:
    """The tournament's peer name for an ``openspiel:<bot>`` spec (``openspiel-ismcts``), or
    None when ``spec`` is not of that form."""
    if not spec.startswith(OPENSPIEL_PREFIX):
        return None
    return "openspiel-" + spec[len(OPENSPIEL_PREFIX):].strip()


def check_spec(spec: str) -> None:
    """Raise ValueError saying what is wrong with ``spec``, without starting anything."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player is {describe_spec_forms()}, not {spec!r}")
    if spec.startswith(CMD_PREFIX):
        from euchre.bots.protocol import command_words

        command_words(spec[len(CMD_PREFIX):])
        return
    if spec.startswith(OPENSPIEL_PREFIX):
        return  # the tournament checks its peers itself
    if _split_module_spec(spec) is not None:
        _load_module_factory(spec)
        return
    if spec not in levels():
        raise ValueError(f"unknown bot {spec!r}; choose one of: {', '.join(level_names())}, "
                         "or package.module:factory, cmd:COMMAND LINE, openspiel:BOT")


def _load_module_factory(spec: str) -> Factory:
    parts = _split_module_spec(spec)
    assert parts is not None
    module_name, attr = parts
    try:
        if module_name.endswith(".py"):
            module = _load_file(module_name)
        else:
            module = _import_module(module_name)
    except (ImportError, OSError) as exc:
        raise ValueError(f"{spec!r}: cannot import {module_name} ({exc})") from None
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(f"{spec!r}: {module_name} has no callable {attr}")
    return factory  # type: ignore[no-any-return]


def _import_module(name: str) -> Any:
    """``name`` imported as Python imports it, else from the current folder, as ``python -m``
    would find it (an installed ``euchre`` command does not search there). The folder is
    searched last, so it never hides an installed module; worker processes inherit the path."""
    import os
    import sys

    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        top = name.partition(".")[0]
        if exc.name != top or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)
        try:
            return importlib.import_module(name)
        except BaseException:
            sys.path.remove(here)
            raise


def _load_file(path: str) -> Any:
    """A bot's module from its file (``examples/python_bot.py``), loaded once per process."""
    import sys
    from importlib.util import module_from_spec, spec_from_file_location
    from pathlib import Path

    file = Path(path).resolve()
    if not file.is_file():
        raise OSError(f"no file {path}")
    name = "euchre_bot_file_" + "".join(ch if ch.isalnum() else "_" for ch in str(file))
    if name in sys.modules:
        return sys.modules[name]
    found = spec_from_file_location(name, file)
    if found is None or found.loader is None:  # pragma: no cover - a .py file always loads
        raise ImportError(f"cannot load {path}")
    module = module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _accepts(factory: Factory, name: str) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: try everything
        return True
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _call_factory(factory: Factory, seed: int | None, options: dict[str, object],
                  label: str) -> Bot:
    """``factory(seed, **options)``: ``think`` is dropped when the factory does not take it
    (one budget works for every player), and a factory that takes no seed gets none."""
    options = dict(options)
    if "think" in options and not _accepts(factory, "think"):
        del options["think"]
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        sig = None
    args: tuple[object, ...] = (seed,)
    if sig is not None:
        positional = [p for p in sig.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
        if not positional and not _accepts(factory, "seed"):
            args = ()
        try:
            sig.bind(*args, **options)
        except TypeError as exc:
            raise ValueError(f"bot {label!r} does not take these options: {exc}") from None
    bot = factory(*args, **options)
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {label!r}: the factory returned {type(bot).__name__}, which has "
                         "no choose(view) method")
    if not isinstance(getattr(bot, "name", None), str):
        with contextlib.suppress(AttributeError):
            bot.name = label
    return bot  # type: ignore[no-any-return]


def make_bot(name: str, seed: int | None = None, **options: object) -> Bot:
    """A new bot from a spec (see the module docstring).

    ``think``: the search levels' budget, a number of deals (``200``) or a time (``"0.5s"``);
    the other levels accept and ignore it, so one option works for every level. A ``cmd:``
    bot takes ``move_time`` (seconds per decision) and ``log`` (its stderr file). An unknown
    name or option, or a bad budget, raises ValueError saying what is allowed."""
    if not isinstance(name, str):
        raise ValueError(f"a bot is named by text ({describe_spec_forms()}), not {name!r}")
    think = options.get("think")
    if think is not None:
        from euchre.bots.search import parse_think

        parse_think(think)  # a bad budget is refused for every level, not only search
    if name.startswith(CMD_PREFIX):
        from euchre.bots.protocol import ProtocolBot

        unknown = sorted(set(options) - {"think", "move_time", "log"})
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)} for a cmd: bot; it takes "
                             "move_time and log")
        move_time = options.get("move_time")
        if move_time is not None and (isinstance(move_time, bool)
                                      or not isinstance(move_time, int | float)):
            raise ValueError(f"move_time is a number of seconds, not {move_time!r}")
        log = options.get("log")
        return ProtocolBot(name[len(CMD_PREFIX):], seed,
                           move_time=float(move_time) if move_time is not None else None,
                           log=str(log) if log is not None else None)
    if name.startswith(OPENSPIEL_PREFIX):
        raise ValueError(f"{name!r} is OpenSpiel's own bot, refereed by OpenSpiel's game: it "
                         "plays only in euchre tournament (with --preset openspiel)")
    if _split_module_spec(name) is not None:
        return _call_factory(_load_module_factory(name), seed, options, name)
    level = levels().get(name)
    if level is None:
        check_spec(name)  # raises, naming what is allowed
        raise AssertionError  # pragma: no cover
    if name in _BUILTIN_NAMES:
        unknown = sorted(set(options) - {"think"})
        if unknown:
            raise ValueError(f"unknown bot option(s) {', '.join(unknown)}; the only option "
                             "is think")
        bot: Bot = level.factory(seed, think)
        if getattr(bot, "name", name) != name:  # the club level says "club", not "rule"
            with contextlib.suppress(AttributeError):
                bot.name = name
        return bot
    return _call_factory(level.factory, seed, options, name)


def claims_determinism(spec: str, bot: object) -> bool:
    """Whether a player says it plays the same for the same seed: a level's declaration, else
    the bot's own ``deterministic`` attribute (a protocol bot's hello says it)."""
    level = levels().get(spec)
    if level is not None and spec in _BUILTIN_NAMES:
        return level.deterministic
    return getattr(bot, "deterministic", False) is True


class NamedSpecs:
    """``make_bot`` with extra level names standing for specs (``euchre serve --bot
    NAME=SPEC``). Picklable, so worker processes (which never saw a :func:`register` call of
    the parent) build the same players; a ``cmd:`` bot that breaks down there hands its move
    to ``fallback`` and the diagnosis goes to the log, and a ``cmd:`` bot's program that has
    had nothing to decide for ``idle`` seconds is stopped (a finished table's programs do not
    live on in the server's workers; a table that goes on starts its program again)."""

    def __init__(self, named: dict[str, str], fallback: str | None = None,
                 idle: float | None = None) -> None:
        for name, spec in named.items():
            if name in _BUILTIN_NAMES:
                raise ValueError(f"{name!r} is a built-in level; name your bot otherwise")
            check_spec(spec)
        from euchre.bots.protocol import DEFAULT_IDLE

        if idle is not None and not idle > 0:
            raise ValueError(f"idle is a positive number of seconds, not {idle!r}")
        self.named = dict(named)
        self.fallback = fallback
        self.idle = DEFAULT_IDLE if idle is None else idle

    def register_all(self) -> None:
        """Make the names levels in this process too (menus and checks read the registry)."""
        for name, spec in self.named.items():
            register(name, spec)

    def __call__(self, level: str, seed: int | None = None, **options: object) -> Bot:
        if self.fallback is not None:
            _install_fallback(self.fallback)
        spec = self.named.get(level, level)
        if spec.startswith(CMD_PREFIX):
            from euchre.bots.protocol import stop_when_idle

            stop_when_idle(self.idle)
        return make_bot(spec, seed, **options)


def _install_fallback(level: str) -> None:
    import logging

    from euchre.bots.protocol import set_fault_handler

    def take_over(diagnosis: str, view: Any) -> Bot:
        logging.getLogger("euchre.bots").warning("%s; %s plays this move", diagnosis, level)
        return make_bot(level, view.seat)

    set_fault_handler(take_over)
