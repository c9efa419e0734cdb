"""Generated frames over the table socket of a live table, real server, fake clock.

Every bad frame gets one `error` back, the table does not change, and the socket (and the
server) keep answering. The fuzzed table stands where most commands are refused: P1 started
the clock and tapped, P2's deployment clock runs, and P1's undo proposal is 11 s old.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from app.tables.protocol import MAX_MESSAGE_BYTES
from app.tables.timesource import FakeTime
from tests.conftest import RunningServer, create_table, token_of

# Every frame is checked on its own against the same table, so the failing frame is named
# exactly in the assertion; no shrinking keeps a failing run as short as a passing one.
FUZZ_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
PROBE_ID_BASE = -7_340_000_000  # ids of the test's own liveness pings
PROBE_MS = 0.25
RECV_TIMEOUT_S = 5.0
CLOSE_CODES = (4400, 4403)  # bad hello, token refused

# --- frames -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """A JSON literal sent as written, e.g. a 5000-digit number, 1e400 or NaN."""

    text: str


@dataclass(frozen=True)
class TokenRef:
    """A table token, resolved once the table exists: `mangle` turns it into a wrong one."""

    table: str  # "own" or "other"
    mangle: str = "exact"


@dataclass(frozen=True)
class NowRef:
    """A server time `offset` ms from the table's (fake) now, resolved when sent."""

    offset: int


@dataclass(frozen=True)
class Frame:
    """One frame and the reply kinds that are right for it (`error` unless valid)."""

    payload: object  # a JSON-able value (with Raw/TokenRef/NowRef), a raw str, or bytes
    allowed: frozenset[str] = frozenset({"error"})
    seq: int | None = None  # a command's whole-number seq: its error must carry it
    as_text: bool = False  # payload is already the frame's text
    may_apply: bool = False  # an offline batch: refused (one error a seq) or merged

    def __repr__(self) -> str:
        shown = repr(self.payload)
        if len(shown) > 160:
            shown = f"{shown[:120]}...<{len(shown)} chars>...{shown[-30:]}"
        return f"Frame({shown}, allowed={sorted(self.allowed)}, seq={self.seq})"


def _mangle(token: str, how: str) -> str:
    match how:
        case "exact":
            return token
        case "suffix":
            return token + "A"
        case "prefix":
            return "A" + token
        case "cut":
            return token[:-1]
        case "upper":
            return token.upper() if token.upper() != token else token.lower()
        case "surrogate":
            return token[:-1] + "\ud800"
        case "nul":
            return token + "\x00"
    raise AssertionError(how)


def encode(value: object, refs: Mapping[str, Any] | None = None) -> str:
    """JSON text with Raw literals as written; lone surrogates travel as \\udXXX escapes."""
    match value:
        case Raw(text=text):
            return text
        case TokenRef(table=table, mangle=how):
            assert refs is not None
            return json.dumps(_mangle(refs[table], how))
        case NowRef(offset=offset):
            assert refs is not None
            return json.dumps(refs["now"] + offset)
        case dict():
            items = (f"{json.dumps(str(k))}:{encode(v, refs)}" for k, v in value.items())
            return "{" + ",".join(items) + "}"
        case list() | tuple():
            return "[" + ",".join(encode(v, refs) for v in value) + "]"
    return json.dumps(value, allow_nan=False)


def frame_data(frame: Frame, refs: Mapping[str, Any] | None = None) -> str | bytes:
    if isinstance(frame.payload, bytes):
        return frame.payload
    if frame.as_text:
        assert isinstance(frame.payload, str)
        return frame.payload
    return encode(frame.payload, refs)


DEEP_NESTING = 400  # past this, the server's JSON parser may hit its recursion limit


def _nesting(text: str) -> int:
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _parses(data: str | bytes) -> str:
    """How the server may read a frame: 'json', 'lenient' (NaN/Infinity, very deep), 'no'."""
    if isinstance(data, bytes):
        return "no"
    try:
        json.loads(data, parse_constant=_reject_constant)
    except RecursionError:
        return "no"
    except ValueError:
        try:
            json.loads(data)
        except (ValueError, RecursionError):
            return "no"
        return "lenient"
    return "lenient" if _nesting(data) > DEEP_NESTING else "json"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(data: str | bytes) -> dict[str, Any]:
    """The server's messages are standard JSON objects with a `t` (browsers parse them)."""
    assert isinstance(data, str), f"the server sent a binary frame: {data!r:.120}"
    try:
        message = json.loads(data, parse_constant=_reject_constant)
    except ValueError as exc:
        raise AssertionError(f"the server sent non-standard JSON ({exc}): {data[:200]}") from None
    assert isinstance(message, dict), f"not a JSON object: {data[:200]}"
    assert isinstance(message.get("t"), str), f"no 't': {data[:200]}"
    return message


