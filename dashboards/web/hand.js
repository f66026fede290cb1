// The hand viewer: replays GET /api/runs/{run}/hands/{unit}/{hand} step by step.
"use strict";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const parts = location.pathname.split("/").filter(Boolean); // runs, run, hands, unit, hand
const [, runId, , unit, handNo] = parts.map(decodeURIComponent);
const viewer = { data: null, step: 0 };

function card(c) {
  if (c === "??") return el("span", { class: "card hidden", "data-card": "??" }, "??");
  const suit = c[1];
  const rank = c[0] === "T" ? "10" : c[0];
  return el("span", { class: `card${suit === "h" || suit === "d" ? " red" : ""}`, "data-card": c },
            `${rank}${SUITS[suit] || suit}`);
}

function cards(list, up) {
  return el("span", { class: "cards" }, ...list.map((c) => {
    const node = card(c);
    if (up && up.size && c !== "??" && !up.has(c)) node.classList.add("down");
    return node;
  }));
}

async function load(seat) {
  const q = seat === "" ? "" : `?seat=${encodeURIComponent(seat)}`;
  const url = `/api/runs/${encodeURIComponent(runId)}/hands/${encodeURIComponent(unit)}/${encodeURIComponent(handNo)}${q}`;
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

// A game family's game: its score sheet, one deal more at each step (and that deal's
// tricks, for a trick-taking family).
function familySteps(d) {
  const sheet = d.sheet;
  if (!sheet) return [{ text: "the game's result", rows: [], deal: null }];
  const col = Object.fromEntries(sheet.columns.map((c, i) => [c, i]));
  const start = { text: "the game starts", rows: [], deal: null };
  // a sheet without deals: red-black's rounds step by step, binocle's result at once
  const by = col.deal !== undefined ? col.deal : col.round;
  if (by === undefined) return [start, { text: "the game's result", rows: sheet.rows, deal: null }];
  const deals = [...new Set(sheet.rows.map((r) => r[by]))];
  if (col.bouts !== undefined) {   // durak: one deal, its bouts at one step
    return [start, { text: `the game: ${sheet.rows[0][col.bouts]} bouts`, rows: sheet.rows, deal: deals[0] }];
  }
  if (by !== col.deal) {
    return [start, ...deals.map((round, i) => ({
      text: `round ${round}`, rows: sheet.rows.filter((r) => deals.indexOf(r[by]) <= i), deal: null,
    }))];
  }
  return [start, ...deals.map((deal, i) => {
    const first = sheet.rows.find((r) => r[col.deal] === deal);
    let what = "";
    if (col.kind !== undefined) what = ` (${first[col.kind]}, ${first[col.cards]} cards, trump ${first[col.trump] || "none"})`;
    else if (col.contract !== undefined) what = first[col.contract] === "" ? " (all passed)" : ` (contract ${first[col.contract]})`;
    return { text: `deal ${deal}${what}`, rows: sheet.rows.filter((r) => deals.indexOf(r[col.deal]) <= i), deal };
  })];
}

// A card as a trick stores it: "As", or painted poker's joker with how it was played
// ("Jk high", "Jk low h", "Jk trumps"); a durak bout's move: "throw 7s", "beat 9s",
// "take", "pass".
function trickCard(text) {
  const move = /^(throw|beat) (\S+)$/.exec(text);
  if (move) return el("span", { class: "move" }, el("small", { class: "muted" }, `${move[1]} `), card(move[2]));
  if (text === "take" || text === "pass") return el("small", { class: "move muted" }, text);
  if (!text.startsWith("Jk")) return card(text);
  const how = text.slice(2).trim().split(" ").map((w) => SUITS[w] || w).join(" ");
  return el("span", { class: "card joker", "data-card": text }, "Jk", ...(how ? [el("small", {}, ` ${how}`)] : []));
}

// One deal's tricks: a row per trick, a column per seat (its card, ▸ on the lead, ✓ on
// the taker), as stored; hidden at the start and for a family that keeps no tricks.
function renderTricks(d, deal) {
  const box = document.getElementById("family-tricks");
  box.hidden = d.tricks === null || d.tricks === undefined || deal === null;
  if (box.hidden) return;
  const found = d.tricks.find((x) => x.deal === deal);
  const tricks = found ? found.tricks : [];
  box.dataset.deal = deal;
  const note = document.getElementById("tricks-note");
  note.hidden = tricks.length > 0 && !d.tricks_truncated;
  note.textContent = tricks.length ? "Only the first cards of this game were read; the rest are not shown."
    : "No tricks were played in this deal.";
  const table = document.getElementById("tricks-table");
  table.hidden = !tricks.length;
  const bouts = d.variant === "durak";   // a bout: several moves a seat, maybe nobody takes
  table.classList.toggle("bouts", bouts);
  document.getElementById("tricks-title").replaceChildren(bouts ? "Bouts " : "Tricks ",
    el("small", { class: "muted" }, bouts ? "(each seat's moves per bout; ▸ attacked, ✓ took the table)"
      : "(each seat's card per trick; ▸ led, ✓ took it)"));
  table.tHead.replaceChildren(el("tr", {}, el("th", { class: "num" }, "#"),
    ...d.seats.map((s) => el("th", { "data-seat": s.seat }, `seat ${s.seat}`, el("br"), el("small", { class: "muted" }, s.bot))),
    el("th", {}, bouts ? "outcome" : "won by")));
  const taken = new Array(d.players).fill(0);
  table.tBodies[0].replaceChildren(...tricks.map((t) => {
    if (t.winner >= 0) taken[t.winner] += 1;
    const bySeat = new Map();
    t.plays.forEach((p, i) => bySeat.set(p.seat, [...(bySeat.get(p.seat) || []), { ...p, seq: i }]));
    return el("tr", { "data-trick": t.trick, "data-leader": t.leader, "data-winner": t.winner },
      el("td", { class: "num" }, t.trick + 1),
      ...d.seats.map((s) => {
        const ps = bySeat.get(s.seat);
        if (!ps) return el("td", { "data-seat": s.seat }, "");
        const cls = `${s.seat === t.leader ? "led" : ""} ${s.seat === t.winner ? "won" : ""}`.trim();
        return el("td", { "data-seat": s.seat, "data-seq": ps.map((p) => p.seq).join(","), class: cls },
          ...(s.seat === t.leader ? [el("span", { class: "mark", title: bouts ? "attacked" : "led the trick" }, "▸")] : []),
          ...ps.map((p) => trickCard(p.card)),
          ...(s.seat === t.winner ? [el("span", { class: "mark", title: bouts ? "took the table" : "took the trick" }, "✓")] : []));
      }),
      el("td", { class: "winner" }, t.winner >= 0 ? (bouts ? `taken by seat ${t.winner}` : `seat ${t.winner}`) : "beaten off"));
  }));
  table.dataset.taken = taken.join(",");
}

function renderFamily() {
  const d = viewer.data;
  const steps = viewer.familySteps;
  const s = steps[viewer.step];
  document.getElementById("step-no").textContent = `step ${viewer.step + 1} / ${steps.length}`;
  document.getElementById("street").textContent = viewer.step ? "deal" : "start";
  document.getElementById("step-text").textContent = s.text;
  const table = document.getElementById("family-sheet");
  const cols = d.sheet ? d.sheet.columns : [];
  table.tHead.replaceChildren(el("tr", {}, ...cols.map((c) => el("th", {}, c))));
  table.tBodies[0].replaceChildren(...s.rows.map((r) => el("tr", {},
    ...r.map((v) => el("td", { class: typeof v === "number" ? "num" : "" }, v === null ? "–" : v)))));
  renderTricks(d, s.deal);
  for (const li of document.querySelectorAll("#log li")) {
    li.classList.toggle("current", Number(li.dataset.step) === viewer.step);
  }
  const atEnd = viewer.step === steps.length - 1;
  document.getElementById("showdown").hidden = !atEnd;
  if (atEnd) {
    document.getElementById("pots").replaceChildren();
    document.getElementById("results").replaceChildren(...d.seats.map((r) =>
      el("li", { "data-seat": r.seat }, `seat ${r.seat} (${r.bot}): ${Number(r.points).toFixed(1)} points`)));
  }
}

function render() {
  if (viewer.data.family) { renderFamily(); return; }
  const d = viewer.data;
  const s = d.steps[viewer.step];
  document.getElementById("step-no").textContent = `step ${viewer.step + 1} / ${d.steps.length}`;
  document.getElementById("street").textContent = s.street_name;
  document.getElementById("step-text").textContent = s.text;
  document.getElementById("board").replaceChildren(...s.board.map(card));
  document.getElementById("board-label").hidden = !d.steps[d.steps.length - 1].board.length;
  document.getElementById("pot").textContent = fmt(s.pot);
  const body = document.querySelector("#seats-table tbody");
  body.replaceChildren();
  for (const seat of d.seats) {
    const k = seat.seat;
    const tags = [];
    if (k === d.button) tags.push(el("span", { class: "tag" }, "button"));
    if (s.folded[k]) tags.push(el("span", { class: "tag" }, "folded"));
    else if (s.stacks[k] === 0 && s.put_in[k] > 0) tags.push(el("span", { class: "tag" }, "all in"));
    const tr = el("tr", { "data-seat": k, class: `${s.folded[k] ? "folded" : ""} ${s.seat === k ? "acting" : ""}` },
      el("td", {}, k), el("td", {}, seat.bot), el("td", { class: "seat-cards" }, cards(s.cards[k], new Set(seat.up_cards))),
      el("td", { class: "num stack" }, fmt(s.stacks[k])), el("td", { class: "num bet" }, fmt(s.bets[k])),
      el("td", { class: "num put-in" }, fmt(s.put_in[k])), el("td", {}, ...tags));
    body.append(tr);
  }
  const atEnd = viewer.step === d.steps.length - 1;
  document.getElementById("showdown").hidden = !atEnd;
  if (atEnd) {
    document.getElementById("pots").replaceChildren(...d.pots.map((p, i) =>
      el("li", {}, `${i === 0 ? "main pot" : `side pot ${i}`}: ${fmt(p.amount)} (seats ${p.eligible.join(", ")})`)));
    document.getElementById("results").replaceChildren(...d.showdown.map((r) =>
      el("li", { "data-seat": r.seat }, `seat ${r.seat} (${r.bot}): ${[r.high, r.low].filter(Boolean).join(" / ") || "—"} — won ${fmt(r.won)}`)));
  }
  for (const li of document.querySelectorAll("#log li")) {
    li.classList.toggle("current", Number(li.dataset.step) === viewer.step);
  }
}

function go(step) {
  const n = viewer.data.family ? viewer.familySteps.length : viewer.data.steps.length;
  viewer.step = Math.max(0, Math.min(n - 1, step));
  render();
}

function showFamily(data) {
  viewer.data = data;
  viewer.familySteps = familySteps(data);
  document.getElementById("hand-title").textContent =
    `game ${data.hand} (match ${data.match}, unit ${data.unit}) · ${data.variant} · ${data.players} seats · run ${data.run_id}`;
  for (const id of ["felt", "consistency"]) document.getElementById(id).hidden = true;
  document.getElementById("view-seat").parentElement.hidden = true;
  document.getElementById("exports").hidden = true;
  document.getElementById("family-view").hidden = false;
  document.getElementById("actions-title").textContent = "Deals";
  const log = document.getElementById("log");
  log.replaceChildren(...viewer.familySteps.map((s, i) => {
    const li = el("li", { "data-step": i }, s.text);
    li.addEventListener("click", () => go(i));
    return li;
  }));
  document.getElementById("viewer").hidden = false;
  go(0);
}

function show(data) {
  if (data.family) { showFamily(data); return; }
  viewer.data = data;
  const ref = `${encodeURIComponent(data.unit)}:${data.hand}`;
  for (const a of document.querySelectorAll("#exports a")) {
    a.href = `/api/runs/${encodeURIComponent(data.run_id)}/hands/${ref}/export?format=${a.dataset.format}`;
  }
  document.getElementById("hand-title").textContent =
    `hand ${data.hand} (match ${data.match}, unit ${data.unit}) · ${data.variant} ${data.betting} · ${data.players} seats · run ${data.run_id}`;
  const log = document.getElementById("log");
  log.replaceChildren(...data.steps.map((s, i) => {
    const li = el("li", { "data-step": i, class: s.fault ? "fault" : "" }, `${s.street_name}: ${s.text}`);
    li.addEventListener("click", () => go(i));
    return li;
  }));
  const select = document.getElementById("view-seat");
  if (select.options.length === 1) {
    for (const seat of data.seats) select.append(el("option", { value: seat.seat }, `seat ${seat.seat} (${seat.bot})`));
  }
  document.getElementById("consistency").textContent = data.consistent
    ? "The steps add up to the stored end stacks."
    : "Warning: the steps do not add up to the stored end stacks.";
  document.getElementById("viewer").hidden = false;
  go(Math.min(viewer.step, data.steps.length - 1));
}

async function start(seat) {
  try {
    show(await load(seat));
  } catch (e) {
    const p = document.getElementById("hand-error");
    p.textContent = `This hand cannot be shown: ${e.message}`;
    p.hidden = false;
    document.getElementById("hand-title").textContent = "";
  }
}

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("prev").addEventListener("click", () => go(viewer.step - 1));
document.getElementById("next").addEventListener("click", () => go(viewer.step + 1));
document.getElementById("last").addEventListener("click", () => go(Infinity));
document.getElementById("view-seat").addEventListener("change", (e) => start(e.target.value));
document.addEventListener("keydown", (e) => {
  if (!viewer.data || e.target.tagName === "SELECT") return;
  const moves = { ArrowRight: 1, ArrowLeft: -1 };
  if (e.key in moves) { go(viewer.step + moves[e.key]); e.preventDefault(); }
  else if (e.key === "Home") { go(0); e.preventDefault(); }
  else if (e.key === "End") { go(Infinity); e.preventDefault(); }
});
start("");
