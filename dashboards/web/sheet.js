// pokerarena web dashboard: a game family's score sheet (/api/runs/{id}/sheet), one game
// at a time: painted poker's as the document draws it (a row per deal, each seat's
// bid/took and points, the totals last), any other family's record row by row.
"use strict";

const sheetState = { run: null, game: null, wanted: null, asked: 0 };

function sheetTable(d) {
  const table = document.getElementById("sheet");
  if (!d.painted) {
    table.tHead.replaceChildren(el("tr", {}, ...d.columns.map((c) => el("th", {}, c))));
    table.tBodies[0].replaceChildren(...d.rows.map((r) => el("tr", {},
      ...r.map((v) => el("td", { class: typeof v === "number" ? "num" : "" }, v === null ? "–" : v)))));
    return;
  }
  const col = Object.fromEntries(d.columns.map((c, i) => [c, i]));
  const seats = Math.max(...d.rows.map((r) => r[col.seat])) + 1;
  const names = d.bots.length === seats ? d.bots : [...Array(seats).keys()].map((s) => `seat ${s}`);
  table.tHead.replaceChildren(el("tr", {}, el("th", {}, "deal"), el("th", {}, "kind"),
    el("th", { class: "num" }, "cards"), el("th", { class: "num" }, "dealer"), el("th", {}, "trump"),
    ...names.map((n, s) => el("th", { class: "num" }, `${s}: ${n} (bid/took, pts)`))));
  const deals = new Map();
  for (const r of d.rows) {
    if (!deals.has(r[col.deal])) deals.set(r[col.deal], []);
    deals.get(r[col.deal]).push(r);
  }
  const totals = Array(seats).fill(0);
  const body = [];
  for (const [deal, rs] of deals) {
    const f = rs[0];
    const cells = Array(seats).fill("–");
    for (const r of rs) {
      const bid = r[col.bid] < 0 ? "–" : r[col.bid];
      cells[r[col.seat]] = `${bid}/${r[col.tricks]}  ${r[col.points] > 0 ? "+" : ""}${fmt(r[col.points], 1)}`;
      totals[r[col.seat]] = r[col.total];
    }
    body.push(el("tr", { "data-deal": deal }, el("td", {}, deal), el("td", {}, f[col.kind]),
      el("td", { class: "num" }, f[col.cards]), el("td", { class: "num" }, f[col.dealer]),
      el("td", {}, f[col.trump] || "–"), ...cells.map((c) => el("td", { class: "num" }, c))));
  }
  body.push(el("tr", { class: "total" }, el("th", {}, "total"), el("td"), el("td"), el("td"), el("td"),
    ...totals.map((t, s) => el("th", { class: "num", "data-seat": s }, fmt(t, 1)))));
  table.tBodies[0].replaceChildren(...body);
}

async function refreshSheet(runId, game) {
  const section = document.getElementById("sheet-section");
  // a refresh of the run asks for the game the user chose last (even if its answer is
  // still on its way), so the newest answer is always the user's game
  if (game === undefined) {
    if (sheetState.run !== runId) sheetState.wanted = null;
    else game = sheetState.wanted ?? sheetState.game;
  }
  const q = game === undefined || game === null ? "" : `?game=${game}`;
  const asked = ++sheetState.asked;  // a later request wins: an older answer is dropped
  let d;
  try { d = await getJSON(`/api/runs/${encodeURIComponent(runId)}/sheet${q}`); } catch (e) {
    if (asked === sheetState.asked && sheetState.run !== runId) section.hidden = true;
    return;  // not a family's run, or no such game
  }
  if (runId !== state.selected || asked !== sheetState.asked) return;
  sheetState.run = runId;
  sheetState.game = d.game;
  section.hidden = false;
  document.getElementById("sheet-which").replaceChildren(
    `(unit ${d.unit}, game ${d.game}; ${fmt(d.games)} games in the run) `,
    el("a", { id: "sheet-link", href: `/runs/${encodeURIComponent(runId)}/hands/${encodeURIComponent(d.unit)}/${d.game}` },
       "replay it deal by deal"));
  sheetTable(d);
  section.dataset.sheetFor = `${runId}:${d.game}`;
}

function chooseGame(step) {
  if (!sheetState.run) return;
  sheetState.wanted = Math.max(0, (sheetState.wanted ?? sheetState.game) + step);
  refreshSheet(sheetState.run, sheetState.wanted);
}

document.getElementById("sheet-prev").addEventListener("click", () => chooseGame(-1));
document.getElementById("sheet-next").addEventListener("click", () => chooseGame(1));
