// DOM helpers shared by every page.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}


// Set text / class only when it changes, so the 100 ms redraw touches little.
export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

export function toggleClass(node, name, on) {
  if (node && node.classList.contains(name) !== !!on) node.classList.toggle(name, !!on);
}

// Show or hide the element with this id (touches the DOM only on change).
export function show(id, visible) {
  const node = $(id);
  if (node && node.hidden === !!visible) node.hidden = !visible;
}

// The page's banner for a problem that reloading will not cure (#fatal).
export function showFatal(message) {
  const box = $("fatal");
  box.textContent = message;
  box.hidden = false;
}

let toastTimer = null;

// A short message at the bottom of the screen: kind "info", or an error by default.
export function toast(text, kind) {
  let node = $("toast");
  if (!node) {
    node = el("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" });
    node.hidden = true;
    document.body.append(node);
  }
  const info = kind === "info";
  node.textContent = text;
  node.className = "toast " + (info ? "info" : "error");
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), info ? 3000 : 6000);
}
