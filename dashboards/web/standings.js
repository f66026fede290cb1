// pokerarena web dashboard: the tournament view of a run (/api/runs/{id}/standings).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04",
                 "#db2777", "#4b5563", "#65a30d"];

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function clear(svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); }

// One row per bot: its interval as a line, its estimate as a dot, zero as a rule.
function rankingChart(svg, bots) {
  clear(svg);
  const w = 480, rowH = 22, left = 90, right = 20, top = 10;
  const h = top * 2 + bots.length * rowH + 14;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const finite = (x) => Number.isFinite(x) ? x : 0;
  const lo = Math.min(0, ...bots.map((b) => finite(b.lo)));
  const hi = Math.max(0, ...bots.map((b) => finite(b.hi)));
  const x = (v) => left + (w - left - right) * (finite(v) - lo) / Math.max(1e-9, hi - lo);
  svg.append(svgEl("line", { x1: x(0), x2: x(0), y1: top - 4, y2: h - 14, class: "zero" }));
  bots.forEach((b, k) => {
    const y = top + k * rowH + rowH / 2;
    const g = svgEl("g", { class: "rank-item", "data-bot": b.bot });
    g.append(svgEl("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, b.bot),
      svgEl("line", { x1: x(b.lo), x2: x(b.hi), y1: y, y2: y, class: "interval" }),
      svgEl("circle", { cx: x(b.value), cy: y, r: 4, fill: PALETTE[k % PALETTE.length] }),
      // right of the interval; above it, flush right, where that would leave the chart
      svgEl("text", x(b.hi) + 6 > w - 90
        ? { x: w - 2, y: y - 5, "text-anchor": "end" } : { x: x(b.hi) + 6, y: y + 4 },
            `${fmt(b.value)} ±${fmt(b.ci95)}`));
    svg.append(g);
  });
  svg.append(svgEl("text", { x: x(0), y: h - 2, "text-anchor": "middle" }, "0"));
}

// Lines over a shared x axis; bands (optional) as shaded polygons around zero.
function lineChart(svg, series) {
  clear(svg);
  const w = 480, h = 220, left = 44, right = 70, top = 10, bottom = 22;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const xs = series.flatMap((s) => s.x), ys = series.flatMap((s) => s.y.concat(
    (s.band || []).flatMap((b) => [b, -b])));
  if (!xs.length) return;
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const X = (v) => left + (w - left - right) * (v - x0) / Math.max(1e-9, x1 - x0);
  const Y = (v) => top + (h - top - bottom) * (1 - (v - y0) / Math.max(1e-9, y1 - y0));
  svg.append(svgEl("line", { x1: left, x2: w - right, y1: Y(Math.max(y0, Math.min(0, y1))),
                             y2: Y(Math.max(y0, Math.min(0, y1))), class: "zero" }));
  series.forEach((s, k) => {
    const colour = PALETTE[k % PALETTE.length];
    if (s.band) {
      const upper = s.x.map((v, i) => `${X(v)},${Y(s.band[i])}`);
      const lower = s.x.map((v, i) => `${X(v)},${Y(-s.band[i])}`).reverse();
      svg.append(svgEl("polygon", { points: upper.concat(lower).join(" "), fill: colour,
                                    class: "band" }));
    }
    const g = svgEl("g", { class: "series", "data-bot": s.name });
    g.append(svgEl("polyline", { points: s.x.map((v, i) => `${X(v)},${Y(s.y[i])}`).join(" "),
                                 stroke: colour, class: "line" }),
      svgEl("text", { x: w - right + 4, y: Y(s.y[s.y.length - 1]) + 4, fill: colour }, s.name));
    svg.append(g);
  });
  svg.append(svgEl("text", { x: left, y: h - 6 }, fmt(x0)),
             svgEl("text", { x: w - right, y: h - 6, "text-anchor": "end" }, fmt(x1)),
             svgEl("text", { x: left - 4, y: Y(y1) + 4, "text-anchor": "end" }, fmt(y1)),
             svgEl("text", { x: left - 4, y: Y(y0), "text-anchor": "end" }, fmt(y0)));
}

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
    `(row bot's ${unit} vs. column bot, ±95%; blocks: deals)`;
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

function renderStandings(runId, st) {
  const section = document.getElementById("standings");
  section.hidden = false;
  // a game family's run (painted poker, ...): its standings in points per game
  const pts = st.points_per_game;
  const unit = pts ? pts.unit : "mbb/hand";
  document.getElementById("ranking-unit").textContent = `(${unit}, 95% interval)`;
  rankingChart(document.getElementById("chart-ranking"), pts ? pts.bots : st.bots);
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
    band: st.cumulative[b.bot].band })));
  crossTable(pts ? { bots: pts.cross.bots, mbb_per_hand: pts.cross.points, ci95: pts.cross.ci95 }
    : st.cross, st.bots.map((b) => b.bot), unit);
  const names = st.cross.bots;
  const steps = st.openskill_history.map((_, i) => i + 1);
  lineChart(document.getElementById("chart-history"), names.map((n, k) => ({
    name: n, x: steps, y: st.openskill_history.map((h) => h[k]) })));
  section.dataset.standingsFor = runId;
}

async function refreshStandings(runId) {
  let st;
  try { st = await getJSON(`/api/runs/${encodeURIComponent(runId)}/standings`); } catch (e) {
    document.getElementById("standings").hidden = true;
    return;
  }
  if (runId !== state.selected) return;
  // a freeze-out's standings (places, prizes, ROI) have no ratings or cross table
  if (st.pending || st.format === "freezeout" || !st.bots || !st.bots.length) {
    document.getElementById("standings").hidden = true;
    return;
  }
  renderStandings(runId, st);
}
