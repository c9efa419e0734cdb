"""A phone's browser without the network: the saved copy of the table page it shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


def serve_saved_copy(context: Any, live_server: str, table_id: str) -> None:
    """While offline, the phone's browser shows its saved copy of the page (no network)."""
    saved = {}
    shell = sorted(
        "/static/" + p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.suffix in (".js", ".css")
    )
    for path in (f"/t/{table_id}", *shell):
        response = httpx.get(live_server + path)
        saved[live_server + path] = (response.content, response.headers["content-type"])

    def serve(route: Any) -> None:
        hit = saved.get(route.request.url.split("#", 1)[0])
        if hit is None:
            route.abort("internetdisconnected")
        else:
            route.fulfill(status=200, body=hit[0], content_type=hit[1])

    context.route("**/*", serve)
    # A page that did not come from the network is not known to be on this machine:
    # Chromium then asks before it opens a socket to the loopback address.
    context.grant_permissions(["local-network-access"], origin=live_server)
