"""The server sets no OpenTelemetry provider up, so FastAPI's own telemetry is off: no
request and no socket looks the global providers up (FastAPI did, for each one, and a
whole hall of phones reconnecting is 2,000 sockets at once)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import httpx
import pytest
import websockets
from opentelemetry import _logs, metrics, trace

from tests.conftest import RunningServer, create_table, token_of


async def test_no_request_or_socket_looks_a_telemetry_provider_up(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await create_table(server.base)
    looked: Counter[str] = Counter()
    for module, name in (
        (trace, "get_tracer_provider"),
        (metrics, "get_meter_provider"),
        (_logs, "get_logger_provider"),
    ):
        real = getattr(module, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            looked[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get("/health")).status_code == 200
        assert (await http.get("/api/formats")).status_code == 200
    async with websockets.connect(f"{server.ws_base}/ws/tables/{table['id']}") as ws:
        await ws.send(json.dumps({"t": "hello", "token": token_of(table["p1"]["url"])}))
        assert json.loads(await ws.recv())["t"] == "state"
    assert looked == Counter()
