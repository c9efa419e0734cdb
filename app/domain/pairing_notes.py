"""Why a round from round 2 on is paired as it is, in the EO's words: each pair-down
(who, from which TP group, and why), each rematch, and who has the bye and why."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.domain.standings import PlayerRecord


def later_notes(
    games: Sequence[tuple[str, str | None]],
    points: Mapping[str, int],
    players: Mapping[str, PlayerRecord],
    group: Mapping[str, int],
) -> list[str]:
    """`games` are the round's pairs, the bye as a pair with None."""
    opponent = {a: b for a, b in games} | {b: a for a, b in games if b is not None}
    notes: list[str] = []
    for a, b in games:
        if b is None:
            notes.append(_bye_note(a, points, players))
            continue
        if b in players[a].opponents:
            notes.append(
                f"{players[a].name} and {players[b].name} meet again: "
                "no pairing avoided every rematch"
            )
        if group[a] != group[b]:
            high, low = (a, b) if points[a] > points[b] else (b, a)
            notes.append(_down_note(high, low, points, players, group, opponent))
    return notes


def _down_note(
    high: str,
    low: str,
    points: Mapping[str, int],
    players: Mapping[str, PlayerRecord],
    group: Mapping[str, int],
    opponent: Mapping[str, str | None],
) -> str:
    """A pair-down: a group left with an odd number of its own to pair (after the
    players paired down into it and the bye) sends one down; an even one sent one only
    because pairing inside it would have meant a rematch or a second pair-down."""
    level = group[high]
    left = [
        p
        for p, g in group.items()
        if g == level and (q := opponent.get(p)) is not None and group[q] >= level
    ]
    why = (
        f"the {points[high]} TP group had an odd number of players to pair"
        if len(left) % 2
        else f"pairing inside the {points[high]} TP group would have meant a rematch "
        "or a second pair-down"
    )
    again = " a second time" if players[high].paired_down_count else ""
    return (
        f"{players[high].name} is paired down{again} from the {points[high]} TP group "
        f"to play {players[low].name} ({points[low]} TP): {why}"
    )


def _bye_note(
    player_id: str, points: Mapping[str, int], players: Mapping[str, PlayerRecord]
) -> str:
    player = players[player_id]
    if player.had_bye:
        return f"{player.name} has the bye again: nobody without a bye could take it"
    fewest = min(points[p.id] for p in players.values() if not p.had_bye)
    if points[player_id] == fewest:
        return (
            f"{player.name} has the bye: drawn among the players on the fewest TP "
            f"({fewest}) who have not had one"
        )
    return (
        f"{player.name} ({points[player_id]} TP) has the bye: nobody on fewer TP could take "
        "it without a rematch or a second pair-down"
    )
