// The table page's input: the tap, the buttons, the report form, the EO's tools.
import { formatClock, parseClock } from "../lib/clock.js";
import { $, toast } from "../lib/dom.js";
import { command, pendingCommand } from "./commands.js";
import { pauseAsked } from "./eo-pause.js";
import { presumable, presume, unpresume } from "./offline.js";
import { noteOf, seconds } from "./moved.js";
import { render } from "./render.js";
import { tieWord } from "./ruleset.js";
import { cancelSheet, chooseElement, openSheet, setKillBox, submitSheet, updatePreview } from "./scoring.js";
import { S, canTap, due, isSeat, me, nameOf, other, remainingMs } from "./state.js";
import { atTable, bothPlayers } from "./timer.js";
import { bindAlerts } from "./alerts.js";
import { answerConfirm, ask, keepAwake } from "./ui.js";
import { askUndo } from "./undo.js";

// ---------------------------------------------------------------- input

export function onTap() {
  keepAwake();
  if (!S.game || !isSeat()) return;
  if (pendingCommand("pass_turn")) return; // a double tap: the first one is on its way
  // Offline with the opponent's clock shown running: they passed on their phone.
  const presumed = presumable(S.game) ? presume() : null;
  if (!canTap(S.game)) {
    if (presumed) unpresume(presumed);
    return;
  }
  if (due("turn_end", me())) {
    openSheet("turn_end");
    if (S.sheet) S.sheet.presumed = presumed;
    render();
    return;
  }
  command("pass_turn", { expect: me() });
}

export async function onAction(action, button) {
  const g = S.game;
  if (!g) return;
  if (action.startsWith("moved-")) {
    answerMoved(action, noteOf(button));
    return;
  }
  const mine = me();
  const opp = mine ? other(mine) : null;
  switch (action) {
    case "start":
      command("start");
      break;
    case "undo":
      await askUndo(command);
      break;
    case "undo-accept":
      command("answer_undo", { accept: true });
      break;
    case "undo-decline":
      command("answer_undo", { accept: false });
      break;
    case "interrupt":
      if (await ask("Switch the clock to " + nameOf(opp) + " for an interrupt? Announce it to your opponent.", "Switch to " + nameOf(opp))) {
        command("switch", { to: opp });
      }
      break;
    case "switch-back":
      if (await ask("Switch the clock back to " + nameOf(S.game.active) + "?", "Switch back")) command("switch", { to: S.game.active });
      break;
    case "caster-destroyed":
      if (playsOn()) {
        if (await ask("Your caster is destroyed; the game goes on (No Assassination Victory). Record it?", "My caster is destroyed")) command("caster_destroyed", { both: false });
        break;
      }
      if (await ask("Your caster is destroyed: " + nameOf(opp) + " wins by assassination. End the game?", "My caster is destroyed")) {
        command("caster_destroyed", { both: false });
      }
      break;
    case "both-casters":
      if (playsOn()) {
        if (await ask("Both casters destroyed; the game goes on (No Assassination Victory). Record it?", "Both destroyed")) command("caster_destroyed", { both: true });
        break;
      }
      const noTiebreakers = !!(S.table && S.table.variants && S.table.variants.tiebreakers === false);
      const then = noTiebreakers ? "the game ends as a " + tieWord().toLowerCase() + " (this event uses no tiebreakers)" : "the game ends and tiebreakers decide";
      if (await ask("Both casters destroyed at once: " + then + ". End the game?", "Both destroyed")) {
        command("caster_destroyed", { both: true });
      }
      break;
    case "concede":
      if (await ask("Concede the game? " + nameOf(opp) + " wins.", "Concede")) command("concede");
      break;
    case "claim":
      openSheet("claim");
      break;
    case "accept-loss":
      if (await ask("Accept the loss on time? " + nameOf(opp) + " wins.", "Accept the loss")) command("accept_clock_loss");
      break;
    case "claim-agree":
      if (await ask("Agree that " + nameOf(opp) + " wins by scenario?", "Agree")) command("answer_claim", { agree: true });
      break;
    case "claim-disagree":
      if (await ask("Disagree with the claim? " + nameOf(opp) + " then loses on time.", "Disagree")) {
        command("answer_claim", { agree: false });
      }
      break;
    case "final-scoring":
      openSheet("final");
      break;
    case "confirm-result":
      command("confirm");
      break;
    case "edit-report":
      S.editReport = true;
      render();
      $("report-apd").focus();
      break;
    case "dispute": {
      const reason = await ask(
        "Dispute the result? The EO will decide it. Say what is wrong:",
        "Dispute",
        "e.g. CP should be 4–2"
      );
      if (reason !== false) command("dispute", { reason: reason });
      break;
    }
    case "call-tie": {
      // DC8: the format's own word (IG2014: a draw), as on the button.
      const word = tieWord().toLowerCase();
      const text = "Declare a " + word + atTable() + "? " + bothPlayers() + ": the round's time is up, and the game ends now as a " + word + ".";
      if (await ask(text, "Declare a " + word)) command("call_tie");
      break;
    }
    case "pause":
      if (await pauseAsked(g)) command("pause");
      break;
    case "report-pause":
      if (await ask("Tell the EO that " + nameOf(opp) + " paused the clock? Players never pause: the EO gives a warning, a second one loses the game.", "Tell the EO")) {
        command("report_pause");
      }
      break;
    case "warn-p1":
    case "warn-p2": {
      const side = action.slice(5);
      if (await ask("Warn " + nameOf(side) + " for pausing the clock? A second warning loses the game.", "Warn")) {
        command("warn_for_pausing", { side: side });
      }
      break;
    }
    case "resume":
      command("resume");
      break;
    default:
      break;
  }
}

