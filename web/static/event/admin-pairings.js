// Event admin: the pairings of a round and the result editor.
import * as DC from "./common.js";
import { renderSection } from "./admin-sections.js";
import { ask } from "./confirm.js";
import { $, S, api, base, el, findTable, liveStatus, load, rounds, run, sheetHref, shownRound, toast } from "./admin-state.js";
import { detail, detailKey, disputeBox, linksButton, linksRow, loadDetail, whenDetail } from "./admin-tables.js";

whenDetail(() => {
  S.rendered.pairings = null;
  renderPairings();
});

export function renderPairings() {
  const all = rounds();
  const shown = shownRound();
  $("no-rounds").hidden = all.length > 0;
  $("pairings").hidden = !all.length;

  renderSection("tabs", all.map((r) => r.number).join(",") + "|" + (shown ? shown.number : ""), () => {
    const tab = (r) => ({ id: "round-tab-" + r.number, text: "Round " + r.number });
    DC.fillRoundTabs($("round-tabs"), all, shown, tab, (number) => {
      S.shownRound = number;
      renderPairings();
    });
  });
  renderNotes(shown);
  if (!shown) {
    $("pairings-body").textContent = "";
    return;
  }
  const statuses = shown.pairings.map(liveStatus);
  const key = JSON.stringify([shown, statuses, S.editResult, S.view.event.lists, S.openLinks, detailKey(shown.pairings)]);
  renderSection("pairings", key, () => {
    const body = $("pairings-body");
    body.textContent = "";
    shown.pairings.forEach((p, i) => {
      body.append(pairingRow(shown, p, statuses[i]));
      if (p.table_id && p.p2 && p.table_id === S.openLinks) body.append(linksRow(p));
      if (p.table_id && p.table_id === S.editResult) body.append(resultEditor(shown, p));
    });
  });
}

// Why the shown round is paired as it is: each pair-down, club clash, rematch, table again.
function renderNotes(shown) {
  const notes = shown && shown.notes ? shown.notes : [];
  const box = $("round-notes");
  box.hidden = !notes.length;
  renderSection("round-notes", JSON.stringify([shown ? shown.number : null, notes]), () => {
    box.textContent = "";
    if (!notes.length) return;
    box.open = shown.started_ms === null; // open while the EO can still change the draft
    box.append(
      el("summary", { text: "How round " + shown.number + " was paired (" + notes.length + (notes.length === 1 ? " note)" : " notes)") }),
      el("ul", { id: "round-notes-list" }, notes.map((n) => el("li", { text: n })))
    );
  });
}

export function playerCell(player, pairing) {
  if (!player) return el("td", { class: "bye-cell" }, el("span", { class: "muted", text: "Bye" }));
  const down = pairing.paired_down === player.id;
  return el(
    "td",
    null,
    el("a", { href: sheetHref(player.id), class: "plain", text: player.name }),
    // Decided at the table, by the starting roll: shown once it is.
    pairing.first === player.id ? el("span", { class: "tag first", title: "Decided at the table: deploys and plays first", text: pairing.result ? "went first" : "goes first" }) : null,
    down ? el("span", { class: "tag down", title: "Paired down: their opponent is from the group below, with fewer tournament points", text: "paired down" }) : null
  );
}

