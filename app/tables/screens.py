"""Who is at a table: each open screen's device, and the screens that asked to hear
when a seat's phone comes or goes (hello's `presence`).

With several workers a table's screens may be on any of them: each worker tells the
others, on the table's channel, which seat's devices it has open, and asks theirs when
a screen of its own arrives; a worker that stops renewing its lease is forgotten."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from app.tables import protocol
from app.tables.fanout import Channel, Subscriber

SEATS = ("p1", "p2")


class Screens:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        #: The device of each open screen of this process (a seat's phones, for presence).
        self.devices: dict[Subscriber, str] = {}
        #: The screens that asked to hear who is at the table.
        self.listening: set[Subscriber] = set()
        #: Each other worker's open seat devices (several workers).
        self.elsewhere: dict[str, dict[str, list[str]]] = {}

    def arrive(self, subscriber: Subscriber, device: str, presence: bool) -> None:
        first = not self.devices  # only the first screen here needs the others' screens
        self.devices[subscriber] = device
        if presence:
            self.listening.add(subscriber)
        self.publish()
        self._share(ask=first)

    def leave(self, subscriber: Subscriber) -> None:
        self.listening.discard(subscriber)
        if self.devices.pop(subscriber, None) is not None:
            self.publish()
            self._share(ask=False)

    def _mine(self) -> dict[str, list[str]]:
        seats: dict[str, set[str]] = {seat: set() for seat in SEATS}
        for subscriber, device in self.devices.items():
            if subscriber.role in seats and subscriber in self.channel.subscribers:
                seats[subscriber.role].add(device or str(id(subscriber)))
        return {seat: sorted(found) for seat, found in seats.items()}

    def presence(self) -> dict[str, dict[str, Any]]:
        """Each seat's phones with a socket open now, on any worker: online, and on how
        many devices."""
        seats = {seat: set(found) for seat, found in self._mine().items()}
        for other in self.elsewhere.values():
            for seat in SEATS:
                seats[seat].update(other.get(seat, ()))
        return {
            seat: {"online": bool(found), "devices": len(found)} for seat, found in seats.items()
        }

    def publish(self) -> None:
        if not self.listening:
            return
        text = protocol.presence(self.presence())
        for subscriber in tuple(self.listening):
            self.channel.send(subscriber, text)

    # -- several workers ------------------------------------------------------------

    def _share(self, ask: bool) -> None:
        self.channel.relay({"presence": self._mine(), "ask": ask})

    def heard(self, worker: str, seats: dict[str, list[str]], ask: bool) -> None:
        """Another worker's seat devices for this table; `ask`: it wants ours."""
        kept = {seat: [str(d) for d in seats.get(seat, ())][:16] for seat in SEATS}
        before = self.elsewhere.get(worker)
        if any(kept.values()):
            self.elsewhere[worker] = kept
        else:
            self.elsewhere.pop(worker, None)
        if ask and self.devices:
            self._share(ask=False)
        if self.elsewhere.get(worker) != before:
            self.publish()

    def forget(self, alive: Collection[str]) -> None:
        """Workers no longer alive have no screens open."""
        gone = [worker for worker in self.elsewhere if worker not in alive]
        for worker in gone:
            del self.elsewhere[worker]
        if gone:
            self.publish()

    def share_again(self) -> None:
        """After Redis was lost: tell the other workers again, and ask theirs."""
        self.elsewhere.clear()
        self._share(ask=True)
