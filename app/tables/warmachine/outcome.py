"""How a game ended, in the players' words, one text for every screen: the phones, the
EO's dashboard, the result's words.

`ending_words` names what decided a game whose result still waits for the reports: the
scenario's Victory Conditions at the game's end (TS4: most CP, then the 3rd and 4th
tiebreakers), the tiebreakers from the 1st (both casters at once), a tie where the event
uses no tiebreakers, or the round's time."""

from __future__ import annotations

from app.domain.game import Game, Method
from app.domain.rulebook import Tiebreaker

#: How a game ended, in the players' words ("Ann wins by <words>").
METHOD_WORDS = {
    Method.SCENARIO: "scenario",
    Method.ASSASSINATION: "assassination",
    Method.CLOCK: "clock",
    Method.CONCESSION: "concession",
    Method.TIEBREAKER: "tiebreaker",
    Method.TIME: "time",
    Method.EO: "the organiser's decision",
    Method.PAUSING: "a second warning for pausing the clock",
    Method.DESTRUCTION: "no models left",
}

_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def outcome_words(winner: str | None, method: Method, tie_word: str) -> str:
    """A result in words, by the winner's name: "Ann wins by assassination"."""
    if winner is None and method is Method.SCENARIO:  # No Tiebreakers: equal CP at the end
        return f"{tie_word} on equal control points"
    if winner is None and method is Method.ASSASSINATION:  # No Tiebreakers: both casters
        return f"{tie_word}: both casters destroyed"
    how = METHOD_WORDS.get(method, method.value)
    return f"{tie_word} by {how}" if winner is None else f"{winner} wins by {how}"


def ending_words(game: Game) -> str | None:
    """How the game ended while its result waits for the reports (None: not over)."""
    ending = game.ending
    if ending is None:
        return None
    tie = game.format.tie_word.lower()
    dice_down = game.timer is not None and game.timer.called
    if ending.method is Method.TIME:
        if dice_down and game.final_due:  # a lead of 5 in it still wins
            return f"Dice down — {_owed(game)}: a scenario victory wins, else a {tie}"
        if dice_down:  # No Tiebreakers: "If time expires, the game is a tie."
            return f"Dice down — no tiebreakers: the game is a {tie}"
        return f"Round time is up — the game is a {tie}"
    if ending.winner is not None:
        text = outcome_words(game.names[ending.winner], ending.method, game.format.tie_word)
        return text + " — most control points when the game ended" if _on_most_cp(game) else text
    if ending.method is Method.SCENARIO:
        return f"Game over — equal control points, no tiebreakers: the game is a {tie}"
    if ending.method is Method.ASSASSINATION:
        return f"Both casters destroyed — {both_casters_words(game)}"
    if ending.method is not Method.TIEBREAKER:
        return outcome_words(None, ending.method, game.format.tie_word)
    if game.final_due and dice_down:
        if game.format.game_end_tiebreakers is None:
            return f"Dice down — {_owed(game)}, then tiebreakers decide"
        return f"Dice down — {_owed(game)}, then the scenario's victory conditions decide"
    if ending.tiebreakers:
        return "Game over — equal control points: " + _steps(game, ending.tiebreakers)
    return "Game over — tiebreakers decide"


def both_casters_words(game: Game) -> str:
    """TS6: what both casters destroyed at once does to this game, as its end says it: the
    tiebreakers decide ("victory is determined using tiebreakers"), or, No Tiebreakers
    ("This event does not use tiebreakers"), a tie, or, No Assassination Victory, the game
    goes on."""
    rules = game.setup.rules
    if not rules.assassination:
        return "no assassination victory: the game goes on"
    if not rules.tiebreakers:
        return f"no tiebreakers: the game is a {game.format.tie_word.lower()}"
    return "tiebreakers decide"


def log_words(game: Game) -> dict[str, str]:
    """What the table log says a destroyed caster did, in this game's rules (TS6)."""
    one = "assassination" if game.setup.rules.assassination else "the game goes on"
    return {"both_casters": both_casters_words(game), "caster": one}


def _owed(game: Game) -> str:
    """What dice down still asks of the turn it ended (DC10): "the kill box of Ann's turn 3
    and the last scoring"."""
    owed = []
    if game.final_kill_box is not None:
        owed.append(f"the kill box of {game.turn_words(game.mark)}")
    if game.final_scoring_due:
        owed.append("the last scoring")
    return " and ".join(owed)


def _on_most_cp(game: Game) -> bool:
    """A scenario win on most CP at the game's end (TS4), not on the scenario's own
    victory (a lead of 5)."""
    ending, rules = game.ending, game.format
    if ending is None or ending.method is not Method.SCENARIO or ending.winner is None:
        return False
    if rules.game_end_tiebreakers is None or rules.victory_kind != "lead":
        return False
    p1, p2 = game.control_points
    return abs(p1 - p2) < rules.victory_cp


def _steps(game: Game, chain: tuple[Tiebreaker, ...]) -> str:
    """ "the 3rd tiebreaker (army points destroyed) decides, then the 4th (scenario
    presence)": the tiebreakers by their place in the format's order."""
    order = game.format.tiebreakers
    words = {
        Tiebreaker.CASTERS: "casters remaining",
        Tiebreaker.CONTROL_POINTS: "control points",
        Tiebreaker.APD_SUFFERED: "army points destroyed",
        Tiebreaker.COLLECTED: game.format.collected,
    }
    parts = []
    for tiebreaker in chain:
        place = order.index(tiebreaker) if tiebreaker in order else len(order)
        ordinal = _ORDINALS[place] if place < len(_ORDINALS) else f"{place + 1}th"
        parts.append((ordinal, words.get(tiebreaker, tiebreaker.value)))
    first, *rest = parts
    text = f"the {first[0]} tiebreaker ({first[1]}) decides"
    return text + "".join(f", then the {o} ({w})" for o, w in rest)
