"""The Runewars tournament policy of the event's use cases: a Runewars event whose state is
stored (the event store's `tournament_state`) and rewritten by every use case, so a
restart loses nothing. Each use case loads the stored event, runs the live event's step
(`app.events.runewars`: tables opened, timers started, results taken from the tables),
and writes the state back with the EO's action in one unit of work."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.runewars.disqualification import check_reason, disqualify
from app.domain.runewars.engine import view as engine_view
from app.domain.runewars.event import RwEvent, make_cut
from app.domain.runewars.event import drop as drop_player
from app.domain.runewars.event import rejoin as rejoin_player
from app.domain.runewars.rules import (
    FIRST_SEASON,
    MOST_ARMY_POINTS,
    Plan,
    Structure,
    plan_for,
    season,
)
from app.domain.runewars.standings import Standing
from app.domain.runewars.state import RwGame
from app.events.base import EventSpec
from app.events.book import EventBook
from app.events.runewars.codec import dump_event, dump_tables, load_event, load_tables
from app.events.runewars.live import RunewarsEvent
from app.events.runewars.players import my_page, player_by_key, player_key, player_link
from app.events.runewars.view import event_view
from app.store.models import EventRecord
from app.tables.hub import TableHub, new_id, new_token
from app.tables.placement import Placement
from app.tables.runewars.codec import judge_from_wire
from app.tables.timesource import TimeSource

#: What the organiser's result for a Runewars table is made of.
RESULT_FIELDS = frozenset({"entries", "flurry", "conceded", "reason"})


#: RP6's structures an organiser names, by the words of the regulations.
STRUCTURES = {"": Structure.BASIC, "basic": Structure.BASIC, "advanced": Structure.ADVANCED}


def _plan(spec: EventSpec) -> Plan:
    """RP6: Swiss rounds by attendance (Basic or Advanced), or the organiser's own count
    and cut; refused in the organiser's words."""
    cut = spec.cut_to_top or 0
    if spec.fixed_rounds is None:
        structure = STRUCTURES.get(spec.structure.strip().lower())
        if structure is None:
            raise BadInput("the tournament structure is Basic or Advanced")
        if cut:
            raise BadInput(
                "a cut of your own comes after Swiss rounds of your own: give the number "
                "of Swiss rounds too, or choose the Advanced structure, which makes its cut"
            )
        return Plan(0, 0, structure)
    if not 1 <= spec.fixed_rounds <= 12:
        raise BadInput("an event plays 1 to 12 Swiss rounds")
    if cut and (cut < 2 or cut & (cut - 1)):
        raise BadInput("the cut is to the top 2, 4, 8 or 16… players")
    return plan_for(Structure.CUSTOM, max(cut, 2), rounds=spec.fixed_rounds, cut=cut)


