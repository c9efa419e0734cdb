// ST3 ballot page on a player's phone: the open blind votes with their entries; one
// secret vote per prize (a new one replaces it until the EO closes the vote). The
// player is known by their own player link's token or one of their seat links' (#k=…),
// sent only in the X-Player-Token header. The key is the link's alone: it stays in this page's address
// and nowhere else on the phone, so a page opened without one (a shared phone, the next
// player) asks for the player's own ballot link and never votes as whoever came before.
import { $, el, setText } from "../lib/dom.js";

const eventId = document.body.getAttribute("data-event-id") || "";
const base = "/api/events/" + encodeURIComponent(eventId);
const ASK = "Open the vote from your own ballot link or player page, or paste your player or seat link below.";

// Earlier versions of this page kept the key on the phone: forget it.
try {
  localStorage.removeItem("deathclock.ballot." + eventId);
} catch (e) {
  /* no storage: nothing kept */
}

function linkToken() {
  return new URLSearchParams(location.hash.replace(/^#/, "")).get("k") || "";
}

let token = linkToken();

// Vote with `key` from now on: nothing the page showed for another key stays on it.
function useKey(key) {
  token = key;
  shown = "";
  $("ballots").textContent = "";
  $("no-votes").hidden = true;
  showError("");
  load();
}

// Another ballot link opened in this tab (only its #k= differs): vote with its key.
window.addEventListener("hashchange", () => useKey(linkToken()));

// A pasted player or seat link ("…#k=abc"), or the bare token.
function tokenFrom(text) {
  const value = String(text || "").trim();
  const match = value.match(/[#&?]k=([^&#\s]+)/);
  if (match) return decodeURIComponent(match[1]);
  return /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : "";
}

$("seat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const found = tokenFrom($("seat-input").value);
  if (!found) return showError("That is not a player or seat link: it ends with #k= and a code.");
  useKey(found); // this page only, until it is left or reloaded
});
let shown = "";

// The server's answer for the page's key; null when the key changed meanwhile.
async function call(method, path, json) {
  const key = token;
  const headers = { Accept: "application/json", "X-Player-Token": key };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + path, {
    method: method,
    headers: headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    cache: "no-store",
  });
  const data = await response.json().catch(() => null);
  if (key !== token) return null;
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
  if (!view) return;
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
    setText($("voter"), ASK);
    return;
  }
  try {
    render(await call("GET", "/ballot"));
    showError("");
  } catch (e) {
    showError(e.message);
    if (e.message.includes("seat link")) {
      useKey("");
      showError(e.message);
    }
  }
}

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, 5000);
