"""Formats an event is run under: data plus a few rule hooks.

A format says how long the player clocks are, which scenarios it plays, when
scoring and the kill box start, when the game ends and what wins it. The game
engine asks the format; it never names a format itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.prizes import CHAMPIONS_PRIZES, MASTERS_PRIZES, SR2019_PRIZES, Prize
from app.domain.scenarios import SR2019_SCENARIOS, Scenario

#: DC1: Steamroller 2019 player clock (minutes) by event point size.
SR2019_PLAYER_CLOCK: Mapping[int, int] = MappingProxyType(
    {0: 20, 25: 30, 50: 42, 75: 60, 100: 75, 150: 120, 200: 150}
)

MINUTE_MS = 60_000


@dataclass(frozen=True, slots=True)
class TurnMark:
    """A player's turn: (turn number, side). Ordered as played."""

    turn: int
    side: Side

    @property
    def order(self) -> int:
        return self.turn * 2 + int(self.side)

    def reached_by(self, turn: int, side: Side) -> bool:
        return turn * 2 + int(side) >= self.order


#: How a player's army lists are written down: one per line, or separated by ";".
LIST_SEPARATORS = ("\n", ";")


def split_lists(text: str) -> list[str]:
    """The army lists in a player's entry (blank entries are not lists)."""
    for separator in LIST_SEPARATORS[1:]:
        text = text.replace(separator, LIST_SEPARATORS[0])
    return [part.strip() for part in text.split(LIST_SEPARATORS[0]) if part.strip()]


@dataclass(frozen=True, slots=True)
class ListRule:
    """One choice the EO has at event creation: the event's `lists` setting and how
    many army lists that asks of every player (`fewest` to `most`)."""

    lists: int
    fewest: int
    most: int
    name: str

    def check(self, count: int) -> None:
        """A player's lists; none written down yet (0) is not refused, only a wrong count."""
        if count == 0 or self.fewest <= count <= self.most:
            return
        wanted = f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} or {self.most}"
        raise BadInput(
            f"{count} army list{'s' if count != 1 else ''} given, but this event "
            f"({self.name}) asks each player for {wanted} "
            "(one list per line or separated by ';')"
        )


_ONE = ListRule(1, 1, 1, "1 list")


@dataclass(frozen=True, slots=True)
class Format:
    id: str
    name: str
    player_clock_minutes: Mapping[int, int]
    default_points: int
    scenarios: tuple[Scenario, ...]
    victory_lead: int = 5
    kill_box_from: TurnMark = TurnMark(2, Side.P1)
    kill_box_cp: int = 2
    scoring_from: TurnMark = TurnMark(2, Side.P2)
    last_turn: TurnMark = TurnMark(7, Side.P2)
    concession_min_cp: int = 3
    #: DC7: a player whose clock runs out in their own turn may still win by scenario
    #: (SR2019, Masters, Champions); IG2014 has no such exception.
    clock_out_claim: bool = True
    tp: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({"win": 1, "loss": 0, "tie": 0})
    )
    #: The army-list choices the EO has for an event, and the one taken when the EO
    #: names none (None: the EO must choose, e.g. Masters' Dyad or Trinity).
    list_rules: tuple[ListRule, ...] = (_ONE,)
    default_lists: int | None = 1
    #: ST3: the prizes an event of this format gives.
    prizes: tuple[Prize, ...] = SR2019_PRIZES

    def list_rule(self, lists: int | None) -> ListRule:
        """The army lists each player brings for the event's `lists` setting."""
        if lists is None:
            lists = self.default_lists
        for rule in self.list_rules:
            if rule.lists == lists:
                return rule
        choices = " or ".join(f"{r.name} (lists={r.lists})" for r in self.list_rules)
        if lists is None:
            raise BadInput(f"{self.name} needs the army lists chosen: {choices}")
        raise BadInput(f"{self.name} does not run with lists={lists}: choose {choices}")

    def player_clock_ms(self, points: int) -> int:
        minutes = self.player_clock_minutes.get(points)
        if minutes is None:
            sizes = ", ".join(str(p) for p in sorted(self.player_clock_minutes))
            raise BadInput(f"{self.name} has no clock for {points} points (choose {sizes})")
        return minutes * MINUTE_MS

    def scenario(self, scenario_id: str) -> Scenario:
        for scenario in self.scenarios:
            if scenario.id == scenario_id:
                return scenario
        names = ", ".join(s.id for s in self.scenarios)
        raise BadInput(f"unknown scenario {scenario_id!r} for {self.name} (choose {names})")

    def scenario_winner(self, cp: tuple[int, int]) -> Side | None:
        """TS4: the first player to lead by `victory_lead` CP wins at once."""
        if cp[0] - cp[1] >= self.victory_lead:
            return Side.P1
        if cp[1] - cp[0] >= self.victory_lead:
            return Side.P2
        return None

    def concession_apd(self, opponent_army_points: int) -> int:
        """TS8: half the opponent's starting army value, rounded up."""
        return math.ceil(opponent_army_points / 2)


SR2019 = Format(
    id="sr2019",
    name="Steamroller 2019",
    player_clock_minutes=SR2019_PLAYER_CLOCK,
    default_points=75,
    scenarios=SR2019_SCENARIOS,
    # As many lists as the EO sets for the event.
    list_rules=(_ONE, ListRule(2, 2, 2, "2 lists"), ListRule(3, 3, 3, "3 lists")),
)

#: Masters and Champions 2019: 75-point games, 60 minutes each (DC1).
MASTERS2019 = Format(
    id="masters2019",
    name="Masters 2019",
    player_clock_minutes=MappingProxyType({75: 60}),
    default_points=75,
    scenarios=SR2019_SCENARIOS,
    # A Dyad requires two army lists, a Trinity three; the EO advertises which.
    list_rules=(
        ListRule(2, 2, 2, "Masters Dyad, 2 lists"),
        ListRule(3, 3, 3, "Masters Trinity, 3 lists"),
    ),
    default_lists=None,
    prizes=MASTERS_PRIZES,
)
CHAMPIONS2019 = Format(
    id="champions2019",
    name="Champions 2019",
    player_clock_minutes=MappingProxyType({75: 60}),
    default_points=75,
    scenarios=SR2019_SCENARIOS,
    # One army list, a second optional.
    list_rules=(ListRule(2, 1, 2, "Champions, 1 list, a 2nd optional"),),
    default_lists=2,
    prizes=CHAMPIONS_PRIZES,
)

FORMATS: Mapping[str, Format] = MappingProxyType(
    {f.id: f for f in (SR2019, MASTERS2019, CHAMPIONS2019)}
)


def get_format(format_id: str) -> Format:
    try:
        return FORMATS[format_id]
    except KeyError:
        raise BadInput(f"unknown format {format_id!r} (choose {', '.join(FORMATS)})") from None
