// The EO's pages ask before an action that cannot be undone, and say what it will do:
// an in-page dialog (never window.confirm), answered by its buttons, Escape or a click
// outside it. ask({title, lines, items, confirm, danger}) resolves true or false.
import { el } from "../lib/dom.js";

let open = null; // {dialog, resolve}

function finish(answer) {
  if (!open) return;
  const { dialog, resolve, before } = open;
  open = null;
  if (dialog.open) dialog.close();
  dialog.remove();
  if (before && typeof before.focus === "function") before.focus({ preventScroll: true });
  resolve(answer);
}

export function ask(opts) {
  if (open) finish(false);
  const o = opts || {};
  const yes = el("button", { type: "button", class: "btn " + (o.danger ? "danger" : "primary"), id: "confirm-yes", text: o.confirm || "Confirm" });
  const no = el("button", { type: "button", class: "btn subtle", id: "confirm-no", text: o.cancel || "Cancel" });
  const dialog = el(
    "dialog",
    { class: "confirm-dialog", id: "confirm-dialog", "aria-labelledby": "confirm-title" },
    el("h2", { id: "confirm-title", text: o.title || "Are you sure?" }),
    (o.lines || []).map((line) => el("p", { class: "confirm-line" }, line)),
    o.items && o.items.length ? el("ul", { class: "confirm-items", id: "confirm-items" }, o.items.map((item) => el("li", null, item))) : null,
    o.note ? el("p", { class: "confirm-note", text: o.note }) : null,
    el("div", { class: "form-buttons confirm-buttons" }, no, yes)
  );
  yes.addEventListener("click", () => finish(true));
  no.addEventListener("click", () => finish(false));
  dialog.addEventListener("cancel", (ev) => {
    ev.preventDefault();
    finish(false);
  });
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) finish(false); // the backdrop
  });
  document.body.append(dialog);
  return new Promise((resolve) => {
    open = { dialog: dialog, resolve: resolve, before: document.activeElement };
    dialog.showModal();
    (o.danger ? no : yes).focus();
  });
}

// ask() with a reason to give, in a field under its lines (`why` its label): resolves the
// reason, or null when the EO cancels. Its confirm button waits for a reason.
export async function askReason(opts, why, placeholder) {
  const input = el("input", { type: "text", id: "confirm-reason", maxlength: "300", autocomplete: "off", placeholder: placeholder || "" });
  const field = el("label", { class: "field", for: "confirm-reason" }, why, input);
  const answer = ask({ ...opts, lines: [...(opts.lines || []), field] });
  const yes = document.getElementById("confirm-yes");
  const sync = () => (yes.disabled = !input.value.trim());
  sync();
  input.addEventListener("input", sync);
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && input.value.trim()) yes.click();
  });
  input.focus();
  return (await answer) ? input.value.trim() : null;
}
