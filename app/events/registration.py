"""An event's record and its players: creating the event, registering, correcting,
dropping and importing players (CSV). Each use case is one transaction; a change of
the field while a round is a draft pairs the draft again (`Control`)."""

from __future__ import annotations

import csv
import io
import secrets

from app.domain import variants
from app.domain.army_lists import ListChecks, check_length, list_texts, tidy
from app.domain.errors import BadInput, RuleError
from app.domain.formats import ListRule, get_format
from app.domain.prizes import painting_category
from app.domain.rankings import BASELINE, get_ranking
from app.domain.tournament import RoundPlan
from app.events.base import EventSpec, cut_final, list_policy
from app.events.book import EventBook
from app.events.control import Control
from app.events.event_lists import lists_locked
from app.events.tournaments import Tournaments
from app.store.models import EoAction, EventRecord, PlayerEntry
from app.tables.hub import TableHub, new_id, new_token
from app.tables.timesource import TimeSource


def _clean(name: str, faction: str, lists: str) -> tuple[str, str, str]:
    name, faction, lists = name.strip(), faction.strip(), tidy(lists)
    if not name or len(name) > 60:
        raise BadInput("a player needs a name (60 characters at most)")
    if len(faction) > 60:
        raise BadInput("faction is 60 characters at most")
    check_length(lists)
    return name, faction, lists


def _club(club: str) -> str:
    club = " ".join(club.split())
    if len(club) > 60:
        raise BadInput("a club is 60 characters at most")
    return club


#: A player as registered: name, faction, lists, their Painting Required declaration,
#: and their club, team or travel group ("": none).
Row = tuple[str, str, str, bool, str]

#: What a CSV's "painted" column says for yes.
YES = frozenset({"yes", "y", "true", "1", "x", "painted"})


def csv_rows(text: str) -> list[tuple[int, Row]]:
    """CSV with a header row: name, faction, lists, painted, club (all but name optional);
    each row with the line of the file it starts on (a quoted list may take several)."""
    if len(text) > 200_000:
        raise BadInput("the CSV file is too large (200 kB at most)")
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "name" not in fields:
        raise BadInput("the CSV needs a header row with a 'name' column")
    rows: list[tuple[int, Row]] = []
    line = reader.line_num + 1
    for row in reader:
        clean = {(k or "").strip().lower(): (v or "") for k, v in row.items()}
        painted = clean.get("painted", "").strip().lower() in YES
        player = (
            clean.get("name", ""),
            clean.get("faction", ""),
            clean.get("lists", ""),
            painted,
            clean.get("club", ""),
        )
        rows.append((line, player))
        line = reader.line_num + 1
    return rows


