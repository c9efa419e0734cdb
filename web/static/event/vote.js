// ST3 ballot page on a player's phone: the open blind votes with their entries; one
// secret vote per prize (a new one replaces it until the EO closes the vote). The
// player is known by one of their seat links' token (#k=…), sent only in the
// X-Player-Token header and kept on this phone, never in a URL.
import { $, el, setText } from "../lib/dom.js";

const eventId = document.body.getAttribute("data-event-id") || "";
const base = "/api/events/" + encodeURIComponent(eventId);
const KEY = "deathclock.ballot." + eventId;

function seatToken() {
  const k = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
  try {
    if (k) {
      localStorage.setItem(KEY, k);
      history.replaceState(history.state, "", location.pathname + location.search);
    }
    return k || localStorage.getItem(KEY) || "";
  } catch (e) {
    return k || "";
  }
}

let token = seatToken();

// A pasted seat link ("…#k=abc"), or the bare token.
function tokenFrom(text) {
  const value = String(text || "").trim();
  const match = value.match(/[#&?]k=([^&#\s]+)/);
  if (match) return decodeURIComponent(match[1]);
  return /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : "";
}

$("seat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const found = tokenFrom($("seat-input").value);
  if (!found) return showError("That is not a seat link: it ends with #k= and a code.");
  token = found;
  try {
    localStorage.setItem(KEY, found);
  } catch (e) {
    /* private mode: this page only */
  }
  shown = "";
  load();
});
let shown = "";

async function call(method, path, json) {
  const headers = { Accept: "application/json", "X-Player-Token": token };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + path, {
    method: method,
    headers: headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    cache: "no-store",
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && typeof data.detail === "string" && data.detail) || "The server answered " + response.status + ".");
  return data;
}

function showError(message) {
  const box = $("page-error");
  box.textContent = message;
  box.hidden = !message;
}

function ballotCard(b) {
  const title = b.name + (b.category ? " — " + b.category : "") + (b.stage > 1 ? " (second vote, the tied entries)" : "");
  const done = el("p", { class: "ballot-done muted small", "aria-live": "polite", text: b.my_vote ? "Your vote is in. Tap another entry to change it." : "Tap an entry to vote." });
  const choices = b.entries.map((e) => {
    const input = el("input", { type: "radio", name: "vote-" + b.prize, value: e.id, checked: b.my_vote === e.id });
    const label = el("label", { class: "choice" + (b.my_vote === e.id ? " mine" : ""), "data-entry": e.id }, input, e.name);
    input.addEventListener("change", async () => {
      try {
        showError("");
        render(await call("PUT", "/prizes/" + encodeURIComponent(b.prize) + "/ballot", { choice: e.id }));
      } catch (err) {
        showError(err.message);
        load();
      }
    });
    return label;
  });
  return el("section", { class: "card ballot", id: "ballot-" + b.prize }, el("h2", { text: title }), el("div", { class: "choices", role: "radiogroup", "aria-label": title }, choices), done);
}

function render(view) {
  setText($("voter"), "Voting as " + view.me.name);
  const key = JSON.stringify(view.ballots);
  if (key === shown) return;
  shown = key;
  const box = $("ballots");
  box.textContent = "";
  view.ballots.forEach((b) => box.append(ballotCard(b)));
  $("no-votes").hidden = view.ballots.length > 0;
}

async function load() {
  $("seat-form").hidden = !!token;
  if (!token) {
    setText($("voter"), "Open this page from your ballot link, or paste your seat link below.");
    return;
  }
  try {
    render(await call("GET", "/ballot"));
    showError("");
  } catch (e) {
    showError(e.message);
    if (e.message.includes("seat link")) {
      token = "";
      $("seat-form").hidden = false;
    }
  }
}

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, 5000);
