// Event admin: a section of the page is rebuilt only when what it shows changed (focus
// and caret stay where they were), and a form's error line.
import { $, S } from "./admin-state.js";

export function renderSection(name, key, build) {
  if (S.rendered[name] === key) return;
  S.rendered[name] = key;
  const active = document.activeElement;
  const activeId = active && active.id ? active.id : null;
  let caret = null;
  try {
    if (active && typeof active.selectionStart === "number") caret = [active.selectionStart, active.selectionEnd];
  } catch (e) {
    caret = null;
  }
  build();
  if (activeId && document.activeElement !== $(activeId)) {
    const node = $(activeId);
    if (node) {
      node.focus({ preventScroll: true });
      try {
        if (caret) node.setSelectionRange(caret[0], caret[1]);
      } catch (e) {
        /* number inputs have no caret */
      }
    }
  }
}

export function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
}
