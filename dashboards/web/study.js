// pokerarena web dashboard: a study's page (/api/runs/{id}/study): its questions with
// their answers first, the cells side by side, then the report itself, embedded.
"use strict";

function sideTable(q, cells, baseline) {
  const head = el("tr", {}, el("th", {}, "metric"), ...cells.map((c) =>
    el("th", { class: "num" }, `${c.cell}: ${c.label}${c.cell === baseline ? " (baseline)" : ""}`)));
  const rows = q.rows.map((r) => el("tr", { "data-metric": r.metric },
    el("td", {}, r.label, el("br"), el("span", { class: "ci" }, r.unit)),
    ...r.cells.map((m) => el("td", { class: "num", "data-cell": m ? m.cell : "" },
      m ? m.text : "–", ...(m && m.against ? [el("br"), el("span", { class: "ci" }, m.against.text)] : [])))));
  return el("table", { class: "side-by-side" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

async function refreshStudy(runId, kind, status) {
  const section = document.getElementById("study");
  if (kind !== "study") { section.hidden = true; return; }
  let st;
  try { st = await getJSON(`/api/runs/${encodeURIComponent(runId)}/study`); } catch (e) {
    section.hidden = true;  // no finished hands yet
    return;
  }
  if (runId !== state.selected) return;
  section.hidden = false;
  document.getElementById("study-title").textContent = st.title;
  document.getElementById("study-summary").replaceChildren(...st.summary.map((line) => el("li", {}, line)));
  document.getElementById("study-questions").replaceChildren(...st.questions.map((q, i) =>
    el("div", { class: "question", id: `study-question-${i}` },
      el("h3", {}, `Question ${i + 1}: ${q.text}`),
      el("ul", { class: "answer" }, ...q.answers.map((a) =>
        el("li", { class: a.significant ? "significant" : "" }, a.text))),
      sideTable(q, st.cells, st.baseline))));
  document.querySelector("#study-cells tbody").replaceChildren(...st.cells.map((c) =>
    el("tr", { "data-cell": c.cell }, el("td", {}, `${c.cell}${c.cell === st.baseline ? " (baseline)" : ""}`),
      el("td", {}, c.variant), el("td", {}, c.betting),
      el("td", {}, Object.entries(c.options || {}).map(([k, v]) => `${k}=${v}`).join(", ") || "–"),
      el("td", {}, (c.mix || []).join(" v ")), el("td", { class: "num" }, fmt(c.hands)),
      el("td", { class: "num" }, fmt(c.deals)))));
  const report = `/api/runs/${encodeURIComponent(runId)}/report`;
  document.getElementById("study-download").href = `${report}?download=true`;
  document.getElementById("study-open").href = report;
  const frame = document.getElementById("study-report");
  // the report is built from the finished rows: load it once the run is over
  if (TERMINAL.has(status) && frame.dataset.src !== report) {
    frame.src = report;
    frame.dataset.src = report;
  }
  section.dataset.studyFor = `${runId}:${status}`;
}
