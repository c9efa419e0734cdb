"""Fresh tables, an event's option: nobody sits at the same table number twice where it
can be avoided. The games keep the order the pairing gives them (the top TP games on
the first tables) unless a player has sat at a table before: then the numbers are one
assignment of games to tables with as few repeats as can be, and, among those, the
tables moved the least from that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: Each player's earlier tables: table number -> the round they sat there.
Sat = Mapping[str, Mapping[int, int]]


def _repeats(game: Sequence[str], table: int, sat: Sat) -> int:
    return sum(1 for p in game if table in sat.get(p, {}))


def number_tables(games: Sequence[Sequence[str]], sat: Sat, first: int = 1) -> list[int]:
    """Each game's table number (`first` up), in the order of `games`."""
    count = len(games)
    natural = list(range(first, first + count))
    if not any(_repeats(g, t, sat) for g, t in zip(games, natural, strict=True)):
        return natural
    # A repeat outweighs any table moves: the moves of all games together are below it.
    repeat = count * count + 1
    costs = {
        (n, t): _repeats(g, t, sat) * repeat + abs(t - (n + first))
        for n, g in enumerate(games)
        for t in natural
    }
    ceiling = max(costs.values()) + 1
    # Imported here: a tenth of a second off every server start (a restart mid-round).
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    graph = nx.Graph()
    graph.add_weighted_edges_from(
        (("game", n), ("table", t), ceiling - cost) for (n, t), cost in costs.items()
    )
    tables = [0] * count
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        game, table = (a, b) if a[0] == "game" else (b, a)
        tables[game[1]] = table[1]
    return tables


def repeat_notes(
    games: Sequence[Sequence[str]], tables: Sequence[int], sat: Sat, names: Mapping[str, str]
) -> list[str]:
    """The players who sit at a table they sat at before, in the EO's words."""
    return [
        f"{names[p]} plays at table {table} again (as in round {sat[p][table]}): "
        "no other seating kept everyone off a table they had played at"
        for game, table in zip(games, tables, strict=True)
        for p in game
        if table in sat.get(p, {})
    ]