class Registration:
    """The event's record and its field of players."""

    def __init__(
        self,
        book: EventBook,
        hub: TableHub,
        time: TimeSource,
        control: Control,
        tournaments: Tournaments,
        players_per_event: int = 1024,
    ) -> None:
        self.book = book
        self.hub = hub
        self.time = time
        self.control = control
        self.tournaments = tournaments
        self.players_per_event = players_per_event

    # -- events -------------------------------------------------------------------

    def create_event(self, spec: EventSpec) -> EventRecord:
        """An event by the EO's spec; a format whose events run by rules of their own
        has its tournament policy create it."""
        policy = self.tournaments.of_format(spec.format_id)
        if policy is not None:
            return policy.create(spec)
        fmt = get_format(spec.format_id)
        if spec.clock_minutes is None:
            fmt.player_clock_ms(spec.points)
        elif not 1 <= spec.clock_minutes <= 360:
            raise BadInput("the player clock is between 1 and 360 minutes")
        name = spec.name.strip()
        if not name or len(name) > 120:
            raise BadInput("the event needs a name (120 characters at most)")
        list_rule = fmt.list_rule(spec.lists)
        roster = tidy(spec.roster)
        if spec.fixed_rounds is not None and not 1 <= spec.fixed_rounds <= 12:
            raise BadInput("a fixed round count is between 1 and 12")
        if spec.cut_to_top is not None and not 2 <= spec.cut_to_top <= self.players_per_event:
            raise BadInput(
                f"Cut to Top X takes any X from 2 to the number of players "
                f"({self.players_per_event} at most)"
            )
        varied = spec.fixed_rounds, spec.cut_to_top, spec.standings != BASELINE.id
        if not fmt.round_variants and any(varied):
            raise BadInput(
                f"{fmt.name} events run by its own document: its round counts and final "
                "standings, with no fixed round count, Cut to Top or standings variant"
            )
        RoundPlan(rounds=spec.fixed_rounds, cut_to_top=spec.cut_to_top)
        ranking = get_ranking(spec.standings)
        category = painting_category(fmt.prizes, spec.painting_category)
        chosen = variants.parse(spec.variants, fmt.variants, fmt.name)
        if chosen.timing is not None:
            chosen.timing.timing(spec.points)  # a size the Classic table has
        list_rule.with_roster(variants.list_checks(spec.variants, spec.points), roster)
        event = EventRecord(
            id=new_id(),
            name=name,
            format_id=fmt.id,
            points=spec.points,
            lists=list_rule.lists,
            fixed_rounds=spec.fixed_rounds,
            cut_to_top=spec.cut_to_top,
            standings=ranking.id,
            painting_category=category,
            clock_minutes=spec.clock_minutes,
            pregame=spec.pregame,
            fresh_tables=spec.fresh_tables,
            variants=",".join(v for v in variants.ALL if v in spec.variants),
            roster=roster,
            admin_token=new_token(),
            created_ms=self.time.now_ms(),
        )
        with self.book.unit() as repo:
            repo.add(event)
        return event

    def _still_open(self, event_id: str, what: str) -> None:
        """RP1: once the event is over nobody joins it: a player more would reopen it (a
        9th player raises 8 players' 3 rounds to 4, its prizes turn provisional again).
        While it runs a late arrival joins from the next round (RP7)."""
        if self.control.rounds.results.event_over(event_id):
            raise RuleError(f"the event is over: {what} (its standings are final)")

    def _before_the_cut(self, event_id: str, what: str) -> None:
        """RP1: once the cut is made, "the remaining tournament rounds are only played by
        the top X players": nobody new joins them. A cut made by a draft not started yet
        is made again when the draft is paired again (`follow_draft`): until then the
        door is open."""
        event = self.book.event(event_id)
        rounds, actions = self.book.rounds(event_id), self.book.actions(event_id)
        if cut_final(event, rounds, actions):
            top = event.cut_to_top
            raise RuleError(
                f"the cut to the top {top} is made: {what} (the remaining rounds are "
                f"played by the top {top} players only)"
            )

    def _next_to_play(self, event_id: str) -> int:
        """The first round a player added or rejoining now plays: a round paired but
        not started yet takes them in (it is paired again)."""
        return sum(1 for r in self.book.rounds(event_id) if r.started_ms is not None) + 1

    # -- players ------------------------------------------------------------------

    def add_player(
        self,
        event_id: str,
        name: str,
        faction: str = "",
        lists: str = "",
        list_note: str = "",
        painted: bool = False,
        club: str = "",
    ) -> PlayerEntry:
        """Register a player; a late arrival joins from the next round (RP7: losses before).
        The EO's `list_note` lets lists stand that the list rules would refuse; `painted`
        declares the army meets the event's Painting Required standard; `club` is their
        club, team or travel group, kept apart from each other in round 1."""
        self.book.require(event_id, "players")
        self._still_open(event_id, "no player can be added now")
        self._before_the_cut(event_id, "no player can be added now")
        row = (name, faction, lists, painted, club)
        added, errors = self._add_players(event_id, [row], list_note)
        if errors:
            raise BadInput(errors[0][1])
        self.control.follow_draft(event_id, f"{added[0].name} added")
        return added[0]

    def _check_new(
        self,
        raw: Row,
        policy: tuple[ListRule, ListChecks],
        taken: set[str],
        points: int,
        note: str,
    ) -> str:
        name, _, lists, painted, _ = raw
        rule, checks = policy
        rule.check_lists(list_texts(lists), points, note, checks=checks, painted=painted)
        if name.lower() in taken:
            raise BadInput(f"{name} is already registered")
        if len(taken) >= self.players_per_event:
            raise BadInput(
                f"an event takes {self.players_per_event} players at most "
                f"({self.players_per_event // 2} tables)"
            )
        return name

    def _add_players(
        self, event_id: str, rows: list[Row], note: str = ""
    ) -> tuple[list[PlayerEntry], list[tuple[int, str]]]:
        """Register several players in one transaction; bad rows come back by index."""
        event = self.book.event(event_id)
        policy = list_policy(event)
        note = note.strip()[:300]
        taken = {p.name.lower() for p in self.book.players(event_id)}
        joined_round = self._next_to_play(event_id)
        added: list[PlayerEntry] = []
        errors: list[tuple[int, str]] = []
        for index, raw in enumerate(rows):
            try:
                name, faction, lists = _clean(*raw[:3])
                painted, club = raw[3], _club(raw[4])
                row = (name, faction, lists, painted, club)
                self._check_new(row, policy, taken, event.points, note)
            except RuleError as exc:
                errors.append((index, exc.message))
                continue
            taken.add(name.lower())
            added.append(
                PlayerEntry(
                    id=secrets.token_hex(4),
                    event_id=event_id,
                    name=name,
                    faction=faction,
                    lists=lists,
                    list_note=note,
                    painted=painted,
                    club=club,
                    joined_round=joined_round,
                )
            )
        if added:
            with self.book.unit() as repo:
                for player in added:
                    repo.add(
                        player,
                        self.book.action(
                            event_id, "add_player", player=player.id, name=player.name
                        ),
                    )
            self.book.changed(event_id)
        return added, errors

    def edit_player(
        self,
        event_id: str,
        player_id: str,
        name: str,
        faction: str,
        lists: str,
        list_note: str = "",
        painted: bool | None = None,
        reason: str = "",
        club: str | None = None,
    ) -> PlayerEntry:
        """Correct a player; `painted` None keeps their Painting Required declaration,
        `club` None their club.
        Once the event starts the lists are locked: the EO fixes them with a `reason`,
        which the EO's log keeps."""
        self.book.require(event_id, "players")
        player = self.book.player(event_id, player_id)
        name, faction, lists = _clean(name, faction, lists)
        others = {p.name.lower(): p.name for p in self.book.players(event_id) if p.id != player_id}
        if name.lower() in others:
            raise BadInput(
                f"{others[name.lower()]} is already registered: two players cannot share a name"
            )
        event = self.book.event(event_id)
        note = list_note.strip()[:300]
        painted = player.painted if painted is None else painted
        club = player.club if club is None else _club(club)
        rule, checks = list_policy(event)
        rule.check_lists(list_texts(lists), event.points, note, checks=checks, painted=painted)
        action = self._list_fix(event_id, player, (lists, painted), reason, name)
        was = player.name  # a rename has a row of its own, with both names
        rows = [] if action is None else [action]
        if action is None or was != name:
            rows.append(
                self.book.action(event_id, "edit_player", player=player_id, name=name, was=was)
            )
        with self.book.unit() as repo:
            player.name, player.faction, player.lists = name, faction, lists
            player.list_note, player.painted, player.club = note, painted, club
            repo.add(player, *rows)
        for room in self.hub.event_tables(event_id):  # the tables show the name as corrected
            if room.meta is not None and player_id in (room.meta.p1_player, room.meta.p2_player):
                names = list(room.game.setup.names)
                names[0 if room.meta.p1_player == player_id else 1] = name
                room.rename_players((names[0], names[1]))
        self.book.changed(event_id)
        return player

    def _list_fix(
        self,
        event_id: str,
        player: PlayerEntry,
        wanted: tuple[str, bool],
        reason: str,
        name: str,
    ) -> EoAction | None:
        """The EO's log row of a fix to locked lists (None: the lists are not locked, or
        not changed); a fix needs the EO's reason."""
        if wanted == (player.lists, player.painted) or not lists_locked(self.book, event_id):
            return None
        reason = reason.strip()[:300]
        if not reason:
            raise BadInput(
                f"the event has started: {name}'s lists are locked; give the reason "
                "for fixing them (it goes in the EO's log)"
            )
        return self.book.action(event_id, "fix_lists", player=player.id, name=name, reason=reason)

    def drop_player(self, event_id: str, player_id: str, dropped: bool = True) -> PlayerEntry:
        """RP7: a dropped player is not paired again; undropping rejoins them."""
        self.book.require(event_id, "players")
        player = self.book.player(event_id, player_id)
        if not dropped and player.disqualified:
            raise RuleError(f"{player.name} is disqualified: lift the disqualification first")
        self._still_open(
            event_id, f"{player.name} cannot {'drop from' if dropped else 'rejoin'} it"
        )
        if not dropped and player.cut:
            self._before_the_cut(event_id, f"{player.name} is not in the cut")
        next_round = self._next_to_play(event_id)
        with self.book.unit() as repo:
            player.dropped = dropped
            if not dropped:
                player.joined_round = max(player.joined_round, next_round)
            action = self.book.action(event_id, "drop" if dropped else "rejoin", player=player_id)
            repo.add(player, action)
        self.book.changed(event_id)
        self.control.follow_draft(event_id, f"{player.name} {'dropped' if dropped else 'rejoined'}")
        return player

    def import_players(self, event_id: str, text: str) -> tuple[list[PlayerEntry], list[str]]:
        """CSV with a header row: name, faction, lists, painted, club (all but name optional)."""
        self.book.require(event_id, "players")
        self._still_open(event_id, "no player can be imported now")
        self._before_the_cut(event_id, "no player can be imported now")
        rows = csv_rows(text)
        added, errors = self._add_players(event_id, [row for _, row in rows])
        if added:
            self.control.follow_draft(event_id, f"{len(added)} players imported")
        return added, [f"line {rows[index][0]}: {message}" for index, message in errors]
