// Event dashboard: the EO's command to one table (pause, resume, a clock set, dice down)
// and the error line under its card when the server refuses it.
import * as DC from "./common.js";
import { api } from "./dashboard-state.js";

export function showCardError(entry, message) {
  if (!entry) return;
  const box = entry.refs.error;
  box.textContent = message;
  box.hidden = !message;
  clearTimeout(entry.errorTimer);
  if (message) entry.errorTimer = setTimeout(() => (box.hidden = true), 8000);
}

export async function command(entry, body, button) {
  showCardError(entry, "");
  const ok = await DC.run(button, null, async () => {
    const tableId = entry.pairing.table_id;
    try {
      await DC.api("POST", api + "/tables/" + encodeURIComponent(tableId) + "/command", { eo: true, json: body });
    } catch (e) {
      showCardError(entry, e.message);
      throw e;
    }
    return true;
  });
  return !!ok;
}
