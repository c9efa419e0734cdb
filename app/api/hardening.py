"""What every request goes through before the routers: security headers on every
HTTP response, a per-address budget for what opens or misses, request bodies refused as
they stream past their size limit, and strict JSON bodies.

The three middlewares are plain ASGI (no body buffering, no per-request task); a socket's
frames never pass through them, only its opening handshake.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.guard import error_message
from app.api.limits import ClientLimits

#: Pages load scripts, styles, images and the manifest from this server only; QR codes
#: are data: images; sockets and fetches go back to this server ('self' covers ws/wss
#: to the same host). No inline script, no plugin, no <base>, no framing.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)

#: FastAPI's own API explorer (/docs, /redoc) is an inline script loading Swagger UI or
#: ReDoc from a CDN; it shows no user data. It gets that and nothing more.
DOCS_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "font-src https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "connect-src 'self'",
        "worker-src blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")


def _headers(policy: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        # Tokens live in links (#k=…, /t/<id>): no page tells another site where it was.
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    ]


class SecurityHeaders:
    """Every HTTP response (pages, API, static files, errors) gets the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = _headers(CONTENT_SECURITY_POLICY)
        self.docs_headers = _headers(DOCS_POLICY)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.docs_headers if scope["path"] in DOCS_PATHS else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in extra if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: What creates something from one request: a quick game, an event (API and forms).
CREATES = frozenset({"/api/tables", "/api/events", "/quick", "/events"})
#: Paths that look an id up: refused while the address's budget is spent.
LOOKUPS = ("/t/", "/e/", "/api/tables/", "/api/events/", "/ws/")
#: Answers that mean a miss (an unknown id, a wrong or missing token): each costs a token.
MISSES = frozenset({401, 403, 404})
TOO_MANY = "too many new tables, sockets or unknown links from your address: wait and retry"


class ClientGuard:
    """Per client address (ClientLimits): every socket opened and every table or event
    created spends a token; every miss costs one. While the budget is spent, opening,
    creating and looking ids up are refused: 429 with Retry-After, or a socket accepted
    only to say why (an `error`, code rate_limited) and closed with 4429."""

    def __init__(self, app: ASGIApp, limits: ClientLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        path: str = scope["path"]
        limits = self.limits
        if kind == "websocket" or (scope["method"] == "POST" and path in CREATES):
            allowed = limits.take(address)
        elif path.startswith(LOOKUPS):
            allowed = limits.ready(address)
        else:
            allowed = True
        if not allowed:
            if kind == "websocket":
                await self._refuse_socket(receive, send)
            else:
                await self._refuse(address, send)
            return

        if kind == "websocket":
            # Nothing wraps a socket's every message: its misses are charged where the
            # socket refuses (`charge_miss`).
            await self.app(scope, receive, send)
            return

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in MISSES:
                limits.charge(address)
            await send(message)

        await self.app(scope, receive, watch)

    async def _refuse(self, address: str, send: Send) -> None:
        body = json.dumps({"detail": TOO_MANY, "code": "rate_limited"}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(self.limits.wait_s(address)).encode()),
        ]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _refuse_socket(receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": error_message("rate_limited", TOO_MANY)})
        await send({"type": "websocket.close", "code": 4429, "reason": "rate limited"})


# --- request bodies: counted as they arrive ----------------------------------------------

#: A request body's size (JSON, forms): far beyond any request this server takes.
MAX_BODY_BYTES = 64 * 1024
#: A player list as CSV (the import): room for its 200 000 characters in any UTF-8.
MAX_UPLOAD_BYTES = 1024 * 1024
UPLOADS = re.compile(r"/api/events/[^/]+/players/import")


class _BodyTooLarge(Exception):
    pass


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"the body is {limit} bytes at most", "code": "too_large"})
    # The connection stays open: the server drops what is left of the body as it comes
    # (never holding it), so a client that sends it all before reading sees this answer.
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode()})


class _CountedBody:
    """One request's body, counted as the app reads it: past `limit` the request is
    answered 413 and the app reads no more (and whatever it sends after is dropped)."""

    def __init__(self, receive: Receive, send: Send, limit: int) -> None:
        self._receive = receive
        self._send = send
        self.limit = limit
        self.count = 0
        self.started = False
        self.refused = False

    async def receive(self) -> Message:
        if self.refused:
            raise _BodyTooLarge
        message = await self._receive()
        if message["type"] == "http.request":
            self.count += len(message.get("body", b""))
            if self.count > self.limit:
                self.refused = True
                if not self.started:
                    await _too_large(self._send, self.limit)
                raise _BodyTooLarge
        return message

    async def send(self, message: Message) -> None:
        if self.refused:
            return
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


class BodyLimit:
    """Every HTTP request body is refused (413) as soon as it is known to be too large:
    a Content-Length over the limit before a byte is read; a body without one (chunked)
    as its bytes, counted as they arrive, pass the limit. Nothing is buffered here."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_UPLOAD_BYTES if UPLOADS.fullmatch(scope["path"]) else MAX_BODY_BYTES
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _too_large(send, limit)
            return
        body = _CountedBody(receive, send, limit)
        try:
            await self.app(scope, body.receive, body.send)
        except Exception:
            if not body.refused:  # what the app made of a refused body is of no account
                raise


# --- strict JSON bodies ------------------------------------------------------------------

#: A JSON request body's size and shape: far beyond any request this API takes.
MAX_JSON_BYTES = MAX_BODY_BYTES
MAX_DEPTH = 32
MAX_INT_DIGITS = 4000


class _Refused(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number; send a finite number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{text[:32]} is too large a number; send a finite number")
    return value


def _int(text: str) -> int:
    # Python refuses to read an integer of more than 4300 digits; say so plainly. The
    # request models bound every integer field they read (a 422 past the bound).
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a whole number of {len(text)} digits is too long")
    return int(text)


def json_problem(body: bytes) -> str | None:
    """Why `body` is not JSON this API takes (None: it is): not UTF-8, not JSON, NaN or
    Infinity, a number too large, text with a lone surrogate escape, nested too deeply.
    What is left (wrong types, missing fields) the request models answer with a 422."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "the body must be JSON in UTF-8"
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_int)
    except _Refused as exc:
        return str(exc)
    except RecursionError:
        return f"the body is nested too deeply ({MAX_DEPTH} levels at most)"
    except ValueError as exc:
        return f"the body is not valid JSON: {exc}"
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"the body is nested too deeply ({MAX_DEPTH} levels at most)"
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                return "text must be valid Unicode: lone surrogate escapes (\\ud800) are refused"
    return None


def _bad_body(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"detail": message, "code": code}, status_code=status)


class StrictJsonRoute(APIRoute):
    """A route whose JSON body is checked (json_problem) before FastAPI reads it: a body
    that is not strict JSON gets a 400 with the reason, one too large a 413."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def strict(request: Request) -> Response:
            declared = request.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_JSON_BYTES:
                return _bad_body(413, f"the body is {MAX_JSON_BYTES} bytes at most", "too_large")
            body = await request.body()
            if len(body) > MAX_JSON_BYTES:
                return _bad_body(413, f"the body is {MAX_JSON_BYTES} bytes at most", "too_large")
            if body:
                problem = json_problem(body)
                if problem is not None:
                    return _bad_body(400, problem, "bad_input")
            return await handler(request)

        return strict
