"""The door to the tournament policies of formats whose events run by rules of their
own (named by each format's ruleset, see app.domain.games): the event service asks here,
never for a game by name."""

from __future__ import annotations

from app.events.runewars.tournament import RunewarsTournament

#: The policy an event service runs such an event by.
Policy = RunewarsTournament

#: Each policy by the name a ruleset gives it.
POLICIES: dict[str, type[Policy]] = {RunewarsTournament.name: RunewarsTournament}
