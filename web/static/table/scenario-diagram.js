// The scenario's table, drawn to scale on the scenario card so players set it up from it:
// the 48" table (the second player's edge at the top, the first player's at the bottom), deployment zones and kill box
// where the document gives them, and every element the rules score, numbered as in the
// legend below it. An element the document places only "in accordance with the diagram"
// (its text has no positions) is drawn at its size beside the table, to be placed as the
// scenario sheet shows. Everything comes from the scenario the table sent: one source
// with the rules that score it.
import { el } from "../lib/dom.js";

const NS = "http://www.w3.org/2000/svg";
const GAP = 2; // inches between the table and the labels and tray
const LABEL = 2.2; // label text height, inches (about 15 px on a 390 px phone)

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const text = (x, y, words, cls, anchor) =>
  svg("text", { x, y, class: cls || "dg-text", "text-anchor": anchor || "middle", "dominant-baseline": "middle" }, document.createTextNode(words));

const inches = (n) => n + '"';

// An element's size, in the players' words.
export function sizeWords(shape) {
  if (!shape) return "";
  switch (shape.kind) {
    case "circle":
      return inches(shape.across) + " circle";
    case "rectangle":
      return inches(shape.across) + " × " + inches(shape.deep);
    case "line":
      return inches(shape.across) + " line" + (shape.reach ? ", within " + inches(shape.reach) : "");
    default:
      return (shape.base_mm ? shape.base_mm + " mm base" : "marker") + (shape.reach ? ", within " + inches(shape.reach) : "");
  }
}

// Where its centre stands, measured from the left edge and from the first player's edge.
export function spotWords(shape, table) {
  if (!shape || !shape.at) return "placed as the scenario sheet's diagram shows";
  const { across, deep } = shape.at;
  const side = across <= table / 2 ? inches(across) + " from the left edge" : inches(table - across) + " from the right edge";
  return "centre " + side + ", " + inches(deep) + " from the first player's edge";
}

// One element's outline, centred on (cx, cy) in table inches (y down from the second
// player's edge).
function outline(e, shape, cx, cy) {
  const cls = "dg-el dg-" + e.kind + (e.owner ? " dg-" + e.owner : "");
  const g = svg("g", { class: cls, "data-element": e.id });
  if (shape.kind === "circle") g.append(svg("circle", { cx, cy, r: shape.across / 2, class: "dg-area" }));
  else if (shape.kind === "rectangle")
    g.append(svg("rect", { x: cx - shape.across / 2, y: cy - shape.deep / 2, width: shape.across, height: shape.deep, class: "dg-area" }));
  else if (shape.kind === "line") {
    if (shape.reach) g.append(svg("rect", { x: cx - shape.across / 2, y: cy - shape.reach, width: shape.across, height: 2 * shape.reach, class: "dg-reach" }));
    g.append(svg("line", { x1: cx - shape.across / 2, y1: cy, x2: cx + shape.across / 2, y2: cy, class: "dg-line" }));
  } else {
    if (shape.reach) g.append(svg("circle", { cx, cy, r: shape.reach, class: "dg-reach" }));
    g.append(svg("circle", { cx, cy, r: 0.9, class: "dg-marker" }));
  }
  return g;
}

// The number badge that ties a shape to its line in the legend: on an area's centre,
// just above a marker's reach or a line.
function badge(n, shape, cx, cy) {
  const lift = shape.kind === "marker" || shape.kind === "line" ? (shape.reach || 0) + 2 : 0;
  const y = cy - lift;
  return svg("g", { class: "dg-badge", "data-badge": n }, svg("circle", { cx, cy: y, r: 1.6 }), text(cx, y + 0.1, String(n), "dg-num"));
}

// An element drawn with its badge; struck through once the server's roll removed it.
function drawn(item, cx, cy, removed) {
  const shape = outline(item.e, item.e.shape, cx, cy);
  if (removed.includes(item.e.id)) shape.classList.add("dg-removed");
  return [shape, badge(item.n, item.e.shape, cx, cy)];
}