export function pairingRow(round, p, status) {
  const names = [p.p1.name, p.p2 ? p.p2.name : "Bye"];
  const call = round.end_calls && p.table_id ? round.end_calls[p.table_id] : null;
  const resultCell = el("td", { class: "result-cell" });
  if (!p.p2) {
    resultCell.append(el("span", { class: "muted", text: "Bye (win)" }));
  } else if (p.result) {
    resultCell.append(DC.resultText(p.result, names, S.view.event.tie_word));
    if (p.result.by === "eo") resultCell.append(el("span", { class: "tag eo", title: "Entered by the EO" + (p.result.reason ? ": " + p.result.reason : ""), text: "EO" }));
    if (p.result.correction) resultCell.append(el("span", { class: "tag corrected", title: "Corrected by the EO: " + p.result.correction.reason, text: "corrected" }));
  } else if (status === "disputed") {
    resultCell.append(disputeBox(p, detail(p)) || "", el("span", { class: "warning small", text: "Enter the result." }));
  } else {
    resultCell.append(el("span", { class: "muted", text: "—" }));
  }
  if (call) resultCell.append(el("span", { class: "tag call-" + call, text: call === "tie" ? (S.view.event.tie_word || "Tie").toLowerCase() + " at the round's end" : call === "clock_out" ? "clock ran out" : "plays on past the round's end" }));

  let action = null;
  if (p.table_id && round.started_ms !== null) {
    const open = S.editResult === p.table_id;
    const needs = status === "disputed" || (round.started_ms !== null && !p.result && ["finished", "awaiting_confirmation"].indexOf(status) >= 0);
    action = el("button", {
      type: "button",
      class: "btn small" + (needs ? " attention" : ""),
      id: "result-btn-" + p.table_id,
      "aria-expanded": String(open),
      text: open ? "Close" : p.result ? "Correct" : "Enter result",
      onclick: () => toggleResult(p.table_id),
    });
  }
  const tools = p.table_id && p.p2 ? el("div", { class: "row-tools" }, action, linksButton(p)) : action;
  return el(
    "tr",
    {
      class: "pairing" + (p.p2 ? "" : " bye") + (status === "disputed" ? " disputed-row" : ""),
      "data-table-id": p.table_id || null,
      "data-table-no": p.p2 ? String(p.table) : null,
    },
    el("td", { class: "num table-no", text: p.p2 ? String(p.table) : "—" }),
    playerCell(p.p1, p),
    playerCell(p.p2, p),
    el("td", { class: "status-cell" }, DC.statusBadge(status)),
    resultCell,
    el("td", { class: "actions-col" }, tools)
  );
}

export async function toggleResult(tableId) {
  const opening = S.editResult !== tableId;
  const found = findTable(tableId);
  // Pre-filled from what the players reported: read the table first.
  if (opening && found && !found.pairing.result && !S.resultDrafts[tableId]) await loadDetail(tableId, liveStatus(found.pairing));
  S.editResult = opening ? tableId : null;
  renderPairings();
  if (S.editResult) {
    const first = $("res-cp1-" + tableId);
    if (first) first.focus({ preventScroll: false });
  }
}

// The editor opens with the result as it stands, else as the table has it (its ending,
// CP and both players' reports: the server's `prefill`). Both are in the pairing's order,
// like the editor (its first player's, then its second's), whoever went first.
export function draftFor(p) {
  if (S.resultDrafts[p.table_id]) return S.resultDrafts[p.table_id];
  const have = S.details[p.table_id];
  const r = p.result || (have && have.data ? have.data.prefill : null);
  const draft = r
    ? {
        winner: r.winner === null ? "tie" : r.winner,
        cp: r.control_points.map(String),
        apd: r.army_points_destroyed.map(String),
        lists: (r.lists || ["", ""]).map(String),
      }
    : { winner: "", cp: ["0", "0"], apd: ["", ""], lists: ["", ""] };
  S.resultDrafts[p.table_id] = draft;
  return draft;
}

