// Event admin: the players list and editor, and the round buttons.
import * as DC from "./common.js";
import { deletePlayer, draftNote, draftNumber, endRound, startRound, wireDraft } from "./admin-draft.js";
import { renderSection, showError } from "./admin-sections.js";
import { ask } from "./confirm.js";
import { $, S, api, base, current, el, load, playerName, run, sheetHref, toast } from "./admin-state.js";

// ---------------------------------------------------------------- players

export function renderPlayers() {
  const players = S.view.players;
  const ev = S.view.event;
  const active = players.filter((p) => !p.dropped && !p.cut).length;
  DC.setText($("player-count"), players.length ? String(active) + (active !== players.length ? " of " + players.length : "") : "");
  $("no-players").hidden = players.length > 0;
  // Once the event is over nobody joins it (the server refuses too): no add, no import.
  // Nor, once the cut's round is under way, does anyone join the top X's rounds (RP1).
  ["add-player", "import"].forEach((id) => ($(id).hidden = !!ev.over || !!ev.cut_final));
  $("players-closed").hidden = !ev.over;
  $("players-cut").hidden = !!ev.over || !ev.cut_final;
  DC.setText($("players-cut-x"), String(ev.cut_to_top || ""));
  const key = JSON.stringify([players, S.editPlayer, ev.lists, ev.lists_locked, ev.cut_final]);
  renderSection("players", key, () => {
    const body = $("players-body");
    body.textContent = "";
    players.forEach((p) => body.append(...(p.id === S.editPlayer ? [playerEditor(p)] : playerRows(p))));
  });
}

// A player's row, and under it their lists across the whole column, wrapped and whole.
export function playerRows(p) {
  if (!p.lists) return [playerRow(p, "")];
  const lists = el("div", { class: "lists small", text: p.lists });
  const row = el("tr", { class: "player-lists" + (p.dropped || p.cut ? " out" : ""), "data-lists-of": p.id }, el("td", { colspan: "2" }, lists));
  return [playerRow(p, " has-lists"), row];
}

function playerRow(p, more) {
  // Why a player is out, in the standings' words: a disqualification first (it drops the
  // player too), then the player's own drop, then the cut.
  let state = null;
  if (p.disqualified) state = el("span", { class: "tag dropped disqualified", text: "disqualified" });
  else if (p.dropped) state = el("span", { class: "tag dropped", text: "dropped" });
  else if (p.cut) state = el("span", { class: "tag cut", text: "not in the cut" });
  else if (p.joined_round > 1) state = el("span", { class: "tag late", title: "Late: a loss for each round missed", text: "from round " + p.joined_round });
  // A disqualified player cannot rejoin: the disqualification is lifted under Warnings and
  // penalties first; once the event is over nobody drops or rejoins (the server refuses
  // both too).
  const shutOut = p.cut && p.dropped && S.view.event.cut_final; // left out by the cut: no rejoin
  const dropBtn = p.disqualified || S.view.event.over || shutOut ? null : el("button", {
    type: "button",
    class: "btn small subtle" + (p.dropped ? " rejoin" : " drop"),
    id: "drop-" + p.id,
    text: p.dropped ? "Rejoin" : "Drop",
    title: p.dropped ? "Pair this player again from the next round" : "Not paired again",
  });
  if (dropBtn) dropBtn.addEventListener("click", () => dropPlayer(p, dropBtn));
  return el(
    "tr",
    { class: "player" + more + (p.dropped || p.cut ? " out" : ""), "data-player-id": p.id },
    el(
      "td",
      { class: "pname" },
      el("div", { class: "pline" }, el("strong", { text: p.name }), state),
      about(p)
    ),
    el(
      "td",
      { class: "row-actions" },
      el("button", { type: "button", class: "btn small subtle", id: "edit-" + p.id, text: "Edit", onclick: () => editPlayer(p) }),
      dropBtn,
      played(p.id) ? null : el("button", { type: "button", class: "btn small subtle danger", id: "delete-" + p.id, text: "Delete", title: "Added by mistake: remove before they play", onclick: (ev) => deletePlayer(p, ev.currentTarget) }),
      el("a", { class: "btn small subtle", href: sheetHref(p.id), title: "Record sheet", text: "Sheet" })
    )
  );
}

