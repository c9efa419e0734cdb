"""A table of the herd: its two phones, the commands sent and acked, and the check
against the server's final state of what was lost or applied twice."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

from bench.harness.seats import dumps, pass_turn
from bench.herd_phone import Command, Phone

if TYPE_CHECKING:
    from bench.herd_client import Herd


class Table:
    def __init__(self, herd: Herd, index: int, table_id: str, p1: str, p2: str) -> None:
        self.herd = herd
        self.index = index
        self.id = table_id
        self.phones = {"p1": Phone(herd, self, "p1", p1), "p2": Phone(herd, self, "p2", p2)}
        self.version = 0  # the highest version any phone saw or any ack named
        self.game: dict[str, Any] | None = None
        self.game_v = -1
        self.commands: list[Command] = []
        self.claims: dict[int, list[Command]] = {}
        self.final_v: int | None = None
        self.broken = False
        self.taps_acked = 0  # a relay keeps no game: the sides take turns by these

    def observe(self, v: int, game: Any) -> None:
        if v >= self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    @property
    def unanswered(self) -> bool:
        return any(not cmd.answered for cmd in self.commands)

    def settled(self) -> bool:
        return not self.unanswered and all(p.current for p in self.phones.values())

    async def send(self, phone: Phone, body: dict[str, Any], now: float) -> Command:
        phone.seq += 1
        text = dumps({"t": "cmd", "seq": phone.seq, **body})
        herd = self.herd
        after = herd.schedule is not None and now >= herd.schedule.drop_at
        cmd = Command(phone, phone.seq, text, self.version, now, body["c"] == "pass_turn", after)
        phone.pending[cmd.seq] = cmd
        self.commands.append(cmd)
        ws = phone.ws
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)
                return cmd
        herd.c["send_failed"] += 1  # stays pending: sent again on the reconnect
        return cmd

    def resolve(self, cmd: Command, v: int, dup: bool, now: float) -> None:
        herd = self.herd
        cmd.answered = True
        if cmd.resent:
            herd.c["resent_acked_dup" if dup else "resent_acked_fresh"] += 1
        if v != cmd.base_v + 1:
            herd.count(
                "duplicated", f"table {self.id}: seq {cmd.seq} acked v {v}, not {cmd.base_v + 1}"
            )
        elif dup and not cmd.resent:
            herd.count("lost", f"table {self.id}: seq {cmd.seq} sent once, answered dup")
            return
        cmd.acked_v = v
        self.claims.setdefault(v, []).append(cmd)
        self.version = max(self.version, v)
        if cmd.tap:
            self.taps_acked += 1
            herd.c["taps_after" if cmd.after_drop else "taps_before"] += 1
            if not cmd.resent:
                (herd.ack_after_ms if cmd.after_drop else herd.ack_before_ms).append(
                    (now - cmd.sent_at) * 1000
                )

    def tapper(self) -> tuple[Phone, dict[str, Any]] | None:
        """The running side's phone and its pass_turn, if it may tap now. Against a
        relay, which keeps no game, the sides take turns, as bench.table_latency's
        phones do there."""
        if self.herd.gameless:
            side = ("p1", "p2")[self.taps_acked % 2]
            if self.unanswered or not self.phones[side].current:
                return None
            return self.phones[side], {"c": "pass_turn", "expect": side}
        game = self.game
        if self.unanswered or game is None or self.game_v < self.version:
            return None
        running = game.get("running")
        if running not in ("p1", "p2") or not self.phones[running].current:
            return None
        return self.phones[running], pass_turn(running, game)

    def check(self) -> None:
        """Count what was lost or applied twice, against the server's final state."""
        herd = self.herd
        final = self.final_v
        if final is None:
            herd.count("unchecked_tables", f"table {self.id}: no final state")
            return
        for cmd in self.commands:
            if not cmd.answered:
                herd.count("lost", f"table {self.id}: {cmd.phone.side} seq {cmd.seq} unanswered")
            elif cmd.acked_v is not None and cmd.acked_v > final:
                herd.count("lost", f"table {self.id}: acked v {cmd.acked_v} > final v {final}")
        for v in range(1, final + 1):
            claimed = len(self.claims.get(v, ()))
            if claimed != 1:
                herd.c["duplicated"] += max(1, claimed - 1)
                herd.note(f"table {self.id}: v {v} claimed by {claimed} commands")
        for phone in self.phones.values():
            if phone.last_v != final:
                herd.count("phones_behind", f"table {self.id}: {phone.side} at v {phone.last_v}")
