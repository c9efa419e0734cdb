// A player's own page, at a Warmachine event or a Runewars tournament: the key from their
// link (#k=…, sent in the X-Player-Token header, never in a URL), the server's answers,
// the page's error line, this round's table with the seat link, and reading it again.
import { $ } from "../lib/dom.js";

export const eventId = document.body.getAttribute("data-event-id");
export const base = "/api/events/" + encodeURIComponent(eventId);
// The key is kept on the phone too, so the page installed on the home screen (which opens
// without the link's #k=) is still this player's.
const KEPT = "deathclock.player." + eventId;
function playerKey() {
  const given = new URLSearchParams(location.hash.replace(/^#/, "")).get("k") || "";
  try {
    if (given) localStorage.setItem(KEPT, given);
    return given || localStorage.getItem(KEPT) || "";
  } catch (e) {
    return given; // private mode: the link's key only
  }
}
export const token = playerKey();
const POLL_MS = 15000;

// options: {body: sent as JSON; player: false leaves the player's key out}.
export async function call(method, path, options) {
  const body = options ? options.body : undefined;
  const headers = { Accept: "application/json" };
  if (!options || options.player !== false) headers["X-Player-Token"] = token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch (e) {
    throw new Error("Cannot reach the server. Check the connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && typeof data.detail === "string" && data.detail) || "The server answered " + response.status + ".");
  return data;
}

export function error(text) {
  $("page-error").textContent = text || "";
  $("page-error").hidden = !text;
}

// "Ann", "Ann and Bob", "Ann, Bob and Cal".
function names(list) {
  return list.length > 1 ? list.slice(0, -1).join(", ") + " and " + list[list.length - 1] : list[0];
}

function place(n) {
  const last = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;
  return n + ({ 1: "st", 2: "nd", 3: "rd" }[last] || "th");
}

// Where the player stands when the event goes on without them, or is over (the /me's
// standing): "" while they play on. who: who runs the event ("the EO", "the organiser");
// disqualified: what a disqualification means, after "<who> disqualified you".
export function standingText(s, who, disqualified) {
  if (!s) return "";
  const Who = who.charAt(0).toUpperCase() + who.slice(1);
  if (s.over) {
    const dq = s.status === "disqualified" ? " " + Who + " disqualified you" + (disqualified.final || "") + "." : "";
    const tied = s.tied_with && s.tied_with.length ? ", tied with " + names(s.tied_with) : "";
    return "The event is over: you finished " + place(s.place) + " of " + s.players + tied + "." + dq;
  }
  if (s.status === "dropped") {
    const when = s.dropped_after ? "You dropped after round " + s.dropped_after : "You dropped from the event";
    return when + ": you are not paired again. To play on, ask " + who + " to let you rejoin.";
  }
  if (s.status === "disqualified") return Who + " disqualified you: " + disqualified.now + (s.reason ? " Reason: " + s.reason : "");
  if (s.status === "cut") return "You did not make the cut to the top " + s.cut_to + ": the remaining rounds are played by the top " + s.cut_to + " players only.";
  if (s.status === "eliminated") return "You were eliminated in round " + s.eliminated_in + ": the remaining rounds are played by the players still in.";
  return "";
}

// This round's table and opponent, and the seat link once there is one; instead, the
// words of a player the event goes on without, or of an event that is over (out).
// pairer: who pairs the round ("the EO", "the organiser"); over: the event is over (the
// card is the player's final standing then, no round's).
export function renderTable(current, pairer, out, over) {
  const seat = $("my-seat");
  seat.hidden = true;
  $("my-table-title").textContent = over ? "Final standing" : "This round";
  if (out) {
    $("my-table-text").textContent = out;
    return;
  }
  if (!current) {
    $("my-table-text").textContent = "You are not paired yet. Your table shows here when " + pairer + " pairs the round.";
    return;
  }
  if (current.bye) {
    $("my-table-text").textContent = "Round " + current.round + ": you have the bye.";
    return;
  }
  $("my-table-text").textContent = "Round " + current.round + " · Table " + current.table_no + " · against " + current.opponent + (current.started ? "" : " (the round has not started yet)");
  if (current.seat_url) {
    seat.href = current.seat_url;
    seat.hidden = false;
  }
}

// Read the page now, again every 15 s while it is shown, and at once when it is shown
// again or the phone is back online (one read at a time).
export function keepLoading(load) {
  let reading = null;
  const read = () => {
    if (!reading) reading = Promise.resolve(load()).finally(() => (reading = null));
  };
  read();
  setInterval(() => {
    if (document.visibilityState === "visible") read();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") read();
  });
  window.addEventListener("online", read);
}
