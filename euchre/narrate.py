"""The acts of a hand told the way players tell them: declarations, each bidding round, the
dealer's pickup, going and defending alone, and renege claims kept apart, in words.

One action id means different things in different phases (``pass`` is a bid, a declined
defend-alone or a declined renege claim), and a history is a flat list, so a reader needs the
phase of every act. That phase is public (everyone at the table knows whether the bidding is in
its first or second round), so it is worked out here from the acts alone: from a seat's
:class:`~euchre.view.SeatView` history (other seats' declined declarations are invisible there)
or from a full :class:`~euchre.state.HandState` history (for a finished hand's record).
Pure standard library, like the rest of the core, so ``euchre replay`` and the terminal share it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from euchre import actions as A
from euchre.cards import EFFECTIVE_SUIT, JOKER, Card
from euchre.phases import PHASES, Phase
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.variants import variant_for
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP
from euchre.words import Moment, Who, action_words

#: Stages in the order a hand goes through them (a hand's phases, the taking of the up-card
#: before the dealer's discard).
STAGES: tuple[Phase, ...] = (
    Phase.DECLARE, Phase.BID1, Phase.DEALER_TAKE, Phase.DISCARD, Phase.BID2, Phase.AUCTION,
    Phase.TRUMP, Phase.ALONE, Phase.DEFEND, Phase.PLAY, Phase.FIX, Phase.CLAIM,
)

#: Headings of the stages a reader wants named; the others read well without one.
STAGE_TITLES: dict[Phase, str] = {
    Phase.DECLARE: "Before the bidding", Phase.BID1: "Round 1", Phase.BID2: "Round 2",
    Phase.FIX: "Before the trick was quitted", Phase.CLAIM: "After the last trick",
}

_DECLARATIONS = (A.FARMER, A.MISDEAL, HIDDEN_SWAP)


@dataclass(frozen=True, slots=True)
class Act:
    """One act of a hand with the stage it belongs to."""

    stage: Phase
    seat: Seat
    action: int
    dealer: Seat
    players: int

    @property
    def by_dealer(self) -> bool:
        return self.seat == self.dealer

    def moment(self, upcard: Card = -1) -> Moment:
        """Where the act was made, for its words (``euchre.words``)."""
        return Moment(self.stage, self.seat, self.dealer, self.players, upcard)


def _is_declaration(a: int) -> bool:
    return a in _DECLARATIONS or a >= A.SWAP_BASE


def _trump_of(a: int, upcard: Card) -> int:
    """The trump a making bid fixes, or -1 when it cannot be told (an order, upcard unknown)."""
    if A.CALL_BASE <= a < A.CALL_BASE + 4:
        return a - A.CALL_BASE
    if A.CALL_ALONE_BASE <= a < A.CALL_ALONE_BASE + 4:
        return a - A.CALL_ALONE_BASE
    if a in (A.ORDER, A.ORDER_ALONE) and 0 <= upcard < JOKER:
        return upcard >> 3
    return -1


def _last_trick_questions(history: Sequence[tuple[int, int]], trump: int) -> int:
    """renege_fix: how many players were asked, after the last card, whether to fix a renege
    (every player of the last trick who did not follow suit). The tricks are rebuilt from the
    plays: a take-back removes the cards from the fixer's on, and a play to a full trick starts
    the next one."""
    if trump < 0:
        return 0
    size = len({w for w, a in history if A.is_play(a)})
    trick: list[tuple[int, int]] = []
    for w, a in history:
        if A.is_play(a):
            if len(trick) == size:
                trick = []
            trick.append((w, a))
        elif a == A.FIX_RENEGE:
            at = next((i for i, (x, _) in enumerate(trick) if x == w), len(trick))
            del trick[at:]
    if not trick:
        return 0
    eff = EFFECTIVE_SUIT[trump]
    led = eff[trick[0][1]]
    return sum(1 for _, c in trick[1:] if eff[c] != led)


def staged(history: Sequence[tuple[int, int]], rules: Rules, dealer: Seat,
           viewer: Seat | None = None, upcard: Card = -1) -> list[Act]:
    """Every act of ``history`` with its stage.

    ``viewer`` is the seat whose view the history comes from (its own declaration is its first
    act; other seats' declined declarations are absent), or None for a full history, where the
    first ``players`` acts are the declarations whenever a declaration option is on. ``upcard``
    tells the trump an order-up fixed: under ``renege_fix`` it tells the last trick's fix
    questions from the renege claims after it (without it they read as claims)."""
    n = rules.players
    declaring = rules.farmers_hand != "off" or rules.no_ace_no_face
    out: list[Act] = []
    # Two-handed with rows has no up-card: an auction of tricks, then the maker names trump.
    stage = Phase.DECLARE if declaring else PHASES[variant_for(rules).bidding_phase()]
    declared = 0
    trump = -1
    after_last = 0
    questions = -1
    own_seen = False
    passes = 0
    made = False
    played = False
    last_play = max((i for i, (_, a) in enumerate(history) if A.is_play(a)), default=-1)
    for i, (seat, a) in enumerate(history):
        if stage == Phase.DECLARE:
            if viewer is None:
                is_decl = declared < n
            else:
                is_decl = _is_declaration(a) or (seat == viewer and not own_seen)
            if seat == viewer:
                own_seen = True
            if is_decl:
                declared += 1
                out.append(Act(Phase.DECLARE, seat, a, dealer, n))
                continue
            stage = Phase.BID1
        if A.is_play(a):
            played = True
            out.append(Act(Phase.PLAY, seat, a, dealer, n))
            continue
        if played:
            # renege_fix: a take-back, or a pass with more cards still to come, answered the
            # question asked before a trick is quitted; after the last card, the last trick's
            # questions come first, then the renege claims.
            fixing = a == A.FIX_RENEGE or (rules.renege_fix and i < last_play)
            if rules.renege_fix and i > last_play:
                if questions < 0:
                    questions = _last_trick_questions(history, trump)
                fixing = after_last < questions
                after_last += 1
            out.append(Act(Phase.FIX if fixing else Phase.CLAIM, seat, a, dealer, n))
            continue
        if stage == Phase.AUCTION:
            out.append(Act(Phase.AUCTION, seat, a, dealer, n))
            if seat == dealer:  # the dealer speaks last
                stage = Phase.TRUMP
            continue
        if stage == Phase.TRUMP and not made:
            out.append(Act(Phase.TRUMP, seat, a, dealer, n))
            trump = _trump_of(a, upcard)
            made = True
            continue
        if not made and stage in (Phase.BID1, Phase.BID2):
            out.append(Act(stage, seat, a, dealer, n))
            if a == A.PASS:
                passes += 1
                if passes == n and stage == Phase.BID1:
                    stage, passes = Phase.BID2, 0
            else:
                made = True
                trump = _trump_of(a, upcard)
            continue
        if a in (A.TAKE, A.DECLINE):
            kind = Phase.DEALER_TAKE
        elif a == HIDDEN_DISCARD or A.is_discard(a):
            kind = Phase.DISCARD
        elif a in (A.GO_ALONE, A.WITH_PARTNER):
            kind = Phase.ALONE
        else:  # defend alone, or a pass declining to
            kind = Phase.DEFEND
        out.append(Act(kind, seat, a, dealer, n))
    return out


def phrase(act: Act, upcard: Card = -1) -> str:
    """What a seat did, third person, after its name ("orders it up alone"): the act's words
    (``euchre.words``), for the stage it was made in."""
    return action_words(act.action, act.moment(upcard), "done")


def last_act(history: Sequence[tuple[int, int]], rules: Rules, dealer: Seat,
             upcard: Card = -1) -> Act | None:
    """The latest act of a full history with its stage (is that ``pass`` a bid or not?)."""
    acts = staged(history, rules, dealer, upcard=upcard)
    return acts[-1] if acts else None


def bidding_segments(acts: Sequence[Act], who: Callable[[Seat], Who], upcard: Card = -1,
                     quiet_passes: bool = True, compact: bool = False,
                     ) -> list[tuple[str, list[str]]]:
    """(heading, sentences) for each stage before the play and the claims after it, each
    sentence about ``who`` did it, as its reader calls them ("You pass", "West calls ♥").

    With ``quiet_passes`` a declaration pass (nothing to declare) is left out, as a real table
    never hears it, and a first round everyone passed is said in two words. ``compact`` (one
    line on the table) also leaves out declined defend-alones, tricks let stand and renege
    claims: only what happened, not what did not."""
    out: list[tuple[str, list[str]]] = []
    for stage in STAGES:
        if stage == Phase.PLAY:
            continue
        these = [x for x in acts if x.stage == stage]
        if quiet_passes and stage == Phase.DECLARE:
            these = [x for x in these if x.action != A.PASS]
        # Another seat's face-down discard says nothing the pickup did not.
        these = [x for x in these if x.action != HIDDEN_DISCARD]
        if compact and stage in (Phase.DEFEND, Phase.CLAIM, Phase.FIX):
            these = [x for x in these if x.action != A.PASS]
        if not these:
            continue
        title = STAGE_TITLES.get(stage, "")
        if (quiet_passes and stage == Phase.BID1 and any(x.stage == Phase.BID2 for x in acts)):
            out.append((title, ["all pass"]))
            continue
        out.append((title, [action_words(x.action, x.moment(upcard), "done", who(x.seat))
                            for x in these]))
    return out
