"""The one family of errors the rules raise; adapters turn them into replies."""


class RuleError(ValueError):
    """A command the rules do not allow in the current state."""

    code = "rule"
    #: the command's sequence number, when the error is about a command
    seq: int | None = None

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotYourSeat(RuleError):
    code = "forbidden"


class StaleCommand(RuleError):
    """A tap that expected a different clock to be running (a double tap)."""

    code = "stale"


class BadInput(RuleError):
    code = "bad_input"


class Unsupported(BadInput):
    """Something the event's or table's format does not have (a Runewars table has no
    control points); nothing is changed."""

    code = "unsupported"


class NotFound(RuleError):
    """No such table, event, player or round."""

    code = "not_found"


class Unauthorized(RuleError):
    """The request lacks the token (link or EO key) it needs, or it is wrong."""

    code = "unauthorized"


class ServerTrouble(RuleError):
    """The server could not do it now (a table's worker gone, the disk refusing): nothing
    was lost, and asking again in a moment may succeed."""

    code = "server_trouble"
