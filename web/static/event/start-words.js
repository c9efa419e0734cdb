// What each table of a round does when the EO starts it, in plain words (the start
// dialog and the hint under the button say the same).

// The seats open then, and the scenario shows on the phones.
export function startWords(ev, count) {
  const tables = count === 1 ? "The table" : "Each of the " + count + " tables";
  if (ev.pregame) {
    return tables + " goes into its pre-game (lists, starting roll); the clocks start when each table's first player starts deployment.";
  }
  const variants = ev.variants || [];
  if (variants.includes("No Time Limits")) return tables + " goes into deployment now, with no clock; the player named first at each table deploys first.";
  if (variants.some((v) => v.startsWith("Classic"))) return tables + " goes into deployment now and its round clock starts; the player named first at each table deploys first.";
  return tables + " goes into deployment now: the clock of the player named first at each table starts running.";
}
