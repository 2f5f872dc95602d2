"""A ledger's sums within an open transaction: what payments do to totals, each table's running
totals, the same summed afresh from the payments, and the invariants every write keeps.

>>> net_totals([("Bo", "Ann", 3)])
{'Bo': -3, 'Ann': 3}
"""

from __future__ import annotations

TABLE_ID = "(SELECT id FROM rooms WHERE name = ?)"
"""SQL for the id of the table a ``?`` names: a deal keeps its table by id (``deals.room_id``)."""


def net_totals(payments, sign: int = 1, totals: dict[str, int] | None = None) -> dict[str, int]:
    """What ``(payer, payee, amount)`` payments do to each player's total (``sign`` -1 takes them
    back), added to ``totals`` when given.

    >>> net_totals([("Bo", "Ann", 11), ("Cy", "Ann", 11)])
    {'Bo': -11, 'Ann': 22, 'Cy': -11}
    """
    totals = {} if totals is None else totals
    for payer, payee, amount in payments:
        totals[payer] = totals.get(payer, 0) - sign * int(amount)
        totals[payee] = totals.get(payee, 0) + sign * int(amount)
    return totals


def table_totals(tx, table: str | None = None, active: bool = False) -> dict[str, int]:
    """:meth:`Ledger.totals` within the open transaction ``tx``: read from the running totals;
    club-wide (``table`` None) and ``active``, without the retired players."""
    if table is not None:
        return {p: int(t) for p, t in tx.rows("SELECT player, total FROM balances WHERE room = ? ORDER BY player",
                                               (table,))}
    totals = {p: 0 for (p,) in tx.rows("SELECT name FROM players ORDER BY id")}
    for p, t in tx.rows("SELECT player, sum(total) FROM balances GROUP BY player"):
        totals[p] = int(t)
    if active:
        for (p,) in tx.rows("SELECT name FROM players WHERE retired IS NOT NULL"):
            totals.pop(p, None)
    return totals


def totals_from_payments(tx, table: str | None = None) -> dict[str, int]:
    """Each player's total summed afresh from the payments (a check on the running totals), without
    the players who never paid or won (a player who paid and won back as much is there, at 0)."""
    where, params = (f"WHERE d.room_id = {TABLE_ID}", (table,)) if table is not None else ("", ())
    return net_totals(tx.rows("SELECT p.payer, p.payee, sum(p.amount) FROM payments p JOIN deals d "
                              f"ON d.id = p.deal_id {where} GROUP BY p.payer, p.payee", params))


def ledger_problems(tx) -> list[str]:
    """What breaks the ledger's invariants within the open transaction ``tx``: each table's running
    totals against its payments summed afresh, totals that do not sum to zero, deals and totals at a
    table that does not exist, deals won with no payment.
    Empty when all hold (every roster change checks it before it commits)."""
    problems = []
    for (table,) in tx.rows("SELECT name FROM rooms ORDER BY id"):
        # players at 0 either way (never paid, or paid and won back as much) are left out of both
        kept = {p: t for p, t in table_totals(tx, table).items() if t}
        fresh = {p: t for p, t in totals_from_payments(tx, table).items() if t}
        if kept != fresh:
            problems.append(f"table {table!r}: its running totals differ from its payments")
        if sum(kept.values()):
            problems.append(f"table {table!r}: its totals sum to {sum(kept.values())}, not 0")
    stranded = tx.one("SELECT count(*) FROM deals d WHERE NOT EXISTS (SELECT 1 FROM rooms r WHERE r.id = d.room_id)")[0]
    if stranded:
        problems.append(f"{stranded} deals are at a table that does not exist")
    for room, player, total in tx.rows("SELECT b.room, b.player, b.total FROM balances b WHERE b.total <> 0 AND "
                                       "NOT EXISTS (SELECT 1 FROM rooms r WHERE r.name = b.room) "
                                       "ORDER BY b.room, b.player"):
        problems.append(f"a total with no deal behind it: {player!r} {total:+d} at table {room!r}, which does not exist")
    unpaid = tx.one("SELECT count(*) FROM deals d WHERE d.winner IS NOT NULL AND d.points > 0 AND NOT EXISTS "
                    "(SELECT 1 FROM payments p WHERE p.deal_id = d.id)")[0]
    if unpaid:
        problems.append(f"{unpaid} deals with a winner have no payment")
    return problems