// Faction, club and, at a world final, the qualifier points the player is seeded by.
function about(p) {
  const bits = [p.faction, p.club ? "Club: " + p.club : ""];
  if (p.seed_qp !== null && p.seed_qp !== undefined) bits.push(p.seed_qp + (p.seed_qp === 1 ? " qualifier point" : " qualifier points"));
  const text = bits.filter((b) => b).join(" · ");
  return text ? el("div", { class: "muted small", "data-about": p.id, text: text }) : null;
}

// Paired in a round that has started: the player stays in the record (drop, not delete).
function played(playerId) {
  return S.view.rounds.some((r) => r.started_ms !== null && r.pairings.some((x) => x.p1.id === playerId || (x.p2 && x.p2.id === playerId)));
}

export function editPlayer(p) {
  S.editPlayer = p.id;
  S.playerDraft = { name: p.name, faction: p.faction, club: p.club || "", lists: p.lists, note: p.list_note || "", painted: !!p.painted, reason: "" };
  renderPlayers();
  const input = $("edit-name");
  if (input) input.focus();
}

export function playerEditor(p) {
  const d = S.playerDraft;
  const error = el("p", { class: "form-error", id: "edit-error", role: "alert", hidden: true });
  const save = el("button", { type: "submit", class: "btn small primary", id: "edit-save", text: "Save" });
  const form = el(
    "form",
    { class: "player-edit", id: "player-edit", autocomplete: "off" },
    el(
      "div",
      { class: "row" },
      el("input", { id: "edit-name", type: "text", maxlength: "60", value: d.name, "aria-label": "Name", oninput: (e) => (d.name = e.target.value) }),
      el("input", { id: "edit-faction", type: "text", maxlength: "60", value: d.faction, list: "factions", placeholder: "Faction", "aria-label": "Faction", oninput: (e) => (d.faction = e.target.value) }),
      el("input", { id: "edit-club", type: "text", maxlength: "60", value: d.club, placeholder: "Club, team or travel group", "aria-label": "Club, team or travel group", oninput: (e) => (d.club = e.target.value) })
    ),
    el("textarea", { id: "edit-lists", maxlength: "4000", rows: "3", placeholder: "Lists", "aria-label": "Lists", oninput: (e) => (d.lists = e.target.value) }, d.lists),
    el(
      "div",
      { class: "row" },
      el("input", { id: "edit-note", type: "text", maxlength: "300", value: d.note, placeholder: "EO note: lets refused lists stand", "aria-label": "EO note letting refused lists stand", oninput: (e) => (d.note = e.target.value) }),
      el("label", { class: "check-row small" }, el("input", { id: "edit-painted", type: "checkbox", checked: d.painted, onchange: (e) => (d.painted = e.target.checked) }), " Painted")
    ),
    // Round 1 has started: the lists are locked, and a fix says why (in the EO's log).
    S.view.event.lists_locked
      ? el("input", { id: "edit-reason", type: "text", maxlength: "300", value: d.reason, placeholder: "Lists are locked: reason for fixing them (kept in the EO log)", "aria-label": "Reason for fixing the locked lists", oninput: (e) => (d.reason = e.target.value) })
      : null,
    el(
      "div",
      { class: "form-buttons" },
      save,
      el("button", {
        type: "button",
        class: "btn small subtle",
        text: "Cancel",
        onclick: () => {
          S.editPlayer = null;
          renderPlayers();
        },
      })
    ),
    error
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    run(save, error, async () => {
      await api("PUT", base + "/players/" + encodeURIComponent(p.id), { eo: true, json: { name: d.name, faction: d.faction, club: d.club, lists: d.lists, list_note: d.note, painted: d.painted, reason: d.reason } });
      S.editPlayer = null;
      toast("Saved " + d.name.trim(), "info");
      await load(true);
    });
  });
  return el("tr", { class: "player editing", "data-player-id": p.id }, el("td", { colspan: "2" }, form));
}

// RP7: a drop or a rejoin asks first: with a round paired and not started it pairs that
// round again (the seat links and cards handed out stop working), and a rejoin gives a
// loss for each round played without the player.
export async function dropPlayer(p, button) {
  const dropped = !p.dropped;
  const before = draftNumber();
  if (!(await ask(dropped ? dropQuestion(p, before) : rejoinQuestion(p, before)))) return;
  run(button, null, async () => {
    await api("POST", base + "/players/" + encodeURIComponent(p.id) + "/drop", { eo: true, json: { dropped: dropped } });
    await load(true);
    toast((dropped ? p.name + " dropped: not paired again" : p.name + " rejoins" + (before === null ? " from the next round" : "")) + draftNote(before), "info");
  });
}

