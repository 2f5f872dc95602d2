"""A deal written within a ledger transaction, and the running totals it moves: the payments a
deal makes, the club's space for new players, a win recorded once, the totals read or summed
afresh (:mod:`.sums`), and a deal's rules: a hand-typed win claims a total the rules allow
(:func:`check_points_total`), an auto-scored one the total its cards score (:func:`check_cards_score`). :class:`~.store.Ledger` and the ledger's moves (:mod:`.move`) write through these.

>>> deal_payments(["Ann", "Bo"], "Ann", "Bo", 7)
[('Bo', 'Ann', 7)]
"""

from __future__ import annotations

import json

from sisepai.engine import score
from sisepai.engine.cards import format_cards
from sisepai.engine.errors import SisepaiError
from sisepai.engine.scoring import prepare_hand
from sisepai.engine.totals import winning_totals

from .roster import insert_players
from .sums import TABLE_ID, net_totals

MAX_PLAYERS = 5000
"""A club has at most this many active players (retired ones do not count): bounds what a page load
lists, and what a script may add."""


def check_space_for_players(tx, names: list[str]) -> None:
    """A :class:`SisepaiError` when the players of ``names`` new to the club would take it past
    :data:`MAX_PLAYERS`. No lock is taken, so writers at different tables do not queue on each
    other: concurrent writers may pass the cap by a few players, never by thousands."""
    count = tx.one("SELECT count(*) FROM players WHERE retired IS NULL")[0]
    if count + len(names) <= MAX_PLAYERS:
        return  # space for all of them, new or not: no need to look them up
    known = {r[0] for r in tx.rows("SELECT name FROM players WHERE retired IS NULL AND name IN ("
                                   + ", ".join(["?"] * len(names)) + ")", names)}
    if count + len(set(names) - known) > MAX_PLAYERS:
        raise SisepaiError(f"the club has {MAX_PLAYERS} active players, the most it may have (retire one to "
                           "add another)", code="players_full", max=MAX_PLAYERS)


def payment_answers(payments) -> list[dict]:
    """``(payer, payee, amount)`` payments as the API answers them.

    >>> payment_answers([("Bo", "Ann", 7)])
    [{'payer': 'Bo', 'payee': 'Ann', 'amount': 7}]
    """
    return [{"payer": a, "payee": b, "amount": c} for a, b, c in payments]


def recorded_win(tx, table: str, deal: dict, players: list[str], payments) -> dict | None:
    """The deal ``deal`` repeats at ``table``, or None. A win is a repeat (a second tap, a second
    sighting of one hand) only when it is the table's last deal and everything is the same: winner,
    players, discarder (the payments), rules, points and cards in any order. Another deal recorded
    in between, or any difference, makes it a new deal; a deal without cards or a winner is always new."""
    if deal["winner"] is None or not deal["cards"]:
        return None
    row = tx.one(f"SELECT id, winner, points, rules, cards, players FROM deals WHERE room_id = {TABLE_ID} "
                 "ORDER BY id DESC LIMIT 1", (table,))
    if row is None:
        return None
    deal_id, winner, points, rules, cards, stored_players = row
    if (winner != deal["winner"] or points != deal["points"] or rules != deal["rules"] or not cards
            or sorted(cards.split()) != sorted(deal["cards"].split()) or json.loads(stored_players) != players):
        return None
    paid = tx.rows("SELECT payer, payee, amount FROM payments WHERE deal_id = ? ORDER BY id", (deal_id,))
    if sorted(tuple(p) for p in paid) != sorted(tuple(p) for p in payments):
        return None  # the same hand, another discarder (or drawn by the winner this time)
    return {"id": deal_id, "table": table, "winner": winner, "points": points, "payments": payment_answers(paid)}


def record_deal(tx, table: str, deal: dict, players: list[str], payments) -> int:
    """Write one deal at ``table`` within ``tx``: its players (new ones join the club), the deal
    (``created``, ``winner``, ``points``, ``rules``, ``source``, ``cards``, ``note``), its
    ``(payer, payee, amount)`` payments and the running totals; returns its id."""
    check_space_for_players(tx, players)
    insert_players(tx, players, deal["created"])
    deal_id = tx.one("UPDATE deal_ids SET last = last + 1 RETURNING last")[0]  # never an undone deal's id again
    # the deal names its table by the table's id: a rename never moves it, a merge moves it by id
    tx.run("INSERT INTO deals (id, created, winner, points, rules, source, cards, note, room, room_id, players) "
           f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, {TABLE_ID}, ?)",
           (deal_id, deal["created"], deal["winner"], deal["points"], deal["rules"], deal["source"], deal["cards"],
            deal["note"], table, table, json.dumps(players)))
    if payments:
        tx.run("INSERT INTO payments (deal_id, payer, payee, amount) VALUES "
               + ", ".join(["(?, ?, ?, ?)"] * len(payments)), [v for pay in payments for v in (deal_id, *pay)])
    add_to_balances(tx, table, players, payments, +1)
    return deal_id