# --- strategies ---------------------------------------------------------------------------

MISSING = object()
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc80", "\udfff"])
SHORT_TEXT = st.text(max_size=24)
LONG_TEXT = st.builds(
    lambda unit, n: unit * n,
    st.text(min_size=1, max_size=3),
    st.integers(min_value=200, max_value=5_000),
)
ODD_TEXT = st.one_of(
    SHORT_TEXT,
    LONG_TEXT,
    st.builds(lambda a, s, b: a + s + b, SHORT_TEXT, SURROGATES, SHORT_TEXT),
)
EDGE_LITERALS = st.sampled_from(
    [
        2**53,
        2**63,
        2**64,
        -(2**64),
        -1,
        10**30,
        2**1024,
        1e308,
        -1e308,
        5e-324,
        1.5,
        -0.0,
        Raw("1e400"),
        Raw("-1e400"),
        Raw("1" + "0" * 400),
        Raw("NaN"),
        Raw("Infinity"),
        Raw("-Infinity"),
        Raw("1E+2"),
        Raw("-0"),
    ]
)
# integers longer than Python's 4300-digit int/str conversion limit
LONG_INTEGERS = st.builds(
    lambda sign, digit, n: Raw(sign + digit * n),
    st.sampled_from(["", "-"]),
    st.sampled_from("123456789"),
    st.integers(min_value=4_290, max_value=6_000),
)
BIG_NUMBERS = st.one_of(EDGE_LITERALS, LONG_INTEGERS)
NUMBERS = st.one_of(
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    BIG_NUMBERS,
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, ODD_TEXT)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(SHORT_TEXT, children, max_size=4),
    ),
    max_leaves=12,
)


def _nested(depth: int, kind: str) -> Raw:
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "1" + "}" * depth)


DEEP = st.builds(
    _nested,
    st.one_of(st.integers(1, 1_200), st.integers(900, 1_000), st.integers(1_200, 7_000)),
    st.sampled_from(["list", "dict"]),
)
ANY = st.one_of(JSON_VALUES, DEEP)


def _means_p2(value: object) -> bool:
    """The clean spellings of P2 on the wire: a tap that expects P2 is valid right now."""
    if isinstance(value, bool | Raw):
        return False
    try:
        return value in ("p2", "P2", 1)
    except TypeError:
        return False


SIDES = st.one_of(st.sampled_from(["p1", "p2", "P1", "P2", 0, 1, "p3", "", "P 1"]), ANY)
# P2 runs: a tap that expects P2 is the one valid pass_turn, so it is never generated
# (`true` is no spelling of P2: it is a wrong type, to be refused).
EXPECT = st.one_of(
    st.sampled_from(["p1", "P1", 0, "p3", "", "p2 ", " p2", "p", 2, -1, True, False]),
    ANY,
).filter(lambda v: not _means_p2(v))
BOOLS = st.one_of(st.booleans(), ANY)
ELEMENT_IDS = st.one_of(
    st.sampled_from(
        ["rect-1", "rect-2", "flag-1", "flag-2", "objective-p1", "objective-p2", "zone", ""]
    ),
    SHORT_TEXT,
)
SCORING = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "control": st.one_of(st.dictionaries(ELEMENT_IDS, SIDES, max_size=70), ANY),
            "destroyed": st.one_of(st.lists(ELEMENT_IDS, max_size=10), ANY),
        },
    ),
    ANY,
)
INTS = st.one_of(st.integers(min_value=-5, max_value=20_000), NUMBERS, ANY)
TEXTS = st.one_of(ODD_TEXT, ANY)

# Every command a seat can send, with its fields. `concede` and `flag` are left out: a seat
# may concede in any phase but the last, and `flag` is a no-op every role may send.
COMMAND_FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "start": {},
    "pass_turn": {"expect": EXPECT, "kill_box": BOOLS, "scoring": SCORING},
    "switch": {"to": SIDES},
    "propose_undo": {},  # too late: the tap is 11 s old
    "answer_undo": {"accept": BOOLS},  # P1 proposed the undo: P1 cannot answer it
    "caster_destroyed": {"both": BOOLS},  # not before the turns
    "claim_scenario": {"scoring": SCORING},  # no clock ran out
    "answer_claim": {"agree": BOOLS},
    "accept_clock_loss": {},
    "final_scoring": {"scoring": SCORING},
    "report": {"army_points_destroyed": INTS, "scenario_presence": INTS, "list_played": TEXTS},
    "confirm": {},
    "dispute": {"reason": TEXTS},
    "call_tie": {},  # the EO's
    "pause": {},  # the EO's
    "resume": {},  # the EO's
    "adjust_clock": {"side": SIDES, "remaining_ms": INTS},  # the EO's
}
KNOWN_COMMANDS = [*COMMAND_FIELDS, "concede", "flag"]
KINDS = ("hello", "cmd", "offline", "ping", "sync", "log")


