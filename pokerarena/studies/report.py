"""A study's report: one self-contained HTML file (styles inline, plots embedded as PNG
data URIs drawn with matplotlib's Agg backend, nothing fetched from a network).

:func:`render` takes the plain results of a study (as
:func:`pokerarena.platform.study_report.study_results` builds them: cells, per-cell
metrics with intervals, comparisons against the baseline after correction, pot-size
quantiles and percentiles, skill separation, exact tables) and writes, in this order:
a summary in plain language of what differs significantly and by how much; one
section per question of the spec, the cells side by side; then every metric, the seat
advantage, the pot sizes, the hand categories, the skill separation, every comparison,
and the exact tables with their paradox flags. Every estimate carries its 95% interval.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable, Sequence
from typing import Any

from pokerarena.studies.metrics import metric_info
from pokerarena.studies.settings import DEFAULT_METRICS

__all__ = ["render", "summary_lines"]

CORRECTIONS = {"holm": "Holm's", "bh": "Benjamini-Hochberg's"}
SUMMARY_MAX = 12
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
          "#e377c2", "#7f7f7f", "#bcbd22")

STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:72rem;
padding:1.5rem 2rem;color:#1b1f24;line-height:1.45}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de;
padding-bottom:.25rem}h3{margin-top:1.4rem}.meta{color:#57606a;margin-top:0}
table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:.88rem}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;vertical-align:top}
th{background:#f6f8fa;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums;
white-space:nowrap}tr.sig td{background:#fff8c5}.ci{color:#57606a;font-size:.82em}
figure{margin:.8rem 0 1.4rem}figure img{max-width:100%;height:auto;border:1px solid #eaeef2}
figcaption{color:#57606a;font-size:.88rem}.summary li{margin:.3rem 0}
.flag{color:#9a3412;font-weight:600}.note{color:#57606a;font-size:.9rem}
.scroll{overflow-x:auto}li.group{list-style:none;font-weight:600;margin-top:.7rem;
margin-left:-1.2rem}
"""


# numbers ---------------------------------------------------------------------------


def _num(v: float | None, digits: int = 3) -> str:
    """A number for a reader: ``digits`` significant figures, thousands separated."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, float) and math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if abs(v) < 1e-12:
        return "0"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    text = f"{v:.{digits}g}"
    if "e" in text:  # beyond the digits: whole numbers, or enough decimals for small ones
        text = f"{v:,.0f}" if abs(v) >= 1 else f"{v:.{digits + 3}f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def _p(v: float | None) -> str:
    """A p-value: two significant figures, tiny ones as an upper bound."""
    if v is not None and v < 1e-4:
        return "< 0.0001"
    return _num(v, 2)


def _is_share(metric: str) -> bool:
    return metric_info(metric).unit.startswith("share")


def _fmt(metric: str, v: float | None) -> str:
    """A metric's value in its unit: shares as percentages."""
    if v is not None and _is_share(metric) and math.isfinite(v):
        return _num(100 * v) + "%"
    return _num(v)


def _ci(metric: str, lo: float | None, hi: float | None) -> str:
    return f"<span class=ci>[{_fmt(metric, lo)}, {_fmt(metric, hi)}]</span>"


def _esc(text: Any) -> str:
    return html.escape(str(text))


# plots -----------------------------------------------------------------------------


