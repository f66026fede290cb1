// pokerarena web dashboard: the tournament view of a run (/api/runs/{id}/standings).
"use strict";

// The cross table of the standings: each row bot's mbb/hand against each column bot with
// its 95% half-width, bots in ranking order. Its table is made here on first use.
function crossTable(cross, order, unit = "mbb/hand") {
  let table = document.getElementById("standings-cross");
  if (!table) {
    table = el("table", { id: "standings-cross" }, el("thead"), el("tbody"));
    document.querySelector("#standings .grid").append(el("div", {},
      el("h3", {}, "Cross table ", el("small", { class: "muted", id: "cross-unit" })), table));
  }
  document.getElementById("cross-unit").textContent =
    `(row bot's ${unit} vs. column bot, ±95%; blocks: deals; at tables of three or more, half the difference of the two on the same deals)`;
  const index = new Map(cross.bots.map((b, i) => [b, i]));
  table.tHead.replaceChildren(el("tr", {}, el("th", {}, ""),
    ...order.map((b) => el("th", { class: "num" }, b))));
  table.tBodies[0].replaceChildren(...order.map((a) => el("tr", { "data-bot": a },
    el("th", {}, a), ...order.map((c) => {
      const v = cross.mbb_per_hand[index.get(a)][index.get(c)];
      const ci = cross.ci95[index.get(a)][index.get(c)];
      return el("td", { class: "num", "data-bot": a, "data-opponent": c },
                v === null ? "" : `${fmt(v, 1)} ±${fmt(ci, 1)}`);
    }))));
}

// Each bot's rate by every estimator the run has (raw, all-in, AIVAT), each with its
// interval, and how much AIVAT narrowed it (the ratio of standard deviations).
function estimatorTable(bots) {
  const table = document.getElementById("estimators");
  const shown = bots.some((b) => b.estimators && b.estimators.aivat);
  table.hidden = !shown;
  if (!shown) return;
  const cell = (e) => e ? `${fmt(e.mbb_per_hand, 1)} [${fmt(e.ci95[0], 1)}, ${fmt(e.ci95[1], 1)}]` : "–";
  table.tBodies[0].replaceChildren(...bots.map((b) => el("tr", { "data-bot": b.bot },
    el("td", {}, b.bot), ...["raw", "allin", "aivat"].map((k) =>
      el("td", { class: "num", "data-estimator": k }, cell(b.estimators[k]))),
    el("td", { class: "num" }, b.estimators.aivat ? fmt(b.estimators.aivat.sd_ratio, 2) : "–"))));
}

function renderStandings(runId, st) {
  const section = document.getElementById("standings");
  section.hidden = false;
  // a family's run is judged in points per game: the chip tables and hands are poker's
  document.getElementById("run-detail").classList.toggle("family", Boolean(st.family));
  // a game family's run (painted poker, ...): its standings in points per game
  const pts = st.points_per_game;
  const unit = pts ? pts.unit : "mbb/hand";
  document.getElementById("ranking-unit").textContent = `(${unit}, 95% interval)`;
  rankingChart(document.getElementById("chart-ranking"), pts ? pts.bots : st.bots, unit);
  estimatorTable(st.bots);
  const bt = new Map((st.bradley_terry || []).map((r) => [r.bot, r]));
  const os = new Map(st.openskill.map((r) => [r.bot, r]));
  const tbody = document.querySelector("#ratings tbody");
  tbody.replaceChildren();
  for (const b of st.bots) {
    const r = bt.get(b.bot), o = os.get(b.bot);
    tbody.append(el("tr", { "data-bot": b.bot }, el("td", {}, b.bot),
      el("td", { class: "num" }, !r ? "–" : r.lo === null ? `${fmt(r.rating)} (too few games)`
        : `${fmt(r.rating)} [${fmt(r.lo)}, ${fmt(r.hi)}]`),
      el("td", { class: "num" }, `${fmt(o.rating, 1)} ± ${fmt((o.hi - o.lo) / 2, 1)}`)));
  }
  const stab = st.stability ? ` The Bradley–Terry order survives ${fmt(100 * st.stability.order_kept)}%` +
    ` of random drops of ${st.stability.dropped} segments.` : "";
  document.getElementById("rankings").textContent =
    `Total bankroll: ${st.total_bankroll.map((r) => r.bot).join(", ")}. ` +
    `Instant run-off: ${st.instant_runoff.join(", ")}.${stab}`;
  lineChart(document.getElementById("chart-cumulative"), st.bots.map((b) => ({
    name: b.bot, x: st.cumulative[b.bot].hands, y: st.cumulative[b.bot].bb,
    band: st.cumulative[b.bot].band })), "hands", "big blinds won");
  crossTable(pts ? { bots: pts.cross.bots, mbb_per_hand: pts.cross.points, ci95: pts.cross.ci95 }
    : st.cross, st.bots.map((b) => b.bot), unit);
  const names = st.cross.bots;
  const steps = st.openskill_history.map((_, i) => i + 1);
  lineChart(document.getElementById("chart-history"), names.map((n, k) => ({
    name: n, x: steps, y: st.openskill_history.map((h) => h[k]) })), "deal", "OpenSkill μ");
  section.dataset.standingsFor = runId;
}

async function refreshStandings(runId) {
  let st;
  try { st = await getJSON(`/api/runs/${encodeURIComponent(runId)}/standings`); } catch (e) {
    document.getElementById("standings").hidden = true;
    return null;
  }
  if (runId !== state.selected) return null;
  // a freeze-out's standings (places, prizes, ROI) have no ratings or cross table
  if (st.pending || st.format === "freezeout" || !st.bots || !st.bots.length) {
    document.getElementById("standings").hidden = true;
    return null;
  }
  renderStandings(runId, st);
  return st;
}