export function resultEditor(round, p) {
  const tid = p.table_id;
  const draft = draftFor(p);
  const names = [p.p1.name, p.p2.name];
  const error = el("p", { class: "form-error", id: "res-error-" + tid, role: "alert", hidden: true });
  const save = el("button", { type: "submit", class: "btn primary", id: "res-save-" + tid, text: "Save result" });

  function radio(value, text) {
    const id = "res-winner-" + value + "-" + tid;
    return el(
      "label",
      { class: "seg", for: id },
      el("input", {
        type: "radio",
        name: "winner-" + tid,
        id: id,
        value: value,
        checked: draft.winner === value,
        onchange: () => (draft.winner = value),
      }),
      el("span", { text: text })
    );
  }

  function number(kind, index) {
    const id = "res-" + kind + (index + 1) + "-" + tid;
    return el("input", {
      type: "number",
      inputmode: "numeric",
      min: "0",
      max: "10000",
      step: "1",
      id: id,
      class: "num",
      value: draft[kind][index],
      "aria-label": (kind === "cp" ? "Control points of " : "Army points destroyed by ") + names[index],
      oninput: (ev) => (draft[kind][index] = ev.target.value),
    });
  }

  function listInput(index) {
    return el("input", {
      type: "text",
      maxlength: "200",
      id: "res-list" + (index + 1) + "-" + tid,
      value: draft.lists[index],
      placeholder: "List played",
      "aria-label": "List played by " + names[index],
      oninput: (ev) => (draft.lists[index] = ev.target.value),
    });
  }

  const showLists = S.view.event.lists > 1;
  // A settled result (confirmed by both players, or entered before) moves with a reason,
  // kept in the action log and shown beside the result as a correction. Any result the EO
  // enters may say why: the phones show it with the result.
  const correcting = !!p.result;
  const reasonField = el(
    "label",
    { class: "field", for: "res-reason-" + tid },
    el("span", { text: (correcting ? "Reason for the correction (required" : "Reason (optional") + "; the players and the action log see it)" }),
    el("input", {
      type: "text",
      maxlength: "300",
      id: "res-reason-" + tid,
      value: draft.reason || "",
      oninput: (ev) => (draft.reason = ev.target.value),
    })
  );
  const form = el(
    "form",
    { class: "result-form", id: "result-form-" + tid, "data-table-id": tid, novalidate: true },
    el("div", { class: "result-form-head" }, el("strong", { text: "Table " + p.table + " — result" }), el("span", { class: "muted small", text: "Overrides what the players confirmed." })),
    p.result ? null : disputeBox(p, S.details[p.table_id] ? S.details[p.table_id].data : null),
    p.result || !S.details[p.table_id] ? null : el("p", { class: "muted small prefill-note", text: "Filled in from the players' reports: check, correct and save." }),
    el(
      "fieldset",
      { class: "segmented" },
      el("legend", { text: "Winner" }),
      el("div", { class: "seg-group" }, radio("p1", p.p1.name), radio("tie", S.view.event.tie_word || "Tie"), radio("p2", p.p2.name))
    ),
    el(
      "div",
      { class: "score-grid" + (showLists ? " with-lists" : "") },
      el("span"),
      el("span", { class: "col-head", text: p.p1.name }),
      el("span", { class: "col-head", text: p.p2.name }),
      el("span", { class: "row-head", text: "CP" }),
      number("cp", 0),
      number("cp", 1),
      el("span", { class: "row-head", title: "Army points destroyed", text: "APD" }),
      number("apd", 0),
      number("apd", 1),
      showLists ? el("span", { class: "row-head", text: "List" }) : null,
      showLists ? listInput(0) : null,
      showLists ? listInput(1) : null
    ),
    reasonField,
    el(
      "div",
      { class: "form-buttons" },
      save,
      el("button", { type: "button", class: "btn subtle", text: "Cancel", onclick: () => cancelResult(tid) })
    ),
    error
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    saveResult(p, draft, save, error);
  });
  return el("tr", { class: "editor-row", "data-editor-for": tid }, el("td", { colspan: "6" }, form));
}

export function cancelResult(tid) {
  delete S.resultDrafts[tid];
  S.editResult = null;
  renderPairings();
}

export function wholeNumbers(values, what) {
  const out = [];
  for (const v of values) {
    const text = String(v).trim();
    if (!/^\d+$/.test(text)) throw new Error(what + " must be whole numbers from 0 for both players.");
    out.push(parseInt(text, 10));
  }
  return out;
}

// What the table is doing, for a table with no result yet: a game not over ends when
// the EO's result is saved (on both phones: its clocks stop).
const LIVE_WORDS = {
  waiting: "not started yet",
  pregame: "in its pre-game",
  deploying: "still being played (deployment)",
  playing: "still being played",
  paused: "still being played (its clock is paused)",
};
const NO_RESULT_WORDS = {
  disputed: "disputed, no result yet",
  finished: "over, no result reported yet",
  awaiting_confirmation: "reported, waiting for both players to confirm it",
};

