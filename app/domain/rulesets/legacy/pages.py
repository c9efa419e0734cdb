"""The sixteen legacy scenarios (shared/seeds/legacy-scenarios.txt), page by page:
what is on the table, when it starts to count, and what wins. Every one of them is
also won when a player is the only one with a warcaster/warlock in play (TS6); none
has a kill box or a turn limit.
"""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.rulesets.legacy.kinds import (
    SECOND_PLAYERS_THIRD_TURN,
    SECOND_ROUND,
    THIRD_ROUND,
    assassination_only,
    scored_in_cp,
    won_by_control,
)
from app.domain.rulesets.legacy.places import (
    SCATTERED_DEPLOYMENT,
    capture_flag,
    centre_zone,
    coal_mine,
    command_zone,
    fine_line,
    gauntlet_section,
    line_section,
    no_mans_land,
    territory,
    transverse_point,
)
from app.domain.rulesets.legacy.rules import (
    by_round,
    controls,
    ends_turn_holding,
    ends_turn_in_control,
    flag,
    zone,
)
from app.domain.scenarios import Element, Scenario
from app.domain.state import Game

P1, P2 = Side.P1, Side.P2


def _zones() -> tuple[Element, ...]:
    """Command Positions, Unlikely Alliance: two points on the centerline, 12" from the
    left and right edges; the areas within 5" are the Zones."""
    return (
        zone(
            "zone-left",
            'Left Zone (within 5" of the point 12" from the left edge)',
            command_zone(12),
        ),
        zone(
            "zone-right",
            'Right Zone (within 5" of the point 12" from the right edge)',
            command_zone(36),
        ),
    )


CENTRE_ZONE = "centre-zone"
LINE = "line"
NO_MANS_LAND = "no-mans-land"
NORTH, EAST, SOUTH, WEST, CENTRE = (
    "point-north",
    "point-east",
    "point-south",
    "point-west",
    "point-centre",
)
TERRITORIES = tuple(f"territory-{n}" for n in range(1, 5))
MINES = ("mine-1", "mine-2")


