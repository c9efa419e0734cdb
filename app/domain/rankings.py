"""ST2: the final standings variants an EO chooses when creating the event.

Each variant is data: the order of its keys (each highest first) and, for Finals
Tables, the places the last round's first tables decide and the order of everyone
after them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from app.domain.errors import BadInput
from app.domain.frozen import replace
from app.domain.pairing import (
    Memory,
    PairedRound,
    Pairing,
    fresh,
    pair_with_notes,
    pairing_of,
)
from app.domain.standings import (
    SR2019_TP,
    ST1_KEYS,
    Outcome,
    PlayerRecord,
    Standing,
    rank_rows,
    standings,
)

#: The words a key is shown with.
KEY_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "tp": "TP",
        "sos": "SoS",
        "control_points": "CP",
        "army_points_destroyed": "APD",
        "assassinations": "assassination wins",
    }
)


@dataclass(frozen=True, slots=True)
class Ranking:
    id: str
    name: str
    keys: tuple[str, ...]
    #: Finals Tables: the last round pairs the top players on the first tables; their
    #: winners and losers take these places in order (table 1's winner, its loser,
    #: table 2's winner, ...), and everyone else is ranked after them by `rest_keys`.
    finals_places: int = 0
    rest_keys: tuple[str, ...] = ()
    #: The baseline ranks by the event's own ruleset (ST1 for Steamroller).
    ruleset_order: bool = False

    def under(self, order: Sequence[str]) -> Ranking:
        """This variant in an event whose ruleset ranks by `order` (ST1, ST4)."""
        return replace(self, keys=tuple(order)) if self.ruleset_order else self

    @property
    def finals_tables(self) -> int:
        return (self.finals_places + 1) // 2

    @property
    def order_words(self) -> str:
        words = ", ".join(KEY_WORDS[k] for k in self.keys)
        if not self.finals_places:
            return words
        rest = ", ".join(KEY_WORDS[k] for k in self.rest_keys)
        return (
            f"finals tables decide places 1–{self.finals_places}; the rest by {rest} "
            f"(before the finals: {words})"
        )


BASELINE = Ranking("baseline", "Baseline", ST1_KEYS, ruleset_order=True)
RANKINGS: Mapping[str, Ranking] = MappingProxyType(
    {
        r.id: r
        for r in (
            BASELINE,
            Ranking(
                "assassin", "Assassin Scoring", ("tp", "assassinations", "control_points", "sos")
            ),
            Ranking(
                "control",
                "Control Point Scoring",
                ("tp", "control_points", "army_points_destroyed", "sos"),
            ),
            Ranking(
                "destruction",
                "Destruction Scoring",
                ("army_points_destroyed", "control_points", "sos"),
            ),
            Ranking(
                "finals",
                "Finals Tables",
                ST1_KEYS,
                finals_places=3,
                rest_keys=("sos", "control_points"),
            ),
        )
    }
)


def get_ranking(ranking_id: str) -> Ranking:
    try:
        return RANKINGS[ranking_id]
    except KeyError:
        choices = ", ".join(f"{r.id} ({r.name})" for r in RANKINGS.values())
        raise BadInput(f"unknown standings variant {ranking_id!r} (choose {choices})") from None


@dataclass(frozen=True, slots=True)
class Finals:
    """The last round's finals tables: (P1, P2) of table 1, table 2, ..."""

    round: int
    tables: tuple[tuple[str, str], ...]


def _game(player: PlayerRecord, round_number: int, opponent: str) -> Outcome | None:
    for record in player.rounds:
        if record.round == round_number and record.opponent_id == opponent:
            return record.outcome
    return None


def finals_placings(players: Sequence[PlayerRecord], finals: Finals, places: int) -> list[str]:
    """The players the finals tables place, in order; none until every finals table
    has a winner."""
    everyone = {p.id: p for p in players}
    placed: list[str] = []
    for a, b in finals.tables:
        if a not in everyone or b not in everyone:
            return []
        outcome = _game(everyone[a], finals.round, b)
        if outcome is Outcome.WIN:
            placed += [a, b]
        elif outcome is Outcome.LOSS:
            placed += [b, a]
        else:
            return []
    return placed[:places]


@dataclass(frozen=True, slots=True)
class Cut:
    """RP1 Cut to Top [X], made: the first round only the kept players played, and who."""

    round: int
    kept: frozenset[str]


