"""Rich tables of advice and reviews for the terminal (the JSON forms carry the same content)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from euchre import actions as A
from euchre.analysis.advice import Advice
from euchre.analysis.assess import assessment_words, model_basis
from euchre.analysis.puzzles import Puzzle
from euchre.analysis.review import Review
from euchre.analysis.values import OBJECTIVES, Z95, OptionValue
from euchre.cards import SUIT_SYMBOLS, Card, card_symbol, left_bower, right_bower, sort_hand
from euchre.phases import Phase
from euchre.seats import seat_name, side_name, side_of
from euchre.view import SeatView
from euchre.words import YOU, Moment, Who, action_words, option_words


def _console(console: Console | None) -> Console:
    return console or Console(highlight=False, emoji=False)


def _game_verdict(options: tuple[OptionValue, ...], view: SeatView, at: str) -> str:
    """The option that wins the game most often, when it is not the one ahead on points (near
    the end of a game a point matters more or less than another): without this line the table
    would show a higher game-winning chance below the verdict with no word on it."""
    if len(options) < 2 or options[0].win is None:
        return ""
    top = max(options, key=lambda o: o.win or 0.0)
    best = options[0]
    pct = round(100 * (top.win or 0.0)), round(100 * (best.win or 0.0))
    if top is best or pct[0] <= pct[1]:
        return ""
    now = Moment.of(view)
    return (f"For the game at {at}, {action_words(top.action, now)} has the best chance: "
            f"{pct[0]}% against {pct[1]}% for {action_words(best.action, now)}.")


def _points_verdict(options: tuple[OptionValue, ...], view: SeatView, at: str) -> str:
    """Why the game's best bid is not the hand's, when the two differ: the score makes some
    points worth more than others."""
    if len(options) < 2:
        return ""
    top = max(options, key=lambda o: o.points)
    best = options[0]
    if top is best or top.points - best.points < 0.005:
        return ""
    return (f"On points alone {action_words(top.action, Moment.of(view))} is ahead "
            f"({top.points:+.2f} against {best.points:+.2f} a hand), but at {at} the points "
            "that win or save the game count, not the hand's average.")


def print_advice(adv: Advice, seconds: float, console: Console | None = None) -> None:
    con = _console(console)
    n = adv.rules.players
    up_suit = adv.upcard >> 3 if adv.upcard >> 3 < 4 else 4
    hand = " ".join(card_symbol(c) for c in sort_hand(adv.hand, up_suit))
    score = at = ""
    if adv.scores:
        side = side_of(adv.seat, n)
        others = [v for s, v in enumerate(adv.scores) if s != side]
        at = f"{adv.scores[side]}-{'-'.join(map(str, others))}"
        score = f", score {at} (us-them)"
    con.print(f"[bold]{seat_name(adv.seat, n)}[/] holds {hand}; up-card "
              f"{card_symbol(adv.upcard)}, {seat_name(adv.dealer, n)} deals{score}.")
    for r in adv.rounds:
        title = ("Round one (the seats before you passed)" if r.round == 1 else
                 f"Round two ({SUIT_SYMBOLS[up_suit] if up_suit < 4 else 'the up-card'} "
                 "turned down)")
        t = Table(title=title, title_justify="left")
        t.add_column("Bid")
        t.add_column("Points", justify="right")
        t.add_column("±95%", justify="right")
        has_win = any(o.win is not None for o in r.options)
        a = r.assessment
        if has_win:
            t.add_column("Win game", justify="right")
            if a is not None:
                t.add_column("±95%", justify="right")
        by = {o.action: o for o in a.options} if a is not None else {}
        for i, o in enumerate(r.options):
            row = [("[bold green]" if i == 0 else "") + option_words(o.action, r.view),
                   f"{o.points:+.2f}", f"{o.ci95:.2f}"]
            if has_win:
                row.append(f"{100 * (o.win or 0):.0f}%")
                if a is not None:
                    row.append(f"{100 * Z95 * by[o.action].se:.0f}%")
            t.add_row(*row)
        con.print(t)
        if a is not None:
            # The service's own words: each option against the best with the paired error, a
            # close call said as one, and why the game and the hand disagree where they do.
            con.print(f"Best: {assessment_words(a, basis=False)} Over {r.deals} deals, "
                      f"{model_basis(a)}; judged by {OBJECTIVES[r.objective]}.")
            continue
        best, second = r.options[0], r.options[1] if len(r.options) > 1 else None
        verdict = f"Best: {option_words(best.action, r.view)}"
        if second is not None and r.objective == "win":
            gap = (best.win or 0.0) - (second.win or 0.0)
            verdict += (f", {100 * gap:.0f}% more chance to win the game than "
                        f"{action_words(second.action, Moment.of(r.view))}"
                        + (" (within the error: a close call)" if r.close else ""))
        elif second is not None:
            gap = best.points - second.points
            clear = gap > best.ci95 + second.ci95 and not r.close
            verdict += (f", {gap:.2f} points a hand ahead of "
                        f"{action_words(second.action, Moment.of(r.view))}"
                        + ("" if clear else " (within the error bars: a close call)"))
        con.print(verdict + f" over {r.deals} deals; judged by {OBJECTIVES[r.objective]}.")
        game = _game_verdict(r.options, r.view, at) if r.objective == "points" \
            else _points_verdict(r.options, r.view, at)
        if game:
            con.print(game)
    con.print(f"[dim]Points: your side's minus the other side's per hand, each deal played "
              f"out by the search player's rollout policy; {seconds:.1f} s.[/]")


def _count(n: object, noun: str) -> str:
    """"1 clear mistake", "0 clear mistakes": a totals line a player reads."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_review(rev: Review, top: Card, console: Console | None = None) -> None:
    """The costliest decisions as a table, then why, one numbered line each (a why column
    would be unreadable in 80 columns), then each seat's totals."""
    con = _console(console)
    shown = [d for d in rev.decisions if d.loss > 0][:top]
    rev_players = len(rev.players)
    t = Table(title=f"Costliest decisions (of {len(rev.decisions)} reviewed)",
              title_justify="left")
    for col, just in (("#", "right"), ("Hand", "right"), ("Seat", "left"), ("When", "left"),
                      ("Chose", "left"), ("Best", "left"), ("Loss", "right"),
                      ("±95%", "right")):
        t.add_column(col, justify=just, no_wrap=col in ("Loss", "±95%"))  # type: ignore[arg-type]
    scale, fmt = (100, "{:.1f}%") if rev.objective == "win" else (1, "{:.2f}")
    for i, d in enumerate(shown, 1):
        mark = "[bold red]" if d.clear else ""
        t.add_row(str(i), str(d.hand), seat_name(d.seat, rev_players), d.when,
                  d.choice_label, d.best_label, mark + fmt.format(scale * d.loss),
                  fmt.format(scale * d.ci95))
    con.print(t)
    for i, d in enumerate(shown, 1):
        con.print(f"{i:>3}. {d.short}")
    if not shown:
        given = ("any of the chance to win the game" if rev.objective == "win"
                 else "any points")
        con.print(f"No decision gave up {given} against the best choice, beyond what the "
                  "deals could tell.")
    con.print()
    win = rev.objective == "win"
    for s in rev.seat_totals():
        loss, ci = float(s["loss"]), s["loss_ci95"]  # type: ignore[arg-type]
        amount = (f"{100 * loss:.1f}%" if win else f"{loss:.2f}").replace("-", "−")
        if isinstance(ci, float):
            amount += f" ± {100 * ci:.1f}%" if win else f" ± {ci:.2f}"
        unit = "of the chance to win the game" if win else "points"
        con.print(f"  {s['name']}: {_count(s['decisions'], 'decision')}, {amount} "
                  f"{unit} lost in all, {_count(s['mistakes'], 'clear mistake')}")
    judged = ("the chance to win the game given up" if win else
              "expected points (the player's side's minus the other side's) given up")
    con.print(f"[dim]Judged by {OBJECTIVES[rev.objective]}. Loss: {judged} against the best "
              "choice, which the evaluation service picks on deals of its own (the same at "
              "every budget), measured on fresh deals (so the totals are unbiased at any budget "
              "and a good choice may come out a little below zero); in red, clear mistakes "
              "(both samples say so). "
              f"Card play solved double-dummy over {rev.play_deals} fresh deals consistent with "
              "what the player saw, bids played out by "
              f"the rollout policy over {rev.bid_deals}; {rev.seconds:.1f} s.[/]")


