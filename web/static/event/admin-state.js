// Event admin: state, small helpers and loading the EO's view. It draws nothing: the
// page's entry module subscribes what to draw when the view or the action log arrives.
import * as DC from "./common.js";

export const { $, el, api, run, toast } = DC;
export const eventId = DC.eventId;
export const base = "/api/events/" + encodeURIComponent(eventId);
export const params = new URLSearchParams(location.search);

export const PLAYING = ["deploying", "playing", "paused"];
export const POLL_MS = 20000;

export const S = {
  view: null,
  formats: null,
  tables: {}, // live dashboard rows by table id
  actions: [],
  shownRound: null, // the round shown in the tabs; null = the latest
  editResult: null, // table id with its result form open
  details: {}, // table id -> {status, data}: one table's links, dispute and reports
  openLinks: null, // table id with its links row open
  resultDrafts: {}, // table id -> {winner, cp, apd, lists}
  editPlayer: null, // player id being edited
  playerDraft: null,
  warnings: [],
  focusTable: params.get("result"),
  rendered: {}, // section -> last render key
  sock: null, // DC.eventSocket, opened once the EO's view has loaded
  wsOpen: false,
  wsEverOpen: false,
  reloadTimer: null,
  loading: null,
};

// ---------------------------------------------------------------- small helpers

export const rounds = () => (S.view ? S.view.rounds : []);
export const current = () => {
  const all = rounds();
  return all.length ? all[all.length - 1] : null;
};

export function playerName(id) {
  const p = S.view && S.view.players.find((x) => x.id === id);
  return p ? p.name : "?";
}

export function format() {
  return S.formats && S.view ? S.formats.find((f) => f.id === S.view.event.format) : null;
}

export function scenarioName(id) {
  const f = format();
  const s = f && f.scenarios.find((x) => x.id === id);
  return s ? s.name : id;
}

export function findTable(tableId) {
  for (const r of rounds()) {
    for (const p of r.pairings) if (p.table_id === tableId) return { round: r, pairing: p };
  }
  return null;
}

export function tableLabel(tableId) {
  const found = findTable(tableId);
  return found ? "table " + found.pairing.table + " (round " + found.round.number + ")" : "a table";
}

export function liveStatus(pairing) {
  if (!pairing.table_id) return "bye";
  const row = S.tables[pairing.table_id];
  return row ? row.status : pairing.status;
}

export function sheetHref(playerId) {
  return "/e/" + encodeURIComponent(eventId) + "/players/" + encodeURIComponent(playerId) + "/sheet";
}

// The round shown in the tabs (the latest unless the EO chose another).
export function shownRound() {
  const all = rounds();
  if (!all.length) return null;
  return all.find((r) => r.number === S.shownRound) || all[all.length - 1];
}

// ---------------------------------------------------------------- who hears of a load

// "view": the EO's view arrived (S.view); "failed": it could not be read (the error);
// "actions": the action log arrived (S.actions).
const listeners = { view: [], failed: [], actions: [] };

export function subscribe(topic, fn) {
  listeners[topic].push(fn);
}

function notify(topic, arg) {
  listeners[topic].forEach((fn) => fn(arg));
}

// ---------------------------------------------------------------- loading

export async function loadFormats() {
  if (!S.formats) S.formats = await api("GET", "/api/formats");
}

// fresh: the caller just changed something, so a fetch already under way (it may
// have left before the change) is not enough: fetch again after it.
export function load(fresh) {
  if (!DC.token()) {
    DC.authProblem("This page needs the EO link.");
    return Promise.resolve();
  }
  if (S.loading) return fresh ? S.loading.then(() => load(true)) : S.loading;
  S.loading = (async () => {
    try {
      const [view] = await Promise.all([api("GET", base + "/admin", { eo: true }), loadFormats()]);
      S.view = view;
      notify("view");
    } catch (e) {
      notify("failed", e);
    } finally {
      S.loading = null;
    }
  })();
  return S.loading;
}

export function scheduleReload(delay) {
  clearTimeout(S.reloadTimer);
  S.reloadTimer = setTimeout(() => load(), delay === undefined ? 400 : delay);
}

export async function loadActions() {
  try {
    S.actions = await api("GET", base + "/actions", { eo: true });
    notify("actions");
  } catch (e) {
    /* the next reload tries again */
  }
}
