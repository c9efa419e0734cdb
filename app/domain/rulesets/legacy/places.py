"""Where each legacy page (shared/seeds/legacy-scenarios.txt) puts its elements on the
48"×48" table, in the page's own distances. North is P2's edge, south P1's; the
centerline runs east to west between the players, unless a page says otherwise.
"""

from __future__ import annotations

from app.domain.table_layout import CENTRE, Layout, Shape, Spot, circle, line, marker, rectangle

#: Scattered Lines: "A player's deployment zone extends 16" from his table edge instead
#: of 10"": every other page deploys 10" deep.
DEPLOYMENT = 10
SCATTERED_DEPLOYMENT = 16


def page(number: int, name: str, deployment: float = DEPLOYMENT) -> Layout:
    """The table of a legacy page: no kill box, deployment zones from each player's edge."""
    return Layout(f"Legacy scenarios, {number}. {name}", deployment)


def at(across: float, deep: float) -> Spot:
    """Inches across from the left edge, and deep from P1's edge."""
    return Spot(across, deep)


def capture_flag(deep: float) -> Shape:
    """Capture the Flag: a Flag (30 mm base) centered 14" from its player's edge; no
    enemy model within 3" for control."""
    return marker(3, at(CENTRE, deep), base_mm=30)


def command_zone(across: float) -> Shape:
    """Command Positions, Unlikely Alliance: within 5" of a point on the centerline,
    12" from the left or right edge."""
    return circle(10, at(across, CENTRE))


def centre_zone(within: float) -> Shape:
    """Engines of Destruction (8"), Power Play (6"): within so far of the center point."""
    return circle(2 * within, at(CENTRE, CENTRE))


def fine_line() -> Shape:
    """Fine Line: a 24" Line east to west at the center; large bases within 2"."""
    return line(24, at(CENTRE, CENTRE), reach=2)


def line_section(n: int) -> Shape:
    """Frontline Foray: the centerline (east to west) in four 12" Line Sections."""
    return line(12, at(12 * n - 6, CENTRE))


def gauntlet_section(deep: float) -> Shape:
    """Gauntlet: 8" wide, north to south at the center, in four 8" × 12" sections."""
    return rectangle(8, 12, at(CENTRE, deep))


def territory(n: int) -> Shape:
    """Inner Turmoil: four 12"-wide Territories, north to south, between the deployment
    zones."""
    return rectangle(12, 48 - 2 * DEPLOYMENT, at(12 * n - 6, CENTRE))


def no_mans_land() -> Shape:
    """No Man's Land: 8" wide, east to west, centered on the table."""
    return rectangle(48, 8, at(CENTRE, CENTRE))


def transverse_point(east: float, north: float) -> Shape:
    """Transverse Assault: a Control Point at the center and 12" north, east, south and
    west of it; held with models within 2"."""
    return marker(2, at(CENTRE + east, CENTRE + north))


def coal_mine(deep: float) -> Shape:
    """Workin' in a Coal Mine: on the centerline running north to south, starting 16"
    from the table edge and 16" apart; held within 3"."""
    return marker(3, at(CENTRE, deep))
