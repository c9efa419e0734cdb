// The game drawn again once it is over (lib/game-chart.js): fetched once from the table's
// story (GET /api/tables/<id>/story) with this link's key, again when the result changes.
import { decidedWords, gameChart } from "../lib/game-chart.js";

let shownFor = null; // the ending the chart on the page was drawn for

// Fill `box` (a section with an h2) with the story of table `tableId`, if the game is over.
export async function showStory(box, tableId, token, endedKey) {
  if (!box || !token || endedKey === shownFor) return;
  shownFor = endedKey;
  if (endedKey === null) {
    box.hidden = true;
    return;
  }
  let story = null;
  try {
    const reply = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/story", {
      headers: { "X-Table-Token": token },
    });
    story = reply.ok ? await reply.json() : null;
  } catch {
    story = null;
  }
  if (shownFor !== endedKey) return; // a newer ending came in meanwhile: its chart is drawn
  const chart = gameChart(story);
  if (!chart) {
    shownFor = null; // try again with the next view
    return;
  }
  const words = document.createElement("p");
  words.className = "story-words muted small";
  words.textContent = decidedWords(story);
  box.replaceChildren(...[box.querySelector("h2"), words, chart].filter(Boolean));
  box.hidden = false;
}

// The table page (a seat, a watcher or the EO): the chart under the result once the game
// is over, drawn again when the result changes.
export function drawStory(game, tableId, token) {
  const over = game && game.phase === "over";
  const r = over ? game.result : null;
  const key = over ? JSON.stringify([game.ending, r && r.winner, r && r.method]) : null;
  showStory(document.getElementById("game-story"), tableId, token, key);
}
