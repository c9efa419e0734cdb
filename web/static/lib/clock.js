// Clock display and server time, shared by the table and the event pages.

export const pad2 = (n) => (n < 10 ? "0" : "") + n;

// A player clock on the table: m:ss, or m:ss.t under a minute; 0:00.0 at zero.
export function formatClock(ms) {
  if (!(ms > 0)) return "0:00.0";
  if (ms < 60000) {
    const tenths = Math.floor(ms / 100);
    return "0:" + pad2(Math.floor(tenths / 10)) + "." + (tenths % 10);
  }
  const seconds = Math.ceil(ms / 1000);
  return Math.floor(seconds / 60) + ":" + pad2(seconds % 60);
}

// m:ss (minutes keep counting past 60: a player clock reads 60:00).
export function clock(ms) {
  const seconds = ms > 0 ? Math.ceil(ms / 1000) : 0;
  return Math.floor(seconds / 60) + ":" + pad2(seconds % 60);
}

// h:mm:ss from an hour up, m:ss below: the round clock.
export function longClock(ms) {
  const seconds = ms > 0 ? Math.ceil(ms / 1000) : 0;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? h + ":" + pad2(m) + ":" + pad2(s) : m + ":" + pad2(s);
}

// "12:30", "1:05:00", "90" (minutes), "0:45.5" → milliseconds, or null.
export function parseClock(text) {
  const parts = String(text).trim().split(":");
  if (parts.length > 3 || parts[0] === "") return null;
  let total = 0;
  for (const part of parts) {
    if (!/^\d+(\.\d+)?$/.test(part)) return null;
    total = total * 60 + parseFloat(part);
  }
  if (parts.length === 1) total *= 60;
  return Math.round(total * 1000);
}

// Server epoch ms → this device's local time of day.
export function timeOfDay(serverMs, withSeconds) {
  if (!serverMs) return "";
  const opts = { hour: "2-digit", minute: "2-digit", hour12: false };
  if (withSeconds) opts.second = "2-digit";
  try {
    return new Date(serverMs).toLocaleTimeString([], opts);
  } catch (e) {
    return new Date(serverMs).toTimeString().slice(0, withSeconds ? 8 : 5);
  }
}

// The server's time, estimated NTP-style: offset = server time − the middle of the
// round trip; the sample with the shortest round trip is the most trustworthy. A sample
// far from the offset in use (more than JUMP_MS beyond what its round trip allows) means
// one of the clocks jumped (a phone that slept, a server's clock set right): the older
// samples describe clocks that no longer exist, and are let go.
const JUMP_MS = 2000;

export function serverClock(fallbackToWall) {
  return {
    offset: null,
    samples: [],
    sample(serverMs, sentAt, receivedAt) {
      const rtt = receivedAt - sentAt;
      if (!(rtt >= 0) || rtt > 60000) return;
      const offset = serverMs - (sentAt + rtt / 2);
      if (this.offset !== null && Math.abs(offset - this.offset) > JUMP_MS + rtt) this.samples = [];
      this.samples.push({ rtt: rtt, offset: offset });
      if (this.samples.length > 12) this.samples.shift();
      let best = this.samples[0];
      for (const s of this.samples) if (s.rtt < best.rtt) best = s;
      this.offset = best.offset;
    },
    roughly(serverMs) {
      if (this.offset === null) this.offset = serverMs - performance.now();
    },
    reset() {
      this.samples = [];
    },
    now() {
      if (this.offset !== null) return performance.now() + this.offset;
      return fallbackToWall ? Date.now() : performance.now();
    },
  };
}
