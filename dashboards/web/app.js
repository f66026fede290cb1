// pokerarena web dashboard: plain JS over the service's REST API (no build step).
"use strict";

// finalFor: the run whose final results are on the page (a finished run's results never change)
const state = { selected: null, finalFor: null };
const TERMINAL = new Set(["finished", "cancelled", "failed", "interrupted"]);

async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}

function bar(fraction, id) {
  const inner = el("div");
  inner.style.width = `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
  const outer = el("div", { class: "bar" }, inner);
  if (id) outer.id = id;
  return outer;
}

async function refreshRuns() {
  let runs;
  try {
    runs = await getJSON("/api/runs");
    document.getElementById("service-status").textContent = "connected";
  } catch (e) {
    document.getElementById("service-status").textContent = "service unreachable";
    return;
  }
  const tbody = document.querySelector("#runs tbody");
  tbody.replaceChildren();
  document.getElementById("no-runs").hidden = runs.length > 0;
  for (const r of runs) {
    const tr = el("tr", { class: "run", "data-run-id": r.run_id, "data-status": r.status },
      el("td", {}, r.run_id), el("td", {}, r.kind),
      el("td", { class: `status status-${r.status}` }, r.status),
      el("td", {}, bar(r.fraction)),
      el("td", { class: "num" }, `${fmt(r.hands_done)} / ${fmt(r.hands_total)}`),
      el("td", { class: "num" }, fmt(r.hands_per_s)),
      el("td", {}, r.created || ""));
    if (r.run_id === state.selected) tr.classList.add("selected");
    tr.addEventListener("click", () => select(r.run_id));
    tbody.append(tr);
  }
  compareChoices(runs);
  if (!state.selected && runs.length) {
    const fromHash = decodeURIComponent(location.hash.slice(1));
    const pick = runs.find((r) => r.run_id === fromHash) || runs[0];
    select(pick.run_id);
  }
}

function select(runId) {
  state.selected = runId;
  state.finalFor = null;
  history.replaceState(null, "", `#${encodeURIComponent(runId)}`);
  for (const tr of document.querySelectorAll("tr.run")) {
    tr.classList.toggle("selected", tr.dataset.runId === runId);
  }
  document.getElementById("compare-with").value = "";
  refreshCompare();
  refreshDetail();
}

async function refreshDetail() {
  const runId = state.selected;
  if (!runId) return;
  let run;
  try { run = await getJSON(`/api/runs/${encodeURIComponent(runId)}`); } catch (e) { return; }
  if (runId !== state.selected) return;
  document.getElementById("run-detail").hidden = false;
  document.getElementById("run-id").textContent = run.run_id;
  const status = document.getElementById("run-status");
  status.textContent = run.status;
  status.className = `status-${run.status}`;
  document.getElementById("run-units").textContent = `${fmt(run.units_done)} / ${fmt(run.units_total)}`;
  document.getElementById("run-hands").textContent = `${fmt(run.hands_done)} / ${fmt(run.hands_total)}`;
  document.getElementById("run-rate").textContent = fmt(run.hands_per_s);
  document.getElementById("run-inflight").textContent = fmt(run.units_in_flight);
  document.getElementById("run-retries").textContent = fmt(run.retries);
  document.getElementById("run-bar").style.width = `${Math.round((run.fraction || 0) * 100)}%`;
  // Results change while units land; once the run is over they are final. The mark is
  // per run: a slower refresh of the run selected before must not mark this one as shown.
  if (state.finalFor !== runId) {
    const shown = await refreshResults(runId, run.status, run.kind);
    if (shown && TERMINAL.has(run.status) && runId === state.selected) state.finalFor = runId;
  }
}