def _valid_seq(seq: object) -> int | None:
    if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < 2**53:
        return seq
    return None


SEQS = st.one_of(
    st.integers(min_value=0, max_value=2**53 - 1),
    st.integers(min_value=0, max_value=50),
    st.sampled_from([-1, 2**53, 2**64, 1.0, 2.5, True, "1", None, MISSING]),
    ANY,
)


@st.composite
def commands(draw: st.DrawFn) -> Frame:
    """A command a seat cannot send now: unknown, malformed, not its seat's, wrong phase."""
    name = draw(
        st.one_of(
            st.sampled_from(list(COMMAND_FIELDS)),
            st.sampled_from(KNOWN_COMMANDS).map(str.upper),
            st.sampled_from(KNOWN_COMMANDS).map(lambda n: f" {n}"),
            SHORT_TEXT.filter(lambda n: n not in KNOWN_COMMANDS),
            st.just(MISSING),
            ANY.filter(lambda n: not isinstance(n, str)),
        )
    )
    extra_keys = SHORT_TEXT.filter(lambda k: k not in ("t", "seq", "c"))
    body: dict[str, Any] = draw(st.dictionaries(extra_keys, ANY, max_size=3))
    body["t"] = "cmd"
    seq = draw(SEQS)
    if seq is not MISSING:
        body["seq"] = seq
    if name is not MISSING:
        body["c"] = name
    for key, values in COMMAND_FIELDS.get(name, {}).items() if isinstance(name, str) else ():
        if draw(st.integers(0, 5)):  # mostly present
            body[key] = draw(values)
        else:
            body.pop(key, None)
    if name == "pass_turn" and "expect" in body and _means_p2(body["expect"]):
        body["expect"] = "p1"  # an extra field drawn as `expect` must not make it valid
    return Frame(body, seq=_valid_seq(seq))


PLAUSIBLE_OFFLINE: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [
        {"c": "pass_turn", "expect": "p2"},
        {"c": "pass_turn", "expect": "p1"},
        {"c": "propose_undo"},
        {"c": "answer_undo", "accept": True},
        {"c": "switch", "to": "p1"},
        {"c": "concede"},
        {"c": "flag"},
        {"c": "start"},
        {"c": "pause"},
        {"c": "adjust_clock", "side": "p1", "remaining_ms": 1},
    ]
)
AT_MS = st.one_of(
    st.builds(NowRef, st.integers(min_value=-30_000, max_value=8_000)),
    st.sampled_from([0, -1, 2**53, 2**64, 1.5, "now", None, True, MISSING]),
    BIG_NUMBERS,
    ANY,
)


@st.composite
def offline_items(draw: st.DrawFn) -> object:
    kind = draw(st.sampled_from(["plausible", "refused", "junk"]))
    if kind == "junk":
        return draw(ANY)
    item: dict[str, Any]
    if kind == "plausible":
        item = {"seq": draw(st.integers(0, 2**53 - 1)), **draw(PLAUSIBLE_OFFLINE)}
    else:
        frame = draw(commands())
        assert isinstance(frame.payload, dict)
        item = {k: v for k, v in frame.payload.items() if k != "t"}
    at_ms = draw(AT_MS)
    if at_ms is not MISSING:
        item["at_ms"] = at_ms
    return item


@st.composite
def offline_batches(draw: st.DrawFn) -> Frame:
    """Commands queued offline: a batch is merged (acks) or refused (an error a command)."""
    body: dict[str, Any] = {"t": "offline"}
    base = draw(st.one_of(st.integers(-2, 6), st.sampled_from([MISSING, 2**64, 1.0, "3"]), ANY))
    if base is not MISSING:
        body["base"] = base
    cmds = draw(
        st.one_of(
            st.lists(offline_items(), min_size=1, max_size=5),
            st.lists(offline_items(), min_size=0, max_size=1),
            st.builds(lambda item, n: [item] * n, offline_items(), st.integers(150, 260)),
            st.just(MISSING),
            ANY,
        )
    )
    if cmds is not MISSING:
        body["cmds"] = cmds
    # A refused merge is answered with the errors and then the server's state, which stands.
    return Frame(body, allowed=frozenset({"error", "ack", "event", "state"}), may_apply=True)