// who: the name of the player (or "the players imported") the draft is paired again with or without.
function draftLine(who, draft, dropped) {
  if (draft === null) return "";
  return "Round " + draft + " is paired but not started: it is paired again " + (dropped ? "without " : "with ") + who + ". Table cards and seat links already handed out for round " + draft + " stop working: print its cards again.";
}

function dropQuestion(p, draft) {
  return {
    title: "Drop " + p.name + "?",
    lines: [p.name + " is not paired again. Rejoin brings " + p.name + " back later, with a loss for each round missed.", draftLine(p.name, draft, true)].filter(Boolean),
    confirm: "Drop " + p.name,
    danger: true,
  };
}

// The rounds started without the player since they joined: a loss each once they rejoin.
function missedRounds(p) {
  const plays = (x) => x.p1.id === p.id || (x.p2 && x.p2.id === p.id);
  return S.view.rounds.filter((r) => r.started_ms !== null && r.number >= (p.joined_round || 1) && !r.pairings.some(plays)).map((r) => r.number);
}

// A player added, or players imported, while a round is a draft: it is paired again (or
// discarded), so the cards and seat links handed out for it stop working. Asked only then.
function addQuestion(name, draft) {
  return {
    title: "Add " + name + "?",
    lines: [name + " joins the event.", draftLine(name, draft, false)],
    confirm: "Add " + name,
  };
}

function importQuestion(draft) {
  return {
    title: "Import the players in this CSV?",
    lines: ["Every line that can be read adds a player to the event.", draftLine("the players imported", draft, false)],
    confirm: "Import",
  };
}

function rejoinQuestion(p, draft) {
  const missed = missedRounds(p);
  const next = draft !== null ? draft : S.view.rounds.filter((r) => r.started_ms !== null).length + 1;
  const n = missed.length;
  const losses =
    n === 0
      ? "No round was played without " + p.name + ", so no loss is added."
      : n === 1
        ? "Round " + missed[0] + " was played without " + p.name + ": it counts as a loss."
        : "Rounds " + missed.slice(0, -1).join(", ") + " and " + missed[n - 1] + " were played without " + p.name + ": " + n + " rounds count as losses.";
  return {
    title: "Let " + p.name + " rejoin?",
    lines: [p.name + " is paired again from round " + next + ".", losses, draftLine(p.name, draft, false)].filter(Boolean),
    confirm: "Rejoin " + p.name,
  };
}

export function wirePlayers() {
  const form = $("add-player");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("new-name").value;
    const before = draftNumber();
    if (before !== null && name.trim() && !(await ask(addQuestion(name.trim(), before)))) return;
    run($("add-player-btn"), $("player-error"), async () => {
      if (!name.trim()) throw new Error("A player needs a name.");
      const added = await api("POST", base + "/players", {
        eo: true,
        json: { name: name, faction: $("new-faction").value, club: $("new-club").value, lists: $("new-lists").value, list_note: $("new-note").value, painted: $("new-painted").checked },
      });
      $("new-name").value = "";
      $("new-faction").value = "";
      $("new-club").value = "";
      $("new-lists").value = "";
      $("new-note").value = "";
      $("new-painted").checked = false;
      $("import-result").hidden = true; // its count was the import's: the list has moved on
      $("new-name").focus();
      await load(true);
      toast("Added " + added.name + (added.joined_round > 1 ? " — plays from round " + added.joined_round : "") + draftNote(before), "info");
    });
  });

  $("import-file").addEventListener("change", (ev) => {
    const file = ev.target.files && ev.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      $("import-text").value = String(reader.result || "");
    };
    reader.onerror = () => showError($("import-error"), "Could not read that file.");
    reader.readAsText(file);
  });

  $("import-btn").addEventListener("click", async () => {
    const box = $("import-result");
    const before = draftNumber();
    if (before !== null && $("import-text").value.trim() && !(await ask(importQuestion(before)))) return;
    box.hidden = true;
    run($("import-btn"), $("import-error"), async () => {
      const text = $("import-text").value;
      if (!text.trim()) throw new Error("Choose a CSV file or paste the CSV text first.");
      const out = await api("POST", base + "/players/import", { eo: true, csv: text });
      box.textContent = "";
      const count = out.added.length;
      box.append(el("p", { class: "import-count" }, el("strong", { id: "import-added", text: String(count) }), count === 1 ? " player added." : " players added."));
      if (out.errors.length) {
        box.append(
          el("p", { class: "warning", text: out.errors.length + (out.errors.length === 1 ? " line was skipped:" : " lines were skipped:") }),
          el("ul", { id: "import-errors", class: "import-errors" }, out.errors.map((e) => el("li", { text: e })))
        );
      } else {
        $("import-text").value = "";
        $("import-file").value = "";
      }
      box.hidden = false;
      await load(true);
      if (count && before !== null) toast(count + (count === 1 ? " player added" : " players added") + draftNote(before), "info");
    });
  });
}

