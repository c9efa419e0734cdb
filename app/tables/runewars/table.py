"""What a room asks of a Runewars table (see `app.tables.engines`): the game, its views,
its status, the round timer's due moment and the time it calls, its snapshot and the
setup columns it is stored with."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.errors import BadInput, Unsupported
from app.domain.runewars import commands as rc
from app.domain.runewars import engine
from app.domain.runewars.ruleset import RW2017
from app.domain.runewars.state import Phase, RwGame, TableSetup
from app.domain.status import TableStatus
from app.tables.quick import both_named
from app.tables.runewars.codec import command_from_wire, command_to_wire
from app.tables.snapshot import decode, encode

SNAPSHOT_FORMAT = "runewars-1"

_STATUS = {
    Phase.FIRST_PLAYER: TableStatus.WAITING,
    Phase.AREA: TableStatus.WAITING,
    Phase.READY: TableStatus.WAITING,
    Phase.PLAYING: TableStatus.PLAYING,
    Phase.SCORING: TableStatus.FINISHED,
    Phase.FINAL_FLURRY: TableStatus.FINISHED,
    Phase.OVER: TableStatus.AWAITING_CONFIRMATION,
}


def new_game(setup: TableSetup, _now_ms: int, dice: random.Random) -> RwGame:
    return engine.new_game(setup, dice)


def apply(game: RwGame, actor: Actor, command: Any, now_ms: int) -> RwGame:
    return engine.apply(game, actor, command, now_ms)


def replay(game: RwGame, actor: Actor, command: Any, now_ms: int) -> RwGame:
    return engine.apply(game, actor, command, now_ms, logged=True)


def view(game: RwGame, now_ms: int) -> dict[str, Any]:
    return engine.view(game, now_ms)


def info(table_id: str, game: RwGame) -> dict[str, Any]:
    """The table itself: its game and format, the round's cards, the players' armies."""
    setup = game.setup
    return {
        "id": table_id,
        "game": "runewars",
        "format": {"id": RW2017.id, "name": RW2017.name},
        "deployment": setup.deployment,
        "objective": setup.objective,
        "names": list(setup.names),
        "army_values": list(setup.army_values),
        "round_minutes": setup.round_minutes,
        "last_game_round": RW2017.last_game_round,
    }


def eo_command(raw: Mapping[str, Any]) -> Any:
    """The organiser's command for one table by itself: its round timer's start or the
    call of time (DC11); a result goes by PUT …/result, nothing else is the EO's here."""
    name = raw.get("c")
    if name not in RW2017.eo_table_commands:
        reason = RW2017.absent_commands.get(name) if isinstance(name, str) else None
        raise Unsupported(
            reason
            or "here the organiser can start a Runewars table's round timer or call time on it"
        )
    return command_from_wire(raw)


def reports(game: RwGame) -> list[dict[str, Any]]:
    """What each player said of the result, in seat order: their score (army value
    destroyed, objective points), their Final Flurry hits, confirmed, and why they
    dispute it."""
    said = []
    for side in (Side.P1, Side.P2):
        entry = game.entries[side]
        said.append(
            {
                "entry": None if entry is None else list(entry),
                "flurry_hits": game.flurry_hits[side],
                "confirmed": game.confirmed[side],
                "disputed": game.disputed[side],
            }
        )
    return said


def detail(table_id: str, game: RwGame, now_ms: int) -> dict[str, Any]:
    """What the organiser sees of a Runewars table to settle it: where it stands, both
    players' reports and reasons, its result and the last correction."""
    return {"id": table_id, **engine.view(game, now_ms), "reports": reports(game)}


def status(game: RwGame) -> TableStatus:
    if game.settled:
        return TableStatus.CONFIRMED
    if game.in_dispute:
        return TableStatus.DISPUTED
    return _STATUS[game.phase]


def where(game: RwGame) -> str:
    if game.phase is Phase.PLAYING:
        return f"game round {game.game_round}"
    return game.phase.value.replace("_", " ")


def due(game: RwGame) -> int | None:
    """DC11: the round time's end, while time has not been called."""
    if game.time_called or game.phase in (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER):
        return None
    return game.ends_ms()


def tick(game: RwGame, now_ms: int) -> tuple[RwGame, dict[str, Any], int] | None:
    """DC11: the round timer calls time at its end; logged as the timer's call."""
    end = due(game)
    if end is None or now_ms < end:
        return None
    called = engine.timer_check(game, now_ms)
    return called, command_to_wire(rc.CallTime()), end


def decides(actor: str, game: RwGame) -> bool:
    return actor in ("eo", "system") or game.phase is Phase.OVER


def write(game: RwGame) -> dict[str, Any]:
    return {"format": SNAPSHOT_FORMAT, "game": encode(game)}


