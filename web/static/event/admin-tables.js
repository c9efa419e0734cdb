// Event admin: one table at a time — its seat links and QR codes again, its card to
// reprint, and a dispute with the players' reasons and both reports.
import * as DC from "./common.js";
import { S, api, base, el, liveStatus } from "./admin-state.js";
import { seatLinksButton, seatLinksRow } from "./seat-links.js";

// S.details: table id -> {status, data} (GET /tables/{id}), fetched when needed;
// S.openLinks: the table id whose links row is open.
const fetching = {};
let onDetail = () => {};

// Called with the table id when a detail arrives (the pairings render again).
export function whenDetail(fn) {
  onDetail = fn;
}

// A table's detail as of its current status; fetched (once) when missing or stale.
export function detail(p) {
  const tid = p.table_id;
  const status = liveStatus(p);
  const have = S.details[tid];
  if (have && have.status === status) return have.data;
  if (!fetching[tid]) {
    fetching[tid] = loadDetail(tid, status).finally(() => delete fetching[tid]);
  }
  return have ? have.data : null;
}

export async function loadDetail(tid, status) {
  try {
    const data = await api("GET", base + "/tables/" + encodeURIComponent(tid), { eo: true });
    S.details[tid] = { status: status, data: data };
    onDetail(tid);
    return data;
  } catch (e) {
    DC.toast("Could not read table " + tid.slice(0, 6) + ": " + e.message, "error");
    return null;
  }
}

export function detailKey(pairings) {
  return pairings.map((p) => (p.table_id && S.details[p.table_id] ? S.details[p.table_id].status : "")).join(",");
}

// ---------------------------------------------------------------- links

export function linksButton(p) {
  const open = S.openLinks === p.table_id;
  return seatLinksButton(p, open, () => {
    S.openLinks = open ? null : p.table_id;
    if (!open) loadDetail(p.table_id, liveStatus(p));
    onDetail(p.table_id);
  });
}

// Who goes first is decided at the table (the pre-game's starting roll): until then a
// seat link just names its player.
function orderWords(first) {
  return first === true ? "goes first" : first === false ? "goes second" : "";
}

export function linksRow(p) {
  const have = S.details[p.table_id];
  const data = have ? have.data : null;
  return seatLinksRow(p, data, {
    order: orderWords,
    notes: data ? movedNotes(data) : null,
    foot: " Each player opens their own seat link; a swap or a new pairing gives new links.",
    columns: 6,
    className: "links-row",
  });
}

// ---------------------------------------------------------------- disputes

// Time an offline pass moved onto a player whose phone stayed online, in the server's
// words; the EO settles it on the table's EO page (Give back / Let it stand).
function movedNotes(data) {
  const notes = (data && data.time_moved) || [];
  if (!notes.length) return null;
  return el("ul", { class: "time-moved-notes small", id: "time-moved-" + data.id }, notes.map((n) => el("li", { class: "state-" + n.state, text: n.words })));
}

function reportText(report) {
  if (!report) return "no report yet";
  const bits = [report.army_points_destroyed + " APD"];
  if (report.scenario_presence !== null && report.scenario_presence !== undefined) bits.push(report.scenario_presence + " presence");
  if (report.list_played) bits.push("list: " + report.list_played);
  return bits.join(" · ");
}

const METHOD_WORDS = {
  scenario: "scenario",
  assassination: "assassination",
  clock: "clock",
  concession: "concession",
  tiebreaker: "tiebreakers",
  time: "round time",
  eo: "the EO",
};

// The players' reasons and what each reported, for a disputed table (or one whose
// result the EO is about to enter). The table's detail is in the pairing's order (its
// first player's, then its second's), whoever went first.
export function disputeBox(p, data) {
  const live = S.tables[p.table_id];
  const reason = (data && data.disputed) || (live && live.disputed) || null;
  const lines = [];
  if (reason) lines.push(el("p", { class: "dispute-reason" }, el("strong", { text: "Disputed — " }), reason));
  const moved = movedNotes(data);
  if (moved) lines.push(moved);
  if (data) {
    const ending = data.ending;
    if (ending) {
      const who = ending.winner ? data.players[ending.winner === "p1" ? 0 : 1].name + " wins" : "no winner yet";
      lines.push(el("p", { class: "small", text: "The game ended by " + (METHOD_WORDS[ending.method] || ending.method) + ": " + who + " · CP " + data.players.map((pl, i) => pl.name + " " + data.control_points[i]).join(", ") }));
    }
    lines.push(
      el(
        "ul",
        { class: "reports", id: "reports-" + p.table_id },
        data.players.map((player, i) => {
          const order = player.first === null ? "" : player.first ? "went first" : "went second";
          return el("li", null, el("strong", { text: player.name }), (order ? " (" + order + ")" : "") + ": " + reportText(data.reports[i]) + (data.confirmed[i] ? " · confirmed" : ""));
        })
      )
    );
  }
  return lines.length ? el("div", { class: "dispute-box" }, lines) : null;
}
