"""The club's ledger: deals, payments and running totals on SQLite or PostgreSQL, the roster of
players and tables, the CSV export, and a family's ledger moved into a club's. It uses only the
engine: the service's routes (:mod:`sisepai.service.routes.ledger`) and ``sisepai ledger`` sit on it.

>>> from sisepai.ledger.store import Ledger
>>> Ledger(":memory:").add_deal("Ann", 5, ["Ann", "Bo"])["payments"]
[{'payer': 'Bo', 'payee': 'Ann', 'amount': 5}]
"""
