// editor.js: the Strategy tab (#tab-strategy): your own allocation strategy, in Starlark.
// A plain textarea with line numbers beside it, a gallery of examples (lbscope.gallery()),
// Check and Apply:
//
//   Check  runs the strategy as every member of the live group would (lbscope.checkStrategy)
//          and reports at once: every queue pulled exactly once or not (the doubled and
//          orphaned queues, named), the spread, and the queues it moves against AVG when the
//          last member leaves and when one joins;
//   Apply  sets it on the live group (setStrategy with its source): each member uses it from
//          its next rebalance, and the canvas shows the result.
//
// A source that defines select(queues, message, arg) and no allocate is a producer's
// MessageQueueSelector: Check (lbscope.checkSelector) shows where each keyed producer's
// messages go under it beside SelectMessageQueueByHash, per queue and for the hot key, and the
// hottest queue before and after; Apply sets it on the producers' keyed sends (setSelector).
//
// A syntax error, a runtime error, a budget overrun or a wrong return shows under the editor
// with the Starlark message, and its line is marked beside the text. The interpreter is a
// second wasm that lazy.js loads when the tab is first shown.
//
//   LB.editor.set(source, name)   put a source (and its name) in the editor
//   LB.editor.check()             Promise: press Check
//   LB.editor.apply()             Promise: press Apply
//   LB.editor.get()               {name, source}: what the editor holds (the Compare tab's
//                                 "your strategy" variant)
// (window.LB.editor: for the page's tests and the console.)
import { i18n, h } from "./i18n.js";
import { panelTabs } from "./tabs.js";

