"""Who is at a table: each open screen's device, and the screens that asked to hear
when a seat's phone comes or goes (hello's `presence`)."""

from __future__ import annotations

from typing import Any

from app.tables import protocol
from app.tables.fanout import Channel, Subscriber


class Screens:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        #: The device of each open screen of this process (a seat's phones, for presence).
        self.devices: dict[Subscriber, str] = {}
        #: The screens that asked to hear who is at the table.
        self.listening: set[Subscriber] = set()

    def arrive(self, subscriber: Subscriber, device: str, presence: bool) -> None:
        self.devices[subscriber] = device
        if presence:
            self.listening.add(subscriber)
        self.publish()

    def leave(self, subscriber: Subscriber) -> None:
        self.listening.discard(subscriber)
        if self.devices.pop(subscriber, None) is not None:
            self.publish()

    def presence(self) -> dict[str, dict[str, Any]]:
        """Each seat's phones with a socket open now: online, and on how many devices."""
        seats: dict[str, set[str]] = {"p1": set(), "p2": set()}
        for subscriber, device in self.devices.items():
            if subscriber.role in seats and subscriber in self.channel.subscribers:
                seats[subscriber.role].add(device or str(id(subscriber)))
        return {
            seat: {"online": bool(found), "devices": len(found)} for seat, found in seats.items()
        }

    def publish(self) -> None:
        if not self.listening:
            return
        text = protocol.presence(self.presence())
        for subscriber in tuple(self.listening):
            self.channel.send(subscriber, text)