function tableBase(plan, scenario) {
  const t = plan.table;
  const g = svg("g", { class: "dg-table" });
  g.append(svg("rect", { x: 0, y: 0, width: t, height: t, class: "dg-board" }));
  if (plan.deployment) {
    const d = plan.deployment;
    g.append(svg("rect", { x: 0, y: 0, width: t, height: d, class: "dg-deploy dg-p2" }));
    g.append(svg("rect", { x: 0, y: t - d, width: t, height: d, class: "dg-deploy dg-p1" }));
    g.append(text(t - 1, d - 1.6, "deploy " + inches(d), "dg-small", "end"));
    g.append(text(t - 1, t - d + 1.6, "deploy " + inches(d), "dg-small", "end"));
  }
  if (scenario.kill_box && plan.kill_box) {
    const k = plan.kill_box;
    if (plan.kill_box_edges === "any") {
      g.append(svg("rect", { x: k, y: k, width: t - 2 * k, height: t - 2 * k, class: "dg-killbox", "data-kill-box": k }));
      g.append(text(t / 2, k + 1.6, "kill box: within " + inches(k) + " of any edge", "dg-small"));
    } else {
      g.append(svg("line", { x1: 0, y1: k, x2: t, y2: k, class: "dg-killbox", "data-kill-box": k }));
      g.append(svg("line", { x1: 0, y1: t - k, x2: t, y2: t - k, class: "dg-killbox", "data-kill-box": k }));
      g.append(text(1, t - k - 1.6, "kill box " + inches(k) + " (first player)", "dg-small", "start"));
      g.append(text(1, k + 1.6, "kill box " + inches(k) + " (second player)", "dg-small", "start"));
    }
  }
  g.append(svg("line", { x1: 0, y1: t / 2, x2: t, y2: t / 2, class: "dg-centre" }));
  g.append(text(t / 2, -GAP, "second player's table edge", "dg-edge"));
  g.append(text(t / 2, t + GAP, "first player's table edge", "dg-edge"));
  return g;
}

// Elements without a spot, side by side at their size beneath the table; returns the
// tray's height in inches.
function tray(root, unplaced, top, table, removed) {
  if (!unplaced.length) return 0;
  root.append(text(0, top + LABEL / 2, "To place as the scenario sheet's diagram shows:", "dg-small", "start"));
  let x = 0;
  let y = top + LABEL + 3.5; // room for a marker's badge above it
  let row = 0;
  for (const item of unplaced) {
    const s = item.e.shape;
    const w = Math.max(s.across || 2 * (s.reach || 1), 4);
    const h = Math.max(s.deep || 2 * (s.reach || 1), 4);
    if (x + w > table) {
      x = 0;
      y += row + 1;
      row = 0;
    }
    root.append(...drawn(item, x + w / 2, y + h / 2 + (s.kind === "marker" ? 1 : 0), removed));
    x += w + 1.5;
    row = Math.max(row, h);
  }
  return y + row - top;
}

// The legend: each element's number, name, size and spot.
function legend(items, plan) {
  return el(
    "ol",
    { class: "diagram-legend", id: "scenario-legend" },
    items.map(({ e, n }) =>
      el(
        "li",
        { "data-element": e.id },
        el("span", { class: "dg-key", text: String(n) }),
        " ",
        el("strong", { text: e.name }),
        " — " + [sizeWords(e.shape), spotWords(e.shape, plan.table)].filter(Boolean).join("; ")
      )
    )
  );
}

// Draws the scenario's table into `box` (emptied first); nothing for a scenario without
// a layout (a format whose document gives none).
export function drawScenario(box, scenario, removed) {
  box.textContent = "";
  const plan = scenario.layout;
  box.hidden = !plan;
  if (!plan) return;
  const t = plan.table;
  const items = scenario.elements.map((e, i) => ({ e: { ...e, shape: plan.shapes[e.id] }, n: i + 1 }));
  const root = svg("g", {});
  root.append(tableBase(plan, scenario));
  const gone = removed || [];
  for (const item of items.filter((x) => x.e.shape && x.e.shape.at)) {
    root.append(...drawn(item, item.e.shape.at.across, t - item.e.shape.at.deep, gone));
  }
  const unplaced = items.filter((x) => x.e.shape && !x.e.shape.at);
  const trayHeight = tray(root, unplaced, t + 2 * GAP, t, gone);
  const bottom = t + 2 * GAP + (trayHeight ? trayHeight + 1 : 0);
  const top = -2 * GAP;
  const height = bottom - top;
  // A light sheet under everything, so the labels read the same in a dark theme.
  const paper = svg("rect", { x: -1, y: top, width: t + 2, height, rx: 1, class: "dg-paper" });
  const image = svg(
    "svg",
    { viewBox: [-1, top, t + 2, height].join(" "), class: "scenario-svg", role: "img", "aria-label": "Table set-up for " + scenario.name },
    paper,
    root
  );
  box.append(image, legend(items, plan), el("p", { class: "muted small", text: "From " + plan.source + ". 48\" × 48\" table." }));
}

// Redraws only when the scenario or what its rolls removed changed.
export function showScenario(box, scenario, removed) {
  if (!box) return;
  const key = JSON.stringify([scenario.id, scenario.name, removed || []]);
  if (box.getAttribute("data-key") === key) return;
  box.setAttribute("data-key", key);
  drawScenario(box, scenario, removed);
}
