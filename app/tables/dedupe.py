"""A command applied once: what each phone (seat and device) sent, by sequence number."""

from __future__ import annotations

from collections import OrderedDict

SEEN_PER_DEVICE = 512


class Dedupe:
    """The versions recent commands of each phone made; older ones are known by number.

    A phone's commands carry rising sequence numbers: one far below the highest seen is
    an old one sent again. A table restored from a snapshot knows each phone's highest
    number then (`floor`), and takes anything at or below it as sent before.
    """

    def __init__(self) -> None:
        self._seen: dict[str, OrderedDict[int, int]] = {}
        self.max_seq: dict[str, int] = {}
        self._floor: dict[str, int] = {}

    def __contains__(self, phone: str) -> bool:
        return phone in self._seen

    def restore(self, max_seq: dict[str, int]) -> None:
        self.max_seq.update(max_seq)
        self._floor = dict(max_seq)

    def remember(self, phone: str, seq: int, version: int) -> None:
        if not phone:
            return
        seen = self._seen.setdefault(phone, OrderedDict())
        seen[seq] = version
        if len(seen) > SEEN_PER_DEVICE:
            seen.popitem(last=False)
        self.max_seq[phone] = max(seq, self.max_seq.get(phone, seq))

    def applied(self, phone: str, seq: int, current: int) -> int | None:
        """The version the command made, `current` if it is known only as old, or None."""
        if not phone:
            return None
        seen = self._seen.get(phone)
        if seen is not None and seq in seen:
            return seen[seq]
        if seq <= self.max_seq.get(phone, -1) - SEEN_PER_DEVICE:
            return current
        if seq <= self._floor.get(phone, -1):
            return current
        return None
