"""What a phone, a watcher or the EO sees of a table, as JSON-ready dicts."""

from __future__ import annotations

from typing import Any

from app.domain.clock import Side
from app.domain.ending import one_line
from app.domain.game import (
    UNDO_WINDOW_MS,
    Game,
    Method,
    Phase,
    Report,
    Result,
    presence_needed,
    reports_needed,
    settled,
)
from app.domain.result import conceded_army, presence_may_decide, tiebreak_steps
from app.domain.rulebook import Tiebreaker
from app.domain.scenarios import Element, table_plan
from app.domain.tournament import eo_pause_plays_on
from app.tables.warmachine import seating, time_moved
from app.tables.warmachine.outcome import ending_words, outcome_words
from app.tables.warmachine.pregame_view import pregame_prompt, pregame_view
from app.tables.warmachine.timer_view import timer_view, variants_info
from app.tables.warmachine.undo_view import undo_prompts, undo_view

_SIDE_NAMES: dict[Side | None, str | None] = {Side.P1: "p1", Side.P2: "p2", None: None}


def side_name(side: Side | None) -> str | None:
    return _SIDE_NAMES[side]


#: An element a side owns is named by its side in the rules ("P1's friendly flag"):
#: people read it by its side's order, which holds whoever turns out to go first.
_OWNER_WORDS = {Side.P1: "the first player's ", Side.P2: "the second player's "}


def element_name(e: Element) -> str:
    """An element's name in the players' words, never a seat's tag."""
    if e.owner is None:
        return e.name
    tag = e.owner.label + "'s "
    return _OWNER_WORDS[e.owner] + e.name[len(tag) :] if e.name.startswith(tag) else e.name


def _element(e: Element) -> dict[str, Any]:
    return {
        "id": e.id,
        "kind": e.kind.value,
        "name": element_name(e),
        "cp": e.control_cp,
        "dominate_cp": e.dominate_cp,
        "owner": side_name(e.owner),
        "friendly_dominate_cp": e.friendly_dominate_cp,
        "friendly_dominate_penalty": e.friendly_dominate_penalty,
        "most_cp": e.most_cp,
    }


def elements_json(game: Game) -> list[dict[str, Any]]:
    """The scenario's elements as the table log names them: id, kind, words, owner."""
    return [
        {"id": e.id, "kind": e.kind.value, "name": element_name(e), "owner": side_name(e.owner)}
        for e in game.scenario.elements
    ]


def table_info(table_id: str, game: Game) -> dict[str, Any]:
    setup = game.setup
    scenario = game.scenario
    rules = game.format
    last = rules.last_turn
    return {
        "id": table_id,
        "format": {"id": setup.format_id, "name": rules.name},
        "scenario": {
            "id": scenario.id,
            "name": scenario.name,
            "kill_box": scenario.kill_box,
            "elements": [_element(e) for e in scenario.elements],
            "rules": list(scenario.rules),
            # False: nothing on the table is scored (won by assassination only).
            "scored": scenario.scored,
            "victory_words": scenario.victory_words or rules.victory_words,
            # The table to set up: each element's shape, deployment zones, kill box.
            "layout": table_plan(scenario),
        },
        "kill_box_cp": rules.kill_box_cp,
        "kill_box_from": {
            "turn": rules.kill_box_from.turn,
            "side": side_name(rules.kill_box_from.side),
        },
        "kill_box_question": rules.kill_box.question,
        "scoring_from": {
            "turn": game.scoring_from.turn,
            "side": side_name(game.scoring_from.side),
        }
        if scenario.scored
        else None,
        "names": list(game.names),
        "player_clock_ms": setup.player_clock_ms,
        "army_points": setup.army_points,
        "victory_lead": rules.victory_lead,
        # "lead": a lead of victory_lead CP wins; "reach": at least that many and more;
        # "scenario": each scenario its own condition, checked by the server only.
        "victory": rules.victory_kind,
        "victory_words": scenario.victory_words or rules.victory_words,
        "last_turn": None if last is None else last.turn,
        "deployment": list(game.deployment_steps),
        "collected": rules.collected,
        "apd_words": rules.apd_words,
        "tie_word": rules.tie_word,
        # DC8: a table the EO pauses in a round plays on at the round's end, not a tie.
        "eo_pause_plays_on": eo_pause_plays_on(rules),
        "pause_warnings": rules.pause_warnings_lose is not None,
        "undo_window_ms": UNDO_WINDOW_MS,
        "variants": variants_info(game),
    }


