// Why a player of the standings is out of the event, in words and as the standings' tag:
// one source for the EO's, the public and the players' own pages.
import { el } from "../lib/dom.js";

// In words ("": still playing): they left (after their last round), the EO disqualified
// them, the cut left them out, or (Runewars) they lost a game of the single elimination.
export function outWords(s) {
  if (s.status === "dropped") return s.dropped_after ? "dropped after round " + s.dropped_after : "dropped";
  if (s.status === "disqualified") return "disqualified";
  if (s.status === "cut") return "not in the cut";
  if (s.status === "eliminated") return "eliminated";
  return "";
}

// The tag beside the player's name (null: still playing).
export function outTag(s) {
  const words = outWords(s);
  if (!words) return null;
  const kind = s.status === "cut" ? "cut" : s.status === "disqualified" ? "dropped disqualified" : "dropped";
  return el("span", { class: "tag out-why " + kind, text: words });
}
