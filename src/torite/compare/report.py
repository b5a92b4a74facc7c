"""The designers' report: one self-contained HTML page from an analysis.

Self-contained means it loads nothing at view time: the style is inline, there is no script, and
the plots are matplotlib figures rendered to SVG and inlined, stripped of the XML prologue,
metadata and namespace declarations (an SVG element inside HTML needs none), so the page holds
no ``http://`` or ``https://`` reference at all.  The SVG ids are salted with a fixed string, so
the same analysis gives the same page byte for byte.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
_SVG_START = re.compile(r"^.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_XMLNS = re.compile(r'\s+xmlns(?::\w+)?="[^"]*"')
_SIZE = re.compile(r'<svg\b([^>]*?)\swidth="[^"]*"\s+height="[^"]*"')


def command_line(result: Mapping[str, Any]) -> str:
    """The ``torite compare`` command that reproduces ``result``."""
    parts = ["torite compare", result["game"]]
    for v in result["variants"]:
        changed = ",".join(f"{k}={_opt(x)}" for k, x in v["changed"].items())
        spec = f"{v['name']}:{changed}" if changed else v["name"]
        parts.append(f"--variant {_quote(spec)}")
    bots = result["bots"]
    parts.append(f"--bots {bots[0] if len(set(bots)) == 1 else ','.join(bots)}")
    skill = result.get("skill")
    parts.append(f"--skill {skill['strong']},{skill['weak']}" if skill else "--skill off")
    parts.append(f"--deals {result['deals']} --seed {result['seed']}")
    return " ".join(parts)


def _opt(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def _quote(text: str) -> str:
    return f"'{text}'" if re.search(r"[^\w:=,.+-]", text) else text


def _svg(fig: Any, label: str) -> str:
    """A figure as an inline ``<svg>`` element with nothing to fetch."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "torite-compare", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = _SVG_START.sub("", buf.getvalue(), count=1)
    text = _METADATA.sub("", text, count=1)
    text = _XMLNS.sub("", text)
    text = _SIZE.sub(lambda m: f'<svg{m.group(1)} class="plot" role="img" aria-label="{html.escape(label)}"',
                     text, count=1)
    return text.strip()


def _plot_differences(result: Mapping[str, Any]) -> str | None:
    """Every difference against the first variant with its 95% interval, one panel per scale."""
    from matplotlib.figure import Figure

    names = [v["name"] for v in result["variants"]]
    if len(names) < 2:
        return None
    panels: list[tuple[str, list[tuple[str, dict[str, tuple[float, float, float]]]]]] = [
        ("points per round (difference)", []), ("relative change (%)", []), ("share (percentage points)", [])]
    for m in result["metrics"].values():
        rows: dict[str, tuple[float, float, float]] = {}
        for name, d in m["diffs"].items():
            if m["scale"] == "points":
                rows[name] = (d["diff"], *d["ci95"])
            elif m["scale"] == "share":
                rows[name] = (100 * d["diff"], 100 * d["ci95"][0], 100 * d["ci95"][1])
            elif "relative" in d:
                rows[name] = (100 * d["relative"], 100 * d["relative_ci95"][0], 100 * d["relative_ci95"][1])
        if rows:
            panel = {"points": 0, "relative": 1, "share": 2}[m["scale"]]
            panels[panel][1].append((m["label"], rows))
    panels = [p for p in panels if p[1]]
    heights = [max(1.2, 0.32 * len(p[1]) * max(1, (len(names) - 1) ** 0.5) + 0.8) for p in panels]
    fig = Figure(figsize=(8.5, sum(heights) + 0.6))
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)[:, 0]
    others = names[1:]
    step = 0.7 / max(1, len(others))
    for ax, (xlabel, lines) in zip(axes, panels, strict=True):
        for j, name in enumerate(others):
            ys, xs, lo, hi = [], [], [], []
            for i, (_label, vals) in enumerate(lines):
                if name in vals:
                    x, a, b = vals[name]
                    ys.append(i + (j - (len(others) - 1) / 2) * step)
                    xs.append(x)
                    lo.append(x - a)
                    hi.append(b - x)
            ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", color=_COLORS[(j + 1) % len(_COLORS)], capsize=3,
                        markersize=4, label=f"{name} − {names[0]}")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(lines)), [label for label, _ in lines], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(xlabel, fontsize=9)
        ax.grid(axis="x", linewidth=0.4, alpha=0.5)
    axes[0].legend(fontsize=8, loc="best")
    title = f"Differences against {names[0]}, with 95% intervals"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return _svg(fig, title)


