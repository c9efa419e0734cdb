"""What a Runewars event and its tables do not have, in words an organiser or a phone
is answered with: the Warmachine event paths (players with lists, Steamroller rounds,
seat swaps, Deathclock round ends, prizes) and table commands (a chess clock, turns,
control points, a kill box, casters, tiebreak reports) that Runewars does not play by.
The format's ruleset carries these; the common paths ask it (see
`app.domain.games.refusal`), never the format's name."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: The common event paths a Runewars event refuses, each with the reason.
EVENT_REFUSALS: Mapping[str, str] = MappingProxyType(
    {
        "players": "a Runewars event registers each player with an army value, not "
        "army lists: add and drop its players on the event's page",
        "rounds": "a Runewars event pairs by the Runewars rules and times its rounds with "
        "one round timer, not the Deathclock: pair, start and time its rounds on the "
        "event's page",
        "swap": "a Runewars event has no seat swap: each round is paired by the Runewars "
        "rules (a player who leaves is dropped on the event's page)",
        "results": "a Runewars event is scored by margin of victory, not control "
        "points and army points destroyed: its pairings, results and standings are on "
        "the event's page",
        "prizes": "a Runewars event's prizes go to its top finishers by the final "
        "standings on the event's page: it has no prize list or votes",
        "lists": "a Runewars player brings an army value, not army lists",
    }
)

_NO_CLOCK = "a Runewars table has no chess clock: one round timer runs for the whole round"
_NO_OFFLINE = (
    "a Runewars table is played with the phones online: no offline pass moves time onto a player"
)
_NO_TURNS = (
    "a Runewars table has no turns to pass, control points or kill box: the first player "
    'taps "End of game round" after each game round and each player sends a score at the end'
)
_NO_CASTER = (
    "a Runewars table has no casters: when all of a side's units are destroyed, its player "
    'taps "All my units destroyed"'
)
_NO_SCENARIO = (
    "a Runewars table has no control points or scenario victory: the score is army value "
    "destroyed plus objective points"
)
_NO_REPORTS = (
    "a Runewars table has no tiebreak reports: each player sends a score, then confirms "
    "the result or disputes it; equal scores go to the Final Flurry"
)
_NO_PREGAME = (
    "a Runewars table has no pre-game of lists, rolls and edges: the player with the lower "
    "army value chooses the first player, then the second player chooses the deployment area"
)
_NO_TIE = (
    "a Runewars game does not end in a tie: equal scores go to the Final Flurry; "
    "the organiser enters a result on the event's page"
)

#: The Warmachine table commands, each with why a Runewars table has no such thing.
ABSENT_COMMANDS: Mapping[str, str] = MappingProxyType(
    {
        "start": _NO_CLOCK,
        "switch": _NO_CLOCK,
        "pause": _NO_CLOCK,
        "resume": _NO_CLOCK,
        "adjust_clock": _NO_CLOCK,
        "report_pause": _NO_CLOCK,
        "warn_for_pausing": _NO_CLOCK,
        "accept_clock_loss": _NO_CLOCK,
        "flag": _NO_CLOCK,
        "start_timer": _NO_CLOCK,
        "stop_timer": _NO_CLOCK,
        "take_extension": _NO_CLOCK,
        "start_extension": _NO_CLOCK,
        "dispute_time_moved": _NO_OFFLINE,
        "settle_time_moved": _NO_OFFLINE,
        "dice_down": "a Runewars table has no dice down: the organiser calls time and the "
        "players finish the current game round",
        "pass_turn": _NO_TURNS,
        "propose_undo": _NO_TURNS,
        "undo_seen": _NO_TURNS,
        "answer_undo": _NO_TURNS,
        "caster_destroyed": _NO_CASTER,
        "no_models_left": _NO_CASTER,
        "claim_scenario": _NO_SCENARIO,
        "answer_claim": _NO_SCENARIO,
        "final_scoring": _NO_SCENARIO,
        "scenario_roll": _NO_SCENARIO,
        "report": _NO_REPORTS,
        "call_tie": _NO_TIE,
        "record_result": "a Runewars table's result is both players' scores: the organiser "
        "enters them on the event's page",
        "offer_lists": _NO_PREGAME,
        "open_pregame": _NO_PREGAME,
        "choose_list": _NO_PREGAME,
        "choose_specialists": _NO_PREGAME,
        "choose_objective": _NO_PREGAME,
        "roll": _NO_PREGAME,
        "choose_order": _NO_PREGAME,
        "choose_edge": _NO_PREGAME,
    }
)

#: What the organiser may send one Runewars table by itself (the EO's table command):
#: the round timer's start and the call of time (DC11).
EO_TABLE_COMMANDS = ("start_round", "call_time")
