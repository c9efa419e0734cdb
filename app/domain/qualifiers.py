"""Qualifier seasons: the Iron Gauntlet 2019–2020 qualifier points (QPs) an official
qualifier (IGQ) awards, who qualifies for the world finals, the date an IGQ's top three
are due, the players matched across events, and a Masters tournament's qualifiers
(shared/seeds/masters-champions-2019.txt). Pure: time comes in as epoch milliseconds."""

from __future__ import annotations

import csv
import io
from bisect import bisect_left
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.domain.errors import BadInput

#: ST4 2019: QPs by final standing ("1 10, 2 7, 3 4"); no other place earns any.
QP_2019: Mapping[int, int] = {1: 10, 2: 7, 3: 4}
#: "A player who earns 10 or more QPs qualifies" (no limit on how many qualify).
QUALIFYING_QP = 10
#: "within 14 days of completion of the event"
REPORT_DAYS = 14
DAY_MS = 24 * 60 * 60 * 1000
#: "a minimum of 32 distinct players in the qualifiers"
MASTERS_QUALIFIER_MINIMUM = 32
#: "Tournament participant minimum: 32", for a sanctioned Masters or Champions event.
PARTICIPANT_MINIMUM = 32

#: A season's kinds: an Iron Gauntlet season of IGQs, or a Masters tournament's qualifiers
#: (a format says which it counts in: its ruleset's `seasons`).
IRON_GAUNTLET = "iron gauntlet"
MASTERS_QUALIFIERS = "masters qualifiers"
KINDS = (IRON_GAUNTLET, MASTERS_QUALIFIERS)


def qp_2019(rank: int) -> int:
    """ST4 2019: an IGQ's QPs for a final standing. The chart says nothing of ties:
    players the standings cannot part share their place, and each earns its QPs."""
    return QP_2019.get(rank, 0)


def eligible_places(
    standings: Iterable[tuple[int, str]], disqualified: Collection[str]
) -> dict[str, int]:
    """Each eligible player's place by their final standing ((rank, player id) pairs),
    the disqualified passed over: "Disqualified players are not eligible for any awards
    or prizes" (ST3), nor QPs (ST4). As with the prizes, a disqualified player's place goes
    to the next eligible player and every place after it moves up; players who share a
    rank still share their place (1, 2, 2, 4). A disqualified player has no place."""
    eligible = [(rank, player) for rank, player in standings if player not in disqualified]
    ranks = sorted(rank for rank, _ in eligible)
    return {player: bisect_left(ranks, rank) + 1 for rank, player in eligible}


def field_note(players: int) -> str | None:
    """A warning, never a refusal: the document asks 32 participants of a sanctioned
    Masters or Champions event (Privateer Press sanctions it, not this app)."""
    if players >= PARTICIPANT_MINIMUM:
        return None
    return (
        f"{players} players: an officially sanctioned Masters or Champions tournament "
        f"has at least {PARTICIPANT_MINIMUM} participants"
    )


def qualifies(qp: int) -> bool:
    return qp >= QUALIFYING_QP


def report_due_ms(finished_ms: int) -> int:
    """The day the EO's report of the top three is due: 14 days after the event ended."""
    return finished_ms + REPORT_DAYS * DAY_MS


#: Where an IGQ's report of its top three stands. "due": not sent, and its 14 days not
#: over; "on time": sent within them; "late": sent after them; "missed": not sent, and
#: the 14 days are over. Late or missed, the event is not an official IGQ and its
#: players receive no QPs from it.
REPORT_DUE, REPORT_ON_TIME, REPORT_LATE, REPORT_MISSED = "due", "on time", "late", "missed"


def report_standing(finished_ms: int, reported_ms: int | None, now_ms: int) -> str:
    """Where the report of an event that ended at `finished_ms` stands at `now_ms`."""
    due = report_due_ms(finished_ms)
    if reported_ms is None:
        return REPORT_DUE if now_ms <= due else REPORT_MISSED
    return REPORT_ON_TIME if reported_ms <= due else REPORT_LATE


def report_counts(standing: str) -> bool:
    """Whether the event's QPs count: reported on time, or still within its 14 days."""
    return standing in (REPORT_DUE, REPORT_ON_TIME)


def name_key(name: str) -> str:
    """A name as two events may have written it for the same person."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True, slots=True)
class Entry:
    """One player as one event registered them."""

    event_id: str
    player_id: str
    name: str

    @property
    def ref(self) -> str:
        """The entry's own reference: its event and its player there."""
        return f"{self.event_id}:{self.player_id}"


