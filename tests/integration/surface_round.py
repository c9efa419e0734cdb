"""What every surface reader is given: the event's round as the EO reads it (its view,
its tables, its pairings by table number), the EO's client, and what a reader fetched
once for every table (`once`). A reader is `async (rnd, key) -> Reading`, `key` a table
number, or "bye" for the round's bye."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

#: What one surface says of one table: players (sorted names), first (a name or None:
#: not decided yet), winner (a name, "tie", or None: no result), method (how the result
#: came), scores ({name: {tp, cp, apd, list}} of this round, or Runewars' {tp, mov}),
#: totals ({name: {tp, sos, cp, apd}} or {tp, mov}: the standings after it), opponents
#: ({name: whom they played, or "Bye"}), table (its number), holders ({the name a seat
#: link is given to: the player its phone says it is}), reported ({name: {apd, list}}: the
#: players' own reports), entries (Runewars: {name: [destroyed, objectives]}), text (the
#: words a person reads of the result). A surface says only what it shows.
Reading = dict[str, Any]
Key = int | str


@dataclass
class Round:
    """What the surfaces are read from: the event, its round and its tables."""

    client: httpx.AsyncClient
    event_id: str
    number: int
    view: dict[str, Any]  # the EO's view of the event
    tables: list[dict[str, Any]]  # the EO's list of the round's tables
    pairings: dict[int, dict[str, Any]] = field(default_factory=dict)  # by table number
    bye: dict[str, Any] | None = None  # the round's bye pairing, if any
    fetched: dict[str, Any] = field(default_factory=dict)

    def names(self, table_no: int) -> tuple[str, str]:
        """The pairing's two players, as it lists them."""
        p = self.pairings[table_no]
        return p["p1"]["name"], p["p2"]["name"]

    def name_of(self, player_id: str | None) -> str | None:
        return next((p["name"] for p in self.view["players"] if p["id"] == player_id), None)

    def table(self, table_no: int) -> dict[str, Any]:
        return next(t for t in self.tables if t["table_no"] == table_no)

    def who(self, key: Key) -> tuple[str, ...]:
        """The players a key's surfaces speak of: a table's two, or the bye's one."""
        if key == "bye":
            return () if self.bye is None else (self.bye["p1"]["name"],)
        assert isinstance(key, int)
        return self.names(key)

    async def once(self, what: str, fetch: Callable[[], Awaitable[Any]]) -> Any:
        """What `fetch` gets, fetched once for every table of this reading."""
        if what not in self.fetched:
            self.fetched[what] = await fetch()
        return self.fetched[what]

    async def get(self, path: str, **kwargs: Any) -> Any:
        """A GET by the EO's client, read once (JSON, else text)."""

        async def fetch() -> Any:
            got = await self.client.get(path, **kwargs)
            assert got.status_code == 200, (path, got.status_code, got.text)
            is_json = got.headers.get("content-type", "").startswith("application/json")
            return got.json() if is_json else got.text

        return await self.once(f"GET {path} {sorted(kwargs.get('headers', {}).items())}", fetch)

    @property
    def ws_base(self) -> str:
        return str(self.client.base_url).rstrip("/").replace("http://", "ws://")

    async def snapshot(self, path: str, hello: dict[str, Any], kind: str) -> dict[str, Any]:
        """The first message of `kind` a socket is sent after its hello."""
        async with websockets.connect(f"{self.ws_base}{path}") as ws:
            await ws.send(json.dumps(hello))
            while (message := json.loads(await ws.recv()))["t"] != kind:
                pass
        found: dict[str, Any] = message
        return found


def winner_of(result: dict[str, Any] | None, names: tuple[str, ...] | list[str]) -> str | None:
    if result is None:
        return None
    if result["winner"] is None:
        return "tie"
    return names[0 if result["winner"] == "p1" else 1]


def scores_of(result: dict[str, Any] | None, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
    if result is None:
        return {}
    return {
        name: {
            "cp": result["control_points"][i],
            "apd": result["army_points_destroyed"][i],
            "list": (result.get("lists") or ["", ""])[i],
        }
        | ({"specialists": result["specialists"][i]} if "specialists" in result else {})
        for i, name in enumerate(names)
    }


def token_of(url: str) -> str:
    return url.split("#k=", 1)[1]