def deal_payments(players: list[str], winner: str | None, discarder: str | None,
                  points: int) -> list[tuple[str, str, int]]:
    """The ``(payer, payee, amount)`` payments of a deal: the discarder pays the winner, or every
    other player pays on a drawn card; none on a draw. A :class:`SisepaiError` for players that
    cannot have played it.

    >>> deal_payments(["Ann", "Bo", "Cy"], "Ann", None, 5)
    [('Bo', 'Ann', 5), ('Cy', 'Ann', 5)]
    """
    if len(set(players)) != len(players) or not 2 <= len(players) <= 4:
        raise SisepaiError("a deal has 2 to 4 different players", code="deal_players")
    if winner is None:
        return []
    if winner not in players:
        raise SisepaiError(f"the winner {winner!r} is not one of the players", code="winner_not_player", name=winner)
    if discarder is None:
        return [(p, winner, points) for p in players if p != winner]
    if discarder not in players or discarder == winner:
        raise SisepaiError(f"the discarder {discarder!r} must be another player", code="discarder_not_player",
                           name=discarder)
    return [(discarder, winner, points)]


def add_to_balances(tx, table: str, players: list[str], payments, sign: int) -> None:
    """Add (``sign`` +1) or take back (-1) ``payments`` in the running totals of ``table``; each
    of ``players`` gets a total there (0 if new)."""
    deltas = net_totals(payments, sign, {p: 0 for p in players})
    if deltas:
        tx.run("INSERT INTO balances (room, player, total) VALUES " + ", ".join(["(?, ?, ?)"] * len(deltas))
               + " ON CONFLICT (room, player) DO UPDATE SET total = balances.total + excluded.total",
               [v for p, d in deltas.items() for v in (table, p, d)])


def check_points_total(rules, points: int) -> None:
    """A win typed by hand claims a total some winning hand scores under its rules: a
    :class:`SisepaiError` (422) naming the field otherwise.

    >>> from sisepai.engine.rules import Rules
    >>> check_points_total(Rules.preset("seesek"), 11)
    >>> check_points_total(Rules.preset("seesek"), 12)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: points: no winning hand scores 12 under seesek rules (the totals are odd, 1 to 31)
    """
    totals = winning_totals(rules)
    if isinstance(points, bool) or points not in totals:
        odd = all(t % 2 for t in totals)
        raise SisepaiError(f"points: no winning hand scores {points} under {rules.name} rules (the totals are "
                           f"{'odd, ' if odd else ''}{min(totals)} to {max(totals)})", code="points_not_a_total",
                           points=points, min=min(totals), max=max(totals))


def check_cards_score(cards: str, rules, winner: str | None, points: int) -> None:
    """An auto-scored deal's points are what the engine scores its cards to (as ``/api/score``
    does), with a winner: a :class:`SisepaiError` (422) otherwise.

    >>> from sisepai.engine.rules import Rules
    >>> hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
    >>> check_cards_score(hand, Rules.preset("seesek"), "Ann", 11)
    >>> check_cards_score("GK GA", Rules.preset("seesek"), "Ann", 900)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: the deal's cards are not a winning hand, so they cannot be scored 900 points
    """

    result = score(cards, rules=rules)
    if result is None:
        raise SisepaiError(f"the deal's cards are not a winning hand, so they cannot be scored {points} points",
                           code="cards_not_winning", points=points)
    if winner is None:
        raise SisepaiError("an auto-scored deal's cards are a win: name its winner", code="cards_need_winner")
    if result.total != points:
        raise SisepaiError(f"the deal's cards score {result.total} points, not {points}", code="cards_score",
                           score=result.total, points=points)


def checked_hand(text: str, rules) -> str:
    """A deal's winning hand as the engine reads it, in card codes: every card a card, no more
    copies than the deck holds and no more cards than a hand (a :class:`SisepaiError`, answered
    422, otherwise).

    >>> from sisepai.engine.rules import Rules
    >>> checked_hand("g將 GA,GE", Rules.preset("seesek"))
    'GK GA GE'
    """

    ids, _ = prepare_hand(text, (), rules)
    if not ids:
        raise SisepaiError("a deal's cards are empty: leave them out for a deal scored by hand")
    return format_cards(ids)
