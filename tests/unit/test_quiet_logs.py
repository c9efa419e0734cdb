"""No log line per socket that opens or closes; errors and other lines are kept."""

from __future__ import annotations

import logging

import pytest

from app.quiet_logs import quiet_socket_logs


def test_socket_lines_are_dropped_and_errors_kept(caplog: pytest.LogCaptureFixture) -> None:
    quiet_socket_logs()
    quiet_socket_logs()  # once is enough: no second filter
    server_log = logging.getLogger("uvicorn.error")
    assert len(server_log.filters) == len({type(f) for f in server_log.filters})
    with caplog.at_level(logging.INFO):
        server_log.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/tables/abc")
        logging.getLogger("websockets.server").info("connection open")
        server_log.info("Application startup complete.")
        server_log.error('%s - "WebSocket %s" failed', "127.0.0.1:5", "/ws/tables/abc")
    said = [record.getMessage() for record in caplog.records]
    assert said == [
        "Application startup complete.",
        '127.0.0.1:5 - "WebSocket /ws/tables/abc" failed',
    ]