def _number_class(value: object) -> str:
    """'plain' (a pong is due), 'odd' (pong or error) or 'wrong' (error)."""
    if value is MISSING:
        return "plain"
    if isinstance(value, Raw):
        value = _loads_or_none(value.text)
        if value is None:
            return "odd"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "wrong"
    if isinstance(value, float) and not math.isfinite(value):
        return "odd"
    return "plain" if abs(value) < 2**53 else "odd"


@st.composite
def pings(draw: st.DrawFn) -> Frame:
    body: dict[str, Any] = {"t": "ping"}
    ping_id = draw(
        st.one_of(st.just(MISSING), st.integers(-(2**31), 2**31), EDGE_LITERALS, NUMBERS, ANY)
    )
    client_ms = draw(st.one_of(st.just(MISSING), EDGE_LITERALS, NUMBERS, st.floats(0, 2e12), ANY))
    if ping_id is not MISSING:
        body["id"] = ping_id
    if client_ms is not MISSING:
        body["client_ms"] = client_ms
    classes = {_number_class(ping_id), _number_class(client_ms)}
    if isinstance(ping_id, float) or (
        isinstance(ping_id, Raw) and not isinstance(_loads_or_none(ping_id.text), int)
    ):
        classes.add("wrong")  # an id is a whole number
    if "wrong" in classes:
        allowed = frozenset({"error"})
    elif "odd" in classes:
        allowed = frozenset({"error", "pong"})
    else:
        allowed = frozenset({"pong"})
    return Frame(body, allowed=allowed)


def _loads_or_none(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _not_a_message(text: str) -> bool:
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return True
    return not (isinstance(raw, dict) and raw.get("t") in KINDS)


GARBAGE = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "{",
            "}",
            "[",
            "nul",
            "tru",
            "'t'",
            "{t:sync}",
            "{'t':'sync'}",
            '{"t":"sync"',
            '{"t":"sync"}}',
            '{"t" "sync"}',
            '{"t":"sync",}',
            "\x00",
            "\ufeff{}",
            '{"t":"cmd"',
        ]
    ),
    SHORT_TEXT,
    st.builds(
        lambda s, n: s[:n], st.just('{"t":"cmd","seq":1,"c":"pass_turn"}'), st.integers(0, 33)
    ),
).filter(_not_a_message)


def _text_frame(text: str) -> Frame:
    return Frame(text, as_text=True)


