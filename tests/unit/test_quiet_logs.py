"""No log line per socket that opens or closes; errors and other lines are kept."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.quiet_logs import SOCKET_LOG, quiet_socket_logs
from app.sockets import ServerSockets


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def kept() -> Iterator[Kept]:
    """What the server's and the socket library's loggers pass on, whatever levels other
    tests (or uvicorn's own set-up) left them at."""
    handler = Kept()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "websockets.server")]
    levels = [(logger, logger.level) for logger in loggers]
    logging.getLogger("uvicorn.error").setLevel(logging.INFO)
    logging.getLogger("websockets.server").setLevel(logging.NOTSET)  # its parent decides
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger, level in levels:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_socket_lines_are_dropped_and_errors_kept(kept: Kept) -> None:
    quiet_socket_logs()
    quiet_socket_logs()  # once is enough: no second filter
    server_log = logging.getLogger("uvicorn.error")
    assert len(server_log.filters) == len({type(f) for f in server_log.filters})
    server_log.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/tables/abc")
    server_log.info("connection open")  # the socket library, given uvicorn's server log
    server_log.info("connection closed")
    logging.getLogger("websockets.server").info("connection open")
    server_log.info("Application startup complete.")
    server_log.error('%s - "WebSocket %s" failed', "127.0.0.1:5", "/ws/tables/abc")
    assert kept.lines == [
        "Application startup complete.",
        '127.0.0.1:5 - "WebSocket /ws/tables/abc" failed',
    ]


def test_the_served_socket_protocol_makes_no_line_below_a_warning(kept: Kept) -> None:
    """`deathclock serve` runs ServerSockets (tests/unit/test_cli_serve.py): the
    handshake's line is never made, not even as a record for the filter; its errors
    reach uvicorn's server log as before."""
    config = Config(app=lambda scope, receive, send: None, log_config=None)
    loop = asyncio.new_event_loop()
    protocol = ServerSockets(config, ServerState(), {}, loop)
    loop.close()
    quiet_socket_logs()  # as the app does, once uvicorn has set its logging up
    assert protocol.logger is SOCKET_LOG and protocol.conn.logger is SOCKET_LOG
    assert not SOCKET_LOG.isEnabledFor(logging.INFO)
    protocol.logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/tables/abc")
    protocol.logger.error("Exception in ASGI application")
    assert kept.lines == ["Exception in ASGI application"]