def _figure(fig: Any, plot_id: str, caption: str) -> str:
    """The figure as an embedded PNG with its caption (the figure is closed)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'<figure id="{plot_id}" class=plot><img alt="{_esc(caption)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{_esc(caption)}</figcaption>'
            "</figure>")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _short(label: str, width: int = 34) -> str:
    return label if len(label) <= width else label[:width - 1] + "…"


def _forest(rows: Sequence[tuple[str, float, float, float]], ax: Any, metric: str,
            baseline_index: int | None) -> None:
    """Points with 95% bars, one row per cell (top to bottom in cell order)."""
    scale = 100 if _is_share(metric) else 1
    for i, (_, v, lo, hi) in enumerate(rows):
        y = len(rows) - 1 - i
        if math.isnan(v):
            continue  # the metric does not apply to this cell: its row stays empty
        lo_f = lo if math.isfinite(lo) else v
        hi_f = hi if math.isfinite(hi) else v
        ax.errorbar([v * scale], [y], xerr=[[max(0.0, (v - lo_f) * scale)],
                                           [max(0.0, (hi_f - v) * scale)]],
                    fmt="o", color=COLORS[i % len(COLORS)], capsize=3)
    ax.set_yticks(range(len(rows)), [_short(r[0], 44) for r in reversed(rows)], fontsize=8)
    if baseline_index is not None:
        ax.axvline(rows[baseline_index][1] * scale, color="#999", lw=0.8, ls="--")
    info = metric_info(metric)
    ax.set_title(info.label, fontsize=9)
    ax.set_xlabel("%" if scale == 100 else info.unit, fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", alpha=0.3)


def _metrics_plot(results: dict[str, Any], metrics: Sequence[str], plot_id: str,
                  caption: str) -> str:
    """One forest panel per metric, the cells as rows."""
    plt = _pyplot()
    by = _by_cell_metric(results)
    cells = results["cells"]
    shown = [m for m in metrics if any((c["cell"], m) in by for c in cells)][:9]
    if not shown:
        return ""
    cols = min(3, len(shown))
    nrows = -(-len(shown) // cols)
    same_unit = len({metric_info(m).unit for m in shown}) == 1
    fig, axes = plt.subplots(nrows, cols, figsize=(3.6 * cols + 2.4, 0.4 * len(cells) * nrows
                                                         + 1.2 * nrows),
                             squeeze=False, sharey=True, sharex=same_unit)
    base = results["settings"]["baseline"]
    for ax, metric in zip(axes.flat, shown, strict=False):
        rows = [(f"{c['cell']}: {c['label']}", *_vlh(by.get((c["cell"], metric))))
                for c in cells]
        index = next((i for i, c in enumerate(cells) if c["cell"] == base
                      and not math.isnan(rows[i][1])), None)
        _forest(rows, ax, metric, index)
    for ax in axes[:, 1:].flat:
        ax.tick_params(axis="y", labelleft=False)
    if same_unit:  # one scale: the panels compare across metrics too
        for ax in axes.flat:
            ax.tick_params(axis="x", labelbottom=True)
    for ax in list(axes.flat)[len(shown):]:
        ax.set_visible(False)
    fig.tight_layout()
    return _figure(fig, plot_id, caption)


def _vlh(m: dict[str, Any] | None) -> tuple[float, float, float]:
    if m is None:
        return math.nan, math.nan, math.nan
    return (m["value"], -math.inf if m["lo"] is None else m["lo"],
            math.inf if m["hi"] is None else m["hi"])


def _seat_plot(results: dict[str, Any]) -> str:
    """Net result by position, per cell, with 95% bars."""
    plt = _pyplot()
    by = _by_cell_metric(results)
    cells = results["cells"]
    positions = sorted({int(m.split(":")[1]) for (_, m) in by if m.startswith("seat_net:")})
    if not positions:
        return ""
    fig, ax = plt.subplots(figsize=(9, 3.8))
    width = 0.8 / max(1, len(cells))
    for i, c in enumerate(cells):
        xs, vs, lo, hi = [], [], [], []
        for p in positions:
            m = by.get((c["cell"], f"seat_net:{p}"))
            if m is None:
                continue
            v, lo_, hi_ = _vlh(m)
            xs.append(p + (i - (len(cells) - 1) / 2) * width)
            vs.append(v)
            lo.append(v - lo_ if math.isfinite(lo_) else 0)
            hi.append(hi_ - v if math.isfinite(hi_) else 0)
        ax.errorbar(xs, vs, yerr=[lo, hi], fmt="o", capsize=3, color=COLORS[i % len(COLORS)],
                    label=_short(f"{c['cell']}: {c['label']}", 48))
    ax.axhline(0, color="#999", lw=0.8)
    ax.set_xticks(positions, [f"{p}" + (" (first)" if p == 0 else "") for p in positions])
    if results.get("family"):
        ax.set_xlabel("position (0 = first seat left of the first dealer; the last deals)")
        ax.set_ylabel("points per game")
    else:
        ax.set_xlabel("position (0 = first seat left of the button; the last is the button)")
        ax.set_ylabel("net, bb per hand")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _figure(fig, "plot-seats", "Seat advantage: each position's net result per hand "
                   "with its 95% interval, per cell.")


def _pot_plot(results: dict[str, Any]) -> str:
    """Each cell's pot-size distribution as its quantile curve."""
    if not any(results["ecdf"].values()):
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    grid = [i / 100 for i in range(101)]
    for i, c in enumerate(results["cells"]):
        values = results["ecdf"].get(c["cell"]) or results["ecdf"].get(str(c["cell"]))
        if values:
            ax.step(values, grid, where="post", color=COLORS[i % len(COLORS)],
                    ls=("-", "--", ":", "-.")[i % 4], lw=1.6,
                    label=_short(f"{c['cell']}: {c['label']}", 48))
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("pot at the end of the hand, big blinds (log scale above 1; passed deals "
                  "left out)")
    ax.set_ylabel("share of hands with a pot this size or less")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return _figure(fig, "plot-pots", "Pot-size distributions: for each pot size, the share "
                   "of the hands played whose pot was no larger.")