function mount() {
  "use strict";

  const root = document.getElementById("tab-strategy");
  if (!root) return;

  const api = () => window.lbscope;
  const starlark = () => window.LB && window.LB.starlark;

  // ---- The form ----

  const gallerySel = h("select", { id: "strategy-gallery" });
  const nameInput = h("input", { id: "strategy-name", type: "text", spellcheck: "false", autocomplete: "off", maxlength: "64" });
  const gutter = h("pre", { class: "editor-gutter", "aria-hidden": "true" });
  const text = h("textarea", {
    id: "strategy-source", class: "editor-text", spellcheck: "false", autocomplete: "off",
    autocapitalize: "off", wrap: "off", rows: "14", "t:aria-label": "editor.source",
  });
  const errorBox = h("div", { id: "strategy-error", class: "editor-error", role: "alert", hidden: true });
  const status = h("p", { id: "strategy-status", class: "editor-status", "aria-live": "polite" });
  const checkBtn = h("button", { id: "strategy-check", type: "button", t: "editor.check" });
  const applyBtn = h("button", { id: "strategy-apply", type: "button", class: "primary", t: "editor.apply" });
  const report = h("div", { id: "strategy-report", class: "editor-report", "aria-live": "polite" });

  root.append(
    h("p", { class: "editor-intro", t: "editor.intro" }),
    h("div", { class: "editor-row" },
      h("label", { for: "strategy-gallery", t: "editor.gallery" }), gallerySel),
    h("div", { class: "editor-row" },
      h("label", { for: "strategy-name", t: "editor.name" }), nameInput),
    h("div", { class: "editor" }, gutter, text),
    errorBox,
    h("div", { class: "editor-actions" }, checkBtn, applyBtn),
    status,
    report,
  );

  let gallery = [];
  let errorLine = 0;

  // ---- Line numbers ----

  function renumber() {
    const n = Math.max(1, text.value.split("\n").length);
    const rows = [];
    for (let i = 1; i <= n; i++) rows.push(i === errorLine ? "▶" + i : String(i));
    gutter.textContent = rows.join("\n");
    gutter.scrollTop = text.scrollTop;
  }
  text.addEventListener("input", () => {
    errorLine = 0;
    errorBox.hidden = true;
    renumber();
  });
  text.addEventListener("scroll", () => {
    gutter.scrollTop = text.scrollTop;
  });
  // Tab indents by four spaces, as Starlark is written; Escape then Tab leaves the editor.
  let escaped = false;
  text.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      escaped = true;
      return;
    }
    if (e.key === "Tab" && !e.shiftKey && !escaped) {
      e.preventDefault();
      const s = text.selectionStart;
      text.setRangeText("    ", s, text.selectionEnd, "end");
      text.dispatchEvent(new Event("input"));
    }
    escaped = false;
  });

  // ---- Errors: the Starlark message, its line marked ----

  // showError shows a message from the engine or the interpreter; its first "file.star:L:C"
  // marks line L.
  function showError(msg) {
    // The call's and the argument's names ("lbscope.checkStrategy: strategy.source: ") say
    // nothing to the editor's reader: the message starts at the file.
    msg = String(msg).replace(/^lbscope\.\w+: /, "").replace(/^(strategy\.source|strategy\.name|source|strategy): /, "");
    const m = /\.star:(\d+)(?::(\d+))?/.exec(msg);
    errorLine = m ? +m[1] : 0;
    errorBox.textContent = "";
    errorBox.append(
      h("strong", { t: errorLine ? "editor.errorAt" : "editor.error" }),
      " ",
      h("span", { class: "editor-error-line", text: errorLine ? i18n.t("editor.line", { line: errorLine }) : "" }),
      " ",
      h("code", { text: String(msg) }),
    );
    errorBox.hidden = false;
    renumber();
    errorBox.scrollIntoView({ block: "nearest" });
  }

  function clearError() {
    errorLine = 0;
    errorBox.hidden = true;
    renumber();
  }

  // ---- Loading the interpreter ----

  function ready() {
    const sl = starlark();
    if (!sl) return Promise.reject(new Error("lazy.js is missing"));
    if (sl.loaded()) return Promise.resolve();
    status.textContent = i18n.t("editor.loading");
    return sl.load().then(() => {
      status.textContent = "";
    }, (err) => {
      status.textContent = i18n.t("editor.loadFailed", { error: String(err && err.message ? err.message : err) });
      throw err;
    });
  }

  function choice() {
    return { strategy: nameInput.value.trim(), source: text.value };
  }

  // A source that defines select and no allocate is a producer's MessageQueueSelector:
  // Check shows where the keyed producers' messages go, Apply sets it on their keyed sends.
  function isSelector(src) {
    return /^def\s+select\s*\(/m.test(src) && !/^def\s+allocate\s*\(/m.test(src);
  }

  function selectorChoice() {
    return { selector: nameInput.value.trim(), source: text.value };
  }

  // ---- Check ----

  function queueList(list) {
    return h("code", { text: list.join(" ") });
  }

  function renderReport(r) {
    report.textContent = "";
    const verdict = r.exact ? "editor.exact" : "editor.notExact";
    report.append(h("p", { id: "strategy-verdict", class: r.exact ? "editor-ok" : "editor-bad", t: verdict }));
    if (!r.exact && (r.doubled.length || r.orphaned.length)) report.append(h("p", { id: "strategy-why", class: "editor-why", t: "editor.why" }));
    if (r.doubled.length) {
      const ul = h("ul", { id: "strategy-doubled", class: "editor-list" });
      for (const d of r.doubled) {
        ul.append(h("li", null, h("code", { text: d.queue }), " ",
          h("span", { text: i18n.t("editor.pulledBy", { owners: d.owners.join(", ") }) })));
      }
      report.append(h("p", { class: "editor-bad", text: i18n.t("editor.doubled", { n: r.doubled.length }) }), ul);
    }
    if (r.orphaned.length) {
      report.append(h("p", { class: "editor-bad", text: i18n.t("editor.orphaned", { n: r.orphaned.length }) }),
        h("p", { id: "strategy-orphaned" }, queueList(r.orphaned)));
    }
    const failed = r.members.filter((m) => m.error);
    if (failed.length) {
      const ul = h("ul", { id: "strategy-failed", class: "editor-list" });
      for (const m of failed) ul.append(h("li", null, h("code", { text: m.id }), " ", h("span", { text: m.error })));
      report.append(h("p", { class: "editor-bad", text: i18n.t("editor.failed", { n: failed.length }) }), ul);
      showError(failed[0].error);
    }
    report.append(h("p", { id: "strategy-spread", text: i18n.t("editor.spread", { min: r.spread.min, max: r.spread.max, queues: r.queues, members: r.members.length }) }));
    const table = h("table", { id: "strategy-moves", class: "editor-moves" },
      h("thead", null, h("tr", null, h("th", { t: "editor.change" }), h("th", { text: r.strategy }), h("th", { text: "AVG" }))));
    const body = h("tbody");
    for (const [key, c] of [["editor.kill", r.kill], ["editor.join", r.join]]) {
      if (!c) continue;
      body.append(h("tr", null,
        h("td", { text: i18n.t(key, { member: c.member }) }),
        h("td", { text: i18n.t("editor.moves", { n: c.moves }) + (c.doubled || c.orphaned ? " · " + i18n.t("editor.after", { doubled: c.doubled, orphaned: c.orphaned }) : "") }),
        h("td", { text: i18n.t("editor.moves", { n: c.avgMoves }) })));
    }
    table.append(body);
    report.append(table);
    const rows = h("ul", { id: "strategy-members", class: "editor-list" });
    for (const m of r.members) {
      if (!m.error) rows.append(h("li", null, h("code", { text: m.id }), " ", queueList(m.queues.length ? m.queues : ["—"])));
    }
    report.append(rows);
  }

  // renderSelectorReport shows checkSelector's report: for each keyed producer, the hottest
  // queue under the hash and under the selector, and every queue's messages under both.
  function renderSelectorReport(r) {
    report.textContent = "";
    if (r.noKeys) report.append(h("p", { id: "selector-nokeys", class: "editor-why", text: i18n.t("editor.selector.noKeys", { hot: r.producers[0].hotKey }) }));
    for (const p of r.producers) {
      const who = p.id ? i18n.t("editor.selector.producer", { id: p.id }) : "";
      report.append(h("p", { class: "selector-mix", text: who + i18n.t("editor.selector.mix", { messages: p.messages, keys: p.keys.count, hot: p.hotKey, share: p.keys.hotShare }) }));
      report.append(h("p", { class: "selector-hot", "data-producer": p.id, text: i18n.t("editor.selector.hot", {
        before: p.hot.before, beforeShare: p.hot.beforeShare, after: p.hot.after, afterShare: p.hot.afterShare, name: r.selector }) }));
      const table = h("table", { class: "editor-moves selector-queues", "data-producer": p.id },
        h("thead", null, h("tr", null,
          h("th", { t: "editor.selector.queue" }), h("th", { t: "editor.selector.hash" }), h("th", { text: r.selector }),
          h("th", { text: i18n.t("editor.selector.hotBy", { hot: p.hotKey, by: i18n.t("editor.selector.hash") }) }),
          h("th", { text: i18n.t("editor.selector.hotBy", { hot: p.hotKey, by: r.selector }) }))));
      const body = h("tbody");
      p.queues.forEach((q, i) => {
        body.append(h("tr", { "data-queue": q }, h("td", null, h("code", { text: q })),
          h("td", { text: String(p.hash[i]) }), h("td", { text: String(p.custom[i]) }),
          h("td", { text: String(p.hotHash[i]) }), h("td", { text: String(p.hotCustom[i]) })));
      });
      table.append(body);
      report.append(table);
      if (p.failed) {
        report.append(h("p", { class: "editor-bad selector-failed", text: i18n.t("editor.selector.failed", { name: r.selector, n: p.failed }) }));
        showError(p.error);
      }
    }
  }

  let lastReport = null;
  let lastSelector = null;
  function check() {
    clearError();
    report.textContent = "";
    const selector = isSelector(text.value);
    return ready().then(() => {
      const res = selector ? api().checkSelector(selectorChoice()) : api().checkStrategy(choice());
      if (res && res.error) {
        showError(res.error);
        return res;
      }
      if (selector) {
        lastReport = null;
        lastSelector = res;
        renderSelectorReport(res);
        report.scrollIntoView({ block: "nearest" });
        return res;
      }
      lastSelector = null;
      lastReport = res;
      renderReport(res);
      report.scrollIntoView({ block: "nearest" });
      return res;
    }, (err) => {
      showError(String(err && err.message ? err.message : err));
      return { error: String(err) };
    });
  }

  // ---- Apply ----

  function apply() {
    clearError();
    const selector = isSelector(text.value);
    const cmd = selector ? Object.assign({ type: "setSelector" }, selectorChoice()) : Object.assign({ type: "setStrategy" }, choice());
    return ready().then(() => api().dispatch(cmd)).then((res) => {
      if (res && res.error) {
        showError(res.error);
        return res;
      }
      status.textContent = i18n.t(selector ? "editor.selector.applied" : "editor.applied", { name: nameInput.value.trim() });
      return res;
    }, (err) => {
      showError(String(err && err.message ? err.message : err));
      return { error: String(err) };
    });
  }

  checkBtn.addEventListener("click", () => check());
  applyBtn.addEventListener("click", () => apply());
  i18n.onChange(() => {
    if (lastReport && report.firstChild) renderReport(lastReport);
    if (lastSelector && report.firstChild) renderSelectorReport(lastSelector);
    renumber();
  });

  // ---- The gallery ----

  function set(source, name) {
    text.value = String(source);
    if (name !== undefined) nameInput.value = String(name);
    clearError();
    report.textContent = "";
    lastReport = null;
    lastSelector = null;
  }

  function fillGallery() {
    const a = api();
    if (gallery.length || !a || typeof a.gallery !== "function") return;
    gallery = a.gallery();
    gallerySel.textContent = "";
    for (const g of gallery) {
      const o = h("option", { value: g.id });
      i18n.bind(o, "editor.gallery." + g.id);
      gallerySel.append(o);
    }
    if (!text.value && gallery.length) set(gallery[0].source, gallery[0].name);
  }
  gallerySel.addEventListener("change", () => {
    const g = gallery.find((x) => x.id === gallerySel.value);
    if (g) set(g.source, g.name);
  });

  panelTabs.onSelect((name) => {
    if (name !== "strategy") return;
    fillGallery();
    ready().catch(() => {});
  });
  renumber();

  window.LB.editor = { set, check, apply, get: () => ({ name: nameInput.value.trim(), source: text.value }) };
}

mount();
