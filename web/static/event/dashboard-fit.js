// Event dashboard on a projector: the column count that gives the biggest cards with
// every table on screen (cards are sized in em, so the grid's font size scales them).
import { $, S } from "./dashboard-state.js";

let fitFrame = 0;

export function scheduleFit() {
  cancelAnimationFrame(fitFrame);
  fitFrame = requestAnimationFrame(fit);
}

// A text that can change a card's height (a phase line that wraps): the cards are fitted anew.
export function setFitText(node, text) {
  if (node.textContent === text) return;
  node.textContent = text;
  scheduleFit();
}

export function fit() {
  const grid = $("tables");
  if (!S.projector) return;
  const cards = grid.querySelectorAll(".dash-card");
  if (!cards.length) return;
  const widthEm = 21; // wide enough for full names
  // Each card is measured at its narrowest width, where its long names and phase line
  // wrap the most: a wider card on the screen is never taller.
  grid.style.fontSize = "";
  grid.style.gridTemplateColumns = "repeat(auto-fill, " + widthEm + "em)";
  const fontSize = parseFloat(getComputedStyle(grid).fontSize) || 16;
  let tallest = 0;
  cards.forEach((c) => (tallest = Math.max(tallest, c.offsetHeight)));
  grid.style.gridTemplateColumns = "";
  const heightEm = tallest / fontSize;
  const gap = 14;
  const top = grid.getBoundingClientRect().top;
  const byes = $("byes");
  const below = byes.hidden ? 0 : byes.offsetHeight + 12;
  const availH = window.innerHeight - top - below - 24;
  const availW = grid.clientWidth;
  const n = cards.length;
  let best = { size: 0, cols: 1 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const colW = (availW - gap * (cols - 1)) / cols;
    const rowH = (availH - gap * (rows - 1)) / rows;
    const size = Math.min(colW / widthEm, rowH / heightEm);
    if (size > best.size) best = { size: size, cols: cols };
  }
  const size = Math.max(9, Math.min(44, best.size));
  grid.style.setProperty("--cols", String(best.cols));
  grid.style.fontSize = size.toFixed(2) + "px";
}
