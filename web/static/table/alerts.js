// Sound and vibration on a seat's phone: your clock starts, one minute left, your flag,
// the opponent asks you to undo a tap, something new needs you. Each is switchable; the
// choices, the unlocking and the making of them are lib/sound.js's.
import { $, el } from "../lib/dom.js";
import { beep, choose, settings, soundLocked, unlockOnTouch, vibrate, watchLock } from "../lib/sound.js";
import { isSeat } from "./state.js";

export const ONE_MINUTE_MS = 60000;

// The beeps of each moment: [frequency Hz, length ms] one after another.
const BEEPS = {
  start: [[880, 120]],
  minute: [[660, 150], [660, 150]],
  flag: [[440, 300], [330, 300], [220, 500]],
  undo: [[990, 90], [990, 90], [990, 90]],
  notice: [[784, 120], [988, 160]],
};
const BUZZ = { start: [200], minute: [150, 100, 150], flag: [500, 150, 500, 150, 500], undo: [80, 60, 80, 60, 80], notice: [120, 80, 120] };

// The note by the sound settings while the browser still blocks the sound (so a player
// whose clock starts knows why it was silent).
export function showSoundLock() {
  let node = $("sound-locked");
  const alerts = $("alerts");
  if (!node && alerts) {
    node = el("p", { id: "sound-locked", class: "sound-locked small", role: "status" }, "Sound is blocked by the browser until you touch this page: touch anywhere to turn it on.");
    alerts.before(node);
  }
  if (node) node.hidden = !soundLocked() || !isSeat();
}

// One of the moments: "start" (your clock starts), "minute" (one minute left), "flag",
// "undo" (the opponent asks you to agree to undo their tap), "notice" (something new needs
// you: the round's start, the opponent's report, a result to confirm, the EO's result).
export function signal(moment) {
  beep(BEEPS[moment]);
  vibrate(BUZZ[moment]);
  document.body.setAttribute("data-last-alert", moment);
}

// Whether a clock just went under one minute: once per clock run, not at every frame.
let minuteArmed = false;

export function watchMinute(running, leftMs) {
  if (!running || leftMs > ONE_MINUTE_MS) {
    minuteArmed = running && leftMs > ONE_MINUTE_MS;
    return;
  }
  if (minuteArmed && leftMs > 0) {
    minuteArmed = false;
    signal("minute");
  }
}

export function bindAlerts() {
  const sound = $("alert-sound");
  const buzz = $("alert-vibrate");
  if (!sound || !buzz) return;
  sound.checked = settings.sound;
  buzz.checked = settings.vibrate;
  sound.addEventListener("change", () => {
    choose("sound", sound.checked);
    if (sound.checked) beep(BEEPS.start);
  });
  buzz.addEventListener("change", () => {
    choose("vibrate", buzz.checked);
    if (buzz.checked) vibrate(BUZZ.start);
  });
  watchLock(showSoundLock);
  unlockOnTouch();
  showSoundLock();
}
