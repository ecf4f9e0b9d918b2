// charts.js: the Charts tab (#tab-charts): the metrics the simulation records over virtual
// time (lbscope.series), drawn as five small Canvas 2D charts (six once messages were sent
// back, dead-lettered or filtered by tag) with a vertical marker at each
// action, a crosshair and tooltip on hover or keyboard focus (Left/Right move it, Home/End
// jump), and exports: one PNG of every chart, and the samples as CSV or JSON
// (lbscope.exportMetrics).
//
// When the tab is shown it reads the whole series once; then it takes the new samples the
// playground pushes to the page's store (store.mjs) and redraws at most twice a second. A push
// after the series' epoch changed (time travelled back, samples thinned) brings everything.
// Axis and text colours come from the page's CSS variables, consumer colours from
// lbscope.palette() so that a consumer's line has its canvas colour (until it is read, the
// canvas's palette for the theme, from store.mjs).
//
//   LB.charts.redraw()      read the whole series and draw now
//   LB.charts.exportPNG()   Promise<Blob>: every chart in one PNG, with titles and legends
// (window.LB.charts: for the page's tests and the console).
//
// A module: the page's store, the clock and the palette come from store.mjs.
import { i18n } from "./i18n.js";
import { store as pageStore, seriesAfter, shortClock as fmtTime, look } from "./store.mjs";
import { panelTabs } from "./tabs.js";

