// pokerarena web dashboard: a simulation's games side by side (/api/runs/{id}/games), and
// two runs of the same bots compared (/api/compare?a=...&b=...).
"use strict";

function pct(e) { return `${fmt(100 * e.value, 1)}% [${fmt(100 * e.ci95[0], 1)}, ${fmt(100 * e.ci95[1], 1)}]`; }
function withCi(e, d = 2) { return `${fmt(e.value, d)} [${fmt(e.ci95[0], d)}, ${fmt(e.ci95[1], d)}]`; }
function gameName(g) {
  const opts = Object.entries(g.options).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  return `${g.variant} ${g.betting}${opts ? " " + opts : ""}`;
}

async function refreshGames(runId, kind) {
  const section = document.getElementById("games-section");
  let d;
  try { d = await getJSON(`/api/runs/${encodeURIComponent(runId)}/games`); } catch (e) { return; }
  if (runId !== state.selected) return;
  // a simulation's own figures; any run that plays more than one game shows them too
  section.hidden = !(kind === "simulation" || d.games.length > 1) || !d.games.length;
  if (section.hidden) return;
  document.querySelector("#games tbody").replaceChildren(...d.games.map((g) =>
    el("tr", { "data-game": gameName(g) }, el("td", {}, gameName(g)), el("td", { class: "num" }, fmt(g.hands)),
      el("td", { class: "num pot" }, withCi(g.pot_bb)), el("td", { class: "num" }, pct(g.showdown_rate)),
      el("td", { class: "num" }, pct(g.passed_rate)), el("td", { class: "num" }, withCi(g.decisions_per_hand)))));
  rankingChart(document.getElementById("chart-games"), d.games.map((g) => ({
    bot: gameName(g), value: g.pot_bb.value, lo: g.pot_bb.ci95[0], hi: g.pot_bb.ci95[1],
    ci95: g.pot_bb.ci95[1] - g.pot_bb.value })), "mean pot (big blinds)", 1);
  section.dataset.gamesFor = runId;
}

function compareChoices(runs) {
  const select = document.getElementById("compare-with");
  const have = [...select.options].map((o) => o.value).join("\u0000");
  const want = ["", ...runs.map((r) => r.run_id).filter((id) => id !== state.selected)];
  if (have === want.join("\u0000")) return;
  const chosen = select.value;
  select.replaceChildren(...want.map((id) => el("option", { value: id }, id || "—")));
  select.value = want.includes(chosen) ? chosen : "";
}

let compareAsked = 0;

async function refreshCompare() {
  const asked = ++compareAsked;
  const other = document.getElementById("compare-with").value;
  const table = document.getElementById("compare"), chart = document.getElementById("chart-compare");
  if (!other || !state.selected) { table.hidden = true; chart.hidden = true; return; }
  let d;
  try {
    d = await getJSON(`/api/compare?a=${encodeURIComponent(state.selected)}&b=${encodeURIComponent(other)}`);
  } catch (e) { table.hidden = true; chart.hidden = true; return; }
  if (asked !== compareAsked) return;  // a newer choice is on its way
  table.hidden = false; chart.hidden = false;
  const ci = (x) => `${fmt(x.value, 1)} [${fmt(x.lo, 1)}, ${fmt(x.hi, 1)}]`;
  table.tBodies[0].replaceChildren(...d.bots.map((r) => el("tr", { "data-bot": r.bot },
    el("td", {}, r.bot), el("td", { class: "num" }, ci(r.a)), el("td", { class: "num" }, ci(r.b)),
    el("td", { class: "num diff" }, r.ci95 ? `${fmt(r.difference, 1)} [${fmt(r.ci95[0], 1)}, ${fmt(r.ci95[1], 1)}]`
      : fmt(r.difference, 1)))));
  rankingChart(chart, d.bots.map((r) => ({ bot: r.bot, value: r.difference,
    lo: r.ci95 ? r.ci95[0] : null, hi: r.ci95 ? r.ci95[1] : null,
    ci95: r.ci95 ? r.ci95[1] - r.difference : null })), `${d.unit}, other run minus this one`);
  document.getElementById("compare-section").dataset.compared = `${d.a}:${d.b}`;
}

document.getElementById("compare-with").addEventListener("change", refreshCompare);
