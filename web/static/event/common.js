// Shared helpers of the event pages: the EO token, API calls, server time, formatting.
//
// The EO token travels in the URL fragment (#k=…, or #key=…) of the admin, dashboard and
// cards links. A fragment never leaves the browser: it stays in the address bar (so the
// page can be bookmarked, reopened in a new tab or sent to another device), is kept in
// this tab's sessionStorage too, and is sent only in the X-EO-Token header (or the
// dashboard socket's hello), never in a URL the server sees.
import { $, el, setText, toggleClass, toast } from "../lib/dom.js";
import { api, ApiError, configureApi } from "../lib/api.js";
import { clock, longClock, parseClock, timeOfDay, serverClock } from "../lib/clock.js";
import { reconnectingSocket } from "../lib/socket.js";
import { outTag, outWords } from "./out-words.js";

export { outWords };
export { $, el, setText, toggleClass, toast, api, ApiError, clock, longClock, parseClock, timeOfDay };

const body = document.body;
export const eventId = body.getAttribute("data-event-id") || "";
const STORE_PREFIX = "deathclock.eo.";

// ---------------------------------------------------------------- the EO token

function storageKey() {
  return STORE_PREFIX + eventId;
}

function readStored() {
  try {
    return sessionStorage.getItem(storageKey()) || "";
  } catch (e) {
    return memoryToken;
  }
}

let memoryToken = "";

export function storeToken(token) {
  memoryToken = token || "";
  try {
    if (token) sessionStorage.setItem(storageKey(), token);
    else sessionStorage.removeItem(storageKey());
  } catch (e) {
    /* private mode: keep it in memory for this page */
  }
}

// A pasted admin link ("…#k=abc" or "…#key=abc") or the bare token.
export function tokenFrom(text) {
  const value = String(text || "").trim();
  const match = value.match(/[#&](?:k|key)=([^&#\s]+)/);
  if (match) return decodeURIComponent(match[1]);
  return /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : "";
}

// Read the token from the address bar's fragment, and keep it there on the admin and
// cards pages: the address is the full EO link, ready to bookmark or copy. A tab that
// has the token but not the fragment (a pasted link) puts it back.
// The dashboard, which may be on a projector, takes it out of the address bar instead.
const KEEP_IN_ADDRESS = body.hasAttribute("data-token-in-address");

(function captureToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const fromHash = params.get("k") || params.get("key");
  if (fromHash) storeToken(fromHash);
  if (KEEP_IN_ADDRESS) showTokenInAddress();
  else if (fromHash) {
    try {
      history.replaceState(history.state, "", location.pathname + location.search);
    } catch (e) {
      location.hash = "";
    }
  }
})();

export function showTokenInAddress() {
  const t = readStored();
  if (!t || !KEEP_IN_ADDRESS) return;
  try {
    history.replaceState(history.state, "", location.pathname + location.search + "#k=" + encodeURIComponent(t));
  } catch (e) {
    /* the address stays as it is */
  }
}

export const token = () => readStored();

// Links between EO pages that open in another tab or window carry the token in
// their fragment (a new tab does not share this tab's session); never in the query.
export function eoHref(path) {
  const t = token();
  return t ? path + "#k=" + encodeURIComponent(t) : path;
}

// ---------------------------------------------------------------- server time

export const time = serverClock(true);
configureApi(token, time);

const STATUS_LABELS = {
  waiting: "Waiting",
  pregame: "Pre-game",
  deploying: "Deploying",
  playing: "Playing",
  paused: "Paused",
  finished: "Finished",
  awaiting_confirmation: "Awaiting confirmation",
  confirmed: "Confirmed",
  disputed: "Disputed",
  bye: "Bye",
};

export const statusLabel = (status) => STATUS_LABELS[status] || String(status || "");

// A badge whose text is the raw status value (for scripts); CSS shows the label.
export function statusBadge(status, extraClass) {
  return el("span", {
    class: "badge st-" + status + (extraClass ? " " + extraClass : ""),
    "data-label": statusLabel(status),
    title: statusLabel(status),
    text: status,
  });
}

export function setStatusBadge(node, status) {
  if (!node || node.textContent === status) return;
  node.textContent = status;
  node.setAttribute("data-label", statusLabel(status));
  node.title = statusLabel(status);
  node.className = node.className.replace(/\bst-\S+/g, "").trim() + " st-" + status;
}

// A recorded result in words, by the players' names (in seat order); a tie in the
// format's own word (the event view's tie_word: IG2014's is "Draw").
export function resultText(result, names, tieWord) {
  if (!result) return "";
  const cp = result.control_points || [0, 0];
  const apd = result.army_points_destroyed || [0, 0];
  const score = cp[0] + "–" + cp[1] + " CP · " + apd[0] + "–" + apd[1] + " APD";
  if (result.winner === "p1" || result.winner === "p2") {
    const who = names[result.winner === "p1" ? 0 : 1] || "An unnamed player";
    return who + " wins · " + score;
  }
  return (tieWord || "Tie") + " · " + score;
}

// ---------------------------------------------------------------- busy actions

// Run an action from a button: busy state while it runs, the API's message on failure.
export async function run(button, errorBox, action) {
  if (button && button.getAttribute("aria-busy") === "true") return undefined;
  if (errorBox) {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }
  if (button) {
    button.setAttribute("aria-busy", "true");
    button.classList.add("busy");
    button.disabled = true;
  }
  try {
    return await action();
  } catch (e) {
    const message = (e && e.message) || "Something went wrong.";
    if (errorBox) {
      errorBox.textContent = message;
      errorBox.hidden = false;
    } else {
      toast(message, "error");
    }
    if (e && e.status === 401) authProblem(message);
    return undefined;
  } finally {
    if (button) {
      button.removeAttribute("aria-busy");
      button.classList.remove("busy");
      button.disabled = false;
    }
  }
}

// ---------------------------------------------------------------- missing token

const authListeners = [];

export function authProblem(message) {
  const box = $("auth");
  if (!box) return;
  const text = $("auth-message");
  if (text && message) text.textContent = message;
  box.hidden = false;
  document.body.classList.add("auth-needed");
  authListeners.forEach((fn) => fn(message));
}

// The "paste the EO link" form of the EO pages.
export function wireAuthForm(onToken) {
  const form = $("auth-form");
  if (!form) return;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("auth-input");
    const found = tokenFrom(input ? input.value : "");
    const error = $("auth-error");
    if (!found) {
      if (error) {
        error.textContent = "That is not an EO link: it ends with #k= and the token.";
        error.hidden = false;
      }
      return;
    }
    storeToken(found);
    showTokenInAddress();
    document.body.classList.remove("auth-needed");
    if (error) error.hidden = true;
    $("auth").hidden = true;
    if (input) input.value = "";
    onToken(found);
  });
}

