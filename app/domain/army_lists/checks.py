"""What a player's army lists must be, checked when the lists are submitted: the
baseline (SR2019 and M&C "Army Lists") and what the event adds to it (SR2019 "Army List
Variants" and "Painting Variants", Champions' Active Duty Roster)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.army_lists.grammar import ArmyList, Entry, key
from app.domain.army_lists.reading import read_list
from app.domain.army_lists.roster import Roster, check_roster
from app.domain.errors import BadInput

#: An army list point total cannot be more than this under the event's point size.
POINTS_UNDER = 4


def _where(number: int, army: ArmyList, entry: Entry | None = None) -> str:
    place = f"list {number} ({army.text})"
    return place if entry is None else f"{place}, line {entry.line} '{entry.text}'"


def check_armies(
    armies: Sequence[ArmyList],
    event_points: int,
    *,
    different_themes: bool,
    points_under: int = POINTS_UNDER,
) -> None:
    """The baseline: a point total over the event size or more than `points_under` under
    it (SR2019 and M&C 4, IG2014 2); two lists led by the same warcaster, warlock or
    infernal master; (Champions) two lists written with the same theme force."""
    low = max(0, event_points - points_under)
    for army in armies:
        if army.points is not None and not low <= army.points <= event_points:
            raise BadInput(
                f"{army.text}: {army.points} points; a list at this {event_points}-point "
                f"event totals {low} to {event_points} points (Army Lists: at most "
                f"{points_under} under the event size)"
            )
    leaders: dict[str, str] = {}
    for army in armies:
        first = leaders.get(key(army.leader))
        if first is not None:
            raise BadInput(
                f"two lists are led by {first}: each list is led by a different "
                "warcaster, warlock or infernal master"
            )
        leaders[key(army.leader)] = army.leader
    if different_themes:
        themes = [key(army.theme) for army in armies if army.theme]
        if len(set(themes)) < len(themes):
            raise BadInput(
                "each list uses a different theme force (written after ' / ', e.g. "
                "'Butcher 3 / Jaws of the Wolf')"
            )


def check_lists(lists: Sequence[str], event_points: int, *, different_themes: bool) -> None:
    """The baseline checks of lists as written (see `check_armies`)."""
    check_armies([read_list(t) for t in lists], event_points, different_themes=different_themes)


def check_battlegroup_only(armies: Sequence[ArmyList]) -> None:
    """Battlegroup Only: only battlegroup models and independent warjacks, warbeasts or
    horrors, in the main list and among the specialists."""
    for number, army in enumerate(armies, 1):
        for entry in (*army.models, *army.specialists):
            if not entry.battlegroup and not entry.independent:
                raise BadInput(
                    f"{_where(number, army, entry)}: Battlegroup Only — a list has only "
                    "battlegroup models (lines starting with '-') and independent "
                    "warjacks, warbeasts or horrors (marked [jack], [beast] or [horror])"
                )


def check_characters(armies: Sequence[ArmyList], rule: str = "Character Restrictions") -> None:
    """Character Restrictions (SR2019 variant; IG2014 "Army Lists", field allowance C):
    the same version of a character (FA C) is in one list only; its other versions
    ("Eiryss 1", "Eiryss 2") are other characters."""
    seen: dict[str, int] = {}
    for number, army in enumerate(armies, 1):
        for entry in (*army.models, *army.specialists):
            if not entry.character:
                continue
            first = seen.setdefault(key(entry.name), number)
            if first != number:
                raise BadInput(
                    f"{_where(number, army, entry)}: {rule} — "
                    f"{entry.name} (FA C) is already in list {first}: the same version of "
                    "a character is in one list only"
                )


def check_specialists(armies: Sequence[ArmyList], allowance: int | None, points: int) -> None:
    """Specialists: only with the variant; each with its point cost, none a card of the
    main list, and no more points than the allowance for the event's size."""
    for number, army in enumerate(armies, 1):
        if not army.has_specialists:
            continue
        if allowance is None:
            raise BadInput(
                f"{_where(number, army)}: this event does not use the Specialists "
                "variant: no 'Specialists:' section"
            )
        cards = {key(e.name) for e in army.models} | {key(army.leader)}
        total = 0
        for entry in army.specialists:
            if entry.points is None:
                raise BadInput(
                    f"{_where(number, army, entry)}: each specialist needs its point cost "
                    "at the end of its line, e.g. 'Widowmaker Marksman (4)'"
                )
            if key(entry.name) in cards:
                raise BadInput(
                    f"{_where(number, army, entry)}: {entry.name} is in the main list: a "
                    "specialist has a stat card of its own, not one the main list has"
                )
            total += entry.points
        if total > allowance:
            raise BadInput(
                f"{_where(number, army)}: specialists total {total} points; a "
                f"{points}-point event allows {allowance} (Specialists)"
            )


