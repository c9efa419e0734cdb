"""The surfaces of the EO's rulings at a table: the penalties list (warnings, game losses,
disqualifications, as the admin page's penalties section reads it). A game loss in the
round says who won the table's game (the opponent of the player it is against)."""

from __future__ import annotations

from tests.integration.surface_round import Key, Reading, Round


async def penalties(rnd: Round, key: Key) -> Reading:
    """The penalties list: a game loss of this round at this table names its winner."""
    if not isinstance(key, int):
        return {}
    found = await rnd.get(f"/api/events/{rnd.event_id}/penalties")
    names = rnd.names(key)
    losses = [
        p
        for p in found["penalties"]
        if p["kind"] == "game_loss"
        and p["round"] == rnd.number
        and p["withdrawn"] is None
        and p["player"]["name"] in names
    ]
    if not losses:
        return {}
    against = losses[-1]["player"]["name"]
    return {
        "winner": names[1] if against == names[0] else names[0],
        "text": " ".join(f"{p['what']} for {p['player']['name']}: {p['reason']}" for p in losses),
    }