def after_cut(
    rows: Sequence[Standing],
    players: Sequence[PlayerRecord],
    cut: Cut,
    keys: tuple[str, ...],
    tp: Mapping[str, int] = SR2019_TP,
) -> list[Standing]:
    """RP1: "only the standings of the top X players can change": the kept players by
    their standings now, then everyone else as they stood when the cut was made (their
    SoS no longer moves with their opponents' later games)."""
    then = [replace(p, rounds=tuple(r for r in p.rounds if r.round < cut.round)) for p in players]
    top = [row for row in rows if row.player_id in cut.kept]
    rest = [row for row in standings(then, tp, keys) if row.player_id not in cut.kept]
    return rank_rows(top, keys) + rank_rows(rest, keys, first=len(top) + 1)


def ranked(
    players: Sequence[PlayerRecord],
    ranking: Ranking = BASELINE,
    tp: Mapping[str, int] = SR2019_TP,
    finals: Finals | None = None,
    cut: Cut | None = None,
) -> list[Standing]:
    """ST1/ST2: the standings by the event's variant. Finals Tables: once the finals
    are played, their places come first and the rest follow by `rest_keys`. After a
    Cut to Top (RP1), only the kept players' standings move (`after_cut`), the finals'
    `rest_keys` included."""
    rows = standings(players, tp, ranking.keys)
    if cut is not None:
        rows = after_cut(rows, players, cut, ranking.keys, tp)
    placed = finals_placings(players, finals, ranking.finals_places) if finals else []
    if not placed:
        return rows
    by_player = {row.player_id: row for row in rows}
    top = [replace(by_player[pid], rank=n) for n, pid in enumerate(placed, start=1)]
    rest = [row for row in rows if row.player_id not in placed]
    if cut is None:
        return top + rank_rows(rest, ranking.rest_keys, first=len(top) + 1)
    # After a cut, "beyond third place" moves only among the kept players: the players
    # the cut left out keep their places as they stood when it was made (RP1).
    kept = [row for row in rest if row.player_id in cut.kept]
    left_out = [row for row in rest if row.player_id not in cut.kept]
    return top + rank_rows(kept, ranking.rest_keys, first=len(top) + 1) + left_out


#: What each finals table decides, in the document's words (steamroller-2019.txt).
_FINALS_STAKES = (
    "its winner wins the event, the other player takes second place",
    "its winner takes third place",
)


def pair_finals(
    players: Sequence[PlayerRecord],
    round_number: int,
    rng: random.Random,
    ranking: Ranking,
    *,
    tp: Mapping[str, int] = SR2019_TP,
    memory: Memory | None = None,
) -> PairedRound:
    """ST2 Finals Tables, the final round: #1 v #2 on table 1, #3 v #4 on table 2 (by
    the current standings); everyone else is paired as usual on the tables after (with
    the event's fresh tables, from the table after the finals tables). The notes say
    who plays for what, and why the rest sit where they do."""
    memory = memory or Memory()
    active = [p for p in players if not p.dropped]
    finalists = 2 * ranking.finals_tables
    if len(active) < finalists:
        paired = pair_with_notes(players, round_number, rng, tp=tp, memory=memory)
        note = (
            f"Finals Tables: {len(active)} players left, fewer than the {finalists} the "
            "finals tables need: the last round is paired as any other"
        )
        return PairedRound(paired.pairings, [note, *paired.notes])
    names = {p.id: p.name for p in active}
    order = [s.player_id for s in standings(players, tp, ranking.keys) if not s.out]
    tables = [
        pairing_of(n + 1, order[2 * n], order[2 * n + 1], players, tp=tp)
        for n in range(ranking.finals_tables)
    ]
    notes = [
        f"Finals table {n + 1}: {names[order[2 * n]]} (#{2 * n + 1}) v "
        f"{names[order[2 * n + 1]]} (#{2 * n + 2}); {_FINALS_STAKES[min(n, 1)]}"
        for n in range(ranking.finals_tables)
    ]
    rest = [p for p in active if p.id not in order[:finalists]]
    if len(rest) == 1:
        notes.append(f"{rest[0].name} has the bye: the one player off the finals tables")
        return PairedRound([*tables, Pairing(0, rest[0].id, None)], notes)
    if not rest:
        return PairedRound(tables, notes)
    others = pair_with_notes(rest, round_number, rng, tp=tp, memory=replace(memory, sat=None))
    notes += others.notes
    after = ranking.finals_tables
    shifted = [o if o.is_bye else replace(o, table=o.table + after) for o in others.pairings]
    if memory.sat is not None:
        shifted = fresh(shifted, memory.sat, names, notes, first=after + 1)
    return PairedRound(tables + shifted, notes)
