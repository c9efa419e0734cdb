"""The rules' errors as replies, in one place: an HTTP status by error class, and the
socket's `error` message (tables.protocol.error) with the same code."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from app.domain.errors import (
    BadInput,
    NotFound,
    NotYourSeat,
    RuleError,
    ServerTrouble,
    Unauthorized,
)

#: The most specific class wins; any other rule error is a 400 with its reason.
STATUS: dict[type[RuleError], int] = {
    Unauthorized: 401,
    NotYourSeat: 403,
    NotFound: 404,
    BadInput: 400,
    ServerTrouble: 503,
}


def http_status(error: RuleError) -> int:
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleError)
    async def rule_error(_request: Request, exc: RuleError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=http_status(exc))
