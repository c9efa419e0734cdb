// Table log: a turn end's scoring in words, the scenario's elements named as the table
// page names them ("Ann's objective", "Bob's friendly flag"), never by their ids.

// The scenario's elements (id, kind, words, owner: the side that plays first is "p1"),
// as the log page is given them.
const elements = JSON.parse(document.body.getAttribute("data-elements") || "[]");

// `side` names a side ("p1": the player who plays first) as the log has it so far.
export function elementWords(id, side) {
  const e = elements.find((x) => x.id === id);
  if (!e) return id;
  if (e.kind === "objective") return side(e.owner || (id.endsWith("p2") ? "p2" : "p1")) + "'s objective";
  if (e.owner) return e.name.replace(/^the (first|second) player's /, side(e.owner) + "'s ");
  return e.name;
}

export function scoringWords(sc, side) {
  if (!sc) return "";
  const parts = Object.entries(sc.control || {}).map(([el, s]) => elementWords(el, side) + " → " + side(s));
  for (const el of sc.destroyed || []) parts.push(elementWords(el, side) + " destroyed");
  return parts.length ? "scored: " + parts.join(", ") : "scored: nothing";
}
