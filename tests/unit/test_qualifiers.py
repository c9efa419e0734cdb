"""Qualifier seasons' rules (shared/seeds/masters-champions-2019.txt): the 2019 QP chart,
the 10-QP threshold, the report's due date, the players matched only as the keeper
confirms, and a Masters tournament's 32 distinct players in its qualifiers."""

from __future__ import annotations

import pytest

from app.domain import qualifiers as q
from app.domain.errors import BadInput

DAY = 24 * 60 * 60 * 1000


@pytest.mark.parametrize(("rank", "qp"), [(1, 10), (2, 7), (3, 4), (4, 0), (16, 0)])
def test_an_igq_awards_10_7_4_to_its_top_three__ST4(rank: int, qp: int) -> None:
    assert q.qp_2019(rank) == qp


def test_10_or_more_qps_qualifies__ST4() -> None:
    assert not q.qualifies(9)
    assert q.qualifies(10)
    assert q.qualifies(14)


def test_the_top_three_are_reported_within_14_days_of_the_event_end__ST4() -> None:
    ended = 1_700_000_000_000
    assert q.report_due_ms(ended) == ended + 14 * DAY


def _entry(event: str, player: str, name: str) -> q.Entry:
    return q.Entry(event, player, name)


def test_a_season_table_adds_qps_only_across_confirmed_identities__ST4() -> None:
    a1, a2, b1 = _entry("e1", "p1", "Alice"), _entry("e2", "p7", "alice"), _entry("e1", "p2", "Bob")
    awards = [q.Award(a1, "One", 1, 10), q.Award(b1, "One", 2, 7), q.Award(a2, "Two", 3, 4)]
    unconfirmed = q.season_table(awards, {})
    assert [(r.name, r.qp, r.confirmed) for r in unconfirmed] == [
        ("Alice", 10, False),
        ("Bob", 7, False),
        ("alice", 4, False),
    ]
    assert [[e.ref for e in g] for g in q.proposals([a1, a2, b1], {})] == [["e1:p1", "e2:p7"]]
    same = {a1.ref: "x", a2.ref: "x"}
    [alice, bob] = q.season_table(awards, same)
    assert (alice.name, alice.qp, alice.confirmed, alice.qualified) == ("Alice", 14, True, True)
    assert not bob.qualified
    assert q.proposals([a1, a2, b1], same) == []
    split = {a1.ref: "x", a2.ref: "y"}
    assert q.proposals([a1, a2, b1], split) == []  # settled apart: not proposed again
    assert q.distinct_players([a1, a2, b1], split) == 3
    assert q.distinct_players([a1, a2, b1], same) == 2


def test_a_masters_final_from_qualifiers_needs_32_distinct_players() -> None:
    assert q.qualifier_field_problem(32, 0) is None
    assert q.qualifier_field_problem(31, 0) == (
        "a Masters tournament populated through qualifiers needs at least 32 distinct "
        "players in the qualifiers; these qualifiers had 31"
    )
    assert "2 names appear in more than one event" in (q.qualifier_field_problem(40, 2) or "")


def test_a_pasted_qp_list_reads_name_and_qps_most_first() -> None:
    assert q.parse_qp_list("name,QPs\nBob, 12\n\nAnn,30\n") == [("Ann", 30), ("Bob", 12)]
    assert q.parse_qp_list("Ann,30") == [("Ann", 30)]
    with pytest.raises(BadInput, match="line 2"):
        q.parse_qp_list("Ann,30\nBob,many")
    with pytest.raises(BadInput, match="twice"):
        q.parse_qp_list("Ann,30\nann,4")


def test_players_tied_in_the_standings_share_their_place_s_qps__ST4() -> None:
    e1, e2, e3 = _entry("e", "a", "Ann"), _entry("e", "b", "Bob"), _entry("e", "c", "Cy")
    awards = q.awards_of([(1, e1), (2, e2), (2, e3)], "Open")
    assert [(a.entry.name, a.rank, a.qp) for a in awards] == [
        ("Ann", 1, 10),
        ("Bob", 2, 7),
        ("Cy", 2, 7),
    ]


def test_a_field_under_32_is_noted_never_refused() -> None:
    assert q.field_note(32) is None
    assert q.field_note(12) == (
        "12 players: an officially sanctioned Masters or Champions tournament has at "
        "least 32 participants"
    )