def _oversized(kind: str, unit: str, extra: int) -> Frame:
    """A frame around the size limit; a valid sync or ping when within it."""
    head = '{"t":"sync","pad":"' if kind == "sync" else '{"t":"ping","id":3,"pad":"'
    tail = '"}'
    room = MAX_MESSAGE_BYTES - len(head) - len(tail)
    count = max(0, (room + extra) // len(unit.encode()))
    text = head + unit * count + tail
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        return Frame(text, as_text=True)
    return Frame(text, allowed=frozenset({"state" if kind == "sync" else "pong"}), as_text=True)


OVERSIZED = st.one_of(
    st.builds(
        _oversized,
        st.sampled_from(["sync", "ping"]),
        st.sampled_from(["x", "é", "€", "😀"]),
        st.one_of(st.integers(-8, 8), st.integers(1, 60_000)),
    ),
    st.builds(lambda n: Frame(b"\x00" * n), st.integers(16_000, 70_000)),
)
BINARY = st.builds(
    Frame,
    st.one_of(
        st.binary(max_size=64),
        st.sampled_from([b'{"t":"sync"}', b'{"t":"ping","id":1}', b"\xff\xfe", b""]),
    ),
)
NOT_OBJECTS = st.builds(Frame, st.one_of(SCALARS, st.lists(ANY, max_size=4), DEEP))
BAD_KINDS = st.builds(
    lambda extra, kind: Frame({**extra, "t": kind} if kind is not MISSING else extra),
    st.dictionaries(SHORT_TEXT.filter(lambda k: k != "t"), ANY, max_size=4),
    st.one_of(
        st.just(MISSING),
        SHORT_TEXT.filter(lambda k: k not in KINDS),
        st.sampled_from(["HELLO", "Cmd", "sync ", "pong", "state", "error", "ack", "event"]),
        ANY.filter(lambda k: not isinstance(k, str)),
    ),
)
VALID_OTHERS = st.one_of(
    st.builds(
        lambda extra: Frame({**extra, "t": "sync"}, allowed=frozenset({"state"})),
        st.dictionaries(SHORT_TEXT.filter(lambda k: k != "t"), JSON_VALUES, max_size=3),
    ),
    st.just(Frame({"t": "log"}, allowed=frozenset({"log"}))),
    # a second hello on a joined socket is refused
    st.builds(lambda extra: Frame({**extra, "t": "hello"}), st.dictionaries(SHORT_TEXT, ANY)),
)
MALFORMED = st.one_of(
    GARBAGE.map(_text_frame),
    NOT_OBJECTS,
    BAD_KINDS,
    BINARY,
    OVERSIZED,
    VALID_OTHERS,
    pings(),
)


# --- the fuzzed table ---------------------------------------------------------------------


class SocketGone(AssertionError):
    pass


@dataclass
class Seat:
    ws: websockets.ClientConnection
    probes: int = 0

    async def recv(self) -> dict[str, Any]:
        try:
            data = await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT_S)
        except ConnectionClosed as exc:
            raise SocketGone(f"the server dropped the socket: {exc}") from None
        except TimeoutError:
            raise AssertionError(f"no message in {RECV_TIMEOUT_S} s") from None
        return strict_json(data)

    async def exchange(self, data: str | bytes) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Send a frame, then a ping and a sync: the replies to the frame, and the state."""
        self.probes += 1
        probe_id = PROBE_ID_BASE - self.probes
        try:
            await self.ws.send(data)
            await self.ws.send(json.dumps({"t": "ping", "id": probe_id, "client_ms": PROBE_MS}))
            await self.ws.send('{"t":"sync"}')
        except ConnectionClosed as exc:
            raise SocketGone(f"the server dropped the socket: {exc}") from None
        replies = []
        while True:
            message = await self.recv()
            if message["t"] == "pong" and message.get("id") == probe_id:
                assert message.get("client_ms") == PROBE_MS, message
                break
            replies.append(message)
        state = await self.recv()
        assert state["t"] == "state", state
        return replies, state


@dataclass
class FuzzTable:
    server: RunningServer
    time: FakeTime
    tokens: dict[str, str] = field(default_factory=dict)
    table_id: str = ""
    version: int = -1
    game: dict[str, Any] = field(default_factory=dict)
    seat: Seat | None = None
    clean: bool = False  # the last frame was checked: the seat is open, the table unchanged
    rebuilt: int = 0
    frames: int = 0

    @property
    def url(self) -> str:
        return f"{self.server.ws_base}/ws/tables/{self.table_id}"

    async def _join(self, token: str, device: str) -> Seat:
        ws = await websockets.connect(self.url, max_size=None)
        await ws.send(json.dumps({"t": "hello", "token": token, "device": device}))
        seat = Seat(ws)
        state = await seat.recv()
        assert state["t"] == "state", state
        return seat

    async def build(self) -> None:
        """A new table where P2's deployment clock runs and P1's undo proposal is stale."""
        other = await create_table(self.server.base, clock_minutes=60, scenario="bunkers")
        links = await create_table(self.server.base, clock_minutes=60, scenario="bunkers")
        self.table_id = links["id"]
        self.tokens = {
            "own": token_of(links["p1"]["url"]),
            "other": token_of(other["p1"]["url"]),
        }
        setup = await self._join(self.tokens["own"], "setup-phone")
        for seq, command in enumerate(
            [{"c": "start"}, {"c": "pass_turn", "expect": "p1"}, {"c": "propose_undo"}], 1
        ):
            await setup.ws.send(json.dumps({"t": "cmd", "seq": seq, **command}))
            while (reply := await setup.recv())["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply
        await setup.ws.close()
        self.time.advance(11_000)
        if self.seat is not None:
            await self.seat.ws.close()
        self.seat = await self._join(self.tokens["own"], "fuzz-phone")
        _, state = await self.seat.exchange('{"t":"sync"}')
        self.version, self.game = state["v"], state["game"]
        assert self.game["phase"] == "deployment" and self.game["running"] == "p2"
        self.clean = True

    async def ready(self) -> Seat:
        """The fuzzed seat, joined again if dropped; a new table if an earlier frame changed it."""
        if not self.table_id:
            await self.build()
        assert self.seat is not None
        if self.clean:
            return self.seat
        if self.seat.ws.state is not State.OPEN:
            self.seat = await self._join(self.tokens["own"], "fuzz-phone")
        _, state = await self.seat.exchange('{"t":"sync"}')
        if (state["v"], state["game"]) != (self.version, self.game):
            self.rebuilt += 1
            await self.build()
        self.clean = True
        return self.seat

    @property
    def refs(self) -> dict[str, Any]:
        return {**self.tokens, "now": self.time.now_ms()}

    async def check(self, frame: Frame, *, seq_echo: bool = False) -> None:
        seat = await self.ready()
        self.clean = False
        self.frames += 1
        data = frame_data(frame, self.refs)
        parses = _parses(data)
        if len(data.encode() if isinstance(data, str) else data) > MAX_MESSAGE_BYTES or (
            parses == "no"
        ):
            frame = replace(frame, allowed=frozenset({"error"}), seq=None, may_apply=False)
        elif parses == "lenient":  # may be refused as not JSON, before its seq is read
            frame = replace(frame, allowed=frame.allowed | {"error"}, seq=None)
        try:
            replies, state = await seat.exchange(data)
        except SocketGone as exc:
            raise SocketGone(f"{exc}, after {frame!r}") from None
        kinds = [m["t"] for m in replies]
        summary = f"{frame!r} got {kinds} ({str(replies)[:300]}), not {sorted(frame.allowed)}"
        if frame.may_apply:
            assert replies and set(kinds) <= frame.allowed, summary
        else:
            assert len(replies) == 1 and kinds[0] in frame.allowed, summary
        for reply in replies:
            if reply["t"] == "error":
                assert isinstance(reply.get("code"), str) and reply["code"], reply
                assert isinstance(reply.get("message"), str) and reply["message"].strip(), reply
            if reply["t"] == "pong":
                assert "server_ms" in reply, reply
        if "ack" in kinds:  # a merged offline batch: the next frame gets a new table
            return
        assert (state["v"], state["game"]) == (self.version, self.game), (
            f"{frame!r} changed the table: v {self.version} -> {state['v']}"
        )
        self.clean = True
        reply = replies[0]
        if seq_echo and frame.seq is not None:
            assert reply.get("seq") == frame.seq, (
                f"the error for command seq {frame.seq} carries seq {reply.get('seq')!r}, so a "
                f"client cannot tell which command was refused: {frame!r} -> {reply}"
            )

    async def close(self) -> None:
        if self.seat is not None:
            await self.seat.ws.close()


@pytest.fixture
async def table(server: RunningServer, fake_time: FakeTime) -> Any:
    fuzzed = FuzzTable(server, fake_time)
    await fuzzed.build()
    yield fuzzed
    await fuzzed.close()


async def _run(table: FuzzTable, frames: list[Frame], *, seq_echo: bool = False) -> None:
    for frame in frames:
        await table.check(frame, seq_echo=seq_echo)


@settings(FUZZ_SETTINGS, max_examples=60)
@given(frames=st.lists(offline_batches(), min_size=1, max_size=6))
async def test_offline_batches_are_refused_whole_or_merged(
    table: FuzzTable, frames: list[Frame]
) -> None:
    await _run(table, frames)


# --- the tests ----------------------------------------------------------------------------


@settings(FUZZ_SETTINGS, max_examples=200)
@given(frames=st.lists(MALFORMED, min_size=1, max_size=12))
async def test_malformed_frames_get_an_error_and_change_nothing(
    table: FuzzTable, frames: list[Frame]
) -> None:
    await _run(table, frames)


@settings(FUZZ_SETTINGS, max_examples=150)
@given(frames=st.lists(commands(), min_size=1, max_size=12))
async def test_refused_commands_get_an_error_and_change_nothing(
    table: FuzzTable, frames: list[Frame]
) -> None:
    await _run(table, frames)


@settings(FUZZ_SETTINGS, max_examples=40)
@given(frames=st.lists(commands(), min_size=1, max_size=8))
async def test_the_error_for_a_refused_command_carries_its_seq(
    table: FuzzTable, frames: list[Frame]
) -> None:
    await _run(table, frames, seq_echo=True)


def _sync_with(value: object) -> Frame:
    """A sync carrying a number: valid JSON is answered with the state, the rest refused."""
    if isinstance(value, Raw) and _loads_or_none(value.text) is None:
        return Frame({"t": "sync", "n": value})
    if isinstance(value, Raw) and value.text.lstrip("-") in ("NaN", "Infinity", "1e400"):
        return Frame({"t": "sync", "n": value}, allowed=frozenset({"state", "error"}))
    return Frame({"t": "sync", "n": value}, allowed=frozenset({"state"}))


HUGE_NUMBER_FIELDS = st.one_of(
    pings(),
    st.builds(
        lambda seq, value, name, key: Frame(
            {"t": "cmd", "seq": seq, "c": name, key: value}, seq=_valid_seq(seq)
        ),
        st.one_of(st.integers(0, 1000), BIG_NUMBERS),
        BIG_NUMBERS,
        st.sampled_from(["report", "adjust_clock", "pass_turn", "answer_undo"]),
        st.sampled_from(["army_points_destroyed", "scenario_presence", "remaining_ms", "side"]),
    ),
    st.builds(_sync_with, BIG_NUMBERS),
    st.builds(lambda value: Frame({"t": "hello", "token": "x", "v": value}), BIG_NUMBERS),
)


@settings(FUZZ_SETTINGS, max_examples=80)
@given(frames=st.lists(HUGE_NUMBER_FIELDS, min_size=1, max_size=10))
async def test_huge_and_odd_numbers_get_an_answer_in_standard_json(
    table: FuzzTable, frames: list[Frame]
) -> None:
    await _run(table, frames)


# --- the hello step -----------------------------------------------------------------------

HELLO_TOKENS = st.one_of(
    st.just(MISSING),
    st.builds(TokenRef, st.just("own"), st.sampled_from(["suffix", "prefix", "cut", "upper"])),
    st.builds(TokenRef, st.just("own"), st.sampled_from(["surrogate", "nul"])),
    st.builds(TokenRef, st.just("other")),
    st.builds(TokenRef, st.just("other"), st.sampled_from(["suffix", "upper"])),
    st.sampled_from(["", " ", "guess", "x" * 129, "k=" + "A" * 32]),
    ODD_TEXT,
    ANY,
)


@st.composite
def hellos(draw: st.DrawFn) -> Frame:
    """A first frame that must not join: bad token, bad device or v, or not a hello at all."""
    kind = draw(st.sampled_from(["token", "fields", "other"]))
    if kind == "other":
        frame: Frame = draw(
            st.one_of(
                GARBAGE.map(_text_frame),
                NOT_OBJECTS,
                BAD_KINDS,
                BINARY,
                OVERSIZED,
                st.just(Frame({"t": "sync"})),
                st.just(Frame({"t": "ping", "id": 1})),
                st.just(Frame({"t": "offline", "base": 0, "cmds": [{"c": "start"}]})),
                st.builds(lambda n: Frame({"t": "cmd", "seq": n, "c": "start"}), st.integers(0)),
            )
        )
        return Frame(frame.payload, as_text=frame.as_text)
    body: dict[str, Any] = {"t": "hello"}
    if kind == "token":
        token = draw(HELLO_TOKENS)
        if token is not MISSING:
            body["token"] = token
        if draw(st.booleans()):
            body["device"] = draw(st.one_of(SHORT_TEXT, ANY))
        if draw(st.booleans()):
            body["v"] = draw(st.one_of(st.integers(-5, 5), ANY))
    else:  # the right token, with a device or v that is not right
        body["token"] = TokenRef("own")
        bad_device = st.one_of(
            st.text(min_size=65, max_size=80), ANY.filter(lambda d: not isinstance(d, str))
        )
        bad_v = st.one_of(
            st.sampled_from([True, False, 1.0, "1", [1], {"v": 1}, 2.5, Raw("1e3")]),
            ANY.filter(
                lambda v: (
                    v is not None
                    and (isinstance(v, bool) or not isinstance(v, int))
                    and not (isinstance(v, Raw) and isinstance(_loads_or_none(v.text), int))
                )
            ),
        )
        if draw(st.booleans()):
            body["device"] = draw(bad_device)
            if draw(st.booleans()):
                body["v"] = draw(bad_v)
        else:
            body["v"] = draw(bad_v)
    return Frame(body)


@settings(FUZZ_SETTINGS, max_examples=150)
@given(hello=hellos())
async def test_a_bad_hello_gets_an_error_and_a_close(table: FuzzTable, hello: Frame) -> None:
    ws = await websockets.connect(table.url, max_size=None)
    try:
        await ws.send(frame_data(hello, table.refs))
        try:
            first = strict_json(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))
        except ConnectionClosed as exc:
            raise AssertionError(f"closed without an error message ({exc}) for {hello!r}") from None
        assert first["t"] == "error", f"{hello!r} joined: {str(first)[:200]}"
        assert first.get("code") and str(first.get("message", "")).strip(), first
        with pytest.raises(ConnectionClosed):
            extra = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S)
            raise AssertionError(f"the socket stayed open after the error: {extra!r:.200}")
        assert ws.close_code in CLOSE_CODES, f"close code {ws.close_code} for {hello!r}"
    finally:
        await ws.close()
    # the server is up and the table as it was
    await table.check(Frame({"t": "sync"}, allowed=frozenset({"state"})))


# --- what the fuzzing found, one input each ------------------------------------------------


async def _first_reply(table: FuzzTable, data: str | bytes) -> dict[str, Any]:
    seat = await table.ready()
    replies, _state = await seat.exchange(data)
    assert replies, "no reply"
    return replies[0]


@pytest.mark.parametrize(
    "text",
    [
        '{"t":"sync","n":' + "1" * 4301 + "}",
        '{"t":"cmd","seq":' + "2" * 5000 + ',"c":"start"}',
    ],
    ids=["sync-with-4301-digit-number", "cmd-with-5000-digit-seq"],
)
async def test_a_number_of_over_4300_digits_gets_an_error(table: FuzzTable, text: str) -> None:
    """json.loads raises a plain ValueError (int/str conversion limit), not JSONDecodeError."""
    reply = await _first_reply(table, text)
    assert reply["t"] == "error" and reply["code"] == "bad_input", reply


async def test_a_ping_with_client_ms_beyond_a_float_gets_an_answer(table: FuzzTable) -> None:
    """float(10**400) raises OverflowError."""
    reply = await _first_reply(table, '{"t":"ping","id":1,"client_ms":1' + "0" * 400 + "}")
    assert reply["t"] in ("error", "pong"), reply


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
async def test_a_pong_is_standard_json_whatever_client_ms(table: FuzzTable, literal: str) -> None:
    """A pong echoing NaN or Infinity is not JSON to a browser's JSON.parse."""
    reply = await _first_reply(table, '{"t":"ping","id":1,"client_ms":' + literal + "}")
    assert reply["t"] in ("error", "pong"), reply


