"""A Four Color Cards game for 2 to 4 players: one mutable ``Game`` with an undo stack.

The flow of a turn (RULES.md):

1. ``draw``: the player to move shows the top card of the pile (phase ``claims``).
2. Every player answers the shown card with a claim (``meld`` for the drawer's own draw,
   ``claim`` for the others) or ``pass``. Claims resolve by priority 0 to 4, ties by turn order
   after the card's owner. The winner lays down the meld; a winning claim ends the game.
3. If nobody takes a drawn card, the drawer discards it; a discard nobody takes stays put and
   the next player draws. After a meld the melder ``discard``s a card (never a General or a
   joker), which is shown to the others in turn (phase ``claims`` again).

Every move is checked first: an illegal move raises :class:`IllegalMoveError` saying why and
changes nothing. ``push``/``pop`` make and undo moves; ``events`` is a JSON-ready log that
:meth:`Game.replay` re-plays, checking every move.

>>> g = Game.new(players=4, seed=1)
>>> g.phase, g.turn, [g.hand_size(p) for p in range(4)]
('draw', 0, [20, 20, 20, 20])
>>> g.push(Draw()); g.phase
'claims'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from .cards import CARD_CODES, JOKER, NUM_KINDS, build_deck, counts_of, format_cards, parse_card_ids
from .cards import GENERAL as K
from .claims import Claim, hand_after, win_points
from .claims import claims as claim_options
from .deal import check_deal, deal_hands, is_misdeal, logged_rules
from .decompose import BestTable, meld_points
from .errors import IllegalMoveError, SisepaiError
from .melds import Meld, why_not_meld
from .moves import ClaimMove, Discard, Draw, MeldMove, Move, MoveType, Pass, Win
from .rules import OPTION_KEYS, Rules, resolve_rules
from .scoring import Payment, payments


@dataclass(frozen=True)
class Outcome:
    """The end of a deal: the winner (``None`` for a draw game), points and payments."""

    winner: int | None
    points: int = 0
    payments: tuple[Payment, ...] = ()
    reason: str = ""

    def to_dict(self) -> dict:
        return {"winner": self.winner, "points": self.points, "reason": self.reason,
                "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in self.payments]}


@dataclass
class Shown:
    card: int
    owner: int
    source: str  # "draw" or "discard"


@dataclass
class Exposed:
    meld: Meld
    concealed: bool = False  # tusac: a quad shown at the deal, or a meld made with one's own draw


class Game:
    """The state of one deal. Seats are 0..n-1; the next player is seat + 1 (to the right)."""

    def __init__(self, hands: Sequence[Sequence[int]], pile: Sequence[int], rules: Rules | None = None,
                 dealer: int = 0):
        self.rules = rules or Rules.preset("seesek")
        self.n = len(hands)
        if not 2 <= self.n <= 4:
            raise SisepaiError(f"a game has 2 to 4 players, got {self.n}")
        self.hands = [counts_of(h) for h in hands]
        self.pile = list(pile)  # the top card is the last one
        self.exposed: list[list[Exposed]] = [[] for _ in range(self.n)]
        self.locked: list[list[int]] = [[] for _ in range(self.n)]  # tusac: dealt triples, kept whole
        self.discards: list[list[int]] = [[] for _ in range(self.n)]
        self.dealer = dealer
        self.turn = dealer
        self.phase = "draw"
        self.shown: Shown | None = None
        self.answers: dict[int, MoveType] = {}
        self.outcome: Outcome | None = None
        self.moves: list[MoveType] = []
        self._stack: list[tuple] = []
        self._claims: dict[int, list[Claim]] = {}  # claim options on the shown card, by player
        self._responders: tuple | None = None  # (shown, answers so far, players still to answer)
        self.events: list[dict] = [{
            "type": "deal", "players": self.n, "rules": self.rules.name, "dealer": dealer,
            "hands": [format_cards(sorted(h)) for h in hands], "pile": format_cards(self.pile),
            "points": dict(self.rules.points_items), "jokers": self.rules.jokers,
            "options": {k: getattr(self.rules, k) for k in OPTION_KEYS if k != "description"},
        }]
        self.total_cards = sum(sum(h) for h in self.hands) + len(self.pile)
        if self.rules.deal == "tusac":
            self._tusac_setup()

    # --- dealing -------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, rules: Rules | str | None = None,
            dealer: int = 0, rng: random.Random | None = None) -> "Game":
        """Shuffle and deal: 20 each in packets of 5 (seesek), or dealer 6 then 5s to 21 (tusac),
        re-dealing while the tusac misdeal rule voids the deal."""
        r = resolve_rules(rules)
        rng = rng or random.Random(seed)
        for _ in range(1000):
            deck = [c.id for c in build_deck(jokers=r.jokers, packs=r.packs)]
            rng.shuffle(deck)
            hands = deal_hands(deck, players, dealer, r)
            pile = deck[sum(len(h) for h in hands):]
            if r.misdeal and any(is_misdeal(h) for h in hands):
                continue
            return cls(hands, list(reversed(pile)), r, dealer)
        raise SisepaiError("could not deal a valid hand in 1000 shuffles")

    def _tusac_setup(self) -> None:
        for p in range(self.n):
            counts = self.hands[p]
            for k in range(JOKER):
                if counts[k] == 4:  # a dealt concealed quad is shown at once
                    counts[k] = 0
                    self.exposed[p].append(Exposed(Meld.of((k,) * 4), concealed=True))
                elif counts[k] == 3:  # a dealt concealed triple is locked
                    counts[k] = 0
                    self.locked[p].append(k)
        self.phase = "discard"  # the dealer, holding 21, opens: a win on the deal (zimo), or a discard

    # --- queries -------------------------------------------------------------------------------

    def hand_size(self, player: int) -> int:
        return sum(self.hands[player]) + 3 * len(self.locked[player])

    def exposed_cards(self, player: int) -> int:
        return sum(len(e.meld) for e in self.exposed[player])

    def hand_ids(self, player: int) -> list[int]:
        return [k for k in range(NUM_KINDS) for _ in range(self.hands[player][k])]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def relation(self, player: int) -> str:
        assert self.shown is not None
        if player == self.shown.owner:
            return "own"
        return "previous" if player == self.next_seat(self.shown.owner) else "other"

    def responders(self) -> list[int]:
        """Players who must still answer the shown card, in turn order from its owner."""
        shown = self.shown
        if self.phase != "claims" or shown is None:
            return []
        n, owner, answers = self.n, shown.owner, self.answers
        cached = self._responders
        key = tuple(answers)
        if cached is not None and cached[0] is shown and cached[1] == key:
            return cached[2]
        start = 1 if shown.source == "discard" else 0
        out = [p for p in ((owner + k) % n for k in range(start, n)) if p not in answers]
        self._responders = (shown, key, out)
        return out

    def claim_options(self, player: int) -> list[Claim]:
        """Every claim ``player`` has on the shown card (worked out once a state: bots, the move
        check and the resolution all ask)."""
        assert self.shown is not None
        hit = self._claims.get(player)
        if hit is None:
            hit = self._claims[player] = self._claim_options(player)
        return hit

    def _claim_options(self, player: int) -> list[Claim]:
        locked_cards = 3 * len(self.locked[player])
        return claim_options(self.hands[player], self.shown.card, self.relation(player),
                             self.exposed_cards(player) + locked_cards, self.rules.hand_size,
                             self.rules.allow_general_pair)

    def legal_moves(self, player: int | None = None) -> list[MoveType]:
        """Legal moves now: for ``player`` in the claims phase, else for the player to move."""
        if self.outcome is not None:
            return []
        if self.phase == "draw":
            return [Draw()] if self.pile else []
        if self.phase == "discard":
            opening = [Win(self.dealer)] if self.dealt_win() else []
            return opening + [Discard(k) for k in range(JOKER) if self.hands[self.turn][k] and k % 7 != K]
        responders = self.responders()
        p = responders[0] if player is None else player
        if p not in responders:
            return []
        kind = MeldMove if p == self.shown.owner else ClaimMove
        moves: list[MoveType] = [kind(p, c.meld.cards) for c in self.claim_options(p)]
        if not self._must_meld(p):
            moves.append(Pass(p))
        return moves

    def dealt_win(self) -> bool:
        """tusac: the dealer's dealt 21 cards win before the first move. The deal counts as the
        dealer's own draw (RULES.md, seed 002), so the dealer may declare it (``win P``)."""
        if self.rules.deal != "tusac" or self.moves or self.phase != "discard" or self.turn != self.dealer:
            return False
        if self.hand_size(self.dealer) + self.exposed_cards(self.dealer) != self.rules.hand_size:
            return False
        return BestTable.for_rules(self.rules).best_points(self.hands[self.dealer]) is not None

    def _must_meld(self, player: int) -> bool:
        """A drawn General or joker can never be discarded, so its drawer must meld it."""
        s = self.shown
        return s is not None and s.source == "draw" and player == s.owner and (s.card == JOKER or s.card % 7 == K)

    def is_over(self) -> bool:
        return self.outcome is not None

    # --- moves ---------------------------------------------------------------------------------

    def push(self, move: MoveType | str) -> None:
        """Make a move (an illegal one raises :class:`IllegalMoveError` and changes nothing)."""
        if isinstance(move, str):
            move = Move.parse(move)
        self._check(move)
        self._stack.append(self._snapshot())
        self.moves.append(move)
        self.events.append(_event(move))
        self._apply(move)
        self._claims = {}  # the claim options were the old state's

    def pop(self) -> MoveType:
        """Undo the last move."""
        if not self._stack:
            raise IllegalMoveError("no move to undo")
        move = self.moves.pop()
        self._restore(self._stack.pop())
        self._claims = {}
        return move

    def _snapshot(self) -> tuple:
        # shallow copies are enough: Exposed, Shown and Outcome values are never changed in place
        state = ([list(h) for h in self.hands], list(self.pile), [list(e) for e in self.exposed],
                 [list(x) for x in self.locked], [list(d) for d in self.discards])
        return (state, self.turn, self.phase, self.shown, dict(self.answers), self.outcome, len(self.events))

    def _restore(self, snap: tuple) -> None:
        (self.hands, self.pile, self.exposed, self.locked, self.discards), self.turn, self.phase, self.shown, \
            self.answers, self.outcome, n_events = snap
        del self.events[n_events:]

    def _check(self, move: MoveType) -> None:
        if self.outcome is not None:
            raise IllegalMoveError("the game is over")
        if isinstance(move, Draw):
            if self.phase != "draw":
                raise IllegalMoveError(f"cannot draw now: the game waits for a {self._waiting()}")
            if not self.pile:
                raise IllegalMoveError("the draw pile is empty")
            return
        if isinstance(move, Win):
            if not self.dealt_win():
                raise IllegalMoveError("win P declares a win on the dealt hand: only the tusac dealer, "
                                       "before the first move, with 21 cards that split into melds")
            if move.player != self.dealer:
                raise IllegalMoveError(f"player {move.player} is not the dealer (player {self.dealer})")
            return
        if isinstance(move, Discard):
            if self.phase != "discard":
                raise IllegalMoveError(f"cannot discard now: the game waits for a {self._waiting()}")
            code = CARD_CODES[move.card]
            if move.card == JOKER or move.card % 7 == K:
                kind = "joker" if move.card == JOKER else "General"
                raise IllegalMoveError(f"{code} is a {kind}: it cannot be discarded")
            if not self.hands[self.turn][move.card]:
                if move.card in self.locked[self.turn]:
                    raise IllegalMoveError(f"{code} is in a locked dealt triple: it cannot be broken up")
                raise IllegalMoveError(f"player {self.turn} holds no {code}")
            return
        if self.phase != "claims":
            raise IllegalMoveError(f"no card is shown to claim or pass on: the game waits for a {self._waiting()}")
        player = move.player
        if not 0 <= player < self.n:
            raise IllegalMoveError(f"there is no player {player}")
        if player not in self.responders():
            if player in self.answers:
                raise IllegalMoveError(f"player {player} has already answered the shown card")
            raise IllegalMoveError(f"player {player} cannot claim their own discard")
        if isinstance(move, Pass):
            if self._must_meld(player):
                raise IllegalMoveError(f"{CARD_CODES[self.shown.card]} cannot be discarded: the drawer must meld it")
            return
        own = player == self.shown.owner
        if isinstance(move, MeldMove) and not own:
            raise IllegalMoveError(f"player {player} did not draw the shown card: use claim, not meld")
        if isinstance(move, ClaimMove) and own:
            raise IllegalMoveError(f"player {player} drew the shown card: use meld, not claim")
        if self.shown.card not in move.cards:
            raise IllegalMoveError(f"the meld must include the shown card {CARD_CODES[self.shown.card]}")
        options = {c.meld.cards for c in self.claim_options(player)}
        if tuple(sorted(move.cards)) not in options:
            reason = why_not_meld(move.cards, self.rules.allow_general_pair)
            if reason:
                raise IllegalMoveError(f"{format_cards(move.cards)} is not a meld: {reason}")
            need = list(move.cards)
            need.remove(self.shown.card)
            for k in set(need):
                if need.count(k) > self.hands[player][k]:
                    raise IllegalMoveError(f"player {player} holds no {CARD_CODES[k]} for that meld")
            raise IllegalMoveError(
                f"player {player} may not make {format_cards(move.cards)} from "
                + ("their own draw" if own else "another player's card")
                + ": no single or pair from another's card except to win, and chi only from the previous player")

    def _waiting(self) -> str:
        return {"draw": "draw", "discard": "discard", "claims": "claim or pass on the shown card"}[self.phase]

    def _apply(self, move: MoveType) -> None:
        if isinstance(move, Win):
            self._win(move.player, Shown(-1, move.player, "draw"))  # the deal is the dealer's own draw
            return
        if isinstance(move, Draw):
            card = self.pile.pop()
            self.shown = Shown(card, self.turn, "draw")
            self.phase = "claims"
            self.answers = {}
            self.events[-1]["card"] = CARD_CODES[card]
            return
        if isinstance(move, Discard):
            p = self.turn
            self.hands[p][move.card] -= 1
            self.shown = Shown(move.card, p, "discard")
            self.phase = "claims"
            self.answers = {}
            if not self.responders():
                self._resolve()
            return
        self.answers[move.player] = move
        if not self.responders():
            self._resolve()

    def _resolve(self) -> None:
        shown = self.shown
        assert shown is not None
        best: tuple[int, int, Claim, int] | None = None
        order = [(shown.owner + k) % self.n for k in range(self.n)]
        for rank, p in enumerate(order):
            move = self.answers.get(p)
            if move is None or isinstance(move, Pass):
                continue
            option = next(c for c in self.claim_options(p) if c.meld.cards == tuple(sorted(move.cards)))
            key = (option.priority, rank)
            if best is None or key < best[:2]:
                best = (option.priority, rank, option, p)
        self.answers = {}
        if best is None:
            # nobody took it: a draw is discarded by its drawer; a discard stays where it lies
            self.discards[shown.owner].append(shown.card)
            self.shown = None
            self.turn = self.next_seat(shown.owner)
            self.phase = "draw"
            self._check_pile()
            return
        _, _, option, p = best
        self.hands[p] = hand_after(self.hands[p], option.meld, shown.card)
        concealed = shown.source == "draw" and p == shown.owner
        self.exposed[p].append(Exposed(option.meld, concealed))
        self.events.append({"type": "resolved", "player": p, "claim": option.kind.value,
                            "cards": option.meld.codes})
        self.shown = None
        self.turn = p
        if option.wins:
            self._win(p, shown)
            return
        self.phase = "discard"
        if not any(self.hands[p][k] and k % 7 != K for k in range(JOKER)):
            self.turn = self.next_seat(p)  # nothing may be discarded: play moves on
            self.phase = "draw"
            self._check_pile()

    def _check_pile(self) -> None:
        if len(self.pile) <= self.rules.stop_at:
            self.outcome = Outcome(None, 0, (), "the draw pile is exhausted: a draw game")
            self.events.append({"type": "end", **self.outcome.to_dict()})

    def win_points(self, player: int, option: Claim) -> int:
        """What the winning claim ``option`` on the shown card would score for ``player``: the
        best split of the cards left, locked dealt triples (concealed), the melds already exposed,
        and the winning meld (concealed only on the player's own draw)."""
        assert self.shown is not None
        own_draw = self.shown.source == "draw" and player == self.shown.owner
        return win_points(self.hands[player], option.meld, self.shown.card, "own" if own_draw else "other",
                          self._held_points(player), self.rules)

    def _held_points(self, player: int) -> int:
        """Points of what a player holds outside the concealed cards: locked dealt triples
        (concealed) and exposed melds (concealed when made from the deal or their own draw)."""
        r = self.rules
        total = r.points["triple"] * len(self.locked[player])
        for e in self.exposed[player]:
            total += meld_points(e.meld, r, exposed=not e.concealed)
        return total

    def _win(self, player: int, shown: Shown) -> None:
        best = BestTable.for_rules(self.rules).best_points(self.hands[player])
        if best is None:  # claims() and dealt_win() only offer a win when the hand splits
            raise AssertionError("a winning hand that does not split")
        total = best + self._held_points(player)
        # the discarder pays; on a drawn card (anyone's) every other player pays (RULES.md)
        discarder = shown.owner if shown.source == "discard" and shown.owner != player else None
        pays = tuple(payments(total, player, self.n, discarder))
        reason = "zhimo" if shown.owner == player else "hu"
        self.outcome = Outcome(player, total, pays, reason)
        self.events.append({"type": "end", **self.outcome.to_dict()})

    # --- checks and replay -----------------------------------------------------------------------

    def card_count(self) -> int:
        """Every card accounted for: hands, locked triples, exposed melds, discards, pile, shown."""
        n = sum(sum(h) for h in self.hands) + sum(3 * len(triples) for triples in self.locked)
        n += sum(self.exposed_cards(p) for p in range(self.n))
        n += sum(len(d) for d in self.discards) + len(self.pile)
        if self.shown is not None:
            n += 1
        return n

    def winning_hand(self, player: int) -> tuple[list[int], list[Meld]]:
        """A player's concealed cards (locked triples included) and exposed melds."""
        ids = self.hand_ids(player) + [k for k in self.locked[player] for _ in range(3)]
        return ids, [e.meld for e in self.exposed[player]]

    def state(self) -> dict:
        """A JSON-ready summary of the state (used to check replays)."""
        return {
            "hands": [format_cards(self.hand_ids(p)) for p in range(self.n)],
            "locked": [format_cards(triples) for triples in self.locked],
            "exposed": [[e.meld.codes for e in ex] for ex in self.exposed],
            "discards": [format_cards(d) for d in self.discards],
            "pile": len(self.pile), "turn": self.turn, "phase": self.phase,
            "shown": CARD_CODES[self.shown.card] if self.shown else None,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def replay(cls, events: Sequence[dict]) -> "Game":
        """Re-play a whole event log; raises :class:`SisepaiError` at the first thing that does not
        fit: a deal no shuffle could give (:func:`~sisepai.engine.deal.check_deal`), an illegal move, an outcome other
        than the replay's, or a log that stops before its ``end`` event."""

        if not events or not isinstance(events[0], dict) or events[0].get("type") != "deal":
            raise SisepaiError("not a game log: it must start with a 'deal' event")
        d = events[0]
        try:
            rules = logged_rules(d)
            hands = [parse_card_ids(h) for h in d["hands"]]
            pile = parse_card_ids(d["pile"])
            dealer = d.get("dealer", 0)
        except (SisepaiError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SisepaiError(f"event 0 (deal): {exc}") from None
        check_deal(hands, pile, dealer, rules)
        game = cls(hands, pile, rules, dealer)
        for i, ev in enumerate(events[1:], start=1):
            if not isinstance(ev, dict):
                raise SisepaiError(f"event {i}: not an event object")
            if events[i - 1].get("type") == "end" or game.outcome is not None and ev.get("type") not in ("resolved", "end"):
                raise SisepaiError(f"event {i}: the game was over, but the log goes on")
            t = ev.get("type")
            if t in ("resolved", "end"):
                mine = next((e for e in reversed(game.events) if e.get("type") == t), None)
                if mine is None or {k: mine.get(k) for k in ev} != ev:
                    raise SisepaiError(f"event {i}: the log says {ev}, the replay gives {mine}")
                continue
            try:
                game.push(Move.parse(ev["move"]))
            except (SisepaiError, KeyError) as exc:
                raise SisepaiError(f"event {i} ({ev.get('move', t)}): {exc}") from None
            mine = next(e for e in reversed(game.events) if e.get("type") == "move")
            if "card" in ev and mine.get("card") != ev["card"]:
                raise SisepaiError(f"event {i}: the log drew {ev['card']}, the replay drew {mine.get('card')}")
        if game.outcome is None:
            raise SisepaiError(f"the log stops after {len(events)} events with the game still going: "
                               "a whole log ends with its 'end' event")
        if events[-1].get("type") != "end":
            raise SisepaiError("the game ended, but the log has no 'end' event")
        return game


def _event(move: MoveType) -> dict:
    return {"type": "move", "move": str(move)}