def _category_plot(results: dict[str, Any]) -> str:
    """Category shares at showdown and among the winners, per cell, with 95% bars."""
    plt = _pyplot()
    by = _by_cell_metric(results)
    cats = results["categories"]
    if not cats:
        return ""
    cells = results["cells"]
    fig, axes = plt.subplots(1, 2, figsize=(11, len(cats) * (0.25 + 0.13 * len(cells)) + 1.4),
                             sharey=True)
    height = 0.8 / max(1, len(cells))
    for ax, family, title in ((axes[0], "category", "hands shown down"),
                              (axes[1], "win_category", "winning hands at showdown")):
        for i, c in enumerate(cells):
            ys, vs, lo, hi = [], [], [], []
            for k, cat in enumerate(cats):
                v, lo_, hi_ = _vlh(by.get((c["cell"], f"{family}:{cat}")))
                if math.isnan(v):
                    continue
                ys.append(len(cats) - 1 - k + (len(cells) - 1 - 2 * i) * height / 2)
                vs.append(100 * v)
                lo.append(100 * max(0.0, v - lo_) if math.isfinite(lo_) else 0)
                hi.append(100 * max(0.0, hi_ - v) if math.isfinite(hi_) else 0)
            ax.barh(ys, vs, height=height, xerr=[lo, hi], color=COLORS[i % len(COLORS)],
                    capsize=2, label=_short(f"{c['cell']}: {c['label']}", 40))
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("% of hands")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(cats)), [c.replace("_", " ") for c in reversed(cats)])
    axes[1].legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return _figure(fig, "plot-categories", "Hand categories: the share of each category "
                   "among the hands shown down (left) and among the winners (right), with "
                   "95% intervals.")


def _skill_plot(results: dict[str, Any]) -> str:
    """Hands the stronger bot needs to beat the weaker at 95%, per cell."""
    skill = results["skill"]
    if not skill:
        return ""
    plt = _pyplot()
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(skill) + 1.4))
    for i, s in enumerate(skill):
        y = len(skill) - 1 - i
        v = s["hands_value"]
        lo = s["hands_lo"] or v
        hi = s["hands_hi"]
        if v is None or not math.isfinite(v):
            continue
        right = (hi - v) if hi is not None else v * 9  # unbounded: an arrow to the edge
        ax.errorbar([v], [y], xerr=[[v - lo], [right]], fmt="o", capsize=3,
                    color=COLORS[i % len(COLORS)])
        if hi is None:
            ax.annotate("", xy=(v + right, y), xytext=(v, y),
                        arrowprops={"arrowstyle": "->", "color": COLORS[i % len(COLORS)]})
    ax.set_yticks(range(len(skill)), [_short(f"{s['cell']}: {labels.get(s['cell'], '')} "
                                             f"({s['strong']} > {s['weak']})", 56)
                                      for s in reversed(skill)], fontsize=8)
    ax.set_xscale("log")
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:,.0f}")
    ax.xaxis.set_major_formatter(plain)
    ax.xaxis.set_minor_formatter(plain)
    ax.tick_params(axis="x", which="minor", labelsize=7)
    ax.set_xlabel("hands for the stronger bot to beat the weaker at 95% (log scale)")
    ax.grid(axis="x", alpha=0.3)
    return _figure(fig, "plot-skill", "Skill separation: fewer hands means the rules let "
                   "skill show sooner; a rule set that needs more hides skill.")