// ---------------------------------------------------------------- copy

export function copyText(text, button) {
  const done = () => {
    if (button) {
      const before = button.textContent;
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = before), 1500);
    }
    toast("Copied", "info");
  };
  const fallback = () => {
    const area = el("textarea", { class: "offscreen", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    area.remove();
    if (ok) done();
    else toast("Select the text and copy it by hand", "error");
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
}

// The round tabs of the pairings (hidden with fewer than two rounds); pick(number) on a click.
export function fillRoundTabs(tabs, rounds, shown, tab, pick) {
  tabs.textContent = "";
  tabs.hidden = rounds.length < 2;
  for (const r of rounds) {
    const attrs = Object.assign({ type: "button", role: "tab", class: "tab", "aria-selected": String(!!shown && r.number === shown.number) }, tab(r));
    attrs.onclick = () => pick(r.number);
    tabs.append(el("button", attrs));
  }
}

// ST4: a qualifier's points column, after APD, once a standing carries them.
function qualifierHeader() {
  const head = document.querySelector("#standings thead tr");
  if (!head || head.querySelector("th.qp")) return;
  const th = el("th", { class: "num qp", title: "Qualifier points (final standings)", text: "QP" });
  head.insertBefore(th, head.children[7] || null);
}

// One standings row (ST1): rank, player (linked to their record sheet) and why they are
// out if they are, faction, TP, SoS, CP, APD (Assassin Scoring, ST2: and assassination
// wins), a qualifier's points (ST4), and any further cells the page adds.
export function standingsRow(s, sheetUrl, ...extra) {
  const qp = typeof s.qualifier_points === "number";
  if (qp) qualifierHeader();
  const out = outTag(s);
  return el(
    "tr",
    { class: out ? "out" : null, "data-player-id": s.player_id, "data-status": s.status || null },
    el("td", { class: "num rank", text: String(s.rank) }),
    el("td", null, el("a", { class: "plain", href: sheetUrl, text: s.name }), out),
    el("td", { class: "muted", text: s.faction }),
    el("td", { class: "num strong", text: String(s.tp) }),
    el("td", { class: "num", text: String(s.sos) }),
    el("td", { class: "num", text: String(s.control_points) }),
    el("td", { class: "num", text: String(s.army_points_destroyed) }),
    document.body.hasAttribute("data-assassinations") ? el("td", { class: "num", text: String(s.assassinations) }) : null,
    qp ? el("td", { class: "num qp", text: String(s.qualifier_points) }) : null,
    ...extra
  );
}

export const onAuthProblem = (fn) => authListeners.push(fn);

// ---------------------------------------------------------------- the event socket

// WS /ws/events/{id} for the dashboard and the EO's page: hello with the EO token (or
// none); see lib/socket.js. handlers: onMessage(msg), onClose(code).
export function eventSocket(id, handlers) {
  const sock = reconnectingSocket({
    path: "/ws/events/" + encodeURIComponent(id),
    hello: () => ({ t: "hello", token: token() }),
    clock: time,
    stopWhen: (code) => code === 4404, // no such event: trying again will not help
    onMessage: handlers.onMessage,
    onClose: handlers.onClose,
  });
  sock.connect();
  return sock;
}

// The server-time estimate, for scripts and checks from outside the modules.
window.DC = Object.freeze({ eventId: eventId, time: time });
