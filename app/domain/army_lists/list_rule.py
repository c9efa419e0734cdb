"""The army lists an event asks each player for: its `lists` setting, how many lists
that is, and what a player's lists must be to stand (counts, points, theme forces and
the Active Duty Roster)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.domain.army_lists.checks import NO_CHECKS, ListChecks, check_armies
from app.domain.army_lists.grammar import read_list
from app.domain.army_lists.roster import read_roster
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
        armies = [read_list(text) for text in lists]
        check_armies(armies, event_points, different_themes=self.different_themes)
        checks.check(armies, event_points, painted)

    def with_roster(self, checks: ListChecks, roster_text: str) -> ListChecks:
        """The event's checks with its Active Duty Roster, where the lists use one."""
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