# tables -----------------------------------------------------------------------------


def _by_cell_metric(results: dict[str, Any]) -> dict[tuple[int, str], dict[str, Any]]:
    return {(m["cell"], m["metric"]): m for m in results["metrics"]}


def _table(table_id: str, head: Iterable[str], rows: Iterable[Iterable[str]],
           classes: Iterable[str] = ()) -> str:
    """An HTML table of ready-made cells (already escaped)."""
    cls = list(classes)
    body = "".join(f"<tr{f' class={cls[i]}' if i < len(cls) and cls[i] else ''}>"
                   + "".join(cells_) + "</tr>" for i, cells_ in enumerate(rows))
    return (f'<div class=scroll><table id="{table_id}"><thead><tr>'
            + "".join(f"<th>{h}</th>" for h in head) + f"</tr></thead><tbody>{body}"
            "</tbody></table></div>")


def _td(text: str, num: bool = False) -> str:
    return f"<td class=num>{text}</td>" if num else f"<td>{text}</td>"


def side_rows(results: dict[str, Any], metrics: Sequence[str]) -> list[dict[str, Any]]:
    """The side-by-side table as data: per metric (that any cell has), each cell's
    value and interval, and against the baseline the difference with its interval and
    whether it is significant after the correction (None for the baseline itself)."""
    by = _by_cell_metric(results)
    comp = {(c["cell"], c["metric"]): c for c in results["comparisons"]}
    cells = results["cells"]
    rows = []
    for metric in metrics:
        if not any((c["cell"], metric) in by for c in cells):
            continue
        info = metric_info(metric)
        out = []
        for c in cells:
            m = by.get((c["cell"], metric))
            d = comp.get((c["cell"], metric))
            out.append(None if m is None else {
                "cell": c["cell"], "value": m["value"], "lo": m["lo"], "hi": m["hi"],
                "text": f"{_fmt(metric, m['value'])} [{_fmt(metric, m['lo'])}, "
                        f"{_fmt(metric, m['hi'])}]",
                "against": None if d is None else {
                    "baseline": d["baseline"], "significant": bool(d["significant"]),
                    "text": f"Δ vs {d['baseline']}: {_signed(metric, d['diff'])}"
                            f"{' ★' if d['significant'] else ''} "
                            f"[{_signed(metric, d['lo'])}, {_signed(metric, d['hi'])}]"}})
        rows.append({"metric": metric, "label": info.label, "unit": info.unit, "cells": out})
    return rows


def _side_by_side(results: dict[str, Any], metrics: Sequence[str], table_id: str,
                  label: Any = None) -> str:
    """Metrics as rows, cells as columns: value and interval, and against the baseline
    the difference, starred when significant after correction."""
    base = results["settings"]["baseline"]
    head = ["category" if label else "metric"] + [
        _esc(f"{c['cell']}: {c['label']}") + (" (baseline)" if
                         c["cell"] == base else "") for c in results["cells"]]
    rows = []
    for r in side_rows(results, metrics):
        metric = r["metric"]
        row = [_td(_esc(label(metric)) if label else
                   f"{_esc(r['label'])}<br><span class=ci>{_esc(r['unit'])}</span>")]
        for m in r["cells"]:
            if m is None:
                row.append(_td("–", True))
                continue
            text = f"{_fmt(metric, m['value'])} {_ci(metric, m['lo'], m['hi'])}"
            if m["against"] is not None:
                text += f"<br><span class=ci>{_esc(m['against']['text'])}</span>"
            row.append(_td(text, True))
        rows.append(row)
    return _table(table_id, head, rows)


def _signed(metric: str, v: float | None) -> str:
    """A difference with its sign; a difference of shares in percentage points."""
    if v is not None and _is_share(metric) and math.isfinite(v):
        text = _num(100 * v) + " pp"
    else:
        text = _num(v)
    if text.startswith(("−", "–", "∞")) or text in ("0", "0 pp"):
        return text
    return "+" + text


