// Sound and vibration on a seat's phone: your clock starts, one minute left, your flag,
// the opponent asks you to undo a tap.
// Each is switchable and the choice is kept on the phone (localStorage). The sound is
// made on the spot with Web Audio (no audio files); vibration is navigator.vibrate.
import { $, el } from "../lib/dom.js";
import { isSeat } from "./state.js";

export const STORE_SOUND = "deathclock.sound";
export const STORE_VIBRATE = "deathclock.vibrate";
export const ONE_MINUTE_MS = 60000;

// The beeps of each moment: [frequency Hz, length ms] one after another.
const BEEPS = {
  start: [[880, 120]],
  minute: [[660, 150], [660, 150]],
  flag: [[440, 300], [330, 300], [220, 500]],
  undo: [[990, 90], [990, 90], [990, 90]],
};
const BUZZ = { start: [200], minute: [150, 100, 150], flag: [500, 150, 500, 150, 500], undo: [80, 60, 80, 60, 80] };

let audio = null;

function stored(key) {
  try {
    return localStorage.getItem(key) !== "off";
  } catch (e) {
    return true;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch (e) {
    /* private mode: the choice lasts as long as the page */
  }
}

export const settings = { sound: stored(STORE_SOUND), vibrate: stored(STORE_VIBRATE) };

// The page may only start sound after a touch: the first one unlocks it (until then
// the page says so, so a player whose clock starts knows why it was silent).
function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !settings.sound) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") {
      const resumed = audio.resume();
      if (resumed && resumed.then) resumed.then(showSoundLock, showSoundLock);
    }
  } catch (e) {
    audio = null;
  }
  showSoundLock();
}

const soundLocked = () => {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  return !!Ctx && settings.sound && (!audio || audio.state !== "running");
};

// The note by the sound settings while the browser still blocks the sound.
export function showSoundLock() {
  let node = $("sound-locked");
  const alerts = $("alerts");
  if (!node && alerts) {
    node = el("p", { id: "sound-locked", class: "sound-locked small", role: "status" }, "Sound is blocked by the browser until you touch this page: touch anywhere to turn it on.");
    alerts.before(node);
  }
  if (node) node.hidden = !soundLocked() || !isSeat();
  if (!soundLocked()) for (const kind of TOUCHES) document.removeEventListener(kind, unlockAudio, true);
}

// A finished touch (a click, a key) starts the sound: the browser has counted the touch
// by then, and the note above the settings leaves only after the click has landed where
// the finger was (hiding it earlier moved the page under the finger and lost the tap).
const TOUCHES = ["click", "keydown"];

function beep(moment) {
  if (!settings.sound) return;
  unlockAudio();
  if (!audio) return;
  let at = audio.currentTime + 0.01;
  for (const [freq, ms] of BEEPS[moment]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "square";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.2, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + ms / 1000);
    at += ms / 1000 + 0.08;
  }
}

function vibrate(moment) {
  if (!settings.vibrate || !navigator.vibrate) return;
  try {
    const activation = navigator.userActivation;
    if (!activation || activation.hasBeenActive) navigator.vibrate(BUZZ[moment]);
  } catch (e) {
    /* not supported */
  }
}

// One of the moments: "start" (your clock starts), "minute" (one minute left), "flag",
// "undo" (the opponent asks you to agree to undo their tap).
export function signal(moment) {
  beep(moment);
  vibrate(moment);
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
    settings.sound = sound.checked;
    store(STORE_SOUND, sound.checked);
    if (sound.checked) beep("start");
    showSoundLock();
  });
  buzz.addEventListener("change", () => {
    settings.vibrate = buzz.checked;
    store(STORE_VIBRATE, buzz.checked);
    if (buzz.checked) vibrate("start");
  });
  for (const kind of TOUCHES) document.addEventListener(kind, unlockAudio, true);
  showSoundLock();
}
