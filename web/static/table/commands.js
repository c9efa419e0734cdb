// The phone's commands: sent at once with a device sequence number, or queued offline
// with the server time they happened at; and which of them still wait for an answer.
import { queueCommand } from "./offline.js";
import { S, nextSeq, redraw, sendRaw, serverNow } from "./state.js";

export function command(name, fields) {
  if (!S.role || S.role === "watch") return null;
  const seq = nextSeq();
  if (!S.open) {
    // Offline: queued with the server time it happened at, sent on reconnect.
    queueCommand(seq, name, fields);
    redraw();
    return seq;
  }
  const msg = Object.assign({ t: "cmd", seq: seq, c: name }, fields || {});
  S.pending.set(seq, msg);
  S.pendingAt.set(seq, Math.max(0, Math.round(serverNow())));
  S.pendingBase.set(seq, S.v === null ? 0 : S.v);
  sendRaw(msg);
  redraw();
  return seq;
}

// Sent and not acked yet (not counting the offline queue).
export function pendingCommand(name) {
  for (const cmd of S.pending.values()) if (cmd.c === name) return true;
  return false;
}

// Sent, or waiting in the offline queue.
export function awaiting(name) {
  return pendingCommand(name) || S.queue.some((q) => !q.local && q.c === name);
}
