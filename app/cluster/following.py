"""Several workers: a table another worker owns, followed from its log entries, so that
this worker's screens and dashboards see it as the owner applies it."""

from __future__ import annotations

from app.cluster.backplane import RelayChannel
from app.domain.errors import RuleError
from app.store.log_entry import LogEntry
from app.tables import round_gate as gate
from app.tables.dedupe import Dedupe
from app.tables.fanout import Subscriber
from app.tables.offline import Decision
from app.tables.room import TableRoom
from app.tables.seats import actor_from_wire


def follow(room: TableRoom, entries: list[LogEntry], text: str | None = None) -> bool:
    """Apply what the owner applied (its log entries, in order) and tell this
    worker's history (`text`, the event). False: they do not follow on from here."""
    if not entries or entries[0].version != room.version + 1:
        return entries[-1].version <= room.version if entries else True
    loaded = room.loaded
    try:
        room.replay_from(room.game, room.version, entries)
    except (RuleError, ValueError, KeyError):
        return False  # a merge from before this version: read the whole log again
    room.loaded, room.last_change_ms = loaded, room.time.now_ms()
    if text is None:
        room.history.clear()
    else:
        room.history.add(room.version, text)
    for listener in room.listeners:
        listener(room)
    return True


def followed(room: TableRoom, entry: LogEntry, text: str) -> bool:
    """The owner applied `entry` (its event `text`): this worker's screens get the event,
    and those whose seat or own choices it changed (the pre-game's) get the table
    afresh, as the owner's own screens do. False: it does not follow on from here."""
    before, version = room.game, room.version
    if not follow(room, [entry], text):
        return False
    if room.version > version:
        channel = room.channel
        if isinstance(channel, RelayChannel):
            channel.local(text)
        actor = actor_from_wire(entry.actor)
        roles = gate.to_refresh(room, version == 0, before, room.game, actor)
        for subscriber in tuple(channel.subscribers):
            if subscriber.role in roles:
                subscriber.offer(room.snapshot(subscriber.role))
    return True


def catch_up(room: TableRoom, read: list[LogEntry] | None = None) -> bool:
    """Read what this worker has not seen from the store (or take `read`, the log already
    read from some version on); its screens get the table afresh if anything changed
    (they resync by version)."""
    version = room.version
    if read is None:
        read = room.store.log(room.table_id, after=version)
    if not follow(room, [entry for entry in read if entry.version > version]):
        room.dedupe, room.game, room.version = Dedupe(), room.initial, 0
        room.decided = Decision(0, room.time.now_ms(), room.initial)
        room.replay(room.store.log(room.table_id))
    if room.version == version:
        return False
    room.stored = None  # the owner wrote the status: write it again when it changes
    for subscriber in tuple(room.channel.subscribers):
        room.channel.send(subscriber, room.snapshot(subscriber.role))
    return True


def replicate(room: TableRoom, entry: LogEntry, text: str, origin: Subscriber | None) -> None:
    """The owner applied `entry`: its screens here at once, the other workers' next."""
    channel = room.channel
    if isinstance(channel, RelayChannel):
        channel.local(text, skip=origin)
        e = entry
        row = [e.version, e.at_ms, e.actor, e.device, e.seq, e.command_json, e.turn]
        channel.relay({"e": row, "text": text})
    else:
        channel.publish(text, skip=origin)