def _plot_distributions(result: Mapping[str, Any]) -> str:
    """A seat's round points and the game length, every variant overlaid."""
    from matplotlib.figure import Figure

    names = [v["name"] for v in result["variants"]]
    fig = Figure(figsize=(9, 3.4))
    ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    dist = result["distributions"]
    for j, name in enumerate(names):
        counts = dist["round_points"][name]
        xs = [float(k) for k in counts]
        total = sum(counts.values()) or 1
        lo, hi = min(xs), max(xs)
        width = max(1.0, float(math.ceil((hi - lo) / 24)))
        bins: dict[float, int] = {}
        for x, c in zip(xs, counts.values(), strict=True):
            b = lo + width * ((x - lo) // width)
            bins[b] = bins.get(b, 0) + c
        bx = sorted(bins)
        ax1.step(bx, [100 * bins[b] / total for b in bx], where="post", color=_COLORS[j % len(_COLORS)],
                 label=name, linewidth=1.2)
    ax1.set_xlabel("a seat's points in a round", fontsize=9)
    ax1.set_ylabel("% of seat-rounds", fontsize=9)
    ax1.legend(fontsize=8)
    lengths = sorted({float(k) for name in names for k in dist["game_length"][name]})
    width = 0.8 / len(names)
    for j, name in enumerate(names):
        counts = dist["game_length"][name]
        total = sum(counts.values()) or 1
        ax2.bar([x + (j - (len(names) - 1) / 2) * width for x in lengths],
                [100 * counts.get(f"{x:g}", 0) / total for x in lengths], width=width,
                color=_COLORS[j % len(_COLORS)], label=name)
    ax2.set_xticks(lengths, [f"{x:g}" for x in lengths], fontsize=8)
    ax2.set_xlabel("rounds in a game", fontsize=9)
    ax2.set_ylabel("% of games", fontsize=9)
    fig.suptitle("Distributions", fontsize=10)
    fig.tight_layout()
    return _svg(fig, "Distributions of a seat's round points and of the game length, by variant")


def _num(fmt: str, x: float) -> str:
    return fmt.format(x)


def _signed(fmt: str, x: float) -> str:
    if fmt.endswith("%}"):
        return f"{100 * x:+.1f} pp"
    text = fmt.format(x)
    return text if text.startswith("-") else "+" + text


#: a difference's class by its marker (``d["marker"]``, :data:`torite.compare.verdicts.MARKERS`)
_CLASS = {"▲": "sig", "▼": "sig", "△": "neg", "▽": "neg", "≈": "same", "?": "wide"}

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans JP",sans-serif;margin:0 auto;max-width:1100px;
padding:1rem 1.2rem 3rem;color:#1d2330;line-height:1.45;background:#fbfbfd}
h1{font-size:1.5rem;margin:.6rem 0}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d8dbe3}
.meta{color:#4a5162;font-size:.92rem}code{background:#eef0f5;padding:.05rem .3rem;border-radius:3px;font-size:.88em}
table{border-collapse:collapse;font-size:.86rem;margin:.6rem 0;width:100%}
th,td{padding:.28rem .45rem;border-bottom:1px solid #e3e5ec;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}thead th{background:#eef0f5;position:sticky;top:0}
tr.group td{background:#f3f4f8;font-weight:600;text-align:left}
.ci{color:#6a7183;font-size:.8em;white-space:nowrap}.sig{font-weight:700;color:#114f8a}.same{color:#4a7a4a}
.wide{color:#a0640a}.neg{color:#5a6b86}.finding{margin:.3rem 0}ul{padding-left:1.3rem}
h3{font-size:1rem;margin:.8rem 0 .2rem}
details.note summary{cursor:pointer}
svg.plot{max-width:100%;height:auto;display:block;margin:.8rem 0}
.legend span{margin-right:1.2rem}.note{background:#fff6e0;border-left:4px solid #e0a030;padding:.5rem .8rem}
dl dt{font-weight:600;margin-top:.5rem}dl dd{margin-left:1rem;color:#3a4152}
.verdict{font-weight:600;margin:.3rem 0 .5rem}.scroll{overflow-x:auto;max-width:100%}
code{overflow-wrap:anywhere}td:first-child{min-width:9rem}
@media (max-width:600px){body{padding:.6rem .7rem 2rem}h1{font-size:1.25rem}table{font-size:.78rem}
th,td{padding:.2rem .3rem}ul{padding-left:1rem}.note{padding:.4rem .5rem}
svg.plot{min-width:620px}td:first-child{position:sticky;left:0;background:#fbfbfd;min-width:7.5rem}}
"""


def render(result: Mapping[str, Any]) -> str:
    """The report page (HTML text) for one analysis."""
    e = html.escape
    names = [v["name"] for v in result["variants"]]
    base = names[0]
    skill = result.get("skill")
    parts: list[str] = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(result['title'])}: {e(' vs '.join(names))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{e(result.get('report_title') or result['title'] + ': ' + ' · '.join(names))}</h1>",
        f'<p class="meta">{result["deals"]} deals for each variant (common random numbers: every variant '
        f"plays the same shuffles with the same bots), table bots <code>{e(', '.join(result['bots']))}</code>"
        + (f", skill measured as <code>{e(skill['strong'])}</code> against <code>{e(skill['weak'])}</code> "
           "in duplicate play" if skill else "")
        + f", seed {result['seed']}; {result['rounds_played']} rounds played in {result['seconds']:.0f} s "
        f"({result.get('cpu_seconds', 0):.0f} s of processor time).<br>"
        f"Reproduce: <code>{e(command_line(result))}</code></p>",
        '<h2>The variants</h2><div class="scroll"><table><thead><tr><th>variant</th><th style="text-align:left">'
        "rules changed (against the game's defaults)</th></tr></thead><tbody>",
    ]
    for v in result["variants"]:
        changed = ", ".join(f"{k} = {_opt(x)}" for k, x in v["changed"].items()) or "the game's defaults"
        parts.append(f'<tr><td>{e(v["name"])}</td><td style="text-align:left">{e(changed)}</td></tr>')
    parts.append("</tbody></table></div>")

    parts.append(f"<h2>What changes against {e(base)}</h2>")
    if len(names) < 2:
        parts.append("<p>Only one variant: no comparison. Name more with <code>--variant</code>.</p>")
    for name in names[1:]:
        own = result["per_variant"][name]
        parts.append(f"<h3>{e(name)}</h3>")
        parts.append(f'<p class="verdict">Verdict: {e(own["verdict"].removeprefix(name + ": "))}</p>')
        if own.get("swing"):
            parts.append(f'<p class="swing">Is it swingier? {e(own["swing"])}</p>')
        if own["play"]:
            parts.append(f'<p class="note">{e(own["play"])}</p>')
        found = own["findings"]
        if found:
            parts.append("<ul>" + "".join(f'<li class="finding">{e(s)}</li>' for s in found) + "</ul>")
        if _table_never(result, name):
            parts.append('<p class="meta">The bots at the table never met this rule: for a rule that needs '
                         "judgment (information the rule-of-thumb bots do not use, a choice they never make), "
                         "compare with search bots, e.g. <code>--bots hard</code>.</p>")
    if result.get("never_happened"):
        quiet = ", ".join(x["label"] for x in result["never_happened"])
        parts.append(f'<p class="meta">Never happened, in any variant: {e(quiet)}.</p>')
    wide = result["inconclusive"]
    if wide:
        needed = [x["deals_needed"] for x in wide if x["deals_needed"]]
        most = f" (the widest needs about <code>--deals {max(needed)}</code>)" if needed else ""
        parts.append(f'<details class="note"><summary>{len(wide)} difference{"s" if len(wide) > 1 else ""} '
                     f"too wide to conclude: the interval holds zero but also differences larger than "
                     f"negligible; raise <code>--deals</code>{most}.</summary><ul>")
        parts.extend(f"<li>{e(x['text'])}</li>" for x in wide)
        parts.append("</ul></details>")
    if result["deals"] < 30:
        parts.append(f'<p class="note">Only {result["deals"]} deals: the normal 95% intervals are optimistic '
                     "below about 30 deals; treat every verdict as a first look and raise <code>--deals</code>.</p>")
    parts.append(f'<p class="meta">Intervals are 95%. A difference is called significant when its interval '
                 f"excludes zero; with {len(result['metrics'])} measures per variant, expect about one in twenty "
                 "unchanged game-level measures to look significant by chance. The seats by position are "
                 "corrected for multiplicity (Holm): one of them is significant only when its adjusted p-value "
                 "is below 0.05. Negligible: within "
                 f"{100 * result['negligible']:.0f}% of {e(base)}'s value (5 percentage points for a share, 5% "
                 "of a round score's standard deviation for points).</p>")

    parts.append(_summary_table(result))
    parts.append("<h2>Plots</h2>")
    diff_svg = _plot_differences(result)
    if diff_svg:
        parts.append(f'<div class="scroll">{diff_svg}</div>')
    parts.append(f'<div class="scroll">{_plot_distributions(result)}</div>')
    parts.append("<h2>What each measure means</h2><dl>")
    for m in result["metrics"].values():
        parts.append(f"<dt>{e(m['label'])}</dt><dd>{e(m['description'])}</dd>")
    parts.append("</dl>")
    parts.append(
        "<p class=\"meta\">Method. Deal <i>i</i> of every variant is one whole game on the same seed (the "
        "same shuffles and the same bots' random choices) and, for skill and luck, one single round on the "
        "same seed played once under every seating of the strong and the weak bot. Deals are the independent "
        "samples: a per-round measure is averaged over its game first, intervals of means are normal 95% "
        "intervals over deals, and differences are paired deal by deal. The spread and luck intervals are "
        f"percentile bootstraps over deals ({result['bootstrap_resamples']} resamples, the same resampled deals "
        "for every variant). Every game of a variant is compared with the reference's game on the same seeds, "
        "action by action: the same actions and scores (a declined decision aside) is the same game, card for "
        "card; when every game of a set of bots is, the rule never came into play with those bots. "
        "Generated by <code>torite compare</code>.</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _table_never(result: Mapping[str, Any], name: str) -> bool:
    return any(s["set"] == "table" and s["use"] == "never" for s in result.get("in_play", {}).get(name, []))


def _summary_table(result: Mapping[str, Any]) -> str:
    e = html.escape
    names = [v["name"] for v in result["variants"]]
    head = [f"<th>{e(names[0])}</th>"]
    for name in names[1:]:
        head.append(f"<th>{e(name)}</th><th>{e(name)} − {e(names[0])}</th>")
    rows = ['<h2>Summary</h2><p class="legend meta"><span class="sig">▲▼ significant</span>'
            '<span class="neg">△▽ significant but negligible</span>'
            '<span class="same">≈ no meaningful difference</span><span class="wide">? too wide to conclude</span>'
            '</p><div class="scroll"><table><thead><tr><th>measure</th>' + "".join(head) + "</tr></thead><tbody>"]
    group = None
    cols = 2 * len(names)
    for m in result["metrics"].values():
        if m["group"] != group:
            group = m["group"]
            title = group + (" (verdicts corrected for multiplicity: Holm)" if m.get("family") else "")
            rows.append(f'<tr class="group"><td colspan="{cols}">{e(title)}</td></tr>')
        fmt = m["format"]
        cells = [f"<td>{e(m['label'])}</td>"]
        for k, name in enumerate(names):
            v = m["values"][name]
            lo, hi = v["ci95"]
            cells.append(f"<td>{_num(fmt, v['mean'])} "
                         f"<span class=\"ci\">[{_num(fmt, lo)}, {_num(fmt, hi)}]</span></td>")
            if k:
                d = m["diffs"][name]
                mark = d["marker"]
                cls = _CLASS[mark]
                lo, hi = d["ci95"]
                rel = f" ({100 * d['relative']:+.1f}%)" if "relative" in d else ""
                cells.append(f'<td class="{cls}">{mark} {_signed(fmt, d["diff"])}{rel} <span class="ci">'
                             f"[{_signed(fmt, lo)}, {_signed(fmt, hi)}]</span></td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    rows.append("</tbody></table></div>")
    return "\n".join(rows)


def write(result: Mapping[str, Any], path: str) -> None:
    """Render ``result`` to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(result))


__all__: Sequence[str] = ("command_line", "render", "write")
