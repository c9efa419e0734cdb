"""No log line per socket: at a convention hall thousands of phones come and go (when the
hall's Wi-Fi restarts, every one of them comes back at once), and a line for each socket
that opens or closes is noise in the log and CPU spent at the worst moment. Errors and
every other line are still logged."""

from __future__ import annotations

import logging

#: Where the served socket protocol (`app.sockets.ServerSockets`) logs: a child of
#: uvicorn's server log, so that its warnings and errors reach the same handlers; nothing
#: below a warning (`quiet_socket_logs`, called by the app, after uvicorn's logging
#: set-up, which resets it).
SOCKET_LOG = logging.getLogger("uvicorn.error.sockets")

#: How uvicorn words a socket's handshake ('<client> - "WebSocket <path>" [accepted]').
_SOCKET_LINE = '%s - "WebSocket %s"'
#: What the socket library says of each socket, through uvicorn's server log.
_LIBRARY_LINES = frozenset({"connection open", "connection closed"})


class _NoSocketLines(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.levelno <= logging.INFO
            and isinstance(record.msg, str)
            and (record.msg.startswith(_SOCKET_LINE) or record.msg in _LIBRARY_LINES)
        )


def quiet_socket_logs() -> None:
    logging.getLogger("websockets").setLevel(logging.WARNING)  # "connection open/closed"
    SOCKET_LOG.setLevel(logging.WARNING)
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _NoSocketLines) for f in server_log.filters):
        server_log.addFilter(_NoSocketLines())