def bowers_words(trump: int, rules_deck: int, symbol: Callable[[int], str]) -> str:
    """Which cards are the bowers for ``trump``, in words: a puzzle must not hinge on a player
    forgetting that the jack of the same colour is a trump."""
    joker = "; the Joker ranks above both" if rules_deck == 25 else ""
    return (f"right bower {symbol(right_bower(trump))}, left bower "
            f"{symbol(left_bower(trump))}{joker}")


def puzzle_lines(p: Puzzle, view: SeatView, count: int, symbol: Callable[[int], str],
                 heading: str | None = None) -> list[str]:
    """A puzzle's position in sentences: who dealt, the up-card, the bidding so far, the
    trump in question and its bowers, the tricks so far and the hand, then the question
    (``heading``, "Puzzle 3 of 41" by default, names it)."""
    from euchre.narrate import bidding_segments, staged

    n = view.players
    me = seat_name(view.seat, n)
    plain = str.maketrans("♣♦♥♠", "CDHS") if symbol(0) != card_symbol(0) else None

    def words(text: str) -> str:
        return text.translate(plain) if plain else text

    def suit(t: int) -> str:
        return symbol(8 * t + 6)[-1]  # the suit's symbol, via its ace

    dealt = "you dealt" if view.dealer == view.seat else f"{seat_name(view.dealer, n)} dealt"
    heading = heading or f"Puzzle {p.id} of {count}"
    lines = [f"{heading}: you are {me}; {dealt}; the up-card was {symbol(view.upcard)}."]
    if view.scores:
        lines.append("Score: " + ", ".join(f"{side_name(s, n)} {v}"
                                            for s, v in enumerate(view.scores)))

    def who(s: int) -> Who:
        return YOU if s == view.seat else Who(seat_name(s, n))

    acts = staged(view.history, view.rules, view.dealer, viewer=view.seat, upcard=view.upcard)
    segments = bidding_segments(acts, who, view.upcard)
    if segments:
        said = "; ".join(f"{title}: {', '.join(items)}" if title else ", ".join(items)
                         for title, items in segments)
        lines.append("The bidding so far: " + said.replace(", You ", ", you ").replace(
            "; You ", "; you ") + ".")
    else:
        lines.append("Nobody has bid yet: you speak first.")
    up = view.upcard >> 3
    if p.kind == "bid" and view.phase == Phase.BID1 and up < 4:
        lines.append(f"If {suit(up)} is trump: {bowers_words(up, view.rules.deck, symbol)}.")
    elif p.kind == "bid":
        callable_ = sorted({a - A.CALL_BASE for a in view.legal_actions
                            if A.CALL_BASE <= a < A.CALL_BASE + 4})
        lines.append(f"{suit(up)} was turned down. Bowers of each suit you may call: "
                     + "; ".join(f"{suit(t)}: {symbol(right_bower(t))} and "
                                 f"{symbol(left_bower(t))}" for t in callable_) + ".")
    elif view.trump < 4:
        alone = " alone" if view.alone else ""
        lines.append(f"Trump {suit(view.trump)}, made by "
                     f"{'you' if view.maker == view.seat else seat_name(view.maker, n)}"
                     f"{alone}: {bowers_words(view.trump, view.rules.deck, symbol)}.")
    for i, (_leader, cards, winner) in enumerate(view.tricks, 1):
        played = ", ".join(f"{seat_name(s, n)} {symbol(c)}" for s, c in cards)
        lines.append(f"  Trick {i}: {played}, won by {seat_name(winner, n)}.")
    if p.kind == "play":
        if view.current_trick:
            played = ", ".join(f"{seat_name(s, n)} {symbol(c)}" for s, c in view.current_trick)
            lines.append(f"  On the table: {played}.")
        else:
            lines.append("  You lead.")
        won = ", ".join(f"{seat_name(s, n)} {t}" for s, t in enumerate(view.tricks_won) if t)
        if won:
            lines.append(f"  Tricks won: {won}.")
    trump = view.trump if view.trump < 4 else up if up < 4 else 4
    lines.append("Your hand: " + " ".join(symbol(c) for c in sort_hand(view.hand, trump)))
    if p.kind == "bid":
        lines.append("Your bids: " + ", ".join(
            f"{k}. {option_words(a, view)}" for k, a in enumerate(view.legal_actions, 1)))
        lines.append("Which bid is clearly best?")
    elif p.kind == "discard":
        lines.append("Which card do you bury?")
    else:
        lines.append("Which card is clearly best?")
    return [words(x) for x in lines]


def print_puzzle(p: Puzzle, view: SeatView, count: int, symbol: Callable[[int], str],
                 console: Console | None = None, heading: str | None = None) -> None:
    """The position of a puzzle (:func:`puzzle_lines`), each line folded between words at the
    console's width."""
    con = _console(console)
    for i, line in enumerate(puzzle_lines(p, view, count, symbol, heading)):
        t = Text(line)
        if i == 0:
            t.stylize("bold", 0, line.index(":"))
        con.print(t, overflow="fold")
