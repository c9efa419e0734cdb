// A finished game drawn again (the server's story of it, app/domain/game_story.py): each
// player's clock time in deployment and in each turn as two bars, the CP after each turn
// as steps below them, and a marker at the turn that decided the game. Players by name.
// Styled by classes only (web/static/css/chart.css): the pages' CSP allows no inline style.

const NS = "http://www.w3.org/2000/svg";
const W = 360; // viewBox width: 1 unit is about 1 px on a 390 px phone
const LEFT = 34;
const RIGHT = 8;
const BARS_TOP = 40;
const BARS_H = 120;
const CP_TOP = BARS_TOP + BARS_H + 34;
const CP_H = 70;
const H = CP_TOP + CP_H + 26;
const SIDES = ["p1", "p2"];

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const text = (x, y, words, cls, anchor) =>
  svg("text", { x, y, class: cls, "text-anchor": anchor || "middle" }, document.createTextNode(words));

const minutes = (ms) => ms / 60000;
const round1 = (n) => (Math.round(n * 10) / 10).toString();
export const turnLabel = (turn) => (turn === 0 ? "Dep." : "T" + turn);

// What decided the game, in words: "Ann wins by the kill box in Bob's turn 3".
export function decidedWords(story) {
  const d = story.decided;
  if (!d) return "";
  const name = (side) => story.names[side === "p2" ? 1 : 0];
  const who = d.winner ? name(d.winner) + " wins by " + d.words : "Decided by " + d.words;
  if (d.turn === 0) return who + " during deployment";
  return who + (d.side ? " in " + name(d.side) + "'s turn " + d.turn : " in turn " + d.turn);
}

// A name as long as half the chart's width holds (about 14 bold letters); the whole name
// stays in the label's tooltip. Without this a long name would run off a phone's screen.
const NAME_CHARS = 14;
const fitName = (name) => (name.length > NAME_CHARS ? name.slice(0, NAME_CHARS - 1) + "…" : name);

function legend(names) {
  const g = svg("g", { class: "gc-legend" });
  names.forEach((name, i) => {
    const x = LEFT + i * ((W - LEFT) / 2);
    g.append(svg("rect", { x, y: 6, width: 12, height: 12, rx: 2, class: "gc-key gc-" + SIDES[i] }));
    const label = text(x + 17, 16, fitName(name), "gc-name", "start");
    if (label.textContent !== name) label.append(svg("title", {}, document.createTextNode(name)));
    g.append(label);
  });
  return g;
}

function bars(story, step, most) {
  const g = svg("g", { class: "gc-bars" });
  const scale = BARS_H / most;
  g.append(text(4, BARS_TOP - 8, "Clock minutes", "gc-axis", "start"));
  g.append(text(LEFT - 4, BARS_TOP + 4, round1(most), "gc-axis", "end"));
  g.append(svg("line", { x1: LEFT, y1: BARS_TOP + BARS_H, x2: W - RIGHT, y2: BARS_TOP + BARS_H, class: "gc-base" }));
  story.turns.forEach((t, k) => {
    const turn = svg("g", { class: "gc-turn", "data-turn": t.turn });
    const width = Math.min(18, step * 0.36);
    SIDES.forEach((side, i) => {
      const value = minutes(t.clock_ms[i]);
      const h = Math.max(value * scale, value > 0 ? 1 : 0);
      const x = LEFT + k * step + step / 2 + (i ? 1 : -1 - width);
      const bar = svg("rect", { x, y: BARS_TOP + BARS_H - h, width, height: h, class: "gc-bar gc-" + side });
      bar.append(svg("title", {}, document.createTextNode(story.names[i] + ", " + turnLabel(t.turn) + ": " + round1(value) + " min")));
      turn.append(bar);
    });
    turn.append(text(LEFT + k * step + step / 2, BARS_TOP + BARS_H + 14, turnLabel(t.turn), "gc-axis"));
    g.append(turn);
  });
  return g;
}

function steps(story, step) {
  const g = svg("g", { class: "gc-cp" });
  const most = Math.max(1, ...story.turns.map((t) => Math.max(t.cp[0], t.cp[1])));
  const y = (cp) => CP_TOP + CP_H - (cp / most) * CP_H;
  g.append(text(4, CP_TOP - 10, "CP after each turn", "gc-axis", "start"));
  g.append(text(LEFT - 4, CP_TOP + 4, String(most), "gc-axis", "end"));
  g.append(svg("line", { x1: LEFT, y1: CP_TOP + CP_H, x2: W - RIGHT, y2: CP_TOP + CP_H, class: "gc-base" }));
  SIDES.forEach((side, i) => {
    let d = "";
    story.turns.forEach((t, k) => {
      const x0 = LEFT + k * step;
      d += (k ? " L" : "M") + x0 + " " + y(t.cp[i]) + " L" + (x0 + step) + " " + y(t.cp[i]);
    });
    g.append(svg("path", { d, class: "gc-step gc-" + side + (i ? " gc-offset" : "") }));
    const last = story.turns[story.turns.length - 1];
    if (last) g.append(text(W - RIGHT - 2, y(last.cp[i]) + (i ? 12 : -4), String(last.cp[i]), "gc-cpvalue gc-" + side, "end"));
  });
  return g;
}

function marker(story, step) {
  const d = story.decided;
  const k = d ? story.turns.findIndex((t) => t.turn === d.turn) : -1;
  if (k < 0) return null;
  const x = LEFT + k * step + step / 2;
  const g = svg("g", { class: "gc-decided", "data-turn": d.turn });
  g.append(svg("line", { x1: x, y1: BARS_TOP - 2, x2: x, y2: CP_TOP + CP_H, class: "gc-mark" }));
  const anchor = k > story.turns.length / 2 ? "end" : "start";
  g.append(text(x + (anchor === "end" ? -4 : 4), CP_TOP + CP_H + 18, "★ " + d.words, "gc-mark-words", anchor));
  return g;
}

// The chart as an <svg> (null: no story yet).
export function gameChart(story) {
  if (!story || !story.turns || !story.turns.length) return null;
  const step = (W - LEFT - RIGHT) / story.turns.length;
  const most = Math.max(1, ...story.turns.map((t) => Math.max(minutes(t.clock_ms[0]), minutes(t.clock_ms[1]))));
  const chart = svg("svg", {
    viewBox: "0 0 " + W + " " + H,
    class: "game-chart",
    role: "img",
    "aria-label": "Clock time and CP per turn. " + decidedWords(story),
  });
  chart.append(legend(story.names), bars(story, step, Math.ceil(most)), steps(story, step));
  const mark = marker(story, step);
  if (mark) chart.append(mark);
  return chart;
}