def _result(game: Game, result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    winner = None if result.winner is None else game.names[result.winner]
    return {
        "winner": side_name(result.winner),
        "method": result.method.value,
        "control_points": list(result.control_points),
        "army_points_destroyed": list(result.army_points_destroyed),
        "lists": list(result.lists),
        "words": outcome_words(winner, result.method, game.format.tie_word),
        # The organiser's reason for the result they entered or corrected.
        "reason": game.eo_reason if game.recorded is not None else "",
        "conceded_army": _conceded_army(game, result),
    }


def _conceded_army(game: Game, result: Result) -> dict[str, Any] | None:
    """TS8: the starting army a concession's APD is half of: the conceding player's list
    as it gives its points, else the event's size (`list` None: the phones say so)."""
    rules = game.format
    conceded = result.method is Method.CONCESSION and game.recorded is None
    if not conceded or result.winner is None or not rules.concession_half_army:
        return None
    points, played = conceded_army(game, result.winner.other)
    return {"points": points, "list": played, "by": side_name(result.winner.other)}


def _board_ending(game: Game, result: Result | None) -> dict[str, Any] | None:
    """How the game ended, for the EO's dashboard: its result once there is one (the
    EO's, who may have found for the other player, or the one the tiebreakers decided),
    else the table's own ending in the phones' words (`outcome.ending_words`)."""
    ending = result or game.ending
    if ending is None:
        return None
    name = None if ending.winner is None else game.names[ending.winner]
    words = outcome_words(name, ending.method, game.format.tie_word)
    if result is None:
        words = ending_words(game) or words
    return {"method": ending.method.value, "winner": side_name(ending.winner), "words": words}


def disputed_words(game: Game) -> str | None:
    """Each player's reason for disputing the result, after their name: one line a
    player (TS9), their latest, whatever a game kept from before reasons were one line."""
    if game.disputed is None:
        return None
    labels = {side.label + ": ": name + ": " for side, name in zip(Side, game.names, strict=True)}
    lines: dict[str, str] = {}
    for line in game.disputed.split("\n"):
        label = line[:4]
        if label in labels:
            lines.pop(label, None)
            lines[label] = labels[label] + one_line(line[4:])
    return "\n".join(lines.values())


Prompt = dict[str, Any]


def _turn_prompts(
    game: Game, kill_box_due: bool, scoring_due: bool, last_turn: bool
) -> list[Prompt]:
    due: list[Prompt] = []
    if kill_box_due or scoring_due:
        due.append(
            {
                "kind": "turn_end",
                "by": side_name(game.active),
                "kill_box": kill_box_due,
                "scoring": scoring_due,
            }
        )
    if last_turn:
        due.append({"kind": "game_end", "by": side_name(game.active)})
    return due


def _clock_out_prompts(game: Game) -> list[Prompt]:
    if game.claim is None:
        return [
            {
                "kind": "clock_out",
                "by": side_name(game.flagged),
                "claim_possible": game.scoring_due_at_mark,
            }
        ]
    other = None if game.flagged is None else game.flagged.other
    return [{"kind": "answer_claim", "by": side_name(other)}]


def _over_prompts(game: Game) -> list[Prompt]:
    due: list[Prompt] = []
    if game.final_due:  # DC10: at dice down, the kill box of the turn it ended, by its player
        due.append(
            {
                "kind": "final_scoring",
                "by": side_name(game.final_kill_box),
                "kill_box": game.final_kill_box is not None,
                "scoring": game.final_scoring_due,
            }
        )
    due.extend({"kind": "report", "by": side_name(side)} for side in reports_needed(game))
    if presence_needed(game) and game.result() is None:
        due.append({"kind": "scenario_presence"})
    if game.disputed is not None:
        due.append({"kind": "disputed", "reason": disputed_words(game)})
    elif game.result() is not None:
        due.extend(
            {"kind": "confirm", "by": side_name(side)} for side in Side if not game.confirmed[side]
        )
    return due


def due_prompts(
    game: Game, kill_box_due: bool, scoring_due: bool, last_turn: bool, now_ms: int
) -> list[Prompt]:
    """The prompts that are due now, in the order the table should answer them (the
    game's three turn-end questions come in, asked once by the view)."""
    due: list[Prompt] = [{"kind": "paused"}] if game.paused else []
    if game.phase is Phase.READY:
        due.append(pregame_prompt(game) or {"kind": "start", "by": "p1"})
    elif game.phase is Phase.TURN:
        due.extend(_turn_prompts(game, kill_box_due, scoring_due, last_turn))
    elif game.phase is Phase.CLOCK_OUT:
        due.extend(_clock_out_prompts(game))
    elif game.phase is Phase.OVER:
        due.extend(_over_prompts(game))
    due.extend(undo_prompts(game))
    return due


def report_json(report: Report | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {
        "army_points_destroyed": report.army_points_destroyed,
        "scenario_presence": report.scenario_presence,
        "list_played": report.list_played,
    }


def game_view(game: Game, now_ms: int) -> dict[str, Any]:
    clock = game.clock
    ending = game.ending
    result = game.result()
    kill_box_due, scoring_due, last_turn = game.turn_end_due
    return {
        "phase": game.phase.value,
        "active": side_name(game.active),
        "turn": game.turn,
        "running": side_name(clock.running),
        "interrupted": game.interrupted,
        "paused": game.paused,
        "paused_by_eo": game.paused_by_eo,
        "remaining_ms": [clock.remaining(Side.P1, now_ms), clock.remaining(Side.P2, now_ms)],
        "as_of_ms": now_ms,
        # The result's CP once there is one (a concession gives the winner its minimum).
        "control_points": list(game.control_points if result is None else result.control_points),
        "objectives_destroyed": sorted(game.objectives_destroyed),
        "removed": sorted(game.removed),
        # CP earned from each element so far, and what this round's special rules bring.
        "earned": {k: list(v) for k, v in sorted(game.earned.items())},
        "round_notes": list(game.round_notes),
        "pause_warnings": list(game.pause_warnings),
        "pause_reported": side_name(game.pause_reported),
        # Each side's lists (the event names them by seat: the roll may have swapped).
        "list_choices": [list(lists) for lists in seating.in_side_order(game, game.list_choices)],
        "casters": list(game.casters),
        "flagged": side_name(game.flagged),
        "claim": None
        if game.claim is None
        else {
            "control": {k: side_name(v) for k, v in game.claim.control.items()},
            "dominate": {k: side_name(v) for k, v in game.claim.dominate.items()},
            "destroyed": sorted(game.claim.destroyed),
        },
        "ending": None
        if ending is None
        else {
            "method": ending.method.value,
            "winner": side_name(ending.winner),
            "at_ms": ending.at_ms,
            "words": ending_words(game),
        },
        "final_scoring_due": game.final_scoring_due,
        "final_kill_box": side_name(game.final_kill_box),
        "reports": [report_json(r) for r in game.reports],
        # The report asks for the collected tiebreaker only where it can decide the game.
        "presence_asked": presence_may_decide(game),
        "confirmed": list(game.confirmed),
        "disputed": disputed_words(game),
        "result": _result(game, result),
        "decided_by": decided_by(game, result),
        # TS9: both players confirmed, or the EO entered it: final, only the EO moves it.
        "settled": settled(game),
        "entered_by_eo": game.recorded is not None,
        "undo": undo_view(game),
        "kill_box_due": kill_box_due,
        "scoring_due": scoring_due,
        "last_turn": last_turn,
        "due": due_prompts(game, kill_box_due, scoring_due, last_turn, now_ms),
        "pregame": pregame_view(game),
        "timer": timer_view(game, now_ms),
        # Time offline merges moved onto a player who stayed online (every screen's).
        "time_moved": time_moved.view(game),
    }


#: Each tiebreaker's name on the wire (the collected one is the format's own number,
#: named by the table's `collected`).
_STEP_NAMES = {
    Tiebreaker.CASTERS: "casters",
    Tiebreaker.CONTROL_POINTS: "control_points",
    Tiebreaker.APD_SUFFERED: "army_points_suffered",
    Tiebreaker.COLLECTED: "scenario_presence",
}


def decided_by(game: Game, result: Result | None) -> list[dict[str, Any]]:
    """TS7: the tiebreakers a tied game went through in its format's order, up to the
    one that decided it, with both players' values."""
    if result is None or result.method is not Method.TIEBREAKER:
        return []
    presence = (
        None if game.reports[0] is None else game.reports[0].scenario_presence,
        None if game.reports[1] is None else game.reports[1].scenario_presence,
    )
    steps = tiebreak_steps(game, result, presence)
    return [{"step": _STEP_NAMES[step], "values": list(values)} for step, values in steps]


def table_summary(
    table_id: str, table_no: int, game: Game, status: str, now_ms: int
) -> dict[str, Any]:
    """One dashboard row: enough to show the table live, nothing more."""
    result = game.result()
    return {
        "id": table_id,
        "table_no": table_no,
        "names": list(game.names),
        "scenario": game.scenario.name,
        "pregame": None if game.pregame is None else game.pregame.step.value,
        "phase": game.phase.value,
        "turn": game.turn,
        "active": side_name(game.active),
        "running": side_name(game.clock.running),
        "interrupted": game.interrupted,
        "paused": game.paused,
        "paused_by_eo": game.paused_by_eo,
        "remaining_ms": [
            game.clock.remaining(Side.P1, now_ms),
            game.clock.remaining(Side.P2, now_ms),
        ],
        "as_of_ms": now_ms,
        # The result's CP once there is one (a concession gives the winner its minimum).
        "control_points": list(game.control_points if result is None else result.control_points),
        "status": status,
        "pause_reported": side_name(game.pause_reported),
        "pause_warnings": list(game.pause_warnings),
        "flagged": side_name(game.flagged),
        "disputed": disputed_words(game),
        "ending": _board_ending(game, result),
        "timer": timer_view(game, now_ms),
        "time_moved": time_moved.view(game),
    }
