"""A Runewars event: over live tables (`live`), stored (`codec`), run by the event
service as the format's tournament policy (`tournament`)."""

from app.events.runewars.live import RunewarsEvent

__all__ = ["RunewarsEvent"]
