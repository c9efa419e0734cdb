// What each table of a round does when the EO starts it, in plain words (the start
// dialog and the hint under the button say the same). Who goes first is always settled
// at the table, off the clock; the clocks start when each table's first player starts
// deployment.

// The seats open then, and the scenario shows on the phones.
export function startWords(ev, count) {
  const tables = count === 1 ? "The table" : "Each of the " + count + " tables";
  const variants = ev.variants || [];
  const untimed = variants.includes("No Time Limits");
  const classic = !untimed && variants.some((v) => v.startsWith("Classic"));
  const before = ev.pregame
    ? tables + " goes into its pre-game on the phones, off the clock: each player chooses a list, then the starting roll, its winner chooses to go first or second, and the second player chooses the table edge."
    : tables + " first settles who goes first, off the clock: the starting roll (on the phones, or real dice entered as rolled at the table), then its winner chooses to go first or second.";
  if (untimed) return before + " Then the first player starts deployment, with no clock.";
  const clock = classic ? "Each table's round clock starts" : "Each table's clocks start";
  return before + " " + clock + " when its first player starts deployment; the round's end is set once every table has begun.";
}
