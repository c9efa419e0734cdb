// Sound and vibration a page gives at a moment (a seat's clock, a player's notice).
// The on/off choices are kept on the phone (localStorage, one pair for every page). The
// sound is made on the spot with Web Audio (no audio files) and may only start after a
// touch: the first finished one (a click, a key) unlocks it. Vibration is
// navigator.vibrate, once the page has been touched.
export const STORE_SOUND = "deathclock.sound";
export const STORE_VIBRATE = "deathclock.vibrate";

// A finished touch (a click, a key) starts the sound: the browser has counted the touch
// by then, and a note about blocked sound leaves only after the click has landed where
// the finger was (hiding it earlier moved the page under the finger and lost the tap).
const TOUCHES = ["click", "keydown"];

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

export function choose(what, on) {
  settings[what] = on;
  store(what === "sound" ? STORE_SOUND : STORE_VIBRATE, on);
  changed();
}

let audio = null;
const watchers = [];

// fn() runs whenever the sound may have become unlocked or locked.
export function watchLock(fn) {
  watchers.push(fn);
}

function changed() {
  for (const fn of watchers) fn();
  if (!soundLocked()) for (const kind of TOUCHES) document.removeEventListener(kind, unlock, true);
}

// Whether the page wants sound but the browser still blocks it (until a touch).
export function soundLocked() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  return !!Ctx && settings.sound && (!audio || audio.state !== "running");
}

function unlock() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !settings.sound) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") {
      const resumed = audio.resume();
      if (resumed && resumed.then) resumed.then(changed, changed);
    }
  } catch (e) {
    audio = null;
  }
  changed();
}

// Unlock the sound at the page's first finished touch.
export function unlockOnTouch() {
  for (const kind of TOUCHES) document.addEventListener(kind, unlock, true);
}

// tones: [frequency Hz, length ms] one after another.
export function beep(tones) {
  if (!settings.sound) return;
  unlock();
  if (!audio) return;
  let at = audio.currentTime + 0.01;
  for (const [freq, ms] of tones) {
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

// pattern: navigator.vibrate's (ms on, ms off, …).
export function vibrate(pattern) {
  if (!settings.vibrate || !navigator.vibrate) return;
  try {
    const activation = navigator.userActivation;
    if (!activation || activation.hasBeenActive) navigator.vibrate(pattern);
  } catch (e) {
    /* not supported */
  }
}
