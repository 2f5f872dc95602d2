"""Score many hands fast: one hand a line in, one JSON object a line out.

The hot path works on class ids and precomputed JSON fragments, so scoring a line costs a few
dict lookups. A line may carry exposed melds after ``|``: ``GK GA GE ... | GR GH GC``.

>>> scorer = BatchScorer()
>>> scorer.line("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK")[:60]
'{"cards": ["GK", "GA", "GE", "WK", "WA", "WE", "YR", "YH", "'
>>> scorer.line("GK XX")
'{"error": "unknown card \\'XX\\': use a suit G/W/Y/R then a rank K/A/E/R/H/C/P (e.g. GK, rh, G將) or J for a joker"}'
"""

from __future__ import annotations

import json
from typing import IO, Iterable

from .cards import CARD_CODES, JOKER, NUM_KINDS, TOKEN_TO_ID, check_copies, parse_card_ids
from .decompose import BestTable, meld_points
from .errors import SisepaiError
from .melds import Meld
from .rules import Rules

_CODE_JSON = [json.dumps(c) for c in CARD_CODES]


def _meld_json(meld: Meld) -> str:
    return "[" + ", ".join(_CODE_JSON[c] for c in meld.cards) + "]"


class BatchScorer:
    """Scores lines of text into JSON lines with the output contract of ``sisepai score --json -``."""

    def __init__(self, rules: Rules | None = None):
        self.rules = rules or Rules.preset("seesek")
        self.table = BestTable.for_rules(self.rules)
        self.hand_size = self.rules.hand_size
        self.copies = self.rules.copies
        self.jokers = self.rules.jokers
        self._meld_json: dict[Meld, str] = {}
        self.errors = 0

    def _melds_json(self, melds: Iterable[Meld]) -> str:
        cache = self._meld_json
        parts = []
        for m in melds:
            s = cache.get(m)
            if s is None:
                s = cache[m] = _meld_json(m)
            parts.append(s)
        return "[" + ", ".join(parts) + "]"

    def line(self, text: str) -> str:
        """One input line to one output JSON object (no newline)."""
        try:
            return self._line(text)
        except SisepaiError as exc:
            self.errors += 1
            return json.dumps({"error": str(exc)}, ensure_ascii=False)

    def _line(self, text: str) -> str:
        concealed_text, bar, exposed_text = text.partition("|")
        tokens = concealed_text.split()
        lookup = TOKEN_TO_ID
        try:
            ids = [lookup[t] for t in tokens]
        except KeyError:
            ids = parse_card_ids(concealed_text)  # slow path: glued codes, commas, or a clear error
        exposed: list[Meld] = []
        if bar:
            for group in exposed_text.split("|"):
                if group.strip():
                    exposed.append(Meld.of(parse_card_ids(group), self.rules.allow_general_pair))
        if not ids and not exposed:
            raise SisepaiError("empty hand: give the cards on one line, e.g. GK GA GE ...")
        counts = [0] * NUM_KINDS
        for i in ids:
            counts[i] += 1
        for m in exposed:
            for i in m.cards:
                counts[i] += 1
        if max(counts[:JOKER]) > self.copies or counts[JOKER] > self.jokers:
            check_copies([k for k in range(NUM_KINDS) for _ in range(counts[k])], self.rules.packs, self.jokers)
        all_ids = ids + [c for m in exposed for c in m.cards]
        cards_json = "[" + ", ".join([_CODE_JSON[i] for i in all_ids]) + "]"
        result = None
        if len(all_ids) == self.hand_size:
            if exposed:
                for m in exposed:
                    for i in m.cards:
                        counts[i] -= 1
            result = self.table.best(counts)
        if result is None:
            return '{"cards": ' + cards_json + ', "winning": false, "points": null, "melds": null}'
        points, melds = result
        if exposed:
            points += sum(meld_points(m, self.rules, exposed=True) for m in exposed)
            melds = tuple(exposed) + melds
        return ('{"cards": ' + cards_json + ', "winning": true, "points": ' + str(points)
                + ', "melds": ' + self._melds_json(melds) + "}")

    def run(self, lines: IO[str], out: IO[str]) -> int:
        """Score every line of ``lines`` into ``out``; returns the number of bad lines."""
        write = out.write
        buf: list[str] = []
        for text in lines:
            if text.endswith("\n"):
                text = text[:-1]
            buf.append(self.line(text))
            if len(buf) >= 2048:
                write("\n".join(buf) + "\n")
                buf.clear()
        if buf:
            write("\n".join(buf) + "\n")
        return self.errors

