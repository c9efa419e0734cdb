"""A Runewars player's own link (the QR code on their registration slip) and the page it
opens: this round's table, opponent and seat link, their games so far, and where they
stand: still playing or out of the event and why (the standings' own status), their place,
and whether the event is over.

A player's key is derived from the event's own EO key (an HMAC of the player's id), so
an event keeps no second secret per player: the link is the same every time the EO
prints it, and no one can make one without the EO key."""

from __future__ import annotations

import hashlib
import hmac
from base64 import urlsafe_b64encode
from typing import Any

from app.domain.errors import Unauthorized
from app.domain.runewars.rules import Stage
from app.domain.runewars.standings import Entrant, Played
from app.domain.runewars.state import RwGame
from app.events.runewars.live import RunewarsEvent

NO_LINK = "this page needs your player link from the organiser (it ends with #k=…)"


def player_key(admin_token: str, event_id: str, player_id: str) -> str:
    """The player's own key: the same for the same player, unguessable without the EO's."""
    mac = hmac.new(admin_token.encode(), f"player:{event_id}:{player_id}".encode(), hashlib.sha256)
    return urlsafe_b64encode(mac.digest()[:18]).decode()


def player_link(base: str, event_id: str, key: str) -> str:
    return f"{base}p/{event_id}#k={key}"


def player_by_key(live: RunewarsEvent, admin_token: str, key: str | None) -> Entrant:
    if key:
        for player in live.state.players:
            mine = player_key(admin_token, live.id, player.id)
            if hmac.compare_digest(mine.encode(), key.encode()):
                return player
    raise Unauthorized(NO_LINK)


def _current(live: RunewarsEvent, player: Entrant, base: str) -> dict[str, Any] | None:
    """This round's table: its number, the opponent, my seat link (None: not paired)."""
    play = live.state.current
    match = None if play is None else play.match_of(player.id)
    if play is None or match is None:
        return None
    room = live._room(play.number, match.game)
    game = None if room is None else room.game
    opponent = match.b if match.a == player.id else match.a
    out: dict[str, Any] = {
        "round": play.number,
        "started": isinstance(game, RwGame) and game.started_ms is not None,
        "table_no": match.game,
        "opponent": None if opponent is None else live.state.player(opponent).name,
        "bye": match.b is None,
        "seat_url": None,
    }
    if room is not None and match.b is not None:
        token = room.tokens.p1 if match.a == player.id else room.tokens.p2
        out["seat_url"] = f"{base}t/{room.table_id}#k={token}"
    return out


def _result_word(g: Played) -> str:
    if g.unpaired_loss:
        return "missed"  # RP7: a round missed before rejoining, an unpaired loss
    if g.is_bye:
        return "bye"
    return "won" if g.won else "lost"


def _record(live: RunewarsEvent, player: Entrant) -> list[dict[str, Any]]:
    """ST5: each round played: the opponent, won or lost, TP and MoV."""
    names = {p.id: p.name for p in live.state.players}
    return [
        {
            "round": g.round,
            "opponent": None if g.opponent_id is None else names.get(g.opponent_id),
            "result": _result_word(g),
            "tp": g.tp,
            "mov": g.mov,
        }
        for g in player.games
    ]


def _standing(live: RunewarsEvent, player: Entrant) -> dict[str, Any]:
    """The player's row of the standings (RP6/RP7): `status` ("playing", "dropped",
    "disqualified", "cut" or "eliminated", with the round of the elimination game they
    lost), their place among the players, and whether the event is over."""
    rows = live.standings()
    mine = next(s for s in rows if s.player_id == player.id)
    state = live.state
    lost = [g.round for g in player.games if g.stage is Stage.ELIMINATION and not g.won]
    return {
        "status": mine.status,
        "dropped_after": mine.dropped_after,
        "place": mine.rank,
        "tied_with": [],  # ST5 ends in a random draw: no two share a rank
        "players": len(rows),
        "over": state.over,
        "cut_to": len(state.cut_to) or None,
        "reason": None,
        "eliminated_in": lost[0] if mine.status == "eliminated" and lost else None,
    }


def my_page(live: RunewarsEvent, event_name: str, player: Entrant, base: str) -> dict[str, Any]:
    return {
        "game": "runewars",
        "event": {"id": live.id, "name": event_name},
        "player": {
            "id": player.id,
            "name": player.name,
            "army_value": player.army_value,
            "dropped": player.dropped,
            "disqualified": player.disqualified,
        },
        "current": _current(live, player, base),
        "record": _record(live, player),
        "standing": _standing(live, player),
    }