def _cells_table(results: dict[str, Any]) -> str:
    base = results["settings"]["baseline"]
    rows = [[_td(str(c["cell"]) + (" (baseline)" if c["cell"] == base else "")),
             _td(_esc(c["variant"])), _td(_esc(c["betting"].replace("_", " "))),
             _td(_esc(", ".join(f"{k}={v}" for k, v in sorted(c["options"].items())) or "–")),
             _td(_esc(" v ".join(c["mix"]))), _td(f"{c['hands']:,}", True),
             _td(f"{c['deals']:,}", True)] for c in results["cells"]]
    return _table("table-cells", ["cell", "variant", "betting", "options", "bots (mix)",
                                  "hands", "deals"], rows)


def _quantile_table(results: dict[str, Any]) -> str:
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    by: dict[int, dict[float, dict[str, Any]]] = {}
    for q in results["quantiles"]:
        by.setdefault(q["cell"], {})[q["p"]] = q
    ps = sorted({q["p"] for q in results["quantiles"]})
    rows = [[_td(_esc(f"{cell}: {labels.get(cell, '')}"))]
            + [_td(f"{_num(qs[p]['value'])} <span class=ci>[{_num(qs[p]['lo'])}, "
                   f"{_num(qs[p]['hi'])}]</span>", True) if p in qs else _td("–", True)
               for p in ps] for cell, qs in sorted(by.items())]
    return _table("table-pots", ["cell"] + [f"{round(100 * p)}th percentile" for p in ps],
                  rows)


def _skill_table(results: dict[str, Any]) -> str:
    """The edges, each of a pair chosen on deals its edge does not use (the report's
    ``skill_rule`` says which: choosing on the measured deals is the winner's curse)."""
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    rule = results.get("skill_rule")
    note = (f"<p class=note>How the pair is chosen: {_esc(rule)}.</p>" if rule else "")
    rows = [[_td(_esc(f"{s['cell']}: {labels.get(s['cell'], '')}")),
             _td(_esc(f"{s['strong']} over {s['weak']}"
                      + (f" (chosen in cell {s['chosen_in']}; edge on {s['edge_hands']:,} "
                         "held-out hands)" if "chosen_in" in s else ""))),
             _td(f"{_num(s['edge_value'])} <span class=ci>[{_num(s['edge_lo'])}, "
                 f"{_num(s['edge_hi'])}]</span>", True),
             _td(f"{_num(s['hands_value'])} <span class=ci>[{_num(s['hands_lo'])}, "
                 f"{_num(s['hands_hi'] if s['hands_hi'] is not None else math.inf)}]</span>",
                 True)] for s in results["skill"]]
    return note + _table("table-skill", ["cell", "stronger over weaker", "edge, bb per hand",
                                         "hands to beat the weaker at 95%"], rows)


def _comparisons_table(results: dict[str, Any]) -> str:
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    comps = sorted(results["comparisons"], key=lambda c: (c["p_adjusted"], c["p"]))
    rows, classes = [], []
    for c in comps:
        m = c["metric"]
        rows.append([_td(_esc(f"{c['cell']}: {labels.get(c['cell'], '')}")),
                     _td(_esc(metric_info(m).label)), _td(str(c["baseline"]), True),
                     _td(_fmt(m, c["base_value"]), True), _td(_fmt(m, c["cell_value"]), True),
                     _td(f"{_signed(m, c['diff'])} <span class=ci>[{_signed(m, c['lo'])}, "
                         f"{_signed(m, c['hi'])}]</span>", True),
                     _td(_p(c["p"]), True), _td(_p(c["p_adjusted"]), True),
                     _td("yes ★" if c["significant"] else "no"),
                     _td("paired" if c["paired"] else "unpaired")])
        classes.append("sig" if c["significant"] else "")
    head = ["cell", "metric", "against", "its value", "cell's value", "difference", "p",
            "adjusted p", "significant", "deals"]
    k = sum(1 for c in classes if c)
    shown = rows[:k] or [[f"<td colspan={len(head)}>No difference is significant after the "
                          "correction.</td>"]]
    return (_table("table-comparisons", head, shown, classes[:k])
            + f"<details><summary>The {len(rows) - k} comparisons not significant after the "
            "correction</summary>" + _table("table-comparisons-rest", head, rows[k:])
            + "</details>")