@dataclass(frozen=True, slots=True)
class Award:
    """The QPs a player earned at one event, by their final standing."""

    entry: Entry
    event_name: str
    rank: int
    qp: int


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One player's line of the season table: their QPs, event by event. `confirmed`:
    the keeper settled who this is; an unconfirmed entry counts on a line of its own."""

    identity: str
    name: str
    qp: int
    confirmed: bool
    awards: tuple[Award, ...]

    @property
    def qualified(self) -> bool:
        return qualifies(self.qp)


def awards_of(entries_by_rank: Sequence[tuple[int, Entry]], event_name: str) -> list[Award]:
    """An IGQ's QPs, by each player's final standing."""
    return [
        Award(entry, event_name, rank, qp_2019(rank))
        for rank, entry in entries_by_rank
        if qp_2019(rank) > 0
    ]


def identity_of(entry: Entry, identities: Mapping[str, str]) -> tuple[str, bool]:
    """Who the entry is: the keeper's identity, or the entry alone (unconfirmed)."""
    found = identities.get(entry.ref)
    return (found, True) if found is not None else (f"entry:{entry.ref}", False)


def season_table(awards: Iterable[Award], identities: Mapping[str, str]) -> list[SeasonRow]:
    """Each player's QPs summed over the season, most first; players matched only by the
    identities the keeper confirmed, never by name."""
    grouped: dict[str, list[Award]] = {}
    confirmed: dict[str, bool] = {}
    for award in awards:
        identity, known = identity_of(award.entry, identities)
        grouped.setdefault(identity, []).append(award)
        confirmed[identity] = known
    rows = [
        SeasonRow(
            identity=identity,
            name=found[0].entry.name,
            qp=sum(a.qp for a in found),
            confirmed=confirmed[identity],
            awards=tuple(found),
        )
        for identity, found in grouped.items()
    ]
    return sorted(rows, key=lambda r: (-r.qp, name_key(r.name), r.identity))


def proposals(entries: Iterable[Entry], identities: Mapping[str, str]) -> list[list[Entry]]:
    """The same name in several events, not settled by the keeper yet: each group is a
    match to confirm (one person) or split (different people)."""
    by_name: dict[str, list[Entry]] = {}
    for entry in entries:
        by_name.setdefault(name_key(entry.name), []).append(entry)
    found = [
        group
        for group in by_name.values()
        if len(group) > 1 and any(e.ref not in identities for e in group)
    ]
    return sorted(found, key=lambda g: name_key(g[0].name))


def distinct_players(entries: Iterable[Entry], identities: Mapping[str, str]) -> int:
    """How many different people the entries are: one per confirmed identity, and each
    entry the keeper has not matched as a person of its own."""
    return len({identity_of(e, identities)[0] for e in entries})


def pending_problem(pending: int) -> str | None:
    """Matches by name the keeper has not settled: a final waits for them."""
    if not pending:
        return None
    return (
        f"{pending} {'name appears' if pending == 1 else 'names appear'} in more than one "
        "event: confirm or split each match first, so that every player counts once"
    )


def qualifier_field_problem(distinct: int, pending: int) -> str | None:
    """Why a Masters final may not be seeded from its qualifiers yet (None: it may)."""
    if pending:
        return pending_problem(pending)
    if distinct < MASTERS_QUALIFIER_MINIMUM:
        return (
            "a Masters tournament populated through qualifiers needs at least "
            f"{MASTERS_QUALIFIER_MINIMUM} distinct players in the qualifiers; "
            f"these qualifiers had {distinct}"
        )
    return None


def parse_qp_list(text: str) -> list[tuple[str, int]]:
    """A pasted list of players and their QPs, one "name,QPs" a line (a header line
    naming them may come first), most QPs first."""
    if len(text) > 100_000:
        raise BadInput("the QP list is too long (100 kB at most)")
    found: list[tuple[str, int]] = []
    seen: set[str] = set()
    for number, row in enumerate(csv.reader(io.StringIO(text.lstrip("\ufeff"))), start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if number == 1 and len(cells) >= 2 and not cells[1].isdigit():
            continue  # the header
        if len(cells) != 2 or not cells[0] or not cells[1].isdigit():
            raise BadInput(f"line {number} of the QP list should read: name, QPs")
        name, qp = " ".join(cells[0].split()), int(cells[1])
        if name_key(name) in seen:
            raise BadInput(f"{name} is twice in the QP list")
        seen.add(name_key(name))
        found.append((name, qp))
    if not found:
        raise BadInput("the QP list has no players")
    return sorted(found, key=lambda p: (-p[1], name_key(p[0])))
