"""A whole Runewars event, every game played through the table engine: 12 players,
3 Swiss rounds, a top 4 cut, two elimination rounds, one drop after the cut
(RP6, ST5, DC11, TS11)."""

from __future__ import annotations

import random

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game
from app.domain.runewars.event import (
    RwEvent,
    drop,
    make_cut,
    pair_next,
    record,
    register,
    results_from_table,
)
from app.domain.runewars.rules import DEPLOYMENTS, OBJECTIVES, Stage, Structure, plan_for
from app.domain.runewars.state import TableSetup

T0 = 0


def play_table(
    event: RwEvent, a: str, b: str, rng: random.Random
) -> tuple[int, list[int], list[int]]:
    """One game at its table: setup, eight game rounds (or time), scores, maybe a flurry."""
    play = event.rounds[-1]
    pa, pb = event.player(a), event.player(b)
    setup = TableSetup(
        (pa.name, pb.name),
        (pa.army_value, pb.army_value),
        play.deployment,
        play.objective,
        play.minutes,
    )
    game = new_game(setup, rng)
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(game.chooser), T0)
    assert game.second is not None
    game = apply(game, game.second, rc.ChooseArea(rng.choice(("red", "blue"))), T0)
    game = apply(game, Role.EO, rc.StartRound(), T0)
    assert game.first is not None
    while game.outcome is None and game.phase.value == "playing":
        game = apply(game, game.first, rc.EndGameRound(game.game_round), T0 + game.game_round)
    for side in (Side.P1, Side.P2):
        army = setup.army_values[side.other]
        game = apply(
            game, side, rc.EnterScore(rng.randrange(army + 1), rng.choice((0, 10, 20))), T0 + 100
        )
    if game.outcome is None:
        game = apply(game, Side.P1, rc.FinalFlurry((4, 2)), T0 + 200)
    out = game.outcome
    assert out is not None
    return int(out.winner), list(out.tp), list(out.mov)


def play_round(event: RwEvent, rng: random.Random) -> RwEvent:
    for match in event.rounds[-1].matches:
        if match.b is None or match.game in event.rounds[-1].results:
            continue
        winner, tp, mov = play_table(event, match.a, match.b, rng)
        event = record(event, match.game, results_from_table(winner, match.a, match.b, tp, mov))
    return event


def test_twelve_players_three_swiss_top_four_two_eliminations_one_drop__RP6() -> None:
    rng = random.Random(2017)
    event = RwEvent("Regional", plan_for(Structure.CUSTOM, 12, rounds=3, cut=4))
    for n in range(12):
        event = register(event, f"p{n:02}", f"Player {n:02}", 170 + 2 * n, rng)

    for number in (1, 2, 3):  # Swiss rounds
        event = play_round(pair_next(event, rng), rng)
        play = event.rounds[-1]
        assert play.stage is Stage.SWISS and play.minutes == 90
        assert len(play.matches) == 6 and play.number == number
    swiss = event.rounds
    assert sorted(r.deployment for r in swiss) == sorted(DEPLOYMENTS)
    assert sorted(r.objective for r in swiss) == sorted(OBJECTIVES)
    for p in event.players:  # no rematch in the Swiss stage, every player played 3
        assert len(p.games) == 3 and len(set(p.opponents())) == 3

    standings = [s.player_id for s in event.standings()]
    event = make_cut(event)
    assert list(event.cut_to) == standings[:4]
    # The second seed drops before the top 4 plays: the fifth comes in as the fourth.
    event = drop(event, standings[1])
    assert list(event.cut_to) == [standings[0], standings[2], standings[3], standings[4]]

    event = pair_next(event, rng)
    semis = event.rounds[-1]
    assert semis.stage is Stage.ELIMINATION and semis.minutes == 90
    assert [(m.a, m.b) for m in semis.matches] == [
        (standings[0], standings[4]),
        (standings[2], standings[3]),
    ]
    event = play_round(event, rng)
    winners = event.rounds[-1].winners()

    event = pair_next(event, rng)
    final = event.rounds[-1]
    assert final.minutes == 140 and [(m.a, m.b) for m in final.matches] == [tuple(winners)]
    assert event.winner is None
    event = play_round(event, rng)
    assert event.winner in winners and event.over
    assert len(event.rounds) == 5
    assert event.player(standings[1]).dropped
