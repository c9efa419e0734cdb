"""The army lists an event asks each player for: its `lists` setting, how many lists
that is, and what a player's lists must be to stand (counts, points, theme forces and
the Active Duty Roster)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.domain.army_lists.checks import NO_CHECKS, POINTS_UNDER, ListChecks, check_armies
from app.domain.army_lists.grammar import ArmyList
from app.domain.army_lists.reading import read_list
from app.domain.army_lists.roster import read_roster
from app.domain.army_lists.specialists import Substitution, check_substitution
from app.domain.errors import BadInput
from app.domain.frozen import replace

#: How a player's army lists are written down: one per line, or separated by ";" (or,
#: lists of several lines, by blank lines: `app.domain.army_lists.grammar`).
LIST_SEPARATORS = ("\n", ";")


@dataclass(frozen=True, slots=True)
class ListRule:
    """One choice the EO has at event creation: the event's `lists` setting and how
    many army lists that asks of every player (`fewest` to `most`)."""

    lists: int
    fewest: int
    most: int
    name: str
    #: Each list must be played at least once over the event (IG2014).
    each_played: bool = False
    #: Each list uses a different theme force (Champions).
    different_themes: bool = False
    #: The lists are built from the event's Active Duty Roster, on which these leaders
    #: always are (Champions); None: no roster.
    roster_always: tuple[str, ...] | None = None
    #: "Army Lists": a list's point total is at most this far under the event size.
    points_under: int = POINTS_UNDER
    #: What the format's document asks of every list, whatever the event's variants
    #: (IG2014: field allowance C across lists, specialists by size, fully painted).
    rules: ListChecks = NO_CHECKS
    #: Free models a theme force grants (cost 0) cannot be substituted (IG2014).
    free_models_stay: bool = False
    #: The painting standard the document requires of every army, declared by the
    #: player with the lists (IG2014 "Modeling and Painting"); None: none. Asked for
    #: where the event's checks are made `with_painting`.
    painting: tuple[str, str] | None = None

    def check(self, count: int) -> None:
        """A player's lists; none written down yet (0) is not refused, only a wrong count."""
        if count == 0 or self.fewest <= count <= self.most:
            return
        wanted = f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} or {self.most}"
        raise BadInput(
            f"{count} army list{'s' if count != 1 else ''} given, but this event "
            f"({self.name}) asks each player for {wanted} "
            "(one list per line or separated by ';', or whole lists with a blank line "
            "between them)"
        )

    def check_lists(
        self,
        lists: Sequence[str],
        event_points: int,
        note: str = "",
        *,
        checks: ListChecks = NO_CHECKS,
        painted: bool = False,
    ) -> None:
        """A player's lists as submitted (each whole): their count, then (unless the EO
        let them stand with a `note`) their point totals, leaders and theme forces, and
        what the event's `checks` add (variants, painting, roster)."""
        self.check(len(lists))
        if note.strip():
            return
        armies = self.read(lists)
        check_armies(
            armies,
            event_points,
            different_themes=self.different_themes,
            points_under=self.points_under,
        )
        self.rules.joined(checks).check(armies, event_points, painted)

    def read(self, lists: Sequence[str]) -> list[ArmyList]:
        """A player's lists (each whole) read; one that cannot be read is refused with
        its number and line."""
        return [read_list(text, number) for number, text in enumerate(lists, 1)]

    def substitution(
        self,
        text: str,
        removals: Sequence[str],
        additions: Sequence[str],
        event_points: int,
        checks: ListChecks = NO_CHECKS,
    ) -> Substitution:
        """The chosen list (`text`, whole) as played after the player's specialist
        substitution, checked legal (IG2014 and SR2019 "Specialists")."""
        joined = self.rules.joined(checks)
        return check_substitution(
            read_list(text),
            removals,
            additions,
            event_points,
            points_under=self.points_under,
            free_models_stay=self.free_models_stay,
            battlegroup_only=joined.battlegroup_only,
        )

    def with_painting(self, checks: ListChecks) -> ListChecks:
        """The event's checks with the document's painting standard as a declaration
        the player makes with the lists (the event's own Painting variant stands)."""
        if self.painting is None or checks.painting is not None:
            return checks
        return replace(checks, painting=self.painting)

    def with_roster(self, checks: ListChecks, roster_text: str) -> ListChecks:
        """The event's checks with the format's own list rules and its Active Duty
        Roster, where the lists use one."""
        checks = self.rules.joined(checks)
        if self.roster_always is None:
            if roster_text.strip():
                raise BadInput(
                    "only Champions lists use an Active Duty Roster: leave it empty for this event"
                )
            return checks
        roster = read_roster(roster_text, self.roster_always)
        return replace(checks, roster_offered=True, roster=roster)

    def choices(self, lists: Sequence[str], played: Collection[str], rounds_left: int) -> list[str]:
        """The lists a player may choose for a game. When each list must be played, once
        the rounds left (this one included) are no more than the lists not yet played,
        only those may be chosen."""
        unplayed = [name for name in lists if name not in played]
        if self.each_played and unplayed and rounds_left <= len(unplayed):
            return unplayed
        return list(lists)


ONE_LIST = ListRule(1, 1, 1, "1 list")