// Time an offline pass moved onto a player: that player disputes it, the EO settles it.
// Sent online only (an offline queue never carries it).
async function answerMoved(action, n) {
  if (!n) return;
  if (!S.open) {
    toast("Back online first: this goes to the EO at once.");
    return;
  }
  const moved = seconds(n.moved_ms);
  if (action === "moved-dispute") {
    const text = "Tell the EO that the " + moved + " " + nameOf(n.by) + "'s pass moved to your clock is not how it went?";
    if (await ask(text, "Dispute")) command("dispute_time_moved", { note: n.id });
  } else if (action === "moved-give-back") {
    const text = "Give " + moved + " back to " + nameOf(n.onto) + "? It comes off " + nameOf(n.by) + "'s clock.";
    if (await ask(text, "Give it back")) command("settle_time_moved", { note: n.id, give_back: true });
  } else if (action === "moved-let-stand") {
    const text = "Let the " + moved + " moved to " + nameOf(n.onto) + "'s clock stand?";
    if (await ask(text, "Let it stand")) command("settle_time_moved", { note: n.id, give_back: false });
  }
}

// A whole number from 0, as typed: "12.5", "1e2" or "" are not (parseInt would take 12).
export function wholeNumber(text) {
  const t = String(text).trim();
  return /^\d{1,5}$/.test(t) ? parseInt(t, 10) : null;
}

export function onReport(ev) {
  ev.preventDefault();
  const apdInput = $("report-apd");
  // A number input reports "" for text it cannot read: then it is not a whole number either.
  const apd = wholeNumber(apdInput.value);
  if (apd === null || (apdInput.validity && apdInput.validity.badInput)) {
    toast("Army points destroyed: enter a whole number, e.g. 12 (not 12.5).");
    apdInput.focus();
    return;
  }
  const presenceText = $("report-presence").value.trim();
  const presence = presenceText === "" ? null : wholeNumber(presenceText);
  if (presenceText !== "" && presence === null) {
    toast("Scenario presence: enter a whole number, e.g. 3.");
    $("report-presence").focus();
    return;
  }
  if (due("scenario_presence") && presence === null) {
    toast("Enter your scenario presence to break the tie");
    $("report-presence").focus();
    return;
  }
  S.editReport = false;
  command("report", { army_points_destroyed: apd, scenario_presence: presence, list_played: $("report-list").value.trim() });
}

export async function onAdjust(ev) {
  ev.preventDefault();
  const side = $("adjust-side").value;
  const ms = parseClock($("adjust-time").value);
  if (ms === null) {
    toast("Enter the time as m:ss (e.g. 12:30)");
    return;
  }
  if (await ask("Set " + nameOf(side) + "'s clock to " + formatClock(ms) + "?", "Adjust")) {
    command("adjust_clock", { side: side, remaining_ms: ms });
  }
}

export function fillAdjust() {
  if (!S.game) return;
  $("adjust-time").value = formatClock(remainingMs($("adjust-side").value)).replace(/\.\d$/, "");
}

// No Assassination Victory: a destroyed caster does not end the game.
function playsOn() {
  const variants = S.table && S.table.variants;
  return !!variants && variants.assassination === false;
}

export function bind() {
  const tap = $("tap");
  tap.addEventListener("click", onTap);
  tap.addEventListener("keydown", (ev) => {
    if (ev.key === " " || ev.key === "Enter") {
      ev.preventDefault();
      onTap();
    }
  });
  tap.addEventListener("pointerdown", () => tap.classList.add("pressed"));
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    tap.addEventListener(type, () => tap.classList.remove("pressed"));
  }

  document.addEventListener("click", (ev) => {
    keepAwake();
    const button = ev.target.closest("[data-action]");
    if (button && !button.disabled) onAction(button.getAttribute("data-action"), button);
  });

  $("confirm-yes").addEventListener("click", () => answerConfirm(true));
  $("confirm-no").addEventListener("click", () => answerConfirm(false));
  $("confirm-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") answerConfirm(true);
  });
  $("toast").addEventListener("click", () => {
    $("toast").hidden = true;
  });

  $("kill-box-yes").addEventListener("click", () => {
    setKillBox(true);
    updatePreview();
  });
  $("kill-box-no").addEventListener("click", () => {
    setKillBox(false);
    updatePreview();
  });
  $("sheet-scoring").addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-val]");
    if (!button || !S.sheet) return;
    chooseElement(button.getAttribute("data-el"), button.getAttribute("data-val"));
    updatePreview();
  });
  $("sheet-scoring").addEventListener("change", (ev) => {
    const input = ev.target.closest("[data-obj]");
    if (!input || !S.sheet) return;
    const id = input.getAttribute("data-obj");
    if (input.checked) S.sheet.destroyed.add(id);
    else S.sheet.destroyed.delete(id);
    updatePreview();
  });
  $("end-turn").addEventListener("click", submitSheet);
  $("sheet-submit").addEventListener("click", submitSheet);
  $("sheet-cancel").addEventListener("click", cancelSheet);
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    if (!$("confirm").hidden) answerConfirm(false);
    else if (S.sheet) cancelSheet();
  });

  $("report").addEventListener("submit", onReport);
  bindAlerts();
  $("adjust-form").addEventListener("submit", onAdjust);
  $("adjust-side").addEventListener("change", fillAdjust);
  $("adjust-time").addEventListener("focus", () => {
    if (!$("adjust-time").value) fillAdjust();
  });

  // The socket reconnects and measures the clock again on its own (lib/socket.js).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
  });
}
