"""No log line per socket: at a convention hall thousands of phones come and go (when the
hall's Wi-Fi restarts, every one of them comes back at once), and a line for each socket
that opens or closes is noise in the log and CPU spent at the worst moment. Errors and
every other line are still logged."""

from __future__ import annotations

import logging

#: How uvicorn words a socket's handshake ('<client> - "WebSocket <path>" [accepted]').
_SOCKET_LINE = '%s - "WebSocket %s"'


class _NoSocketLines(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.levelno <= logging.INFO
            and isinstance(record.msg, str)
            and record.msg.startswith(_SOCKET_LINE)
        )


def quiet_socket_logs() -> None:
    logging.getLogger("websockets").setLevel(logging.WARNING)  # "connection open/closed"
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _NoSocketLines) for f in server_log.filters):
        server_log.addFilter(_NoSocketLines())
