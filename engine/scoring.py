"""Is a hand a win, what does it score, and who pays whom.

>>> s = score("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK")
>>> s.total, s.odd, len(s.melds)
(11, True, 8)
>>> print(s.table())
meld                 cards           points
single               J                    3
command group        G將 G士 G象          1
...
total                                    11
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .cards import CARD_CODES, Card, check_copies, counts_of, pad, parse_card_ids
from .decompose import BestTable, decompositions, meld_points
from .errors import SisepaiError, TooManyCardsError, shorten
from .melds import Meld
from .rules import Rules, resolve_rules

HandLike = str | Iterable[str] | Iterable[Card] | Iterable[int]
MeldLike = Meld | str | Iterable[str] | Iterable[int]


def to_ids(cards: HandLike) -> list[int]:
    """Class ids from text, codes, :class:`Card` objects or ids."""
    if isinstance(cards, str):
        return parse_card_ids(cards)
    out: list[int] = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c.id)
        elif isinstance(c, int):
            out.append(Card.from_id(c).id)
        else:
            out.extend(parse_card_ids(str(c)))
    return out


def to_meld(meld: MeldLike, rules: Rules) -> Meld:
    """A validated :class:`Meld` from text or ids."""
    if isinstance(meld, Meld):
        return Meld.of(meld.cards, rules.allow_general_pair)
    return Meld.of(to_ids(meld), rules.allow_general_pair)


@dataclass(frozen=True)
class ScoredMeld:
    """One meld of a winning hand and the points it earns."""

    meld: Meld
    points: int
    exposed: bool = False

    def to_dict(self) -> dict:
        return {"cards": self.meld.codes, "kind": self.meld.kind.value, "points": self.points,
                "exposed": self.exposed}


@dataclass(frozen=True)
class Score:
    """The best scoring split of a winning hand, meld by meld.

    ``odd`` is the checksum from the rulebooks: a correctly read winning hand scores odd.
    """

    melds: tuple[ScoredMeld, ...]
    total: int
    rules: str
    decompositions: int = 1

    @property
    def odd(self) -> bool:
        return self.total % 2 == 1

    @property
    def meld_codes(self) -> list[list[str]]:
        return [sm.meld.codes for sm in self.melds]

    def to_dict(self) -> dict:
        return {"rules": self.rules, "points": self.total, "odd": self.odd,
                "melds": [sm.to_dict() for sm in self.melds], "decompositions": self.decompositions}

    def table(self) -> str:
        """A readable breakdown with the cards' characters."""
        rows = [f"{'meld':<20} {'cards':<15} {'points':>6}"]
        for sm in self.melds:
            tag = " (exposed)" if sm.exposed else ""
            rows.append(f"{sm.meld.kind.title + tag:<20} {pad(sm.meld.label(), 15)} {sm.points:>6}")
        rows.append(f"{'total':<20} {'':<15} {self.total:>6}")
        return "\n".join(rows)


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``amount`` points to ``payee`` (players are seat numbers)."""

    payer: int
    payee: int
    amount: int


def one_card(card: str | Card | int) -> int:
    """The class id of exactly one card; :class:`SisepaiError` for none or several.

    >>> one_card("WC")
    12
    >>> one_card("WC WC")
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: one card expected, got 2: 'WC WC'
    """
    ids = to_ids([card]) if not isinstance(card, int) else [Card.from_id(card).id]
    if len(ids) != 1:
        raise SisepaiError(f"one card expected, got {len(ids)}: {shorten(card)}", code="one_card", n=len(ids))
    return ids[0]


def check_hand(cards: HandLike, rules: Rules | str | None = None) -> list[int]:
    """A concealed hand's class ids, checked: no more cards than a hand holds under ``rules``, and
    no more copies than the deck has. The one check every caller of a hand uses (the CLI, the
    service, a live session's options and its assistant).

    >>> len(check_hand("GK GA GE"))
    3
    >>> check_hand(" ".join(["GP"] * 22))
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.TooManyCardsError: 22 cards, but a hand holds at most 21
    """
    return prepare_hand(cards, (), resolve_rules(rules))[0]


def prepare_hand(cards: HandLike, exposed: Sequence[MeldLike], rules: Rules) -> tuple[list[int], list[Meld]]:
    """Card ids and exposed melds, checked: within the deck's copies, and no more cards than a
    hand holds (a longer hand would only make the search slow). Every engine entry point and the
    service take a hand through it.

    >>> ids, melds = prepare_hand("GK GA GE", [["RR", "RH", "RC"]], Rules.preset())
    >>> len(ids), len(melds[0].cards)
    (3, 3)
    """
    ids = to_ids(cards)
    if len(ids) > rules.hand_size:
        raise TooManyCardsError(f"{len(ids)} cards, but a hand holds at most {rules.hand_size}", code="hand_size",
                                n=len(ids), max=rules.hand_size)
    melds = [to_meld(m, rules) for m in exposed]
    all_ids = ids + [c for m in melds for c in m.cards]
    if len(all_ids) > rules.hand_size:
        raise TooManyCardsError(f"{len(ids)} concealed and {len(all_ids) - len(ids)} exposed cards, but a hand "
                                f"holds at most {rules.hand_size}", code="hand_size", n=len(all_ids),
                                max=rules.hand_size)
    check_copies(all_ids, packs=rules.packs, jokers=rules.jokers)
    return ids, melds


def is_winning(cards: HandLike, exposed: Sequence[MeldLike] = (), rules: Rules | str | None = None) -> bool:
    """A win: concealed cards plus exposed melds make ``hand_size`` (21) cards and split fully.

    >>> is_winning("J " * 5 + "GK WK YK RK " + "GP WP YP RP " * 3)
    True
    >>> is_winning("GK GA GE")  # splits, but is not 21 cards
    False
    """
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    if len(ids) + sum(len(m) for m in melds) != r.hand_size:
        return False
    return BestTable.for_rules(r).best_points(counts_of(ids)) is not None


def score(
    cards: HandLike,
    exposed: Sequence[MeldLike] = (),
    rules: Rules | str | None = None,
    *,
    winning_card: str | Card | int | None = None,
    self_drawn: bool = True,
    require_size: bool = True,
) -> Score | None:
    """The best score of a winning hand, or ``None`` if it is not a win.

    ``cards`` are the concealed cards, including the winning card. Exposed melds stay fixed.
    Under the tusac preset, the meld made with a claimed (not self-drawn) ``winning_card``
    counts as exposed.
    """
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    if require_size and len(ids) + sum(len(m) for m in melds) != r.hand_size:
        return None
    counts = counts_of(ids)
    exposed_scored = tuple(ScoredMeld(m, meld_points(m, r, exposed=True), True) for m in melds)
    exposed_total = sum(sm.points for sm in exposed_scored)
    win_id = one_card(winning_card) if winning_card is not None else None
    if win_id is not None and win_id not in ids:
        raise SisepaiError(f"the winning card {CARD_CODES[win_id]} is not among the concealed cards",
                           code="winning_card_missing", card=CARD_CODES[win_id])
    claimed_matters = win_id is not None and not self_drawn and (
        r.points["triple"] != r.points["triple_exposed"] or r.points["quad"] != r.points["quad_exposed"]
    )
    if not claimed_matters:
        best = BestTable.for_rules(r).best(counts)
        if best is None:
            return None
        points, split = best
        concealed = tuple(ScoredMeld(m, meld_points(m, r)) for m in split)
        return Score(exposed_scored + concealed, exposed_total + points, r.name)
    splits = decompositions(counts, r)
    if not splits:
        return None
    best_score: tuple[int, tuple[ScoredMeld, ...]] | None = None
    for split in splits:
        for j, meld in enumerate(split):
            if win_id not in meld.cards:
                continue
            scored = tuple(ScoredMeld(m, meld_points(m, r, exposed=(k == j)), k == j) for k, m in enumerate(split))
            total = sum(sm.points for sm in scored)
            if best_score is None or total > best_score[0]:
                best_score = (total, scored)
    assert best_score is not None
    return Score(exposed_scored + best_score[1], exposed_total + best_score[0], r.name, len(splits))


def all_scores(cards: HandLike, exposed: Sequence[MeldLike] = (), rules: Rules | str | None = None) -> list[Score]:
    """A :class:`Score` for every split of a winning hand, best first (empty if not a win)."""
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    if len(ids) + sum(len(m) for m in melds) != r.hand_size:
        return []
    exposed_scored = tuple(ScoredMeld(m, meld_points(m, r, exposed=True), True) for m in melds)
    out = []
    splits = decompositions(counts_of(ids), r)
    for split in splits:
        scored = exposed_scored + tuple(ScoredMeld(m, meld_points(m, r)) for m in split)
        out.append(Score(scored, sum(sm.points for sm in scored), r.name, len(splits)))
    out.sort(key=lambda s: -s.total)
    return out


def payments(points: int, winner: int, players: int = 4, discarder: int | None = None) -> list[Payment]:
    """Who pays whom: the discarder pays the points, or every other player on a drawn card.

    >>> payments(7, winner=0, discarder=2)
    [Payment(payer=2, payee=0, amount=7)]
    >>> [p.payer for p in payments(7, winner=1, players=3)]
    [0, 2]
    """
    if players < 2:
        raise SisepaiError(f"players must be at least 2, got {players}")
    if not 0 <= winner < players:
        raise SisepaiError(f"winner {winner} is not a seat of {players} players", code="winner_seat",
                           seat=winner, players=players)
    if discarder is not None:
        if discarder == winner or not 0 <= discarder < players:
            raise SisepaiError(f"discarder {discarder} must be another seat of {players} players",
                               code="discarder_seat", seat=discarder, players=players)
        return [Payment(discarder, winner, points)]
    return [Payment(p, winner, points) for p in range(players) if p != winner]


__all__ = [
    "ClaimCheck", "HandLike", "MeldLike", "Payment", "Score", "ScoredMeld", "all_scores", "check_claim", "is_winning",
    "payments", "score", "to_ids", "to_meld",
]


@dataclass(frozen=True)
class ClaimCheck:
    """A claimed score set against the score read: the one claim check of the photo and live paths.

    ``disputed_meld``: where they differ, the meld of the reading in dispute. ``reading_for_claim``:
    another reading of the cards that scores the claim, when one was offered and does.
    """

    claimed: int
    read: Score | None
    disputed_meld: tuple[str, ...] | None = None
    reading_for_claim: tuple[str, ...] | None = None

    @property
    def points_read(self) -> int | None:
        return self.read.total if self.read else None

    @property
    def agrees(self) -> bool:
        return self.points_read == self.claimed

    def to_dict(self) -> dict:
        out = {"claimed": self.claimed, "agrees": self.agrees, "points_read": self.points_read}
        if self.agrees or self.read is None:
            return out
        out["disputed_meld"] = list(self.disputed_meld) if self.disputed_meld else None
        if self.reading_for_claim:
            out["reading_for_claim"] = list(self.reading_for_claim)
        return out

    def sentence(self) -> str | None:
        """Why a winning reading disagrees, in one line; ``None`` when it agrees or did not win.

        >>> check_claim(13, score("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK")).sentence()
        'the claim differs by 2 points; melds as read: J = 3; GK GA GE = 1; WK WA WE = 1; YK = 1; ...; GP WP YP RP = 2'
        """
        if self.agrees or self.read is None:
            return None
        return (f"the claim differs by {self.claimed - self.read.total} points; melds as read: "
                + "; ".join(f"{' '.join(sm.meld.codes)} = {sm.points}" for sm in self.read.melds))


def check_claim(claimed: int, read: Score | None, alternative: tuple[Sequence[str], int] | None = None) -> ClaimCheck:
    """Whether ``claimed`` points agree with the score ``read``; if not, the meld in dispute.

    ``alternative`` is another reading of the same cards and its points (a recogniser's runner-up).
    When it scores the claim, the disputed meld is the first meld of ``read`` holding a card the two
    readings differ in; otherwise it is the meld closest in points to the difference.

    >>> s = score("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK")
    >>> check_claim(11, s).to_dict()
    {'claimed': 11, 'agrees': True, 'points_read': 11}
    >>> check_claim(14, s).disputed_meld
    ('J',)
    """
    if read is None or read.total == claimed:
        return ClaimCheck(claimed, read)
    if alternative is not None and alternative[1] == claimed:
        cards = [c for sm in read.melds for c in sm.meld.codes]
        differ = set(cards) ^ set(alternative[0])
        disputed = next((sm.meld.codes for sm in read.melds if differ & set(sm.meld.codes)), None)
        return ClaimCheck(claimed, read, tuple(disputed) if disputed else None, tuple(alternative[0]))
    diff = abs(claimed - read.total)
    closest = min(read.melds, key=lambda sm: abs(sm.points - diff)) if read.melds else None
    return ClaimCheck(claimed, read, tuple(closest.meld.codes) if closest else None)


def score_answer(ids: Sequence[int], exposed: Sequence[Meld], result: Score | None) -> dict:
    """The one JSON shape of a scored hand, for the CLI's ``--json``, the API's ``/api/score`` and
    (its first four keys, written directly for speed) the batch mode.

    >>> from sisepai.engine.scoring import prepare_hand
    >>> ids, exposed = prepare_hand("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK", [], Rules.preset())
    >>> answer = score_answer(ids, exposed, score(ids, exposed))
    >>> answer["winning"], answer["points"], answer["odd"], list(answer)[:4]
    (True, 11, True, ['cards', 'winning', 'points', 'melds'])
    >>> score_answer([0], (), None)
    {'cards': ['GK'], 'winning': False, 'points': None, 'melds': None, 'breakdown': None, 'odd': None}
    """
    return {"cards": [CARD_CODES[i] for i in ids] + [c for m in exposed for c in m.codes],
            "winning": result is not None, "points": result.total if result else None,
            "melds": result.meld_codes if result else None,
            "breakdown": result.to_dict()["melds"] if result else None, "odd": result.odd if result else None}
