"""Runewars on the ruleset seam: each format names its table engine; the Runewars
engine brings its own state, commands and codec, and neither game reaches into the
other (no Warmachine concept at a Runewars table, no Runewars branch on the WM/H path)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.formats import FORMATS
from app.domain.games import ENGINE_OF, engine_name
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game
from app.domain.runewars.state import TableSetup
from app.tables.engines import engine_for
from app.tables.runewars.codec import command_from_wire, command_to_wire
from app.tables.runewars.table import read, record, setup_of, write

APP = Path(__file__).resolve().parents[2] / "app"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_each_format_names_its_engine__DC11() -> None:
    assert engine_for("runewars2017").name == "runewars"
    for fmt in FORMATS.values():
        assert engine_name(fmt.id) == "warmachine" == engine_for(fmt.id).name
    assert set(ENGINE_OF) == {*FORMATS, "runewars2017"}
    with pytest.raises(BadInput, match="runewars2017"):
        engine_for("runewars2016")


def test_the_runewars_engine_uses_no_warmachine_rules__TS11() -> None:
    allowed = {
        "app.domain.clock",
        "app.domain.commands",
        "app.domain.errors",
        "app.domain.frozen",
        "app.domain.spreadsheet",
    }  # text made safe for any spreadsheet: no rules
    for path in (APP / "domain" / "runewars").glob("*.py"):
        for module in _imports(path):
            if module.startswith("app."):
                assert module in allowed or module.startswith("app.domain.runewars"), (
                    path.name,
                    module,
                )


def test_no_runewars_branch_on_the_warmachine_path__TS11() -> None:
    seams = {
        "games.py",
        "engines.py",
        "tournaments.py",
        "runewars_codec.py",
        "runewars_table.py",
        "runewars.py",
    }
    for path in APP.rglob("*.py"):
        if "runewars" in path.parts or path.name in seams:
            continue
        assert not any("runewars" in m for m in _imports(path)), path
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare | ast.MatchValue):
                names = [n for n in ast.walk(node) if isinstance(n, ast.Constant)]
                assert not any("runewars" in str(n.value).lower() for n in names), path


def test_commands_travel_as_the_log_keeps_them__TS11() -> None:
    commands = [
        rc.ChooseFirstPlayer(Side.P2),
        rc.ChooseArea("red"),
        rc.StartRound(),
        rc.EndGameRound(3),
        rc.CallTime(),
        rc.ArmyDestroyed(None),
        rc.ArmyDestroyed(Side.P1),
        rc.Concede(),
        rc.EnterScore(120, 20),
        rc.FinalFlurry((3, 5)),
    ]
    for command in commands:
        assert command_from_wire(command_to_wire(command)) == command


@pytest.mark.parametrize(
    ("wire", "words"),
    [
        ({"c": "pass_turn"}, "a Runewars table has no turns to pass"),
        ({"c": "tap"}, "a Runewars table does not know what this page asked for"),
        ({"c": "choose_first", "first": "p3"}, "The first player must be one of the two players"),
        ({"c": "enter_score", "destroyed": -1, "objectives": 0}, "between 0 and 1000"),
        ({"c": "enter_score", "destroyed": "ten", "objectives": 0}, "whole number"),
        ({"c": "final_flurry", "hits": [1]}, "hits must be given for each of the two players"),
        ({"c": "army_destroyed", "side": "nobody"}, "one player's or both"),
        ({}, "reload the page"),
    ],
)
def test_bad_commands_are_refused_in_the_players_words__TS11(
    wire: dict[str, object], words: str
) -> None:
    with pytest.raises(BadInput, match=words.replace("(", r"\(").replace(")", r"\)")):
        command_from_wire(wire)


def test_a_runewars_game_snapshot_reads_back_whole__TS11() -> None:
    setup = TableSetup(("Ann", "Bob"), (200, 200), "Battle Lines", "Bounty", 90)
    game = new_game(setup, random.Random(4))
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(Side.P1), 0)
    game = apply(game, Side.P2, rc.ChooseArea("red"), 0)
    game = apply(game, Side.P1, rc.StartRound(), 0)
    game = apply(game, Side.P1, rc.Concede(), 10)
    game = apply(game, Side.P1, rc.EnterScore(0, 0), 20)
    game = apply(game, Side.P2, rc.EnterScore(40, 0), 20)
    assert read(write(game)) == game
    assert setup_of(record(game.setup)) == game.setup
    with pytest.raises(ValueError):
        read({"format": 1, "game": {}})