async function refreshResults(runId, status, kind) {
  let lb, ch;
  try {
    [lb, ch] = await Promise.all([
      getJSON(`/api/runs/${encodeURIComponent(runId)}/leaderboard`),
      getJSON(`/api/runs/${encodeURIComponent(runId)}/charts`)]);
  } catch (e) { return false; }
  if (runId !== state.selected) return false;
  const tbody = document.querySelector("#leaderboard tbody");
  tbody.replaceChildren();
  for (const r of lb.leaderboard) {
    tbody.append(el("tr", { "data-bot": r.bot },
      el("td", {}, r.bot), el("td", { class: "num" }, fmt(r.hands)),
      el("td", { class: "num" }, fmt(r.net)), el("td", { class: "num mbb" }, fmt(r.mbb_per_hand, 1)),
      el("td", { class: "num" }, fmt(r.ci95_mbb, 1)),
      el("td", { class: "num" }, `${fmt(100 * r.won_rate, 1)}%`),
      el("td", { class: "num" }, fmt(r.faults))));
  }
  renderCross(lb.cross_table);
  handBots(lb.leaderboard.map((r) => r.bot));
  barChart(document.getElementById("chart-positions"),
    ch.positions.map((p) => ({ label: `pos ${p.position}`, value: p.win_rate,
                               text: `${fmt(100 * p.win_rate, 1)}%` })));
  barChart(document.getElementById("chart-categories"),
    ch.categories.map((c) => ({ label: c.category, value: c.hands, text: fmt(c.hands) })));
  await refreshHands(runId);
  await refreshStudy(runId, kind, status);
  await refreshSequential(runId, status);
  await refreshGames(runId, kind);
  const st = await refreshStandings(runId);
  // a game family's run has score sheets; other runs have none to ask for
  if (st && st.family) await refreshSheet(runId);
  else document.getElementById("sheet-section").hidden = true;
  if (runId !== state.selected) return false;
  document.getElementById("run-detail").dataset.resultsFor = `${runId}:${status}`;
  return true;
}

let handsAsked = 0;  // the newest request reads the filters as they are now: it wins

async function refreshHands(runId) {
  const asked = ++handsAsked;
  const params = new URLSearchParams({ order: document.getElementById("hands-order").value,
                                       limit: "10" });
  const bot = document.getElementById("hands-bot").value;
  const showdown = document.getElementById("hands-showdown").value;
  if (bot) params.set("bot", bot);
  if (showdown) params.set("showdown", showdown);
  let found;
  try {
    found = await getJSON(`/api/runs/${encodeURIComponent(runId)}/hands?${params}`);
  } catch (e) { found = { hands: [] }; }
  if (runId !== state.selected || asked !== handsAsked) return;
  const tbody = document.querySelector("#hands tbody");
  tbody.replaceChildren(...found.hands.map((h) => el("tr", { "data-unit": h.unit, "data-hand": h.hand },
    el("td", {}, el("a", { href: h.link }, `${h.unit} #${h.hand}`)),
    el("td", {}, `${h.variant} ${h.betting}`),
    el("td", { class: "num" }, fmt(h.pot / h.bb, 1)),
    el("td", {}, h.bot), el("td", { class: "num net" }, fmt(h.net / h.bb, 1)),
    el("td", {}, h.showdown ? "yes" : "no"))));
  document.getElementById("hands-none").hidden = found.hands.length > 0;
  document.getElementById("hands-section").dataset.handsFor = `${runId}:${params}`;
}

function handBots(bots) {
  const select = document.getElementById("hands-bot");
  const want = ["", ...bots];
  if ([...select.options].map((o) => o.value).join("\u0000") === want.join("\u0000")) return;
  const chosen = select.value;
  select.replaceChildren(...want.map((b) => el("option", { value: b }, b || "any")));
  select.value = want.includes(chosen) ? chosen : "";
}

for (const id of ["hands-order", "hands-bot", "hands-showdown"]) {
  document.getElementById(id).addEventListener("change", () => state.selected && refreshHands(state.selected));
}

function renderCross(cells) {
  const bots = [...new Set(cells.flatMap((c) => [c.bot, c.opponent]))].sort();
  const table = document.getElementById("crosstable");
  const head = el("tr", {}, el("th", {}, ""), ...bots.map((b) => el("th", { class: "num" }, b)));
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  const at = new Map(cells.map((c) => [`${c.bot}\u0000${c.opponent}`, c]));
  for (const b of bots) {
    body.append(el("tr", { "data-bot": b }, el("th", {}, b), ...bots.map((o) => {
      const c = at.get(`${b}\u0000${o}`);
      return el("td", { class: "num" }, c ? fmt(c.mbb_per_hand, 1) : "");
    })));
  }
}

let ticking = false;  // one refresh at a time: a slow one is not overtaken by the next

async function tick() {
  if (ticking) return;
  ticking = true;
  try {
    await refreshRuns();
    await refreshDetail();
  } finally {
    ticking = false;
  }
}

tick();
setInterval(tick, 1000);
