"""The Runewars engine a room hosts (its game, views and codec: `table`, `codec`)."""

from __future__ import annotations

from app.tables.engine import Engine, renamed
from app.tables.runewars import codec, table

RUNEWARS = Engine(
    name="runewars",
    new_game=table.new_game,
    apply=table.apply,
    replay=table.replay,
    view=table.view,
    info=table.info,
    command_from_wire=codec.command_from_wire,
    command_to_wire=codec.command_to_wire,
    status=table.status,
    where=table.where,
    due=table.due,
    tick=table.tick,
    roll=lambda _game, _dice: None,
    decides=table.decides,
    write=table.write,
    read=table.read,
    renamed=renamed,
    record=table.record,
    setup_of=table.setup_of,
    pending=lambda game: table.due(game) is not None,
    over=table.over,
    quick_setup=table.quick_setup,
    eo_command=table.eo_command,
    detail=table.detail,
    summary=table.summary,
    board=table.board,
    page="runewars_table.html",
    offline=False,
)
