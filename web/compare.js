// compare.js: the Compare tab (#tab-compare). The reader picks two variants — two allocation
// strategies (with their parameters), two fault settings of the producers, or two client SDKs
// every consumer runs — and presses "Compare up to now": lbscope.compare runs the session's
// recorded scenario (the same seed and everything done so far) once per variant, and the tab
// shows each variant's allocation at the end as a small grid (brokers as columns of queue
// cells coloured by owner, as on the canvas) and the cost table, the better value of each
// line marked.
//
// The comparison runs in slices between the page's frames (lbscope.compare gives a Promise):
// while it runs a progress bar (#compare-progress, lbscope.compareProgress()) and a Cancel
// button (#compare-cancel, lbscope.compareCancel()) show under the Compare button.
//
//   LB.compare.run()     compare now with the chosen variants; a Promise of the result
//                        (window.LB.compare: for the page's tests and the console)
import { i18n, h } from "./i18n.js";
import { clock, look, ready } from "./store.mjs";
import { strategyForm, strategyWords } from "./strategies.mjs";

function mount() {
  "use strict";

  const root = document.getElementById("tab-compare");
  if (!root) return;

  function option(value, label, key) {
    const o = h("option", { value }, label || "");
    if (key) i18n.bind(o, key);
    return o;
  }

  function field(labelKey, control, params) {
    const label = h("label", { for: control.id });
    i18n.bind(label, labelKey, params);
    return h("div", { class: "field" }, label, control);
  }

  // ---- The variant pickers ----

  // OWN is the strategy choice of your own strategy, the Strategy tab's source.
  const OWN = "@own";

  const bySel = h("select", { id: "compare-by" },
    option("strategy", "", "compare.by.strategy"), option("fault", "", "compare.by.fault"),
    option("client", "", "compare.by.client"), option("consumeMode", "", "compare.by.consumeMode"));

  function picker(name, defaults) {
    const p = "compare-" + name.toLowerCase() + "-";
    const table = h("select", { id: p + "table" },
      option("current", "", "compare.table.current"), option("legacy-4x", "", "compare.table.legacy"));
    table.value = defaults.table;
    const fault = h("input", { type: "checkbox", id: p + "fault" });
    fault.checked = true;
    // The strategy and its parameters' inputs: the strategy table's (lbscope.strategies()),
    // built when the wasm is ready (useStrategies).
    const strategyBox = h("div", { class: "compare-strategy" });
    let strategy = null;
    function useStrategies(list) {
      strategy = strategyForm({ h, i18n, list, prefix: p, selected: defaults.strategy,
        field: (key, control) => field(key, control) });
      // Your own strategy: the source in the Strategy tab's editor, under its name there.
      strategy.select.append(option(OWN, "", "compare.own"));
      strategyBox.append(field("compare.strategy", strategy.select), ...strategy.fields);
      strategy.show();
    }
    const faultBox = h("div", { class: "compare-fault" }, field("compare.table", table),
      h("div", { class: "check" }, fault, h("label", { for: fault.id, t: "compare.latencyFault" })));
    // By client: every consumer of the run on one profile (the panel's add-consumer choices).
    const client = h("select", { id: p + "client" },
      option("java", "", "panel.client.java"), option("java-4.9", "Java 4.9"), option("go-2.1.2", "Go 2.1.2"));
    client.value = defaults.client;
    const clientBox = h("div", { class: "compare-client" }, field("compare.client", client));
    // By consume mode: the brokers' PULL or POP for every group, every member asking them.
    const mode = h("select", { id: p + "mode" }, option("PULL", "PULL"), option("POP", "POP"));
    mode.value = defaults.mode;
    const modeBox = h("div", { class: "compare-mode" }, field("compare.mode", mode));
    const legend = h("legend");
    i18n.bind(legend, "compare.variant", { name });
    const el = h("fieldset", { class: "compare-variant" }, legend, strategyBox, faultBox, clientBox, modeBox);
    function show() {
      const byStrategy = bySel.value === "strategy";
      strategyBox.hidden = !byStrategy;
      faultBox.hidden = bySel.value !== "fault";
      clientBox.hidden = bySel.value !== "client";
      modeBox.hidden = bySel.value !== "consumeMode";
      if (strategy) strategy.show();
    }
    function variant() {
      if (bySel.value === "fault") return { faultTable: table.value, latencyFault: fault.checked };
      if (bySel.value === "client") return { client: client.value };
      if (bySel.value === "consumeMode") return { consumeMode: mode.value };
      if (strategy && strategy.select.value === OWN) {
        const own = window.LB.editor ? window.LB.editor.get() : { name: "", source: "" };
        return { strategy: { name: own.name, source: own.source } };
      }
      return strategy ? strategy.value() : { strategy: defaults.strategy };
    }
    return { el, show, variant, useStrategies };
  }

  const pickA = picker("A", { strategy: "AVG", table: "current", client: "java", mode: "PULL" });
  const pickB = picker("B", { strategy: "CONSISTENT_HASH", table: "legacy-4x", client: "go-2.1.2", mode: "POP" });
  bySel.addEventListener("change", () => {
    pickA.show();
    pickB.show();
  });
  pickA.show();
  pickB.show();
  ready().then((api) => {
    const list = api.strategies();
    i18n.add(strategyWords(list));
    pickA.useStrategies(list);
    pickB.useStrategies(list);
  }, () => {});

  const runBtn = h("button", { type: "button", id: "compare-run", t: "compare.run" });
  const cancelBtn = h("button", { type: "button", id: "compare-cancel", t: "compare.cancel" });
  cancelBtn.hidden = true;
  const bar = h("progress", { id: "compare-progress", class: "compare-progress", max: 100, value: 0 });
  bar.hidden = true;
  i18n.bind(bar, "compare.progressLabel", null, "aria-label");
  const status = h("p", { id: "compare-status", class: "hint compare-status", role: "status", "aria-live": "polite" });
  const results = h("div", { id: "compare-results", class: "compare-results" });

  root.append(
    h("section", { class: "panel-section compare" },
      h("p", { class: "hint", t: "compare.intro" }),
      field("compare.by", bySel),
      h("div", { class: "compare-pickers" }, pickA.el, pickB.el),
      h("div", { class: "row" }, runBtn, bar, cancelBtn),
      status,
      results));

  // ---- The result ----

  let last = null; // the last result, drawn again on a language change
  let statusKey = null;

  function say(key, params) {
    statusKey = key ? { key, params } : null;
    status.textContent = key ? i18n.t(key, params) : "";
  }

  function colours(grid) {
    // Deterministic colours when the result carries none: the canvas's palette (Okabe–Ito).
    const PALETTE = look(document.documentElement.dataset.theme).palette;
    const m = {};
    grid.consumers.forEach((c, i) => {
      m[c.id] = { color: c.color || PALETTE[i % PALETTE.length], ink: c.ink || "#111111", label: c.label || c.id };
    });
    return m;
  }

  function drawGrid(row, grid, t) {
    const col = colours(grid);
    const queues = grid.brokers.reduce((n, b) => n + b.queues.length, 0);
    const most = Math.max(1, ...grid.brokers.map((b) => b.queues.length));
    const labelled = most <= 16 && grid.brokers.length <= 8;
    const pic = h("div", { class: "compare-grid", role: "img" });
    const drawn = new Set(); // the consumers whose colour a cell carries
    const marks = new Set(); // "overlap", "orphan": the marked cells the grid has
    pic.setAttribute("aria-label", i18n.t("compare.grid", { name: row.label, t: clock(t), queues, brokers: grid.brokers.length }));
    for (const b of grid.brokers) {
      const column = h("div", { class: "compare-broker" + (b.down ? " down" : "") },
        h("div", { class: "compare-broker-name", text: b.name.replace(/^broker-/, "") }));
      const cells = h("div", { class: "compare-cells" + (labelled ? "" : " dense") });
      for (const q of b.queues) {
        const cell = h("div", { class: "compare-cell" });
        const owners = q.owners.length ? q.owners.join(", ") : i18n.t("compare.nobody");
        cell.title = i18n.t("compare.cell", { queue: q.queue, owners });
        if (q.owners.length === 1 && col[q.owners[0]]) {
          const c = col[q.owners[0]];
          drawn.add(q.owners[0]);
          cell.style.background = c.color;
          cell.style.color = c.ink;
          if (labelled) cell.textContent = c.label;
        } else {
          cell.classList.add(q.owners.length ? "overlap" : "orphan");
          marks.add(q.owners.length ? "overlap" : "orphan");
          if (labelled && q.owners.length) cell.textContent = q.owners.length + "×";
        }
        cells.append(cell);
      }
      column.append(cells);
      pic.append(column);
    }
    const legend = h("ul", { class: "compare-legend" });
    for (const c of grid.consumers) {
      if (c.status === "killed" || c.status === "stopped") continue;
      // A consumer no cell is coloured for (it pulls nothing, or only queues it shares) has
      // an empty swatch: the legend names no colour that the grid lacks.
      const sw = h("span", { class: "compare-swatch" + (drawn.has(c.id) ? "" : " none") });
      if (drawn.has(c.id)) sw.style.background = col[c.id].color;
      legend.append(h("li", {}, sw, c.id + " · " + c.queues));
    }
    for (const m of ["overlap", "orphan"]) {
      if (marks.has(m)) legend.append(h("li", { class: "compare-legend-" + m }, h("span", { class: "compare-swatch " + m }), i18n.t("compare.legend." + m)));
    }
    return h("figure", { class: "compare-figure" }, h("figcaption", { text: row.label }), pic, legend);
  }

  function format(m, v) {
    const nf = new Intl.NumberFormat(i18n.lang === "zh" ? "zh-CN" : "en", { maximumFractionDigits: 1 });
    switch (m.key) {
      case "convergeMeanMs":
      case "convergeMaxMs":
        return v >= 10000 ? i18n.t("compare.s", { n: nf.format(v / 1000) }) : i18n.t("compare.ms", { n: nf.format(Math.round(v)) });
      case "sendShare":
        return nf.format(v * 100) + "%";
    }
    return nf.format(v);
  }

  function drawTable(res) {
    const table = h("table", { class: "compare-table", id: "compare-table" });
    const cap = h("caption");
    cap.textContent = i18n.t("compare.costCaption", { t: clock(res.timeMs) });
    table.append(cap);
    const head = h("tr", {}, h("th", { scope: "col", text: i18n.t("compare.cost") }));
    for (const r of res.rows) head.append(h("th", { scope: "col", text: r.label }));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    for (const m of res.table) {
      const tr = h("tr", { "data-key": m.key + (m.broker ? ":" + m.broker : "") });
      tr.append(h("th", { scope: "row", text: i18n.t("compare.m." + m.key, { broker: m.broker || "" }) }));
      m.values.forEach((v, i) => {
        const absent = (m.absent || []).includes(i);
        const td = h("td", { "data-value": String(v), text: absent ? i18n.t("compare.absent") : format(m, v) });
        if (m.best.includes(i)) {
          td.classList.add("best");
          td.append(h("span", { class: "visually-hidden", text: " (" + i18n.t("compare.best") + ")" }));
        }
        tr.append(td);
      });
      body.append(tr);
    }
    table.append(body);
    return table;
  }

  function drawMoved(res) {
    const moved = res.rows[0].moved;
    if (!moved.length) return null;
    const table = h("table", { class: "compare-table compare-moved", id: "compare-moved" });
    table.append(h("caption", { text: i18n.t("compare.moved") }));
    const head = h("tr", {}, h("th", { scope: "col", text: "" }));
    for (const r of res.rows) head.append(h("th", { scope: "col", text: r.label }));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    moved.forEach((a, i) => {
      const tr = h("tr", {}, h("th", { scope: "row", text: i18n.t("compare.action", { t: clock(a.t), type: a.type, target: a.target || "" }).trim() }));
      const vals = res.rows.map((r) => r.moved[i].queues);
      const lo = Math.min(...vals);
      const differ = Math.max(...vals) !== lo;
      for (const v of vals) {
        const td = h("td", { "data-value": String(v), text: String(v) });
        if (differ && v === lo) td.classList.add("best");
        tr.append(td);
      }
      body.append(tr);
    });
    table.append(body);
    return table;
  }

  function noteText(n) {
    const key = "compare.note." + n.code;
    if (!i18n.has(key)) return n.text;
    let value = n.value || "";
    if (value === "on" || value === "off") value = i18n.t("compare." + value);
    return i18n.t(key, { t: clock(n.t || 0), value });
  }

  function draw(res) {
    results.replaceChildren();
    if (!res) return;
    const grids = h("div", { class: "compare-grids" });
    res.rows.forEach((r, i) => grids.append(drawGrid(r, res.grids[i], res.timeMs)));
    results.append(grids, h("div", { class: "compare-scroll" }, drawTable(res)));
    const moved = drawMoved(res);
    if (moved) results.append(h("div", { class: "compare-scroll" }, moved));
    if (res.notes && res.notes.length) {
      results.append(h("h3", { class: "compare-notes-title", text: i18n.t("compare.notes") }),
        h("ul", { class: "compare-notes" }, ...res.notes.map((n) => h("li", { text: noteText(n) }))));
    }
  }

  // watch shows the running comparison's progress until it ends.
  function watch(api, variants, now) {
    let frame = 0;
    const tick = () => {
      const p = api.compareProgress();
      if (p && !p.error) {
        bar.value = Math.min(99, Math.floor(100 * p.done));
        say("compare.progress", { n: variants.length, t: clock(now), v: p.variant + 1, at: clock(p.atMs), pct: String(Math.floor(100 * p.done)) });
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }

  async function run() {
    const api = window.lbscope;
    if (!api || typeof api.compare !== "function") {
      say("compare.notReady");
      return null;
    }
    await api.ready;
    const variants = [pickA.variant(), pickB.variant()];
    // Your own strategy runs in the interpreter's wasm: loaded first, when not yet here.
    if (window.LB.starlark) await window.LB.starlark.ensure(variants);
    const now = api.state().timeMs;
    say("compare.running", { n: variants.length, t: clock(now) });
    runBtn.disabled = true;
    results.setAttribute("aria-busy", "true");
    bar.value = 0;
    bar.hidden = cancelBtn.hidden = false;
    const unwatch = watch(api, variants, now);
    try {
      // A Promise: the work runs in slices, the page drawing in between.
      const res = await api.compare({ variants });
      if (!res || res.error) {
        const error = res ? res.error.replace(/^lbscope\.compare: /, "") : "?";
        if (error === "cancelled") say("compare.cancelled", { t: clock(now) });
        else say("compare.failed", { error });
        return res;
      }
      last = res;
      draw(res);
      say("compare.done", { t: clock(res.timeMs), seed: res.seed, actions: res.actions });
      return res;
    } finally {
      unwatch();
      runBtn.disabled = false;
      bar.hidden = cancelBtn.hidden = true;
      results.removeAttribute("aria-busy");
    }
  }

  cancelBtn.addEventListener("click", () => {
    const api = window.lbscope;
    if (api && typeof api.compareCancel === "function") api.compareCancel();
  });
  runBtn.addEventListener("click", () => {
    run().catch((e) => say("compare.failed", { error: String(e && e.message ? e.message : e) }));
  });
  i18n.onChange(() => {
    draw(last);
    if (statusKey) say(statusKey.key, statusKey.params);
  });

  window.LB.compare = { run };
}

mount();
