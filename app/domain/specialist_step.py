"""The specialist step at the table (SR2019 "Specialists", IG2014 "Specialists"):
"After list selection is complete, both players simultaneously reveal the card(s) of
models to be removed from and added to each player's selected list for the game.
Specialist substitutions cannot result in an illegal army list." A player's choice is
checked by the event's list rules (`ListRule.substitution`)."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.pregame import Swap
from app.domain.state import Game
from app.domain.variants import list_checks


def check(game: Game, cmd: c.ChooseSpecialists, text: str) -> Swap:
    """The substitution on the chosen list (`text`, whole), refused in the list's words
    (its line and the rule) where it would make the list illegal."""
    setup = game.setup
    rule = setup.format.list_rules[0]
    checks = list_checks(setup.variants, setup.army_points)
    done = rule.substitution(text, cmd.removed, cmd.added, setup.army_points, checks)
    return Swap(tuple(e.text for e in done.removed), tuple(e.text for e in done.added))
