"""What is true of an event day, kept by the script that plays it: each game as it was
played (who played whom, who went first, how it ended, each player's CP, APD, list and
specialist swap) and each bye and missed round, and from them the standings (ST1: TP,
SoS, CP, APD), computed here without the app. `round_truth` says it the way `surfaces.disagreements`
compares it with what every surface reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Game:
    """One game of a round, by the players' names."""

    table: int
    players: tuple[str, str]  # the pairing's order
    first: str
    winner: str
    method: str
    cp: dict[str, int]
    apd: dict[str, int]
    lists: dict[str, str]
    #: Each player's specialist swap at the table, in words ("": none).
    specialists: dict[str, str] = field(default_factory=dict)
    reason: str = ""

    def scores(self) -> dict[str, dict[str, Any]]:
        return {
            name: {
                "tp": int(name == self.winner),
                "cp": self.cp[name],
                "apd": self.apd[name],
                "list": self.lists[name],
                "specialists": self.specialists.get(name, ""),
            }
            for name in self.players
        }

    def opponent(self, name: str) -> str:
        a, b = self.players
        return b if name == a else a


@dataclass
class Ledger:
    """Every game, bye and missed round so far, by round."""

    games: dict[int, list[Game]] = field(default_factory=dict)
    byes: dict[int, str] = field(default_factory=dict)
    missed: dict[int, list[str]] = field(default_factory=dict)
    bye_award: tuple[int, int] = (3, 38)  # RP3: CP and APD of a bye

    def game(self, number: int, table: int) -> Game:
        return next(g for g in self.games[number] if g.table == table)

    def totals(self, upto: int) -> dict[str, dict[str, int]]:
        """ST1 after round `upto`: each player's TP, SoS, CP and APD."""
        tp: dict[str, int] = {}
        cp: dict[str, int] = {}
        apd: dict[str, int] = {}
        met: dict[str, list[str]] = {}

        def add(name: str, points: tuple[int, int, int]) -> None:
            tp[name] = tp.get(name, 0) + points[0]
            cp[name] = cp.get(name, 0) + points[1]
            apd[name] = apd.get(name, 0) + points[2]
            met.setdefault(name, [])

        for number in range(1, upto + 1):
            for game in self.games.get(number, []):
                for name in game.players:
                    add(name, (int(name == game.winner), game.cp[name], game.apd[name]))
                    met[name].append(game.opponent(name))
            if number in self.byes:
                add(self.byes[number], (1, *self.bye_award))
            for name in self.missed.get(number, []):
                add(name, (0, 0, 0))
        return {
            name: {"tp": tp[name], "sos": sum(tp[o] for o in met[name]), "cp": cp[name]}
            | {"apd": apd[name]}
            for name in tp
        }


def round_truth(ledger: Ledger, number: int) -> dict[int | str, dict[str, Any]]:
    """What every surface must say of round `number`, per table number ("bye": the bye)."""
    totals = ledger.totals(number)
    truth: dict[int | str, dict[str, Any]] = {}
    for game in ledger.games[number]:
        truth[game.table] = {
            "table": game.table,
            "players": tuple(sorted(game.players)),
            "first": game.first,
            "winner": game.winner,
            "method": game.method,
            "scores": game.scores(),
            "opponents": {name: game.opponent(name) for name in game.players},
            "holders": {name: name for name in game.players},
            "totals": {name: totals[name] for name in game.players},
        }
    bye = ledger.byes.get(number)
    if bye is not None:
        cp, apd = ledger.bye_award
        truth["bye"] = {
            "players": (bye,),
            "winner": bye,
            "scores": {bye: {"tp": 1, "cp": cp, "apd": apd}},
            "opponents": {bye: "Bye"},
            "totals": {bye: totals[bye]},
        }
    return truth
