// The pre-game's entries in the table log, in words (a secret choice shows as made,
// never what was chosen: the game view reveals it); `name` names a side ("p1", "p2").
export function pregameEntry(e, name) {
  const who = e.by ? name(e.by) : "";
  switch (e.c) {
    case "open_pregame":
      return "Pre-game opened";
    case "choose_list":
      return who + " chose their list";
    case "choose_specialists":
      return who + " chose their specialists";
    case "choose_objective":
      return who + " chose their objective";
    case "roll":
      if (e.at_table) return "Starting roll at the table: " + name("p1") + " " + e.at_table[0] + " – " + e.at_table[1] + " " + name("p2") + " (entered by " + who + ")";
      return "Starting roll: " + who + " rolled " + e.value;
    case "choose_order":
      return who + " won the roll and goes " + (e.first ? "first" : "second");
    case "choose_edge":
      return name("p2") + (e.swap ? " took the other side of the table" : " kept their side of the table");
    default:
      return null;
  }
}