def _exact_section(results: dict[str, Any]) -> str:
    tables = results.get("exact_tables")
    if tables is None:
        return ('<p class=note id="exact-none">Exact tables left out of this report (written '
                "with --no-exact).</p>")
    out = ['<p class=note>The hand a player ends up with under each cell\'s rules, counted '
           "over every hand the deck allows (a sampled estimate, with its 95% interval, "
           "where enumeration is not feasible; draw games: the hands dealt). A flag marks a "
           "category that ranks above another yet is more common: the ranking no longer "
           "follows probability.</p>"]
    for i, t in enumerate(tables):
        cells = ", ".join(map(str, t["cells"]))
        if t.get("error"):
            out.append(f"<h3>{_esc(t['title'])}</h3><p class=note>No table: "
                       f"{_esc(t['error'])}</p>")
            continue
        kind = "sampled estimate" if t.get("sampled") else "exact enumeration"
        rows = []
        for r in t["rows"]:
            freq = f"{_num(100 * r['probability'], 4)}%"
            if t.get("sampled"):
                freq += (f" <span class=ci>[{_num(100 * r['low'], 3)}%, "
                         f"{_num(100 * r['high'], 3)}%]</span>")
            rows.append([_td(str(r["rank"]), True),
                         _td(_esc(str(r["category"]).replace("_", " "))),
                         _td(f"{r['count']:,}", True), _td(freq, True),
                         _td(str(r.get("probability_rank") or "–"), True),
                         _td(f"<span class=flag>⚑ {_esc(r['flag'])}</span>"
                             if r.get("flag") else "")])
        flagged = sum(1 for r in t["rows"] if r.get("flag"))
        order = " > ".join(c.replace("_", " ") for c in t.get("probability_order", []))
        out.append(
            f"<h3>{_esc(t['title'])} <span class=ci>(cells {cells}; {kind}, "
            f"{t.get('hands', 0):,} hands)</span></h3>"
            + _table(f"table-exact-{i}", ["rank", "category", "hands", "frequency",
                                          "rank by probability", "paradox flag"], rows)
            + (f"<p class=note>{flagged} categor{'y' if flagged == 1 else 'ies'} flagged; "
               f"by probability (rarest first) the order would be: {_esc(order)}.</p>"
               if flagged else "<p class=note>The ranking follows probability.</p>"))
    return "".join(out)


# the summary ------------------------------------------------------------------------


def _sentence(c: dict[str, Any], labels: dict[int, str]) -> str:
    m = c["metric"]
    info = metric_info(m)
    base, cell = c["base_value"], c["cell_value"]
    if base and cell / base >= 2:
        rel = f"{_num(cell / base, 2)} times as much"
    elif base:
        rel = f"{_num(100 * abs(c['diff'] / base), 2)}% {'more' if c['diff'] > 0 else 'less'}"
    else:
        rel = "from nothing"
    unit = "" if _is_share(m) else f" {info.unit}"
    return (f"Cell {c['cell']} ({labels.get(c['cell'], '')}) against cell {c['baseline']}, "
            f"{info.label}: {_fmt(m, base)} → {_fmt(m, cell)}{unit}, "
            f"{_signed(m, c['diff'])} (95% interval {_signed(m, c['lo'])} to "
            f"{_signed(m, c['hi'])}; {rel}; adjusted p {_p_phrase(c['p_adjusted'])}).")


def _p_phrase(v: float) -> str:
    text = _p(v)
    return text if text.startswith("<") else f"= {text}"


def _evidence(c: dict[str, Any]) -> tuple[float, float]:
    """Strongest evidence first: the adjusted p-value, then (for the many that are
    tiny) the difference in standard errors."""
    width = (c["hi"] - c["lo"]) if c["hi"] is not None and c["lo"] is not None else 0
    return c["p_adjusted"], -abs(c["diff"]) / width if width else 0.0