function resultBody(p, draft) {
  if (!draft.winner) throw new Error("Choose the winner, or " + (S.view.event.tie_word || "Tie") + ".");
  const reason = String(draft.reason || "").trim();
  if (p.result && !reason) throw new Error("This result is settled: say why you correct it.");
  return {
    reason: reason,
    winner: draft.winner === "tie" ? null : draft.winner,
    control_points: wholeNumbers(draft.cp, "CP"),
    army_points_destroyed: wholeNumbers(draft.apd.map((x) => (String(x).trim() === "" ? "0" : x)), "APD"),
    method: "eo",
    lists: draft.lists.map((x) => String(x || "")),
  };
}

// TS9: the settled result is this very entry already: saving it changes nothing.
function sameResult(result, body) {
  const same = (a, b) => JSON.stringify((a || []).map(String)) === JSON.stringify((b || []).map(String));
  return (
    (result.winner || null) === body.winner &&
    result.method === body.method &&
    same(result.control_points, body.control_points) &&
    same(result.army_points_destroyed, body.army_points_destroyed) &&
    same(result.lists || ["", ""], body.lists)
  );
}

// The question before a result is saved: the table, both players, the result before and
// after, and whether the game still being played ends now on both phones.
export function resultQuestion(p, body, status) {
  const names = [p.p1.name, p.p2.name];
  const live = !p.result && LIVE_WORDS[status] !== undefined;
  const now = p.result ? DC.resultText(p.result, names, S.view.event.tie_word) : "no result yet; the game is " + (LIVE_WORDS[status] || NO_RESULT_WORDS[status] || DC.statusLabel(status).toLowerCase());
  const items = [];
  if (S.view.event.lists > 1) names.forEach((n, i) => items.push(n + "'s list: " + (body.lists[i] || "none")));
  if (body.reason) items.push("Reason: " + body.reason);
  return {
    title: (p.result ? "Correct the result of table " : "Enter the result of table ") + p.table + "?",
    lines: [
      names[0] + " v " + names[1] + ".",
      "Now: " + now + ".",
      "After: " + DC.resultText(body, names, S.view.event.tie_word) + ".",
      live ? "The game at table " + p.table + " ends now on both phones, " + names[0] + "'s and " + names[1] + "'s: its clocks stop." : null,
      p.result ? "Both phones show the correction, and the standings follow it." : "The result stands at once: both phones show it.",
    ].filter(Boolean),
    items: items,
    confirm: live ? "End the game and save" : p.result ? "Correct the result" : "Save the result",
    danger: live,
  };
}

export async function saveResult(p, draft, button, error) {
  await run(button, error, async () => {
    const body = resultBody(p, draft);
    if (p.result && sameResult(p.result, body)) {
      cancelResult(p.table_id);
      toast("Table " + p.table + " already has this result: nothing changed.", "info");
      return;
    }
    if (!(await ask(resultQuestion(p, body, liveStatus(p))))) return;
    const reply = await api("PUT", base + "/tables/" + encodeURIComponent(p.table_id) + "/result", { eo: true, json: body });
    delete S.resultDrafts[p.table_id];
    S.editResult = null;
    toast(reply && reply.unchanged ? "Table " + p.table + " already had this result: nothing changed." : "Result saved for table " + p.table, "info");
    await load(true);
  });
}

// Opened from the dashboard: ?result=<table id>.
export async function openFromLink() {
  const tid = S.focusTable;
  S.focusTable = null;
  const found = findTable(tid);
  if (!found || !found.pairing.p2) return;
  if (!found.pairing.result) await loadDetail(tid, liveStatus(found.pairing)); // pre-filled
  S.shownRound = found.round.number;
  S.editResult = tid;
  renderPairings();
  const row = document.querySelector('[data-editor-for="' + tid + '"]');
  if (row) {
    row.scrollIntoView({ block: "center" });
    const first = $("res-cp1-" + tid);
    if (first) first.focus({ preventScroll: true });
  }
}
