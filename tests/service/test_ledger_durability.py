"""The ledger keeps every acknowledged write when its writers are killed mid-stream (kill -9)."""

import signal
import sqlite3
import subprocess
import sys
import time

WRITER = """
import sys
from sisepai.ledger.store import Ledger
ledger, me = Ledger(sys.argv[1]), sys.argv[2]
while True:
    deal = ledger.add_deal(winner="A" + me, points=3, players=["A" + me, "B" + me], discarder="B" + me)
    print(deal["id"], flush=True)  # acknowledged: the transaction has committed
"""


def test_killed_writers_lose_no_acknowledged_write(tmp_path):
    db = tmp_path / "ledger.sqlite"
    acknowledged: set[int] = set()
    for _ in range(3):
        writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(k)], stdout=subprocess.PIPE, text=True)
                   for k in range(4)]
        time.sleep(2.5)
        for w in writers:
            w.send_signal(signal.SIGKILL)
        for w in writers:
            out, _ = w.communicate(timeout=30)
            acknowledged |= {int(line) for line in out.split() if line.strip().isdigit()}
    assert len(acknowledged) > 50
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {row[0] for row in con.execute("SELECT id FROM deals")}
    assert acknowledged <= stored
    orphans = con.execute("SELECT COUNT(*) FROM deals d WHERE NOT EXISTS "
                          "(SELECT 1 FROM payments p WHERE p.deal_id = d.id)").fetchone()[0]
    assert orphans == 0  # a deal and its payments are one transaction