function mount() {
  "use strict";

  const root = document.getElementById("tab-charts");
  if (!root) return;

  const TOP_QUEUES = 5; // backlog lines besides the total: readable with 128 queues
  const POLL_MS = 500; // at most two redraws a second
  const HEIGHT = 112; // CSS pixels of one chart
  const PAD = { l: 36, r: 8, t: 6, b: 17 };
  const FONT = "11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

  // ---- Data: the samples held, merged from incremental reads ----

  let store = null; // {epoch, intervalMs, t, consumers, queues, brokers, backlog, duplicates, retried, deadLettered, filtered, marks}
  let palette = { consumers: {}, palette: look(document.documentElement.dataset.theme).palette };

  function api() {
    const a = window.lbscope;
    return a && typeof a.series === "function" ? a : null;
  }

  const nulls = (n) => new Array(n).fill(null);
  // The run's totals in the series, each one value per sample.
  const TOTALS = ["backlog", "duplicates", "retried", "deadLettered", "filtered"];
  const EMPTY = () => ({ t: [], consumers: [], queues: [], brokers: [], backlog: [], duplicates: [], retried: [], deadLettered: [], filtered: [], marks: [], intervalMs: 1000 });

  // mergeList appends the items of incoming (each with the fields named) to list, creating
  // items that appear for the first time with nulls before; it keeps incoming's order.
  function mergeList(list, incoming, key, fields, n0, n1) {
    const by = new Map(list.map((x) => [x[key], x]));
    const out = [];
    for (const item of incoming) {
      let s = by.get(item[key]);
      if (!s) {
        s = { [key]: item[key] };
        for (const f of fields) s[f] = nulls(n0);
        for (const k of Object.keys(item)) if (!fields.includes(k) && k !== key) s[k] = item[k];
      }
      by.delete(item[key]);
      for (const f of fields) s[f].push(...item[f]);
      out.push(s);
    }
    for (const s of by.values()) out.push(s);
    for (const s of out) for (const f of fields) while (s[f].length < n1) s[f].push(null);
    return out;
  }

  // fetchData reads the whole series (when the charts are shown: while hidden they take no
  // pushes); it returns true when the store changed.
  function fetchData() {
    const a = api();
    if (!a) return false;
    let d;
    try {
      d = a.series();
      readPalette(a);
    } catch (e) {
      console.error("charts: reading the series failed", e);
      return false;
    }
    if (!d || d.error) return false;
    return take(d, true);
  }

  function readPalette(a) {
    const p = a.palette && a.palette();
    if (p && !p.error) palette = p;
  }

  // take merges d into the store: all of it (full), or the samples after the store's last.
  function take(d, full) {
    if (full || !store || d.epoch !== store.epoch) {
      const changed = !store || store.epoch !== d.epoch || d.t.length !== store.t.length || d.marks.length !== store.marks.length;
      store = {
        epoch: d.epoch, intervalMs: d.intervalMs, t: d.t, consumers: d.consumers, queues: d.queues,
        brokers: d.brokers, backlog: d.backlog, duplicates: d.duplicates,
        retried: d.retried || [], deadLettered: d.deadLettered || [], filtered: d.filtered || [], marks: d.marks,
      };
      if (changed) cursor = null;
      return changed;
    }
    const lastT = store.t.length ? store.t[store.t.length - 1] : -1;
    const lastMark = store.marks.length ? store.marks[store.marks.length - 1].t : -1;
    d = seriesAfter(d, lastT, lastMark);
    if (d.t.length === 0 && d.marks.length === 0) return false;
    const n0 = store.t.length, n1 = n0 + d.t.length;
    store.t.push(...d.t);
    store.intervalMs = d.intervalMs;
    store.consumers = mergeList(store.consumers, d.consumers, "id", ["queues", "consumed", "msgsPerS"], n0, n1);
    store.queues = mergeList(store.queues, d.queues, "queue", ["backlog"], n0, n1);
    store.brokers = mergeList(store.brokers, d.brokers, "name", ["sends", "failures", "share"], n0, n1);
    for (const f of TOTALS) store[f].push(...(d[f] || []));
    store.marks.push(...d.marks);
    return true;
  }

  // A series push (store.mjs): the samples since the last one, or all of them from 0 after
  // the series started again (a load, a seek back).
  function onSeries(d) {
    if (!visible || !d || d.error) return;
    const a = api();
    if (store && d.epoch !== store.epoch && d.fromMs !== 0) {
      fetchData(); // a push from before our read of another epoch: read it all again
    } else {
      take(d, d.fromMs === 0);
      if (a) readPalette(a);
    }
    soon();
  }

  // soon draws within POLL_MS of the last drawing: at most two redraws a second.
  let drawTimer = 0, lastDraw = -Infinity;
  function soon() {
    if (drawTimer || !visible) return;
    drawTimer = setTimeout(() => {
      drawTimer = 0;
      lastDraw = performance.now();
      if (visible && !document.hidden) draw();
    }, Math.max(0, POLL_MS - (performance.now() - lastDraw)));
  }

  // ---- Colours ----

  function css(name, fallback) {
    const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }

  function theme() {
    return {
      fg: css("--fg", "#1c2330"), muted: css("--muted", "#5b6576"), border: css("--border", "#d9dee7"),
      card: css("--card", "#ffffff"), accent: css("--accent", "#1f6feb"), warn: css("--error-fg", "#8a1c1c"),
      veil: "rgba(127, 127, 127, 0.18)",
    };
  }

  // luminance of a #rrggbb or rgb(…) colour, WCAG's relative luminance; null when unreadable.
  function luminance(c) {
    let m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(c);
    let rgb = m ? m.slice(1, 4).map((h) => parseInt(h, 16)) : null;
    if (!rgb && (m = /rgba?\((\d+)\D+(\d+)\D+(\d+)/.exec(c))) rgb = m.slice(1, 4).map(Number);
    if (!rgb) return null;
    const [r, g, b] = rgb.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  // contrast is the WCAG contrast ratio of two colours (21 when either is unreadable: no edge).
  function contrast(a, b) {
    const la = luminance(a), lb = luminance(b);
    if (la === null || lb === null) return 21;
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  function consumerColour(id, i) {
    return palette.consumers[id] || palette.palette[i % palette.palette.length];
  }

  // ---- The five charts: each builds its lines from the store ----

  const fmtCount = (v) => {
    const a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(a >= 1e5 ? 0 : 1) + "k";
    if (Number.isInteger(v)) return String(v);
    return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
  };
  const fmtShare = (v) => Math.round(v * 100) + "%";

  const SPECS = [
    {
      key: "queues", title: () => i18n.t("charts.queues"), fmt: fmtCount, integer: true,
      lines: (s) => s.consumers.map((c, i) => ({ label: c.id, colour: consumerColour(c.id, i), values: c.queues })),
    },
    {
      key: "throughput", title: () => i18n.t("charts.throughput"), fmt: fmtCount,
      lines: (s) => s.consumers.map((c, i) => ({ label: c.id, colour: consumerColour(c.id, i), values: c.msgsPerS })),
    },
    {
      key: "backlog", title: () => i18n.t("charts.backlog", { n: TOP_QUEUES }), fmt: fmtCount, integer: true,
      lines: (s, th) => {
        const peak = (q) => q.backlog.reduce((m, v) => (v !== null && v > m ? v : m), 0);
        const top = s.queues.map((q) => ({ q, p: peak(q) })).filter((x) => x.p > 0)
          .sort((a, b) => b.p - a.p).slice(0, TOP_QUEUES);
        const pal = palette.palette;
        const out = [{ label: i18n.t("charts.total"), colour: th.fg, values: s.backlog, width: 2, dash: [4, 3] }];
        top.forEach((x, i) => out.push({ label: x.q.queue, colour: pal[i % pal.length], values: x.q.backlog }));
        return out;
      },
    },
    {
      key: "share", title: () => i18n.t("charts.share"), fmt: fmtShare, stacked: true, yMax: 1,
      lines: (s) => s.brokers.map((b, i) => ({ label: b.name, colour: palette.palette[i % palette.palette.length], values: b.share })),
    },
    {
      key: "duplicates", title: () => i18n.t("charts.duplicates"), fmt: fmtCount, integer: true,
      lines: (s, th) => [{ label: i18n.t("charts.duplicatesLine"), colour: th.warn, values: s.duplicates, width: 2 }],
    },
    {
      // Consume failures and tags: shown once any of them happened (spec §3.15, §5.7).
      key: "failures", title: () => i18n.t("charts.failures"), fmt: fmtCount, integer: true,
      shown: (s) => ["retried", "deadLettered", "filtered"].some((f) => (s[f] || []).some((v) => v > 0)),
      lines: (s, th) => [
        { label: i18n.t("charts.retried"), colour: th.accent, values: s.retried, width: 2 },
        { label: i18n.t("charts.deadLettered"), colour: th.warn, values: s.deadLettered, width: 2 },
        { label: i18n.t("charts.filtered"), colour: th.muted, values: s.filtered, width: 2, dash: [4, 3] },
      ],
    },
  ];

  // ---- Scales ----

  function niceCeil(v, integer) {
    if (!(v > 0)) return integer ? 1 : 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 1.5, 2, 2.5, 4, 5, 6, 8, 10]) {
      const c = m * p;
      if (c >= v && (!integer || Number.isInteger(c))) return c;
    }
    return 10 * p;
  }

  const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400].map((s) => s * 1000);

  function timeRange(s) {
    const t0 = s.t.length ? s.t[0] : 0;
    const t1 = Math.max(s.t.length ? s.t[s.t.length - 1] : 0, t0 + 10 * (s.intervalMs || 1000));
    return [t0, t1];
  }

  // ---- Drawing one chart into a rectangle of ctx (CSS pixels) ----

  function drawChart(ctx, spec, s, box, th, opt) {
    const { x, y, w, h } = box;
    const px = x + PAD.l, py = y + PAD.t, pw = Math.max(10, w - PAD.l - PAD.r), ph = Math.max(10, h - PAD.t - PAD.b);
    const lines = spec.lines(s, th);
    const [t0, t1] = timeRange(s);
    const X = (t) => px + ((t - t0) / (t1 - t0)) * pw;
    let yMax = spec.yMax;
    if (!yMax) {
      let m = 0;
      for (const l of lines) for (const v of l.values) if (v !== null && v > m) m = v;
      yMax = niceCeil(m, spec.integer);
    }
    const Yv = (v) => py + ph - (v / yMax) * ph;
    const Y = Yv;

    ctx.save();
    ctx.font = FONT;
    ctx.lineJoin = "round";
    // Grid and y labels: 0, half, max.
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const f of [0, 0.5, 1]) {
      const v = yMax * f, yy = Math.round(Y(v)) + 0.5;
      ctx.strokeStyle = th.border;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(px, yy);
      ctx.lineTo(px + pw, yy);
      ctx.stroke();
      if (spec.integer && !Number.isInteger(v)) continue;
      ctx.fillStyle = th.muted;
      ctx.fillText(spec.fmt(v), px - 4, yy);
    }
    // Time axis.
    const step = TIME_STEPS.find((st) => ((t1 - t0) / st) * 52 <= pw) || TIME_STEPS[TIME_STEPS.length - 1];
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillStyle = th.muted;
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
      const xx = X(t);
      ctx.fillRect(Math.round(xx), py + ph, 1, 3);
      ctx.fillText(fmtTime(t), Math.min(Math.max(xx, px + 12), px + pw - 12), py + ph + 4);
    }
    // Lines, or stacked areas.
    ctx.beginPath();
    ctx.rect(px, py - 1, pw, ph + 2);
    ctx.clip();
    if (spec.stacked) drawStacked(ctx, s.t, lines, X, Y);
    else {
      // Counts are often equal (four consumers with eight queues each): a small offset per
      // line keeps every line visible instead of the last one drawn hiding the others.
      const spread = spec.integer && lines.length > 1 && lines.length <= 8 ? 1.5 : 0;
      for (let k = lines.length - 1; k >= 0; k--) {
        const l = lines[k];
        const off = spread * (k - (lines.length - 1) / 2);
        const Y = (v) => Yv(v) + (v > 0 ? off : 0);
        ctx.strokeStyle = l.colour;
        ctx.lineWidth = l.width || 1.5;
        ctx.setLineDash(l.dash || []);
        ctx.beginPath();
        let pen = false;
        l.values.forEach((v, i) => {
          if (v === null) {
            pen = false;
            return;
          }
          if (pen) ctx.lineTo(X(s.t[i]), Y(v));
          else ctx.moveTo(X(s.t[i]), Y(v));
          pen = true;
        });
        // A line as light as the background (the canvas's yellow on a light theme) gets a
        // dark edge first, so it keeps the canvas's colour and stays visible.
        if (contrast(l.colour, th.card) < 1.6) {
          ctx.save();
          ctx.strokeStyle = th.muted;
          ctx.lineWidth = (l.width || 1.5) + 1.5;
          ctx.stroke();
          ctx.restore();
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    // Action markers.
    ctx.strokeStyle = th.muted;
    ctx.fillStyle = th.muted;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    for (const m of s.marks) {
      if (m.t < t0 || m.t > t1) continue;
      const xx = Math.round(X(m.t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(xx, py);
      ctx.lineTo(xx, py + ph);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    // After a seek back the series still holds the moments ahead (the timeline is unchanged
    // and will replay them): a line marks the moment shown and what is ahead is veiled.
    if (opt.now !== null && opt.now !== undefined && opt.now >= t0 && opt.now < t1) {
      const xx = Math.round(X(opt.now)) + 0.5;
      ctx.fillStyle = th.veil;
      ctx.fillRect(xx, py, px + pw - xx, ph);
      ctx.strokeStyle = th.accent;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(xx, py);
      ctx.lineTo(xx, py + ph);
      ctx.stroke();
      ctx.lineWidth = 1;
      ctx.fillStyle = th.muted;
    }
    s.marks.forEach((m, k) => {
      if (m.t < t0 || m.t > t1) return;
      const xx = X(m.t);
      if (opt.numbers) {
        ctx.textAlign = "left";
        ctx.textBaseline = "top";
        ctx.fillText(String(k + 1), xx + 3, py + 1);
      }
      ctx.beginPath();
      ctx.moveTo(xx - 4, py);
      ctx.lineTo(xx + 4, py);
      ctx.lineTo(xx, py + 5);
      ctx.closePath();
      ctx.fill();
    });
    // Crosshair.
    if (opt.cursor !== null && opt.cursor < s.t.length) {
      const xx = Math.round(X(s.t[opt.cursor])) + 0.5;
      ctx.strokeStyle = th.fg;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(xx, py);
      ctx.lineTo(xx, py + ph);
      ctx.stroke();
      if (!spec.stacked) {
        for (const l of lines) {
          const v = l.values[opt.cursor];
          if (v === null || v === undefined) continue;
          ctx.fillStyle = l.colour;
          ctx.beginPath();
          ctx.arc(xx, Y(v), 3, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
    }
    ctx.restore();
    ctx.strokeStyle = th.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(px + 0.5, py + 0.5, pw - 1, ph - 1);
    return { lines, X, t0, t1, px, pw };
  }

  // drawStacked fills each series' band on top of the ones before, over runs of samples
  // where every series has a value.
  function drawStacked(ctx, t, lines, X, Y) {
    let i = 0;
    while (i < t.length) {
      while (i < t.length && lines.some((l) => l.values[i] === null)) i++;
      let j = i;
      while (j < t.length && !lines.some((l) => l.values[j] === null)) j++;
      if (j > i) {
        const base = new Array(j - i).fill(0);
        for (const l of lines) {
          const top = base.map((b, k) => b + l.values[i + k]);
          ctx.fillStyle = l.colour;
          ctx.beginPath();
          const xs = (k) => X(t[i + k]);
          ctx.moveTo(xs(0), Y(top[0]));
          for (let k = 1; k < top.length; k++) ctx.lineTo(xs(k), Y(top[k]));
          if (top.length === 1) {
            // A lone sample is a thin band, not nothing.
            ctx.lineTo(xs(0) + 2, Y(top[0]));
            ctx.lineTo(xs(0) + 2, Y(base[0]));
          }
          for (let k = top.length - 1; k >= 0; k--) ctx.lineTo(xs(k), Y(base[k]));
          ctx.closePath();
          ctx.fill();
          for (let k = 0; k < base.length; k++) base[k] = top[k];
        }
      }
      i = j;
    }
  }

  // ---- The tab's DOM ----

  const figures = [];
  let cursor = null; // index of the sample under the crosshair, shared by all charts
  let active = null; // the figure whose tooltip shows
  let visible = false;
  let frame = 0;

  function el(tag, cls, parent) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (parent) parent.append(e);
    return e;
  }

  const content = el("div", "charts-content", root);
  i18n.bind(el("p", "hint charts-intro", content), "charts.intro");
  const bar = el("div", "row wrap charts-toolbar", content);
  const exportLabel = el("span", "charts-export-label", bar);
  i18n.bind(exportLabel, "charts.export");
  const buttons = {};
  for (const [k, fmt] of [["PNG", "png"], ["CSV", "csv"], ["JSON", "json"]]) {
    const b = el("button", "small", bar);
    b.type = "button";
    b.id = "charts-export-" + fmt;
    i18n.bind(b, "charts.export" + k);
    i18n.bind(b, "charts.export" + k + "Label", null, "aria-label");
    i18n.bind(b, "charts.export" + k + "Label", null, "title");
    b.addEventListener("click", () => exportAs(fmt));
    buttons[fmt] = b;
  }
  const meta = el("p", "hint charts-meta", content);
  const note = el("p", "hint charts-note", content);
  note.setAttribute("role", "status");

  for (const spec of SPECS) {
    const fig = el("figure", "chart", content);
    fig.dataset.chart = spec.key;
    const title = el("h3", "chart-title", fig);
    title.id = "chart-title-" + spec.key;
    const box = el("div", "chart-box", fig);
    const canvas = el("canvas", "chart-canvas", box);
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "img");
    const tip = el("div", "chart-tip", box);
    tip.hidden = true;
    tip.setAttribute("role", "status");
    const legend = el("ul", "chart-legend", fig);
    const f = { spec, fig, title, box, canvas, tip, legend, legendKey: "", geom: null, hover: false, focus: false };
    figures.push(f);

    canvas.addEventListener("pointermove", (e) => {
      if (!store || !f.geom || store.t.length === 0) return;
      const r = canvas.getBoundingClientRect();
      pointAt(f, e.clientX - r.left);
      f.hover = true;
    });
    canvas.addEventListener("pointerleave", () => {
      f.hover = false;
      f.markNear = null;
      if (!f.focus) {
        if (active === f) active = null;
        cursor = null;
        schedule();
      }
    });
    canvas.addEventListener("focus", () => {
      f.focus = true;
      if (!store || store.t.length === 0) return;
      if (cursor === null) cursor = store.t.length - 1;
      active = f;
      schedule();
    });
    canvas.addEventListener("blur", () => {
      f.focus = false;
      if (active === f) active = null;
      if (!f.hover) cursor = null;
      schedule();
    });
    canvas.addEventListener("keydown", (e) => {
      if (!store || store.t.length === 0) return;
      const n = store.t.length;
      let c = cursor === null ? n - 1 : cursor;
      if (e.key === "ArrowLeft") c -= 1;
      else if (e.key === "ArrowRight") c += 1;
      else if (e.key === "PageUp") c -= 10;
      else if (e.key === "PageDown") c += 10;
      else if (e.key === "Home") c = 0;
      else if (e.key === "End") c = n - 1;
      else return;
      e.preventDefault();
      cursor = Math.max(0, Math.min(n - 1, c));
      active = f;
      f.markNear = null;
      schedule();
    });
  }

  // pointAt puts the crosshair on the sample nearest to x (CSS pixels in f's canvas) and
  // notes a marker within reach of the pointer.
  function pointAt(f, x) {
    const g = f.geom, t = store.t;
    const tx = g.t0 + ((x - g.px) / g.pw) * (g.t1 - g.t0);
    let lo = 0, hi = t.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t[mid] < tx) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && Math.abs(t[lo - 1] - tx) < Math.abs(t[lo] - tx)) lo--;
    cursor = lo;
    active = f;
    f.markNear = null;
    let best = 6;
    for (const m of store.marks) {
      const d = Math.abs(g.X(m.t) - x);
      if (d <= best) {
        best = d;
        f.markNear = m.t;
      }
    }
    schedule();
  }

  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  }

  function swatch(colour, parent, dashed) {
    const s = el("span", "chart-swatch" + (dashed ? " dashed" : ""), parent);
    s.style.backgroundColor = colour; // CSSOM, which the page's CSP allows
    s.setAttribute("aria-hidden", "true");
    return s;
  }

  function renderLegend(f, lines) {
    const key = lines.map((l) => l.label + "\u0000" + l.colour).join("\u0001");
    if (key === f.legendKey) return;
    f.legendKey = key;
    f.legend.replaceChildren();
    for (const l of lines) {
      const li = el("li", "", f.legend);
      swatch(l.colour, li, !!l.dash);
      li.append(document.createTextNode(l.label));
    }
  }

  function renderTip(f, lines) {
    const tip = f.tip;
    if (active !== f || cursor === null || !store || cursor >= store.t.length) {
      tip.hidden = true;
      return;
    }
    const t = store.t[cursor];
    tip.replaceChildren();
    el("p", "tip-time", tip).textContent = i18n.t("charts.time", { time: fmtTime(t) });
    // The actions since the previous sample, up to this one; or the marker pointed at.
    const prev = cursor > 0 ? store.t[cursor - 1] : -Infinity;
    for (const m of store.marks) {
      if ((m.t > prev && m.t <= t) || m.t === f.markNear) {
        el("p", "tip-mark", tip).textContent = i18n.t("charts.action", { text: m.text + " @ " + fmtTime(m.t) });
      }
    }
    const rows = lines.map((l) => ({ l, v: l.values[cursor] }));
    if (!f.spec.stacked && f.spec.key !== "backlog") rows.sort((a, b) => (b.v === null ? -1 : b.v) - (a.v === null ? -1 : a.v));
    const MAX = 8;
    const ul = el("ul", "tip-rows", tip);
    for (const r of rows.slice(0, MAX)) {
      const li = el("li", "", ul);
      swatch(r.l.colour, li, !!r.l.dash);
      li.append(document.createTextNode(r.l.label + ": " + (r.v === null || r.v === undefined ? i18n.t("charts.noValue") : f.spec.fmt(r.v))));
    }
    if (rows.length > MAX) el("li", "tip-more", ul).textContent = i18n.t("charts.more", { n: rows.length - MAX });
    tip.hidden = false;
    // Under the chart (which stays readable), beside the crosshair where there is room.
    const g = f.geom, bw = f.box.clientWidth;
    const x = g.X(t);
    const w = tip.offsetWidth;
    tip.style.left = Math.max(0, Math.min(bw - w, x - w / 2)) + "px";
  }

  function sizeCanvas(c, w, h) {
    const dpr = window.devicePixelRatio || 1;
    const bw = Math.round(w * dpr), bh = Math.round(h * dpr);
    if (c.width !== bw || c.height !== bh) {
      c.width = bw;
      c.height = bh;
      c.style.height = h + "px";
    }
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  function draw() {
    const empty = !store || store.t.length === 0;
    note.hidden = !empty && note.dataset.kind !== "export";
    if (empty && note.dataset.kind !== "export") note.textContent = i18n.t("charts.empty");
    meta.hidden = empty;
    if (!empty) {
      meta.textContent = i18n.t("charts.meta", { interval: store.intervalMs / 1000, n: store.t.length, marks: store.marks.length });
    }
    if (!visible) return;
    const th = theme();
    const now = nowShown();
    for (const f of figures) {
      f.title.textContent = f.spec.title();
      f.canvas.setAttribute("aria-label", i18n.t("charts.aria", { title: f.spec.title() }));
      const w = f.box.clientWidth;
      if (w <= 0) continue;
      const ctx = sizeCanvas(f.canvas, w, HEIGHT);
      ctx.clearRect(0, 0, w, HEIGHT);
      const s = store || EMPTY();
      f.fig.hidden = !!f.spec.shown && !f.spec.shown(s);
      if (f.fig.hidden) continue;
      f.geom = drawChart(ctx, f.spec, s, { x: 0, y: 0, w, h: HEIGHT }, th, { cursor: empty ? null : cursor, now });
      renderLegend(f, f.geom.lines);
      renderTip(f, f.geom.lines);
    }
  }

  // nowShown is the moment the playground shows when it is before the series' last sample
  // (after a seek back), else null.
  function nowShown() {
    const tl = pageStore.timeline;
    if (!tl || typeof tl.nowMs !== "number" || !store || !store.t.length) return null;
    return tl.nowMs < store.t[store.t.length - 1] ? tl.nowMs : null;
  }

  function update() {
    fetchData();
    draw();
  }

  function start() {
    visible = true;
    update();
  }

  function stop() {
    visible = false;
  }

  pageStore.on("series", onSeries);
  pageStore.on("timeline", () => { if (visible) soon(); }); // the "now" line after a seek

  if (panelTabs) {
    panelTabs.onSelect((name) => (name === "charts" ? start() : stop()));
    if (panelTabs.current() === "charts") start();
  }
  i18n.onChange(() => {
    for (const f of figures) f.legendKey = "";
    draw();
  });
  // A theme change (theme.js) recolours the canvas within a quarter second; then the charts
  // read its palette again and their colours from the page's CSS.
  if (window.LB.look) window.LB.look.onChange(() => setTimeout(() => {
    for (const f of figures) f.legendKey = "";
    if (visible) update();
  }, 300));
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => {
      if (visible) schedule();
    }).observe(root);
  }

  // ---- Exports ----

  function download(blob, filename) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = filename;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function say(text) {
    note.dataset.kind = "export";
    note.textContent = text;
    note.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(() => {
      delete note.dataset.kind;
      draw();
    }, 6000);
  }

  function stamp() {
    return store && store.t.length ? store.t[store.t.length - 1] : 0;
  }

  async function exportAs(fmt) {
    try {
      let blob, name;
      if (fmt === "png") {
        blob = await exportPNG();
        name = "lbscope-charts-" + Math.round(stamp() / 1000) + "s.png";
      } else {
        const a = api();
        if (!a) throw new Error("the simulation is not running");
        const r = a.exportMetrics({ format: fmt });
        if (!r || r.error) throw new Error(r ? r.error : "no answer");
        blob = new Blob([r.text], { type: r.mime });
        name = r.filename;
      }
      download(blob, name);
      say(i18n.t("charts.exported", { file: name }));
    } catch (e) {
      say(i18n.t("charts.exportFailed", { error: e && e.message ? e.message : String(e) }));
    }
  }

  // legendRows lays the legend items of lines out in rows of width w; returns the rows.
  function legendRows(ctx, lines, w) {
    const rows = [[]];
    let x = 0;
    for (const l of lines) {
      const iw = (l.colour ? 14 : 0) + ctx.measureText(l.label).width + (l.colour ? 14 : 20);
      if (x + iw > w && rows[rows.length - 1].length) {
        rows.push([]);
        x = 0;
      }
      rows[rows.length - 1].push({ l, x });
      x += iw;
    }
    return rows;
  }

  // exportPNG draws every chart, with its title and legend, into one image.
  function exportPNG() {
    fetchData();
    const th = theme();
    const s = store || EMPTY();
    const W = 900, M = 20, CH = 170, scale = 2;
    const c = document.createElement("canvas");
    const measure = c.getContext("2d");
    measure.font = FONT;
    const blocks = SPECS.filter((spec) => !spec.shown || spec.shown(s)).map((spec) => {
      const lines = spec.lines(s, th);
      return { spec, lines, rows: legendRows(measure, lines, W - 2 * M) };
    });
    // The actions, numbered as their markers are.
    const acts = s.marks.map((m, k) => (k + 1) + "  " + fmtTime(m.t) + "  " + m.text);
    const actRows = legendRows(measure, acts.map((label) => ({ label })), W - 2 * M);
    const H = 54 + blocks.reduce((h, b) => h + 24 + CH + b.rows.length * 18 + 14, 0) + (acts.length ? 24 + actRows.length * 18 : 0) + M;
    c.width = W * scale;
    c.height = H * scale;
    const ctx = c.getContext("2d");
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.fillStyle = th.card;
    ctx.fillRect(0, 0, W, H);
    let title = "";
    try {
      const st = window.lbscope && window.lbscope.state();
      title = (st && st.title) || "";
    } catch (e) { /* no state: no scenario title */ }
    ctx.fillStyle = th.fg;
    ctx.font = "600 17px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
    ctx.textBaseline = "top";
    ctx.textAlign = "left";
    ctx.fillText(title ? i18n.t("charts.pngTitle", { title, time: fmtTime(stamp()) }) : "LBScope · " + fmtTime(stamp()), M, M);
    let y = 54;
    for (const b of blocks) {
      ctx.fillStyle = th.fg;
      ctx.font = "600 13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillText(b.spec.title(), M, y);
      y += 24;
      drawChart(ctx, b.spec, s, { x: M - 6, y, w: W - 2 * M + 6, h: CH }, th, { cursor: null, numbers: true });
      y += CH + 4;
      ctx.font = FONT;
      ctx.textBaseline = "middle";
      for (const row of b.rows) {
        for (const it of row) {
          ctx.fillStyle = it.l.colour;
          ctx.fillRect(M + it.x, y + 3, 10, 10);
          ctx.fillStyle = th.fg;
          ctx.fillText(it.l.label, M + it.x + 14, y + 8);
        }
        y += 18;
      }
      y += 10;
    }
    if (acts.length) {
      ctx.fillStyle = th.fg;
      ctx.font = "600 13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillText(i18n.t("charts.actions"), M, y);
      y += 24;
      ctx.font = FONT;
      ctx.textBaseline = "middle";
      ctx.fillStyle = th.muted;
      for (const row of actRows) {
        for (const it of row) ctx.fillText(it.l.label, M + it.x, y + 8);
        y += 18;
      }
    }
    return new Promise((resolve, reject) => {
      c.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the browser could not encode the PNG"))), "image/png");
    });
  }

  window.LB.charts = {
    exportPNG,
    redraw() {
      fetchData();
      draw();
    },
  };
}

mount();