#: The sixteen, numbered as the document numbers them.
SCENARIOS: tuple[Scenario[Game], ...] = (
    assassination_only(
        1,
        "bodyguard",
        "Bodyguard",
        "Each warcaster/warlock may have one warjack/warbeast as its Bodyguard.",
        "While in its caster's command range, when an enemy ends its normal movement within "
        '6" of the caster, the Bodyguard may move up to its SPD and make one melee attack '
        "(+2 to hit, boosted damage); then not again until after its controller's next turn.",
    ),
    scored_in_cp(
        2,
        "capture-the-flag",
        "Capture the Flag",
        (
            flag(
                "flag-p1",
                "The first player's Flag (14\" from their edge)",
                capture_flag(14),
                owner=P1,
            ),
            flag(
                "flag-p2",
                "The second player's Flag (14\" from their edge)",
                capture_flag(48 - 14),
                owner=P2,
            ),
        ),
        start=SECOND_PLAYERS_THIRD_TURN,
        wins_at=2,
        own_turn=False,
        rules=(
            "From the second player's turn 3 "
            "a player scores 1 CP when he controls his opponent's Flag "
            '(base contact, no enemy model within 3").',
            'No model ends its activation on a Flag; no model is placed within 3" of one.',
        ),
    ),
    scored_in_cp(
        3,
        "command-positions",
        "Command Positions",
        _zones(),
        start=SECOND_PLAYERS_THIRD_TURN,
        wins_at=3,
        own_turn=True,
        rules=(
            "From the second player's turn 3 "
            "a player scores 1 CP for each Zone he controls at the end "
            "of his turn.",
            "A Commander within a Zone gains Tactical Repositioning (★Action).",
        ),
    ),
    assassination_only(
        4,
        "daybreak",
        "Daybreak",
        'Line of sight: round 1 6", round 2 8", round 3 10", round 4 12", round 5 on normal.',
        round_notes=by_round('6" LOS', '8" LOS', '10" LOS', '12" LOS', "normal LOS"),
    ),
    won_by_control(
        5,
        "engines-of-destruction",
        "Engines of Destruction",
        (
            zone(
                CENTRE_ZONE,
                'Center Zone (warjacks/warbeasts completely within 8" of the Center Point)',
                centre_zone(8),
            ),
        ),
        start=THIRD_ROUND,
        victory=ends_turn_in_control(CENTRE_ZONE),
        words="A player wins when he ends his turn in control of the Center Zone",
        rules=(
            "From round 3 the Center Zone is controlled by warjacks/warbeasts only.",
            "A warjack/warbeast gains a cumulative +1 to melee attack and damage rolls for "
            "each warjack/warbeast it destroys with a melee attack.",
        ),
    ),
    won_by_control(
        6,
        "fine-line",
        "Fine Line",
        (
            zone(
                LINE,
                'Line (24", east to west; large-based models within 2")',
                fine_line(),
            ),
        ),
        start=THIRD_ROUND,
        victory=ends_turn_in_control(LINE),
        words="A player wins when he ends his turn in control of the Line",
        rules=(
            'From round 3 a player controls the Line with large-based models within 2" of it '
            'and no opposing models within 2" of it.',
        ),
    ),
    scored_in_cp(
        7,
        "frontline-foray",
        "Frontline Foray",
        tuple(
            zone(
                f"line-{n}",
                f'Line Section {n} (12" of the centerline)',
                line_section(n),
                most_cp=2,
            )
            for n in range(1, 5)
        ),
        start=SECOND_ROUND,
        wins_at=5,
        own_turn=True,
        rules=(
            "From round 2 a player scores 1 CP for each Line Section he controls (a light or "
            "heavy warjack/warbeast overlapping it, none of his opponent's) at the end of "
            "his turn.",
            "A player cannot score more than 2 CP from any one Line Section.",
        ),
    ),
    scored_in_cp(
        8,
        "gauntlet",
        "Gauntlet",
        (
            zone(
                "gauntlet-p1-edge",
                "Gauntlet section at the first player's edge",
                gauntlet_section(6),
                cp=2,
                owner=P1,
            ),
            zone(
                "gauntlet-p1-centre",
                "Gauntlet section at the centerline, the first player's side",
                gauntlet_section(18),
                owner=P1,
            ),
            zone(
                "gauntlet-p2-centre",
                "Gauntlet section at the centerline, the second player's side",
                gauntlet_section(30),
                owner=P2,
            ),
            zone(
                "gauntlet-p2-edge",
                "Gauntlet section at the second player's edge",
                gauntlet_section(42),
                cp=2,
                owner=P2,
            ),
        ),
        start=SECOND_PLAYERS_THIRD_TURN,
        wins_at=3,
        own_turn=False,
        rules=(
            "From the second player's turn 3 "
            "a player scores CP for each Gauntlet section he controls on "
            "his opponent's side: 2 CP at the opponent's edge, 1 CP at the centerline.",
        ),
    ),
    won_by_control(
        9,
        "inner-turmoil",
        "Inner Turmoil",
        tuple(
            zone(t, f'Territory {n} (12" wide, north to south)', territory(n))
            for n, t in enumerate(TERRITORIES, 1)
        ),
        start=SECOND_PLAYERS_THIRD_TURN,
        victory=controls(2, *TERRITORIES),
        words="A player wins when he controls two Territories",
        rules=(
            "From the second player's turn 3 "
            "a player controls a Territory with models completely within it "
            "and none of his opponent's.",
            "One epic warcaster/warlock may have Inner Turmoil: for 1 focus or fury it is "
            "replaced with its non-epic version.",
        ),
    ),
    assassination_only(
        10,
        "nightfall",
        "Nightfall",
        'Line of sight: round 1 normal, round 2 12", round 3 10", round 4 8", round 5 on 6".',
        round_notes=by_round("normal LOS", '12" LOS', '10" LOS', '8" LOS', '6" LOS'),
    ),
    won_by_control(
        11,
        NO_MANS_LAND,
        "No Man's Land",
        (
            zone(
                NO_MANS_LAND,
                "No Man's Land (8\" wide, east to west, centered)",
                no_mans_land(),
            ),
        ),
        start=THIRD_ROUND,
        victory=ends_turn_in_control(NO_MANS_LAND),
        words="From the first player's turn 3, "
        "a player wins when he ends his turn in control of the "
        "No Man's Land",
        rules=(
            "A player controls the No Man's Land with models within it and none of his opponent's.",
        ),
    ),
    won_by_control(
        12,
        "power-play",
        "Power Play",
        (
            zone(
                CENTRE_ZONE,
                'Center Zone (within 6" of the center point)',
                centre_zone(6),
            ),
        ),
        start=THIRD_ROUND,
        victory=ends_turn_in_control(CENTRE_ZONE),
        words="A player wins when he ends his turn in control of the Center Zone",
        rules=(
            "From round 3 a player controls the Center Zone with models within it and none "
            "of his opponent's.",
            "Headlock, weapon lock, arm lock and head-butt need no focus and no forcing; a hit "
            "with one gives one free melee attack.",
        ),
    ),
    assassination_only(
        13,
        "scattered-lines",
        "Scattered Lines",
        'Deployment zones extend 16" from the table edge.',
        'Models cannot be deployed within 8" of each other unless in the same unit, '
        "battlegroup or warpack; advance deployment is regular deployment.",
        deployment=SCATTERED_DEPLOYMENT,
        # "Models with advanced deployment must be deployed in the deployment zone
        # during regular deployment": no advance-deployment step on the clock.
        advance_deployment=False,
    ),
    won_by_control(
        14,
        "transverse-assault",
        "Transverse Assault",
        (
            flag(NORTH, 'North Control Point (12" north of the center)', transverse_point(0, 12)),
            flag(EAST, 'East Control Point (12" east of the center)', transverse_point(12, 0)),
            flag(SOUTH, 'South Control Point (12" south of the center)', transverse_point(0, -12)),
            flag(WEST, 'West Control Point (12" west of the center)', transverse_point(-12, 0)),
            flag(CENTRE, "Center Control Point", transverse_point(0, 0)),
        ),
        start=THIRD_ROUND,
        victory=ends_turn_holding({P1: (NORTH, CENTRE, SOUTH), P2: (EAST, CENTRE, WEST)}),
        words="From round 3, the first player wins by holding the three Control Points from north "
        "to south at the end of his turn; the second player by holding the three from east to "
        "west at the end of his turn",
        rules=(
            'A player holds a Control Point with friendly models within 2" of it and none of '
            "his opponent's.",
        ),
    ),
    scored_in_cp(
        15,
        "unlikely-alliance",
        "Unlikely Alliance",
        _zones(),
        start=SECOND_PLAYERS_THIRD_TURN,
        wins_at=3,
        own_turn=True,
        rules=(
            "From the second player's turn 3 "
            "a player scores 1 CP for each Zone he controls at the end of "
            "his turn.",
            "Each army list may include one warrior model/unit from another faction, or a "
            "mercenary/minion one not normally available.",
        ),
    ),
    won_by_control(
        16,
        "workin-in-a-coal-mine",
        "Workin' in a Coal Mine",
        (
            flag(MINES[0], 'Control Point 1 (coal mine, 16" from the table edge)', coal_mine(16)),
            flag(MINES[1], 'Control Point 2 (coal mine, 16" further)', coal_mine(32)),
        ),
        start=SECOND_ROUND,
        victory=controls(2, *MINES),
        words="A player wins when he holds both Control Points",
        rules=(
            'From round 2 a player holds a Control Point with models within 3" of it and '
            "none of his opponent's.",
            'Holding one with a warrior model within 3": warjacks beginning their activation '
            'within 3" of it gain +1 SPD.',
        ),
    ),
)
