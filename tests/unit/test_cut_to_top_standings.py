"""RP1 Cut to Top [X]: "only the standings of the top X players can change". The players
the cut left out keep the places and the numbers they had when it was made, though their
old opponents play on; the kept players are ranked among themselves above them."""

from __future__ import annotations

from app.domain.rankings import RANKINGS, Cut, Finals, ranked
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, standings
from app.domain.tournament import cut_to_top

W, L = Outcome.WIN, Outcome.LOSS


def _game(number: int, opponent: str, outcome: Outcome, cp: int = 0, apd: int = 0) -> RoundRecord:
    return RoundRecord(number, opponent, outcome, cp, apd)


def _two_rounds() -> dict[str, list[RoundRecord]]:
    return {
        "A": [_game(1, "E", W, 3, 10), _game(2, "C", W, 3, 10)],
        "B": [_game(1, "F", W, 3, 10), _game(2, "D", W, 3, 10)],
        "C": [_game(1, "G", W, 3, 10), _game(2, "A", L, 2, 5)],
        "D": [_game(1, "H", W, 3, 10), _game(2, "B", L, 2, 5)],
        "E": [_game(1, "A", L, 1, 0), _game(2, "G", W, 3, 10)],
        "F": [_game(1, "B", L, 2, 0), _game(2, "H", W, 3, 10)],
        "G": [_game(1, "C", L, 0, 0), _game(2, "E", L, 0, 0)],
        "H": [_game(1, "D", L, 0, 0), _game(2, "F", L, 0, 0)],
    }


def _records(games: dict[str, list[RoundRecord]], cut: set[str]) -> list[PlayerRecord]:
    return [PlayerRecord(p, p, dropped=p in cut, rounds=tuple(g)) for p, g in games.items()]


def _round_three(games: dict[str, list[RoundRecord]]) -> None:
    """Round 3: only the top 4 play: A beats B, D beats C."""
    games["A"].append(_game(3, "B", W, 3, 10))
    games["B"].append(_game(3, "A", L, 0, 0))
    games["D"].append(_game(3, "C", W, 3, 10))
    games["C"].append(_game(3, "D", L, 0, 0))


def test_the_players_cut_keep_their_standings_while_the_top_x_play_on__RP1() -> None:
    games = _two_rounds()
    at_cut = standings(_records(games, set()))
    kept = cut_to_top(_records(games, set()), 4)
    assert kept is not None and set(kept) == set("ABCD")
    _round_three(games)
    records = _records(games, set("EFGH"))
    cut = Cut(round=3, kept=frozenset(kept))

    final = ranked(records, cut=cut)

    then = {row.player_id: row for row in at_cut}
    left_out = [row for row in final if row.player_id not in kept]
    assert [(r.player_id, r.rank, r.sos, r.tp) for r in left_out] == [
        (p.player_id, p.rank, p.sos, p.tp) for p in at_cut if p.player_id not in kept
    ]
    assert all(row.rank == then[row.player_id].rank for row in left_out)
    # The kept players, ranked among themselves by their standings now, come first.
    assert [r.player_id for r in final[:4]] == [
        r.player_id for r in standings(records) if r.player_id in kept
    ]
    assert [r.rank for r in final[:4]] == [1, 2, 3, 4]
    # Without the rule, a player cut moves on their opponents' later games alone.
    moved = [r for r in ranked(records) if r.player_id not in kept]
    assert [(r.player_id, r.sos) for r in moved] != [(r.player_id, r.sos) for r in left_out]


def test_the_cut_takes_the_top_x_by_the_events_own_final_standings__RP1_ST2() -> None:
    # "Use the Final Standings rules to determine the top X players": under Destruction
    # Scoring (APD first) E and F, who destroyed the most, are in the top 4 for it.
    games = _two_rounds()
    games["E"][1] = _game(2, "G", W, 3, 75)
    games["F"][1] = _game(2, "H", W, 3, 70)
    records = _records(games, set())
    destruction = RANKINGS["destruction"].keys
    by_apd = [row.player_id for row in standings(records, keys=destruction)][:4]
    kept = cut_to_top(records, 4, keys=destruction)
    assert kept == by_apd and {"E", "F"} <= set(kept)
    assert "E" not in (cut_to_top(records, 4) or ())  # the baseline order's top 4


def test_finals_tables_after_a_cut_move_only_the_kept_players__RP1_ST2() -> None:
    # ST2 Finals Tables: "Standings beyond third place are calculated using strength of
    # schedule, followed by control points"; RP1: "only the standings of the top X
    # players can change". The finals' order beyond third applies among the kept; the
    # players cut stay as they stood at the cut (by ST1: G and H differ only in APD).
    games = _two_rounds()
    games["G"][0] = _game(1, "C", L, 0, 20)
    at_cut = standings(_records(games, set()))
    kept = cut_to_top(_records(games, set()), 4)
    assert kept is not None and set(kept) == set("ABCD")
    _round_three(games)
    finals = Finals(round=3, tables=(("A", "B"), ("C", "D")))

    final = ranked(
        _records(games, set("EFGH")),
        RANKINGS["finals"],
        finals=finals,
        cut=Cut(round=3, kept=frozenset(kept)),
    )

    assert [(r.player_id, r.rank) for r in final[:4]] == [("A", 1), ("B", 2), ("D", 3), ("C", 4)]
    then = {row.player_id: row.rank for row in at_cut}
    assert [(r.player_id, r.rank) for r in final[4:]] == [
        (p, then[p]) for p in sorted("EFGH", key=lambda p: then[p])
    ]
    assert then["G"] < then["H"]  # SoS and CP alike: APD, which the finals' rest omits