def read(snapshot: Mapping[str, Any]) -> RwGame:
    if snapshot.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"snapshot format {snapshot.get('format')!r} is not a Runewars table")
    # Snapshots from before the organiser's corrections and the players' agreement
    # lack their fields: a result there stood at once.
    old = "confirmed" not in snapshot["game"]
    done = old and snapshot["game"].get("phase") == Phase.OVER.value
    raw = {
        "judged": False,
        "judged_reason": "",
        "correction": None,
        "flurry_hits": [None, None],
        "flurry_tie": None,
        "confirmed": [done, done],
        "disputed": [None, None],
        "step_back": None,
        "extension_ms": 0,
        "extension_reason": "",
        **snapshot["game"],
    }
    game = decode(RwGame, raw)
    if not isinstance(game, RwGame):
        raise ValueError("not a Runewars game")
    return game


def record(setup: TableSetup) -> dict[str, Any]:
    """The stored table's columns; the round's cards and both armies in `setup_json`."""
    return {
        "format_id": RW2017.id,
        "scenario_id": f"{setup.deployment} / {setup.objective}",
        "player_clock_ms": setup.round_minutes * 60_000,
        "army_points": max(setup.army_values),
        "p1_name": setup.names[0],
        "p2_name": setup.names[1],
        "setup_json": json.dumps(
            {
                "army_values": list(setup.army_values),
                "deployment": setup.deployment,
                "objective": setup.objective,
                "round_minutes": setup.round_minutes,
                "coin": None if setup.coin is None else int(setup.coin),
            }
        ),
    }


def setup_of(row: Mapping[str, Any]) -> TableSetup:
    raw = json.loads(row.get("setup_json") or "{}")
    values = raw.get("army_values")
    if not isinstance(values, list) or len(values) != 2:
        raise BadInput("this Runewars table was stored without its army values")
    return TableSetup(
        names=(row["p1_name"], row["p2_name"]),
        army_values=(int(values[0]), int(values[1])),
        deployment=str(raw.get("deployment", "")),
        objective=str(raw.get("objective", "")),
        round_minutes=int(raw.get("round_minutes", RW2017.round_minutes)),
        coin=None if raw.get("coin") is None else Side(int(raw["coin"])),
    )


def over(game: RwGame) -> bool:
    return game.settled


def quick_setup(quick: Any, rng: random.Random) -> TableSetup:
    """A Runewars game without an event: both army values (200 unless given), the
    round's deployment and objective drawn, 90 minutes unless the players say."""
    both_named(quick.p1_name, quick.p2_name, "a Runewars table settles who goes first itself")
    names = (quick.p1_name.strip(), quick.p2_name.strip())
    if any(len(n) > 60 for n in names):
        raise BadInput("player names are 60 characters at most")
    armies = tuple(
        RW2017.most_army_points if value is None else value
        for value in (quick.p1_army, quick.p2_army)
    )
    minutes = RW2017.round_minutes if quick.clock_minutes is None else quick.clock_minutes
    if quick.clock_seconds is not None or minutes != int(minutes) or not 1 <= minutes <= 360:
        raise BadInput("a Runewars round lasts 1 to 360 whole minutes")
    return TableSetup(
        names=names,
        army_values=(armies[0], armies[1]),
        deployment=rng.choice(RW2017.deployments),
        objective=rng.choice(RW2017.objectives),
        round_minutes=int(minutes),
    )


def summary(game: RwGame) -> dict[str, Any]:
    """What the table's links say: the round's deployment and objective, its time."""
    setup = game.setup
    return {
        "format": RW2017.id,
        "format_name": RW2017.name,
        "scenario": f"{setup.deployment} / {setup.objective}",
        "player_clock_ms": setup.round_minutes * 60_000,
        "first": game.first,  # chosen at the table; each link plays its own side
    }


def board(table_id: str, table_no: int, game: RwGame, status: str, now_ms: int) -> dict[str, Any]:
    """One dashboard row: the round timer and the game round (DC11), not a chess clock."""
    shown = engine.view(game, now_ms)
    return {
        "id": table_id,
        "table_no": table_no,
        "game": "runewars",
        "names": shown["names"],
        "army_values": shown["army_values"],
        "scenario": f"{game.setup.deployment} / {game.setup.objective}",
        "phase": shown["phase"],
        "game_round": shown["game_round"],
        "last_game_round": shown["last_game_round"],
        "round_minutes": shown["round_minutes"],
        "time_left_ms": shown["time_left_ms"],
        "time_called": shown["time_called"],
        "extension_minutes": shown["extension_minutes"],
        "extension_reason": shown["extension_reason"],
        "running": shown["ends_ms"] is not None
        and not shown["time_called"]
        and shown["phase"] in ("first_player", "area", "ready", "playing"),
        "ended_by": shown["ended_by"],
        "result": shown["result"],
        "as_of_ms": now_ms,
        "status": status,
    }