// ---------------------------------------------------------------- rounds

export function wireRounds() {
  $("pair-round").addEventListener("click", () => {
    const scenario = $("scenario").value || null;
    run($("pair-round"), $("round-error"), async () => {
      const r = await api("POST", base + "/rounds", { eo: true, json: { scenario: scenario } });
      S.warnings = [];
      S.shownRound = null;
      toast("Round " + r.number + " paired — " + r.scenario.name, "info");
      await load(true);
    });
  });

  $("swap").addEventListener("click", async () => {
    const a = $("swap-a").value;
    const b = $("swap-b").value;
    const r = current();
    if (a && b && a !== b && r && r.started_ms === null && !(await ask(swapQuestion(r, a, b)))) return;
    run($("swap"), $("round-error"), async () => {
      if (!a || !b) throw new Error("Choose the two players to swap.");
      if (a === b) throw new Error("Choose two different players.");
      const out = await api("POST", base + "/rounds/current/swap", { eo: true, json: { a: a, b: b } });
      S.warnings = out.warnings || [];
      $("swap-a").value = "";
      $("swap-b").value = "";
      S.rendered.warnings = null;
      toast("Swapped " + playerName(a) + " and " + playerName(b), S.warnings.length ? "error" : "info");
      await load(true);
      if (S.warnings.length) $("swap-warnings").scrollIntoView({ block: "nearest" });
    });
  });

  $("start-round").addEventListener("click", () => startRound());
  $("end-round").addEventListener("click", () => endRound());
  wireDraft();
}

// A swap asks first: both tables are opened again (new seat links: the cards handed out
// for them stop working) and the round's notes keep the swap for good.
function seatOf(r, id) {
  const p = r.pairings.find((x) => x.p1.id === id || (x.p2 && x.p2.id === id));
  return p ? { pairing: p, other: p.p1.id === id ? p.p2 : p.p1 } : null;
}

function moveWords(name, from, to) {
  const was = from.pairing.p2 ? "table " + from.pairing.table : "the bye";
  const goes = to.pairing.p2 ? "table " + to.pairing.table + ", against " + to.other.name : "the bye";
  return name + " (now " + was + ") moves to " + goes + ".";
}

function swapQuestion(r, a, b) {
  const an = playerName(a);
  const bn = playerName(b);
  const sa = seatOf(r, a);
  const sb = seatOf(r, b);
  const lines = [];
  if (sa && sb && sa.pairing === sb.pairing) lines.push(an + " and " + bn + " change seats at table " + sa.pairing.table + ".");
  else if (sa && sb) lines.push(moveWords(an, sa, sb), moveWords(bn, sb, sa));
  const tables = [sa, sb].filter((s) => s && s.pairing.p2).map((s) => s.pairing.table).filter((t, i, all) => all.indexOf(t) === i).sort((x, y) => x - y);
  if (tables.length) {
    const which = tables.length === 1 ? "Table " + tables[0] + " gets" : "Tables " + tables[0] + " and " + tables[1] + " get";
    lines.push(which + " new seat links: the table cards and seat links already handed out for " + (tables.length === 1 ? "it" : "them") + " stop working. Print " + (tables.length === 1 ? "its table card" : "their table cards") + " again.");
  }
  return {
    title: "Swap " + an + " and " + bn + "?",
    lines: lines,
    note: "This cannot be undone: the round's notes keep “" + an + " and " + bn + " were swapped by the EO”.",
    confirm: "Swap them",
    danger: true,
  };
}