class RunewarsTournament:
    """RP6 pairing and the cut, ST5 standings, byes, drops and disqualifications, for the
    event service."""

    name = "runewars"

    def __init__(
        self,
        book: EventBook,
        hub: TableHub,
        placement: Placement,
        time: TimeSource,
        rng: random.Random,
    ) -> None:
        self.book = book
        self.hub = hub
        self.placement = placement
        self.time = time
        self.rng = rng

    # -- the event ----------------------------------------------------------------

    def create(self, spec: EventSpec) -> EventRecord:
        """A Runewars event: its Swiss rounds and cut by RP6's Basic or Advanced table for
        the players who come (`structure`, Basic unless named), or its own Swiss rounds
        (`fixed_rounds`) and cut to the top 2, 4, 8… (`cut_to_top`)."""
        name = spec.name.strip()
        if not name or len(name) > 120:
            raise BadInput("the event needs a name (120 characters at most)")
        plan = _plan(spec)
        cards = season(spec.season.strip().lower() or FIRST_SEASON)
        record = EventRecord(
            id=new_id(),
            name=name,
            format_id=spec.format_id,
            points=MOST_ARMY_POINTS,
            lists=1,
            fixed_rounds=plan.swiss_rounds or None,
            cut_to_top=plan.cut or None,
            admin_token=new_token(),
            created_ms=self.time.now_ms(),
        )
        with self.book.unit() as repo:
            repo.add(record)
            repo.session.flush()
            state = RwEvent(name, plan, season=cards.id, asks_lists=spec.army_lists)
            repo.put_tournament_state(record.id, dump_event(state), "{}")
        return record

    def live(self, event_id: str) -> RunewarsEvent:
        """The stored event over the hub's live tables."""
        with self.book.read() as repo:
            row = repo.tournament_state(event_id)
        if row is None:
            raise NotFound(f"no Runewars event {event_id!r}")
        state = load_event(row.state_json)
        live = RunewarsEvent(
            self.hub, self.placement, state.name, state.plan, self.rng, id=event_id
        )
        live.state = state
        live.tables = load_tables(row.tables_json) if row.tables_json != "{}" else {}
        return live

    def _save(self, live: RunewarsEvent, action: str, **detail: Any) -> None:
        with self.book.unit() as repo:
            repo.put_tournament_state(live.id, dump_event(live.state), dump_tables(live.tables))
            repo.add(self.book.action(live.id, action, **detail))
        self.book.changed(live.id)

    @contextmanager
    def step(self, event_id: str, action: str, **detail: Any) -> Iterator[RunewarsEvent]:
        """Load, change, store: nothing is stored if the step raises."""
        live = self.live(event_id)
        yield live
        self._save(live, action, **detail)

    # -- players ------------------------------------------------------------------

    def register(
        self, event_id: str, name: str, army_value: int | None, army_list: str = ""
    ) -> str:
        """A player with their army value (at most 200), or their army list where the event
        asks for one (Army Building: its total is the army value); their id comes back."""
        player_id = new_id()[:8]
        with self.step(event_id, "add_player", player=player_id, name=name.strip()) as live:
            if len(name.strip()) > 60:
                raise BadInput("a player needs a name (60 characters at most)")
            if any(p.name.lower() == name.strip().lower() for p in live.state.players):
                raise BadInput(f"{name.strip()} is already registered")
            live.register(player_id, name, army_value, army_list)
        return player_id

    async def drop(self, event_id: str, player_id: str) -> None:
        live = self.live(event_id)
        if live.state.over:  # the finalists finished it: "dropped" would rewrite the end
            name = live.state.player(player_id).name
            raise RuleError(
                f"the event is over: {name} cannot drop from it (its standings are final)"
            )
        if live.cut_waits(player_id):  # RP6: the next-ranked player takes the place
            live.drop_before_the_cut_plays(player_id)
            self._save(live, "drop", player=player_id, cut=list(live.state.cut_to))
            return
        await live.drop(player_id)  # checked, and the open table conceded for them
        # What changed while the table was conceding stays: the drop goes on the stored event.
        fresh = self.live(event_id)
        if not fresh.state.player(player_id).dropped:
            fresh.state = drop_player(fresh.state, player_id)
        self._save(fresh, "drop", player=player_id)

    async def disqualify(self, event_id: str, player_id: str, reason: str) -> None:
        """The organiser removes a player for unsporting conduct, with the reason (kept in
        the organiser's log): removed as a drop removes them (RP6), and they cannot rejoin."""
        live = self.live(event_id)
        player = live.state.player(player_id)
        said = check_reason(player.name, reason)
        detail = {"player": player_id, "name": player.name, "reason": said}
        detail["words"] = f"Disqualified {player.name}: {said}"
        if not player.dropped and live.cut_waits(player_id):  # RP6: the next-ranked comes in
            live.drop_before_the_cut_plays(player_id, disqualified_for=said)
            self._save(live, "disqualify", **detail, cut=list(live.state.cut_to))
            return
        await live.disqualify(player_id, said)  # checked, and the open table conceded
        fresh = self.live(event_id)  # what changed while the table was conceding stays
        if not fresh.state.player(player_id).disqualified:
            fresh.state = disqualify(fresh.state, player_id, said)
        self._save(fresh, "disqualify", **detail)

    def rejoin(self, event_id: str, player_id: str) -> int:
        """RP7: a dropped player rejoins, with an unpaired loss for each round missed;
        returns how many."""
        live = self.live(event_id)
        live.collect()  # results in first: the standings the losses go into are today's
        before = len(live.state.player(player_id).games)
        live.state = rejoin_player(live.state, player_id)
        missed = len(live.state.player(player_id).games) - before
        self._save(live, "rejoin", player=player_id, missed=missed)
        return missed

    # -- rounds -------------------------------------------------------------------

    def pair_next(self, event_id: str) -> int:
        """The next round (Swiss, the cut, elimination), each game on a live table."""
        live = self.live(event_id)
        live.collect()
        if not live.state.rounds and len(live.state.players) < 2:
            raise RuleError("an event needs at least 2 players to pair")
        opened = len(live.tables)
        try:
            play = live.pair_next()
            self._save(
                live,
                "pair_round",
                round=play.number,
                stage=play.stage.value,
                deployment=play.deployment,
                objective=play.objective,
            )
        except BaseException:
            for key in list(live.tables)[opened:]:
                self.hub.discard(live.tables[key])
            raise
        return play.number

    def make_cut(self, event_id: str) -> list[str]:
        """RP6: after the last Swiss round, the top of the standings make the cut (a drop
        before the first elimination round is then replaced by the next ranked)."""
        live = self.live(event_id)
        live.collect()
        with self.step(event_id, "cut_to_top") as cut:
            cut.state = make_cut(live.state)
        return list(cut.state.cut_to)

    async def start_round(self, event_id: str) -> None:
        """DC11: the round timer starts on every table of the round."""
        live = self.live(event_id)
        if live.state.current is None:
            raise RuleError("pair a round first")
        await live.start_round()
        self._save(self.live(event_id), "start_round", round=live.state.current.number)

    async def call_time(self, event_id: str) -> None:
        """DC11: time is called on every table still playing."""
        live = self.live(event_id)
        if live.state.current is None:
            raise RuleError("no round is running")
        extended = await live.call_time()
        self._save(
            self.live(event_id), "call_time", round=live.state.current.number, later=extended
        )

    async def extend(self, event_id: str, table_id: str, minutes: int, reason: str) -> RwGame:
        """Lost and Damaged Components: `minutes` more on one table's round timer, with
        the reason its players read; the organiser's action names the table."""
        live = self.live(event_id)
        number, game_no = live.table_key(table_id)
        game = await live.extend(table_id, minutes, reason)
        self._save(
            self.live(event_id),
            "extend_table",
            table=table_id,
            round=number,
            game=game_no,
            minutes=minutes,
            reason=reason.strip(),
        )
        return game

    def collect(self, event_id: str) -> int:
        """Every finished table's result into the stored event."""
        live = self.live(event_id)
        taken = live.collect()
        if taken:
            self._save(live, "results_in", count=taken)
        return taken

    # -- the organiser's results ---------------------------------------------------

    async def enter_result(
        self, event_id: str, table_id: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """TS11/ST5: the organiser enters or corrects a table's result: both players'
        entries, the Final Flurry hits on equal scores, a concession, and the reason.
        It goes on the table (its log keeps it, with what it replaced); a result the
        event already took is corrected there too, so the standings follow, stored with
        the organiser's action in one unit of work."""
        unknown = sorted(set(body) - RESULT_FIELDS)
        if unknown:
            raise BadInput(
                f"a Runewars result has no {', '.join(unknown)} (it takes "
                f"{', '.join(sorted(RESULT_FIELDS))})"
            )
        command = judge_from_wire(body)
        live = self.live(event_id)
        number, game_no = live.table_key(table_id)
        game = await live.judge(table_id, command)
        fresh = self.live(event_id)  # what changed while the table took it stays
        corrected = fresh.take_judged(table_id)
        action = "correct_result" if corrected else "enter_result"
        self._save(
            fresh, action, table=table_id, round=number, game=game_no, reason=command.reason.strip()
        )
        view = engine_view(game, self.time.now_ms())
        return {
            "table_id": table_id,
            "round": number,
            "game": game_no,
            "corrected": corrected,
            "result": view["result"],
            "correction": view["correction"],
        }

    # -- the players' own links -----------------------------------------------------

    def player_links(self, event_id: str, base: str) -> list[dict[str, Any]]:
        """Each player's own link (their registration slip), in registration order."""
        event, live = self.book.event(event_id), self.live(event_id)
        return [
            {
                "id": p.id,
                "name": p.name,
                "army_value": p.army_value,
                "url": player_link(base, event_id, player_key(event.admin_token, event_id, p.id)),
            }
            for p in live.state.players
        ]

    def me(self, event_id: str, key: str | None, base: str) -> dict[str, Any]:
        """The player's own page, by the key of their link."""
        event, live = self.book.event(event_id), self.live(event_id)
        live.collect()  # results from the live tables, shown before they are stored
        return my_page(live, event.name, player_by_key(live, event.admin_token, key), base)

    # -- reading ------------------------------------------------------------------

    def standings(self, event_id: str) -> list[Standing]:
        live = self.live(event_id)
        live.collect()
        return live.standings()

    def standings_csv(self, event_id: str) -> str:
        live = self.live(event_id)
        live.collect()
        return live.standings_csv()

    def view(self, event_id: str, admin: bool = True) -> dict[str, Any]:
        """The event as the EO (`admin`) or the public sees it (and the dashboard draws):
        the public sees a round's cards and pairings once it has started."""
        event = self.book.event(event_id)
        live = self.live(event_id)
        live.collect()  # results from the live tables, shown before they are stored
        return event_view(event, live, self.name, admin)