async def test_the_error_for_a_malformed_command_carries_its_seq(table: FuzzTable) -> None:
    """Else the phone keeps the command pending and sends it again at every reconnect."""
    seat = await table.ready()
    malformed: list[tuple[int, dict[str, Any]]] = [
        (41, {"c": "report", "army_points_destroyed": 12.5}),
        (42, {"c": "fly"}),
        (43, {"c": "answer_undo"}),
    ]
    for seq, command in malformed:
        replies, _ = await seat.exchange(json.dumps({"t": "cmd", "seq": seq, **command}))
        assert [r["t"] for r in replies] == ["error"], replies
        assert replies[0]["seq"] == seq, replies[0]


async def test_a_boolean_is_not_a_side(table: FuzzTable) -> None:
    """true == 1, and 1 is P2: a tap expecting `true` passes P2's clock."""
    await table.check(Frame({"t": "cmd", "seq": 7, "c": "pass_turn", "expect": True}))


async def test_a_binary_hello_gets_an_error_before_the_close(table: FuzzTable) -> None:
    """As a binary frame after the hello does."""
    async with websockets.connect(table.url) as ws:
        await ws.send(b'{"t":"hello"}')
        try:
            first = strict_json(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))
        except ConnectionClosed as exc:
            raise AssertionError(f"closed without an error message: {exc}") from None
        assert first["t"] == "error", first


