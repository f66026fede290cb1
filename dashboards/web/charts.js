// pokerarena web dashboard: its charts, drawn by Plotly (the plotly package's own bundle,
// served by the service at /vendor/plotly.min.js: no CDN, no build step).
"use strict";

const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04",
                 "#db2777", "#4b5563", "#65a30d"];
const CONFIG = { displaylogo: false, responsive: true,
                 modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d"] };

function layout(extra = {}) {
  return Object.assign({ margin: { l: 110, r: 24, t: 8, b: 32 }, font: { size: 11 },
                         showlegend: false, paper_bgcolor: "#fff", plot_bgcolor: "#fff",
                         hovermode: "closest" }, extra);
}

function draw(div, traces, extra) {
  Plotly.react(div, traces, layout(extra), CONFIG);
}

// Horizontal bars, first item on top: items {label, value, text}.
function barChart(div, items) {
  draw(div, [{ type: "bar", orientation: "h", y: items.map((i) => i.label),
               x: items.map((i) => i.value), text: items.map((i) => i.text),
               textposition: "outside", cliponaxis: false, marker: { color: "#3b82f6" },
               hovertemplate: "%{y}: %{text}<extra></extra>" }],
       { yaxis: { autorange: "reversed", automargin: true },
         height: Math.max(140, 40 + 22 * items.length) });
}

// One row per bot, best on top: its estimate with its 95% interval, zero as a rule.
// bots: {bot, value, lo, hi, ci95}.
function rankingChart(div, bots, unit, digits = 0) {
  const finite = (x) => Number.isFinite(x) ? x : null;
  const more = estimatorTraces(bots);
  draw(div, [{ type: "scatter", mode: "markers+text", y: bots.map((b) => b.bot), name: "raw",
               meta: { estimator: "raw" }, offsetgroup: "raw", orientation: "h",
               x: bots.map((b) => b.value),
               error_x: { type: "data", symmetric: false, thickness: 2, width: 5, color: "#1d2330",
                          array: bots.map((b) => finite(b.hi) === null ? 0 : b.hi - b.value),
                          arrayminus: bots.map((b) => finite(b.lo) === null ? 0 : b.value - b.lo) },
               text: bots.map((b) => `${fmt(b.value, digits)} ±${fmt(b.ci95, digits)}`), textposition: "top center",
               cliponaxis: false,
               marker: { size: 9, color: bots.map((_, k) => PALETTE[k % PALETTE.length]) },
               hovertemplate: `%{y}: %{x:.1f} ${unit} [%{customdata}]<extra></extra>`,
               customdata: bots.map((b) => `${fmt(b.lo)}, ${fmt(b.hi)}`) },
        ...more],
       { yaxis: { autorange: "reversed", automargin: true }, margin: { l: 110, r: 24, t: 24, b: 40 },
         showlegend: more.length > 0, legend: { orientation: "h", y: -0.35 }, scattermode: "group",
         xaxis: { zeroline: true, zerolinecolor: "#9aa3b2", title: { text: unit } },
         height: Math.max(160, 60 + (34 + 18 * more.length) * bots.length) });
}

// The same ranking by each estimator beside raw (all-in settlement, AIVAT): one marker
// and interval per bot and estimator, raw on the bot's row, the others just below.
function estimatorTraces(bots) {
  const names = { allin: "all-in", aivat: "AIVAT" };
  return Object.entries(names).filter(([k]) => bots.some((b) => b.estimators && b.estimators[k]))
    .map(([k, label], i) => ({
      type: "scatter", mode: "markers", name: label, y: bots.map((b) => b.bot),
      x: bots.map((b) => b.estimators[k].mbb_per_hand), offsetgroup: k, orientation: "h",
      marker: { size: 7, symbol: i ? "diamond" : "square", color: i ? "#111827" : "#9ca3af" },
      error_x: { type: "data", symmetric: false, thickness: 1.5, width: 3,
                 array: bots.map((b) => b.estimators[k].ci95[1] - b.estimators[k].mbb_per_hand),
                 arrayminus: bots.map((b) => b.estimators[k].mbb_per_hand - b.estimators[k].ci95[0]) },
      meta: { estimator: k }, hovertemplate: `%{y} (${label}): %{x:.1f}<extra></extra>` }));
}

// Lines over a shared x axis; each series may carry a band (±band around zero, shaded).
// series: {name, x, y, band?}.
function lineChart(div, series, xTitle, yTitle) {
  const traces = [];
  series.forEach((s, k) => {
    const colour = PALETTE[k % PALETTE.length];
    if (s.band) {
      traces.push({ type: "scatter", mode: "lines", name: `${s.name} band`, legendgroup: s.name,
                    x: s.x.concat([...s.x].reverse()),
                    y: s.band.concat(s.band.map((b) => -b).reverse()), fill: "toself",
                    fillcolor: colour, opacity: 0.12, line: { width: 0 }, hoverinfo: "skip",
                    showlegend: false, meta: { band: true, bot: s.name } });
    }
    traces.push({ type: "scatter", mode: "lines", name: s.name, legendgroup: s.name, x: s.x,
                  y: s.y, line: { color: colour, width: 1.8 }, meta: { band: false, bot: s.name } });
  });
  draw(div, traces, { showlegend: true, legend: { orientation: "h", y: -0.25 },
                      margin: { l: 56, r: 16, t: 8, b: 40 }, height: 280,
                      xaxis: { title: { text: xTitle } }, yaxis: { title: { text: yTitle },
                      zeroline: true, zerolinecolor: "#9aa3b2" } });
}