def summary_lines(results: dict[str, Any]) -> list[str]:
    """The summary in plain language, one sentence a line: what differs from the
    baseline after the correction, largest evidence first."""
    s = results["settings"]
    correction = CORRECTIONS.get(s["correction"], s["correction"])
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    comps = results["comparisons"]
    sig = sorted((c for c in comps if c["significant"]), key=_evidence)
    base = s["baseline"]
    hands = sum(c["hands"] for c in results["cells"])
    lineups = len({tuple(c["mix"]) for c in results["cells"]}) > 1
    lines = [f"{len(results['cells'])} cells, {hands:,} hands. Each cell is compared with "
             f"the baseline rules (cell {base}: {labels.get(base, '')})"
             + (" played by the same bots, so a rule's effect is never the lineup's; the "
                "baseline's other lineups are compared with the baseline itself. "
                if lineups else ". ") + "Comparisons are "
             + ("on the same deals (paired by deal: the card luck the cells share cancels)"
                if results["common_deals"] else "on independent deals")
             + ("; hands per freeze-out compares the freeze-outs unpaired."
                if s.get("freezeouts") else ".")]
    if not sig:
        lines.append(f"No difference from the baseline is significant after {correction} "
                     f"correction over {len(comps)} comparisons (alpha = {s['alpha']}).")
        return lines
    lines.append(f"{len(sig)} of {len(comps)} differences are significant after "
                 f"{correction} correction (alpha = {s['alpha']}).")
    for effect, title, most in (("rules", "What the rules change", SUMMARY_MAX),
                                ("lineup", "What the lineup changes (same rules, other "
                                 "bots)", SUMMARY_MAX // 2)):
        group = [c for c in sig if c.get("effect", "rules") == effect]
        if not group:
            if effect == "rules":
                lines.append("What the rules change: no rule difference is significant "
                             "after the correction.")
            continue
        lines.append(f"{title}:")
        lines += [_sentence(c, labels) for c in group[:most]]
        if len(group) > most:
            lines.append(f"… and {len(group) - most} more (see the comparisons table).")
    return lines


# the page ---------------------------------------------------------------------------


def _all_metrics(results: dict[str, Any]) -> list[str]:
    seen = {m["metric"] for m in results["metrics"]}
    scalar = [m for m in ("showdown_rate", "pot_bb", "passed_rate", "split_rate", "tie_rate",
                          "rounds_reached", "raises_per_round", "war_length", "fold_to_bet",
                          "wild_in_winner", "best_start_wins", "skill_edge") if m in seen]
    seats = sorted((m for m in seen if m.startswith("seat_net:")),
                   key=lambda m: int(m.split(":")[1]))
    return scalar + seats


def answer_items(results: dict[str, Any], metrics: Sequence[str]) -> list[dict[str, Any]]:
    """What the rules change in a question's metrics: each rule comparison (same bots,
    other rules) in metric order, significant or not after the correction, with its
    sentence (the report's answer and the dashboard's read the same items)."""
    labels = {c["cell"]: c["label"] for c in results["cells"]}
    order = {m: k for k, m in enumerate(metrics)}
    comps = sorted((c for c in results["comparisons"] if c["metric"] in order
                    and c.get("effect", "rules") == "rules"),
                   key=lambda c: (order[c["metric"]], c["cell"]))
    items = []
    for c in comps:
        m = c["metric"]
        verdict = ("significant" if c["significant"] else
                   "not significant after the correction")
        items.append({
            "metric": m, "cell": c["cell"], "baseline": c["baseline"],
            "significant": bool(c["significant"]),
            "text": f"{metric_info(m).label}, cell {c['cell']} "
                    f"({labels.get(c['cell'], '')}) against cell {c['baseline']}: "
                    f"{_fmt(m, c['base_value'])} → {_fmt(m, c['cell_value'])}, "
                    f"{_signed(m, c['diff'])} [{_signed(m, c['lo'])}, {_signed(m, c['hi'])}]"
                    f" — {verdict}"})
    return items


def _answer(results: dict[str, Any], metrics: Sequence[str], index: int) -> str:
    items = answer_items(results, metrics)
    if not items:
        return ""
    lis = "".join("<li>" + _esc(i["text"]).replace(
        "— significant", "— <b>significant</b>") + "</li>" for i in items)
    return f'<ul class=answer id="answer-{index}">{lis}</ul>'


def study_page(results: dict[str, Any]) -> dict[str, Any]:
    """What the dashboard's study page shows first: the summary, each question with its
    answers and its cells side by side, and the cells (the report has the rest)."""
    base = results["settings"]["baseline"]
    return _finite({
        "run_id": results["run_id"], "title": results["title"], "baseline": base,
        "summary": summary_lines(results),
        "cells": [{k: c[k] for k in ("cell", "label", "variant", "betting", "options", "mix",
                                     "hands", "deals") if k in c} for c in results["cells"]],
        "questions": [{"text": q["text"], "metrics": list(q.get("metrics") or DEFAULT_METRICS),
                       "answers": answer_items(results, list(q.get("metrics") or
                                                             DEFAULT_METRICS)),
                       "rows": side_rows(results, list(q.get("metrics") or DEFAULT_METRICS))}
                      for q in results["settings"].get("questions") or []]})


def _finite(x: Any) -> Any:
    """``x`` with every non-finite float as None (JSON has no NaN or infinity)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
    return x


def _questions(results: dict[str, Any]) -> str:
    out = []
    for i, q in enumerate(results["settings"].get("questions") or []):
        metrics = list(q.get("metrics") or DEFAULT_METRICS)
        out.append(f'<section id="question-{i}"><h2>Question {i + 1}: {_esc(q["text"])}</h2>'
                   + _answer(results, metrics, i)
                   + _side_by_side(results, metrics, f"table-question-{i}")
                   + _metrics_plot(results, metrics, f"plot-question-{i}",
                                   "Each cell's estimate with its 95% interval; the dashed "
                                   "line is the baseline"
                                   + ("; every panel on the same scale." if len(
                                       {metric_info(m).unit for m in metrics}) == 1 else "."))
                   + ('<p class=note>The <a href="#exact">exact tables</a> give the same '
                      "categories for every hand the deck allows, with the paradox flags.</p>"
                      if any(m.startswith("category:") for m in metrics) else "")
                   + "</section>")
    return "".join(out)


def render(results: dict[str, Any]) -> str:
    """The report as one HTML document."""
    s = results["settings"]
    summary = summary_lines(results)
    head = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>"
            f"{_esc(results['title'])} — study report</title><style>{STYLE}</style></head>"
            f"<body><h1>{_esc(results['title'])}</h1><p class=meta>Study run "
            f"<code>{_esc(results['run_id'])}</code>, seed {results['seed']}; "
            f"{CORRECTIONS.get(s['correction'], s['correction'])} correction at alpha "
            f"{s['alpha']}. Intervals are 95%; ★ marks a difference from the baseline "
            "that is significant after the correction.</p>")
    body = [
        '<section id="summary"><h2>Summary</h2><ul class=summary>'
        + "".join(f"<li class=group>{_esc(line)}</li>" if line.endswith(":") else
                  f"<li>{_esc(line)}</li>" for line in summary) + "</ul></section>",
        _questions(results),
        '<section id="cells"><h2>Cells</h2>' + _cells_table(results) + "</section>",
        '<section id="metrics"><h2>Every metric, cells side by side</h2>'
        + _side_by_side(results, _all_metrics(results), "table-metrics")
        + _metric_notes(_all_metrics(results)) + "</section>",
        '<section id="seats"><h2>Seat advantage</h2>' + _seat_plot(results) + "</section>",
        '<section id="pots"><h2>Pot sizes</h2>' + _pot_plot(results)
        + _quantile_table(results) + "</section>",
        '<section id="categories"><h2>Hand categories at showdown</h2>'
        + _category_plot(results)
        + "".join(f"<h3>{title}</h3>" + _side_by_side(
            results, [f"{family}:{c}" for c in results["categories"]], table_id,
            label=lambda m: m.split(":", 1)[1].replace("_", " "))
            for family, title, table_id in (
                ("category", "Share of the hands shown down", "table-categories"),
                ("win_category", "Share of the winning hands at showdown",
                 "table-win-categories")))
        + "</section>",
        '<section id="skill"><h2>Skill separation</h2>' + _skill_plot(results)
        + (_skill_table(results) if results["skill"] else
           "<p class=note>No cell seats two different bots.</p>") + "</section>",
        '<section id="comparisons"><h2>Every comparison with the baseline</h2>'
        + _comparisons_table(results) + "</section>",
        '<section id="exact"><h2>Exact tables</h2>' + _exact_section(results) + "</section>",
    ]
    return head + "".join(body) + "</body></html>"


def _metric_notes(metrics: Sequence[str]) -> str:
    items = "".join(f"<li><b>{_esc(metric_info(m).label)}</b> ({_esc(metric_info(m).unit)}): "
                    f"{_esc(metric_info(m).doc)}</li>" for m in metrics)
    return f"<details><summary>What each metric means</summary><ul>{items}</ul></details>"