async def test_a_token_with_a_lone_surrogate_is_refused(table: FuzzTable) -> None:
    """A JSON escape can carry a lone surrogate, which str.encode() cannot encode."""
    async with websockets.connect(table.url) as ws:
        await ws.send('{"t":"hello","token":"\\ud800","device":"d"}')
        try:
            first = strict_json(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))
        except ConnectionClosed as exc:
            raise AssertionError(f"closed without an error message: {exc}") from None
        assert first["t"] == "error" and first["code"] in ("forbidden", "bad_input"), first
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S)
        assert ws.close_code in CLOSE_CODES


async def test_a_device_name_with_a_lone_surrogate_is_refused_or_works(
    server: RunningServer,
) -> None:
    """The device name is stored with every command: the store cannot encode it."""
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    url = f"{server.ws_base}/ws/tables/{links['id']}"
    hello = encode({"t": "hello", "token": token_of(links["p1"]["url"]), "device": "\udc80"})
    async with websockets.connect(url) as ws:
        await ws.send(hello)
        first = strict_json(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))
        if first["t"] == "error":  # refused at the door: fine
            return
        assert first["t"] == "state", first
        await ws.send('{"t":"cmd","seq":1,"c":"start"}')
        reply: dict[str, Any] = {}
        while reply.get("t") not in ("ack", "error"):
            reply = strict_json(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))
        assert reply["t"] == "ack", f"joined, but its commands cannot be saved: {reply}"