def table_row(table: Sequence[tuple[int, int]], points: int) -> int:
    """A point-size table's value for `points`: the row at or below it (none: 0)."""
    rows = [value for size, value in table if size <= points]
    return rows[-1] if rows else 0


@dataclass(frozen=True, slots=True)
class ListChecks:
    """What an event adds to the baseline list rules: its army list and painting
    variants, and (Champions) its Active Duty Roster; or what a format's own document
    asks of every list (IG2014: field allowance C across lists, specialists, painting)."""

    battlegroup_only: bool = False
    character_restrictions: bool = False
    #: Specialists: the army points each list may add (None: no Specialists variant).
    specialist_points: int | None = None
    #: Painting Required: (the standard's name, its words); None: painting not required.
    painting: tuple[str, str] | None = None
    #: The event's lists are checked against an Active Duty Roster (Champions) ...
    roster_offered: bool = False
    #: ... this one (None: the EO entered none, nothing is checked).
    roster: Roster | None = None
    #: The rule's name in refusals: "Character Restrictions" (SR2019's variant) or the
    #: format's own section.
    character_rule: str = "Character Restrictions"
    #: Specialists allowed by the format's document, by point size ((size, points) rows,
    #: the row at or below the event's size); () : only as the variant allows.
    specialist_table: tuple[tuple[int, int], ...] = ()

    def allowance(self, points: int) -> int | None:
        """The specialist points a list may add at `points` (None: no specialists)."""
        if self.specialist_points is not None:
            return self.specialist_points
        return table_row(self.specialist_table, points) if self.specialist_table else None

    def joined(self, event: ListChecks) -> ListChecks:
        """These (a format's own) list rules with what the `event` chose."""
        return ListChecks(
            battlegroup_only=self.battlegroup_only or event.battlegroup_only,
            character_restrictions=self.character_restrictions or event.character_restrictions,
            specialist_points=(
                event.specialist_points
                if event.specialist_points is not None
                else self.specialist_points
            ),
            painting=event.painting or self.painting,
            roster_offered=self.roster_offered or event.roster_offered,
            roster=event.roster or self.roster,
            character_rule=(
                self.character_rule if self.character_restrictions else event.character_rule
            ),
            specialist_table=self.specialist_table or event.specialist_table,
        )

    def check(self, armies: Sequence[ArmyList], points: int, painted: bool) -> None:
        if self.painting is not None and armies and not painted:
            name, words = self.painting
            raise BadInput(
                f"this event has {name}: {words} Confirm that your army meets it "
                "(painted) to submit your lists"
            )
        if self.battlegroup_only:
            check_battlegroup_only(armies)
        if self.character_restrictions:
            check_characters(armies, self.character_rule)
        check_specialists(armies, self.allowance(points), points)
        if self.roster is not None:
            check_roster(armies, self.roster)

    def words(self, points: int) -> list[str]:
        """What is checked beyond the baseline, in the players' words."""
        out: list[str] = []
        if self.battlegroup_only:
            out.append(
                "Battlegroup Only: battlegroup models and independent warjacks, "
                "warbeasts or horrors only"
            )
        if self.character_restrictions:
            out.append(f"{self.character_rule}: a character (FA C) is in one list only")
        allowance = self.allowance(points)
        if allowance is not None:
            out.append(
                f"Specialists: up to {allowance} points a list at "
                f"{points} points, each with its cost, none a card of the main list"
            )
        if self.painting is not None:
            out.append(f"{self.painting[0]}: {self.painting[1]}")
        if self.roster_offered and self.roster is None:
            out.append(
                "Active Duty Roster: not entered for this event, so leaders and theme "
                "forces are not checked against it"
            )
        elif self.roster is not None:
            kinds = (("leaders", self.roster.leaders), ("theme forces", self.roster.themes))
            parts = [part for part, names in kinds if names]
            out.append(
                "Active Duty Roster: each list's " + " and ".join(parts) + " on this "
                "event's roster (the battlegroup box casters always are)"
            )
        return out


#: An event with no list variants and no roster.
NO_CHECKS = ListChecks()
