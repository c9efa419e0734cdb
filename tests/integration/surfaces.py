"""Every surface that names a table's players, read in one place.

`read_every_surface` reads what a person is shown of an event's round, and returns,
per table number (and "bye" for the round's bye), what each surface says of it in
names: its two players, who goes first, who won and how, each player's TP, CP, APD (or
Runewars' MoV and entries) and list, whom each played, the standings after the round,
and the words a person reads of the result (see `surface_round.Reading`). A surface
says only what it shows (a key it does not show is absent); `disagreements` compares
every surface with what is true. A new surface joins `SURFACES` (or a Runewars event's
`RUNEWARS_SURFACES`) once, and every test that reads the surfaces reads it too.

The client is the EO's: its base URL is the server's and its headers carry the EO
token (X-EO-Token).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.integration import surface_conduct as conduct
from tests.integration import surface_event as event
from tests.integration import surface_runewars as runewars
from tests.integration import surface_tables as tables
from tests.integration.surface_round import Key, Reading, Round, token_of

Surface = Callable[[Round, Key], Awaitable[Reading]]

#: Every surface a person reads a Warmachine table's players on, by what it is called.
SURFACES: dict[str, Surface] = {
    "event page": event.event_page,
    "admin table list": event.admin_table_list,
    "dashboard": tables.dashboard,
    "dispute panel": tables.dispute_panel,
    "result editor": tables.result_editor,
    "standings": event.standings,
    "standings CSV": event.standings_csv,
    "record sheets": event.record_sheets,
    "results CSV": event.results_csv,
    "phones": tables.phones,
    "seat phones": tables.seat_phones,
    "player pages": event.player_pages,
    "EO action log": event.action_log,
    "pairings CSV": event.pairings_csv,
    "table cards": tables.table_cards,
    "table log": tables.table_log,
    "game story": tables.game_story,
    "penalties": conduct.penalties,
}

#: Every surface of a Runewars event (its own policy's: no lists, CP or APD, but MoV).
RUNEWARS_SURFACES: dict[str, Surface] = {
    "event page": runewars.event_page,
    "tournament page": runewars.tournament_page,
    "admin table list": runewars.admin_table_list,
    "dashboard": runewars.dashboard,
    "result panel": runewars.result_panel,
    "result editor": runewars.result_editor,
    "standings": runewars.standings,
    "standings CSV": runewars.standings_csv,
    "phones": runewars.phones,
    "seat phones": runewars.seat_phones,
    "player pages": runewars.player_pages,
    "EO action log": runewars.action_log,
    "table cards": tables.table_cards,
    "table log": runewars.table_log,
}


async def read_every_surface(
    client: httpx.AsyncClient, event_id: str, round_number: int
) -> dict[Key, dict[str, Reading]]:
    """Per table number ("bye": the round's bye), what every surface says of it."""
    view = (await client.get(f"/api/events/{event_id}/admin")).json()
    found = (await client.get(f"/api/events/{event_id}/tables")).json()
    rnd = Round(
        client,
        event_id,
        round_number,
        view,
        [t for t in found if t["round"] == round_number],
    )
    for pairing in view["rounds"][round_number - 1]["pairings"]:
        if pairing["p2"] is None:
            rnd.bye = pairing
        else:
            rnd.pairings[pairing["table"]] = pairing
    surfaces = RUNEWARS_SURFACES if "tournament" in view["event"] else SURFACES
    keys: list[Key] = [*sorted(rnd.pairings), *(["bye"] if rnd.bye else [])]
    return {key: {name: await read(rnd, key) for name, read in surfaces.items()} for key in keys}


def _compare(surface: str, key: str, said: Any, wanted: Any) -> list[str]:
    """A reading's value against the truth's; by player for a mapping of names."""
    if not (isinstance(said, dict) and isinstance(wanted, dict)):
        return [] if said == wanted else [f"{surface}: {key} is {said!r}, not {wanted!r}"]
    found = []
    for name, values in said.items():
        expected = wanted.get(name)
        if isinstance(values, dict) and isinstance(expected, dict):
            found += [
                f"{surface}: {name}'s {item} is {value!r}, not {expected[item]!r}"
                for item, value in values.items()
                if item in expected and expected[item] != value
            ]
        elif values != expected:
            found.append(f"{surface}: {name}'s {key} is {values!r}, not {expected!r}")
    missing = set(wanted) - set(said)
    if said and missing:
        found.append(f"{surface}: names no {key} for {sorted(missing)}")
    return found


def disagreements(readings: dict[str, Reading], truth: Reading) -> list[str]:
    """Where a surface says otherwise than the truth, in words (empty: all agree). Only
    what both the surface and the truth say is compared; mappings player by player."""
    found = []
    for surface, reading in readings.items():
        for key, said in reading.items():
            if key in truth and key != "text":
                found += _compare(surface, key, said, truth[key])
    return found


#: The places the standings' prizes go by (ST3), by prize id.
PLACINGS = {"first": 1, "second": 2, "third": 3}


async def check_placings(client: httpx.AsyncClient, event_id: str) -> None:
    """ST3: once the event is over, the prizes page and the EO's prizes give each place
    to the player the final standings rank there (a disqualified player's place passes to
    the next), and the standings name no one placed who is out of the prizes. Where
    players equal on every total share the rank (ST1), the place is the EO's to give
    among them: it names them all until the EO does, then one of them."""
    rows = (await client.get(f"/api/events/{event_id}/standings")).json()
    for path in ("prizes", "prizes/admin"):
        view = (await client.get(f"/api/events/{event_id}/{path}")).json()
        assert view["event"]["over"], path
        out = {p["name"] for p in view["players"] if p["disqualified"]}
        ranked = [row for row in rows if row["name"] not in out]
        placed = []
        for prize in view["prizes"]:
            place = PLACINGS.get(prize["id"])
            if place is None or len(ranked) < place:
                continue
            rank = ranked[place - 1]["rank"]
            sharing = {row["name"] for row in ranked if row["rank"] == rank}
            if prize["status"] == "tied":
                assert prize["winner"] is None and len(sharing) > 1, (path, prize)
                assert {p["name"] for p in prize["tied"]} <= sharing, (path, prize)
                continue
            assert prize["winner"]["name"] in sharing, (path, prize)
            placed.append(prize["winner"]["name"])
        assert len(placed) == len(set(placed)), (path, placed)


#: Where a player stands, as the standings say it, for the players still in the event.
STILL_IN = {False: "playing", True: "finished"}


async def check_statuses(client: httpx.AsyncClient, event_id: str) -> None:
    """Where each player stands (still in, or out and why) is the same on the standings,
    their CSV exports, the event's pages (public and the EO's; a Runewars event's
    tournament page too) and the player's own page; once the event is over (RP1) nobody
    is still "playing": the players still in "finished"."""
    api = f"/api/events/{event_id}"
    view = (await client.get(api)).json()
    runewars = "over" in view  # a Runewars event's view says it at its top
    over = view["over"] if runewars else view["event"]["over"]
    rows = (await client.get(f"{api}/standings")).json()
    said = {"standings": {r["name"]: r["status"] for r in rows}}
    exports = ("standings.csv", "tournament/standings.csv") if runewars else ("standings.csv",)
    for path in exports:
        text = (await client.get(f"{api}/{path}")).text
        said[path] = {r["name"]: r["status"] for r in csv.DictReader(io.StringIO(text))}
    pages = {"event page": api, "EO's event page": f"{api}/admin"}
    if runewars:
        pages["tournament page"] = f"{api}/tournament"
    for surface, path in pages.items():
        reply = await client.get(path)
        assert reply.status_code == 200, (path, reply.text)
        said[surface] = {r["name"]: r["status"] for r in reply.json()["standings"]}
    own = {}
    for link in (await client.get(f"{api}/player-links")).json():
        token = {"X-Player-Token": token_of(link["url"])}
        standing = (await client.get(f"{api}/me", headers=token)).json()["standing"]
        own[link["name"]] = standing["status"]
        assert standing["over"] == over, (link["name"], standing)
    said["player pages"] = own
    truth = said["standings"]
    for surface, statuses in said.items():
        assert statuses == truth, (surface, statuses, truth)
    assert STILL_IN[not over] not in truth.values(), truth
    assert STILL_IN[over] in truth.values(), truth
