"""A disqualified player earns no qualifier points (QPs) and holds no place: "Disqualified
players are not eligible for any awards or prizes" (iron-gauntlet-2014.txt and
masters-champions-2019.txt, Sportsmanship). As the prizes do (ST3), their place passes
to the next eligible player, for the QPs of both charts (ST4 2014 and 2019)."""

from __future__ import annotations

from app.domain import qualifiers as q
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, Standing
from app.events.results import event_standings
from app.events.season_events import event_view, held_over
from app.store.models import EventRecord, PlayerEntry

W, L = Outcome.WIN, Outcome.LOSS


def test_a_disqualified_leaders_place_passes_to_the_next_player__ST3_ST4() -> None:
    standings = [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert q.eligible_places(standings, {"A"}) == {"B": 1, "C": 2, "D": 3}
    assert q.eligible_places(standings, {"B"}) == {"A": 1, "C": 2, "D": 3}
    assert q.eligible_places(standings, {"A", "C"}) == {"B": 1, "D": 2}


def test_players_sharing_a_standing_still_share_the_place_passed_down__ST3_ST4() -> None:
    standings = [(1, "A"), (2, "B"), (2, "C"), (4, "D"), (5, "E")]
    assert q.eligible_places(standings, set()) == {"A": 1, "B": 2, "C": 2, "D": 4, "E": 5}
    assert q.eligible_places(standings, {"A"}) == {"B": 1, "C": 1, "D": 3, "E": 4}
    assert q.eligible_places(standings, {"B"}) == {"A": 1, "C": 2, "D": 3, "E": 4}
    shared_lead = [(1, "A"), (1, "B"), (3, "C")]
    assert q.eligible_places(shared_lead, {"A"}) == {"B": 1, "C": 2}


def _event(format_id: str) -> EventRecord:
    return EventRecord(
        id="e1", name="Qualifier", format_id=format_id, points=50, admin_token="t", created_ms=0
    )


def _records() -> list[PlayerRecord]:
    """Two rounds: A beats D and B, B beats C, C beats D (standings A, B, C, D); D has
    dropped since."""
    games = {
        "A": ((1, "D", W), (2, "B", W)),
        "B": ((1, "C", W), (2, "A", L)),
        "C": ((1, "B", L), (2, "D", W)),
        "D": ((1, "A", L), (2, "C", L)),
    }
    return [
        PlayerRecord(
            id=pid,
            name=pid,
            faction="Cygnar",
            dropped=pid == "D",
            rounds=tuple(
                RoundRecord(n, them, outcome, 3 if outcome is W else 0, 10)
                for n, them, outcome in played
            ),
        )
        for pid, played in games.items()
    ]


def _entries(disqualified: set[str]) -> list[PlayerEntry]:
    return [
        PlayerEntry(id=pid, event_id="e1", name=pid, disqualified=pid in disqualified)
        for pid in "ABCD"
    ]


def test_a_disqualified_player_keeps_their_standing_with_no_qps_2014__ST3_ST4() -> None:
    event = _event("ig2014")
    before = event_standings(event, [], _records(), _entries(set()))
    assert [(s.name, s.rank, s.qualifier_points) for s in before] == [
        ("A", 1, 10),
        ("B", 2, 8),
        ("C", 3, 6),
        ("D", 4, 4),
    ]
    after = event_standings(event, [], _records(), _entries({"A"}))
    assert [(s.name, s.rank, s.qualifier_points) for s in after] == [
        ("A", 1, 0),
        ("B", 2, 10),
        ("C", 3, 8),
        ("D", 4, 6),  # dropped, not disqualified: D keeps their QPs
    ]
    not_a_qualifier = event_standings(_event("masters2019"), [], _records(), _entries({"A"}))
    assert [s.qualifier_points for s in not_a_qualifier] == [None, None, None, None]


def _standing(rank: int, pid: str) -> Standing:
    return Standing(rank, pid, pid, "Cygnar", 0, 0, 0, 0, False)


def test_an_igq_top_three_and_qps_skip_the_disqualified_2019__ST3_ST4() -> None:
    rows = [_standing(1, "A"), _standing(2, "B"), _standing(3, "C"), _standing(4, "D")]
    held = held_over(_event("masters2019"), 1_000, rows, {"A"}, None)
    assert [(place, e.name) for place, e in held.top_three] == [(1, "B"), (2, "C"), (3, "D")]
    assert [(a.entry.name, a.rank, a.qp) for a in q.awards_of(held.top_three, "IGQ")] == [
        ("B", 1, 10),
        ("C", 2, 7),
        ("D", 3, 4),
    ]
    view = event_view(held, 1_000)
    assert [(t["rank"], t["name"], t["qp"]) for t in view["top_three"]] == [
        (1, "B", 10),
        (2, "C", 7),
        (3, "D", 4),
    ]
    assert view["players"] == 4  # the whole field, the disqualified player included
