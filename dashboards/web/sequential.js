// pokerarena web dashboard: a tournament's sequential tests (/api/runs/{id}/sequential),
// live, as fishtest shows its tests: each match's log-likelihood ratio at every look,
// between the bounds where the test stops, and the decision once taken.
"use strict";

function sequentialChart(div, d) {
  const traces = [];
  let lo = -3, hi = 3, last = 1;
  d.tests.forEach((t, k) => {
    const colour = PALETTE[k % PALETTE.length];
    const name = `${t.match}: ${t.bots.join(" v ")}`;
    [lo, hi] = t.state.bounds;
    const path = [[0, 0], ...t.path];  // every test starts at zero
    const xs = path.map((p) => p[0]);
    last = Math.max(last, ...xs);
    traces.push({ type: "scatter", mode: "lines+markers", name, x: xs, y: path.map((p) => p[1]),
                  line: { color: colour }, marker: { size: 4 }, meta: { match: t.match, mirror: false } });
    if (t.mirror_path) {
      traces.push({ type: "scatter", mode: "lines", name: `${name} (mirror)`, showlegend: false,
                    x: [0, ...t.mirror_path.map((p) => p[0])], y: [0, ...t.mirror_path.map((p) => p[1])],
                    line: { color: colour, dash: "dot", width: 1 }, meta: { match: t.match, mirror: true } });
    }
  });
  const bound = (y, text) => ({ type: "line", xref: "paper", x0: 0, x1: 1, y0: y, y1: y,
                                line: { dash: "dash", color: "#9aa3b2" }, name: text });
  Plotly.react(div, traces, layout({ showlegend: true, legend: { orientation: "h", y: -0.3 },
    margin: { l: 56, r: 16, t: 8, b: 40 }, height: 300,
    xaxis: { title: { text: "duplicate pairs" } }, yaxis: { title: { text: "log-likelihood ratio" } },
    shapes: [bound(lo, "accept H0"), bound(hi, "accept H1")],
    annotations: [{ xref: "paper", x: 1, y: hi, text: "H1", showarrow: false, yshift: 8 },
                  { xref: "paper", x: 1, y: lo, text: "H0", showarrow: false, yshift: -8 }] }), CONFIG);
}

async function refreshSequential(runId, status) {
  const section = document.getElementById("sequential-section");
  let d;
  try { d = await getJSON(`/api/runs/${encodeURIComponent(runId)}/sequential`); } catch (e) { return; }
  if (runId !== state.selected) return;
  if (!d.stop || !d.tests.length) { section.hidden = true; return; }
  section.hidden = false;
  const r = d.stop;
  document.getElementById("sequential-rule").textContent =
    `(H0: ${r.h0} mbb/hand, H1: ${r.h1}; alpha ${r.alpha}, beta ${r.beta}` +
    `${r.two_sided ? ", two-sided" : ""}; estimator ${r.estimator}; dashed: the bounds)`;
  sequentialChart(document.getElementById("chart-sequential"), d);
  document.querySelector("#sequential tbody").replaceChildren(...d.tests.map((t) => {
    const s = t.state;
    const verdict = t.decision === "H1" ? `H1: ${t.ahead} ahead` : t.decision;
    return el("tr", { "data-match": t.match, "data-decision": t.decision },
      el("td", {}, t.match), el("td", {}, t.bots.join(" v ")),
      el("td", { class: "num" }, fmt(s.pairs)), el("td", { class: "num" }, fmt(s.llr, 2)),
      el("td", {}, verdict),
      el("td", { class: "num" }, `${fmt(s.mbb_per_hand, 1)} [${fmt(s.ci95[0], 1)}, ${fmt(s.ci95[1], 1)}]`));
  }));
  section.dataset.sequentialFor = `${runId}:${status}`;
}
