"""What a table's screens and REST callers may spend, shared by sockets and REST.

- Commands: each seat's (P1, P2, the EO) across all of that seat's sockets; the EO's
  commands to one table over REST spend the EO's budget of that table too.
- Reads (log pages, by socket or REST): one budget per table and link (p1, p2, eo,
  watch: all of the link's screens and requests together) and one per client address
  (every table it reads). A read is refused unless both have a token; a refused read
  is answered at once, an `error` on the socket (which stays open) or a 429.

A seat's or the EO's reads never spend the watch link's budget, so spectators reading
a table cannot leave its players without.
"""

from __future__ import annotations

import weakref

from starlette.responses import JSONResponse

from app.api.limits import ClientLimits, RateLimit, command_rate
from app.settings import Settings
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource

READ_REFUSED = "too many log pages asked for from this table or address: wait and ask again"
TOO_MANY_COMMANDS = "too many commands from this seat: slow down"

_seat_rates: weakref.WeakKeyDictionary[TableRoom, dict[str, RateLimit]] = (
    weakref.WeakKeyDictionary()
)


def seat_commands(room: TableRoom, role: str, settings: Settings, time: TimeSource) -> RateLimit:
    """The command budget of one seat (or the EO) at this table, whoever sends them."""
    rates = _seat_rates.setdefault(room, {})
    rate = rates.get(role)
    if rate is None:
        rate = rates[role] = command_rate(settings, time)
    return rate


class ReadBudget:
    """A token bucket per table and link, and one per client address, for reads."""

    def __init__(
        self,
        time: TimeSource,
        per_s: float,
        burst: float,
        address_per_s: float,
        address_burst: float,
    ) -> None:
        self.links = ClientLimits(time, per_s, burst)
        self.addresses = ClientLimits(time, address_per_s, address_burst)
        #: Reads refused since the start.
        self.refused = 0

    @classmethod
    def from_settings(cls, settings: Settings, time: TimeSource) -> ReadBudget:
        return cls(
            time,
            settings.read_per_s,
            settings.read_burst,
            settings.client_read_per_s,
            settings.client_read_burst,
        )

    def take(self, table_id: str, link: str, address: str) -> int | None:
        """Spend a read of `link`'s at this table from `address`: None if allowed, else
        the whole seconds until it would be (nothing spent)."""
        link_bucket = self.links.bucket(f"{table_id} {link}")
        address_bucket = self.addresses.bucket(address)
        short = [b for b in (link_bucket, address_bucket) if b.available() < 1]
        if short:
            self.refused += 1
            return max(b.wait_s() for b in short)
        link_bucket.tokens -= 1
        address_bucket.tokens -= 1
        return None


def too_many(message: str, wait_s: int) -> JSONResponse:
    """A 429 that says why and when to try again."""
    return JSONResponse(
        {"detail": message, "code": "rate_limited"},
        status_code=429,
        headers={"Retry-After": str(wait_s)},
    )
