"""A table of the soak: its two phones, the commands sent, the versions seen, and the
check of what was lost or applied twice."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

from bench.harness.seats import dumps
from bench.soak_phone import Command, Key, Phone

if TYPE_CHECKING:
    from bench.soak_hall import Soak


class Table:
    def __init__(
        self, soak: Soak, index: int, generation: int, table_id: str, p1: str, p2: str
    ) -> None:
        self.soak = soak
        self.index = index
        self.generation = generation
        self.id = table_id
        self.phones = {"p1": Phone(soak, self, "p1", p1), "p2": Phone(soak, self, "p2", p2)}
        self.version = 0  # the highest version any phone saw or any ack named
        self.game: dict[str, Any] | None = None
        self.game_v = -1
        self.log: dict[int, Key] = {}  # what each version did, from the events seen
        self.claims: dict[int, list[Command]] = {}  # version -> commands acked with it
        self.commands: list[Command] = []
        self.unresolved = 0
        self.checked = False
        self.retiring = False  # the game is over: its players are leaving, no more drops

    def observe(self, v: int, key: Key, game: Any) -> None:
        old = self.log.get(v)
        if old is None:
            self.log[v] = key
        elif old != key:
            self.soak.c["conflicts"] += 1
            self.soak.note(f"table {self.id}: v {v} is {old} on one phone, {key} on the other")
        if v > self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    def observe_state(self, v: int, game: Any) -> None:
        if v >= self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    async def send(self, phone: Phone, body: dict[str, Any], key: Key) -> Command:
        phone.seq += 1
        text = dumps({"t": "cmd", "seq": phone.seq, **body})
        cmd = Command(phone, phone.seq, text, key, self.version)
        phone.pending[cmd.seq] = cmd
        self.commands.append(cmd)
        self.unresolved += 1
        ws = phone.ws
        sent = False
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)
                sent = True
        if not sent:
            self.soak.c["send_failed"] += 1  # stays pending: re-sent on reconnect
        return cmd

    def resolve(self, cmd: Command, v: int, dup: bool) -> None:
        soak, c = self.soak, self.soak.c
        cmd.answered = True
        self.unresolved -= 1
        expected = cmd.base_v + 1
        if cmd.key[0] == "pass_turn":
            c["taps"] += 1
        if cmd.resent:
            c["resent_acked_dup" if dup else "resent_acked_fresh"] += 1
        if v != expected:
            c["duplicated"] += 1
            soak.note(
                f"table {self.id}: {cmd.phone.side} seq {cmd.seq} acked v {v}, "
                f"expected v {expected} (dup {dup}, re-sent {cmd.resent})"
            )
        elif dup and not cmd.resent:
            c["lost"] += 1
            soak.note(f"table {self.id}: first send of seq {cmd.seq} answered dup: not applied")
            return
        # A re-send applied again cannot take base_v + 1: its first application holds it
        # (the table sends nothing else meanwhile), so that shows as a version jump above.
        cmd.acked_v = v
        self.claims.setdefault(v, []).append(cmd)
        self.version = max(self.version, v)

    def reject(self, cmd: Command, error: str) -> None:
        cmd.answered = True
        self.unresolved -= 1
        what = f"table {self.id}: {cmd.phone.side} seq {cmd.seq} {cmd.key}"
        if cmd.resent and self.log.get(cmd.base_v + 1) == cmd.key:
            # Already applied (its event came with the catch-up, ahead of this answer):
            # the re-send should have been answered dup, not run again and refused.
            self.soak.c["duplicated"] += 1
            self.soak.note(f"{what}: re-sent after it was applied, not answered dup: {error}")
            return
        self.soak.c["rejected"] += 1
        self.soak.note(f"{what} -> {error}")

    def settled(self) -> bool:
        return self.unresolved == 0 and all(p.current for p in self.phones.values())

    def over(self) -> bool:
        return self.game is not None and self.game.get("phase") == "over"

    def check(self) -> None:
        """Count what was lost or applied twice; once per table."""
        if self.checked:
            return
        self.checked = True
        soak, c = self.soak, self.soak.c
        for cmd in self.commands:
            if not cmd.answered:
                c["lost"] += 1
                c["lost_unanswered"] += 1
                soak.note(
                    f"table {self.id}: {cmd.phone.side} seq {cmd.seq} {cmd.key} never answered "
                    f"(re-sent {cmd.resent}, phone connected {cmd.phone.ws is not None})"
                )
        for v, cmds in sorted(self.claims.items()):
            if len(cmds) > 1:
                c["duplicated"] += len(cmds) - 1
                soak.note(f"table {self.id}: v {v} acked for {len(cmds)} commands")
            cmd = cmds[0]
            for phone in self.phones.values():
                shown = phone.seen.get(v) == cmd.key or phone.state_v >= v
                if not shown:
                    c["lost"] += 1
                    c["lost_not_shown"] += 1
                    soak.note(
                        f"table {self.id}: v {v} {cmd.key} never showed on {phone.side} "
                        f"(it saw {phone.seen.get(v)}, last v {phone.last_v})"
                    )
                    break
        previous: Key | None = None
        for v in range(1, max(self.log, default=0) + 1):
            key = self.log.get(v)
            if key is not None and v not in self.claims and key[2] != "system":
                c["duplicated"] += 1
                soak.note(f"table {self.id}: v {v} {key} was applied but no command claims it")
            if (
                key is not None
                and previous is not None
                and key[0] == previous[0] == "pass_turn"
                and key[1] == previous[1]
            ):
                c["duplicated"] += 1
                soak.note(f"table {self.id}: {key[1]}'s clock passed twice (v {v - 1}, v {v})")
            previous = key
