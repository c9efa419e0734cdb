// The season page's state: its id, the keeper's key (from the link's #k=, kept in this
// tab and sent only in the X-Keeper-Token header), and the API calls.
const STORE = "deathclock.season.";
export const seasonId = document.body.getAttribute("data-season-id") || "";

let memory = "";

export function keeperKey() {
  try {
    return sessionStorage.getItem(STORE + seasonId) || memory;
  } catch (e) {
    return memory;
  }
}

export function keepKey(key) {
  memory = key || "";
  try {
    if (key) sessionStorage.setItem(STORE + seasonId, key);
    else sessionStorage.removeItem(STORE + seasonId);
  } catch (e) {
    /* private mode: memory only */
  }
}

// "…#k=abc" (a pasted link) or the bare key.
export function keyFrom(text) {
  const value = String(text || "").trim();
  const match = value.match(/[#&](?:k|key)=([^&#\s]+)/);
  if (match) return decodeURIComponent(match[1]);
  return /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : "";
}

// An event's EO link: its id and key ("…/e/<id>/admin#k=<key>").
export function eventLink(text) {
  const value = String(text || "").trim();
  const id = value.match(/\/e\/([0-9a-f]{8,64})/);
  const key = keyFrom(value.includes("#") ? value : "");
  return id && key ? { id: id[1], key } : null;
}

(function captureKey() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const found = params.get("k") || params.get("key");
  if (found) keepKey(found);
})();

export class Refused extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// method, path; body (JSON) optional; keeper: send the keeper's key.
export async function call(method, path, body, keeper) {
  const headers = { Accept: "application/json" };
  if (keeper && keeperKey()) headers["X-Keeper-Token"] = keeperKey();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const reply = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (reply.status === 204) return null;
  const data = await reply.json().catch(() => null);
  if (!reply.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : "the server refused it (" + reply.status + ")";
    throw new Refused(detail.charAt(0).toUpperCase() + detail.slice(1) + ".", reply.status);
  }
  return data;
}
