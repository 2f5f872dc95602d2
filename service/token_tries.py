"""Wrong tokens slowed down per client: a few free tries, then a wait that doubles with each
further wrong token, during which that client's writes are answered 429 with ``Retry-After``.

Without it a LAN client could try 600 tokens a second. The wait applies to the client, whatever
token it sends next, so guessing on through the 429s gains nothing; the right token, sent once the
wait is over, clears the count. A client is keyed as its live slots are
(:func:`sisepai.service.deps.client_key`: every loopback address as one, an IPv4 /24, an IPv6 /64),
so a guesser cannot spread its tries over the many addresses it owns; at most
:data:`MAX_ADDRESSES` are kept, the longest quiet forgotten first.

>>> now = [0.0]
>>> tries = TokenTries(clock=lambda: now[0])
>>> [tries.failed("10.0.0.9") for _ in range(FREE_TRIES + 3)][-4:]
[0.0, 1.0, 2.0, 4.0]
>>> tries.wait_left("10.0.0.9"), tries.wait_left("10.0.0.7")
(4.0, 0.0)
>>> now[0] = 4.0; tries.wait_left("10.0.0.9")
0.0
>>> tries.succeeded("10.0.0.9"); tries.failed("10.0.0.9")
0.0
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

FREE_TRIES = 5
"""Wrong tokens an address may send before it must wait."""
MAX_WAIT_S = 300.0
"""The longest wait (reached after 9 more wrong tokens)."""
FORGET_AFTER_S = 900.0
"""An address with no wrong token for this long starts afresh."""
MAX_ADDRESSES = 10_000


class TokenTries:
    """Counts wrong tokens per address and says how long each must still wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: OrderedDict[str, tuple[int, float, float]] = OrderedDict()  # address -> (wrong, until, last)

    def wait_left(self, address: str) -> float:
        """Seconds ``address`` must wait before its token is looked at (0: go ahead)."""
        entry = self._entry(address)
        return 0.0 if entry is None else max(0.0, entry[1] - self.clock())

    def failed(self, address: str) -> float:
        """Count a wrong token from ``address``; the wait it now has (0 for the free tries)."""
        now = self.clock()
        wrong = (self._entry(address) or (0, 0.0, 0.0))[0] + 1
        wait = 0.0 if wrong <= FREE_TRIES else min(MAX_WAIT_S, 2.0 ** (wrong - FREE_TRIES - 1))
        self._seen[address] = (wrong, now + wait, now)
        self._seen.move_to_end(address)
        while len(self._seen) > MAX_ADDRESSES:
            self._seen.popitem(last=False)
        return wait

    def succeeded(self, address: str) -> None:
        """The right token: ``address`` starts afresh."""
        self._seen.pop(address, None)

    def _entry(self, address: str) -> tuple[int, float, float] | None:
        entry = self._seen.get(address)
        if entry is not None and self.clock() - entry[2] > FORGET_AFTER_S and entry[1] <= self.clock():
            del self._seen[address]
            return None
        return entry
