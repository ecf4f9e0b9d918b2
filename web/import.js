// import.js: the Import dialog. The reader pastes (or drops files of) what mqadmin or the
// Dashboard printed for their consumer group; lbscope.diagnose reads it here, in the page —
// nothing is sent anywhere — in a wasm of its own, diagnose.wasm, which lazy.js loads the
// first time the dialog reads; and the dialog shows the group, what each member's client
// allocates, what the outputs show it holding, and the findings, in the page's language. "Open
// as scenario" loads the group into the playground, so the reader can kill, add and slow
// things in their own cluster.
//
// Everything that comes from the paste is shown with textContent, never as markup.
//
//   LB.importer.open()           open the dialog
//   LB.importer.diagnose(texts)  diagnose [{name, text}] now; a Promise of the report
//   (window.LB.importer: for the page's tests and the console)
import { i18n, h } from "./i18n.js";

function mount() {
  "use strict";

  const t = (k, p) => i18n.t(k, p);


  const anchor = document.getElementById("embed");
  if (!anchor) return;

  const openBtn = h("button", { type: "button", id: "import", "aria-haspopup": "dialog", "aria-controls": "import-dialog", t: "import.button" });
  anchor.parentElement.append(openBtn);

  const textArea = h("textarea", { id: "import-text", rows: 8, spellcheck: "false", autocomplete: "off", "t:aria-label": "import.paste" });
  const fileInput = h("input", { type: "file", id: "import-files", multiple: true, accept: ".txt,.json,.log,text/plain,application/json" });
  const queuesInput = h("input", { type: "text", id: "import-queues", autocomplete: "off", spellcheck: "false", "t:placeholder": "import.queues.hint" });
  const topicInput = h("input", { type: "text", id: "import-topic", autocomplete: "off", spellcheck: "false" });
  const groupInput = h("input", { type: "text", id: "import-group", autocomplete: "off", spellcheck: "false" });
  const runBtn = h("button", { type: "button", id: "import-run", class: "primary", t: "import.run" });
  const loadBtn = h("button", { type: "button", id: "import-open", t: "import.open", disabled: true });
  const closeBtn = h("button", { type: "button", id: "import-close", t: "import.close" });
  // Inputs larger than one call carries are handed over in slices: this stops the handing.
  const cancelBtn = h("button", { type: "button", id: "import-cancel", t: "import.cancel", hidden: true });
  const status = h("p", { id: "import-status", class: "hint", role: "status" });
  const report = h("div", { id: "import-report", class: "import-report" });
  const field = (key, input) => h("div", { class: "field" }, h("label", { for: input.id, t: key }), input);
  const dialog = h("div", { id: "import-dialog", class: "help", role: "dialog", "aria-modal": "true", "aria-labelledby": "import-title", hidden: true },
    h("div", { class: "help-card import-card" },
      h("h2", { id: "import-title", t: "import.title" }),
      h("p", { t: "import.text" }),
      h("label", { for: "import-text", class: "import-label", t: "import.paste" }),
      textArea,
      field("import.files", fileInput),
      field("import.queues", queuesInput),
      field("import.topic", topicInput),
      field("import.group.field", groupInput),
      h("div", { class: "row" }, runBtn, cancelBtn, loadBtn, closeBtn),
      status,
      report));
  document.body.append(dialog);

  // Files (chosen or dropped) are kept by name; the textarea is one more input.
  let files = [];
  let last = null;
  let lastArgs = null;
  let statusKey = null;
  let pasted = null; // the textarea's entry among the inputs last read
  let returnFocus = null;
  // Each reading is numbered: only the latest one's answer is shown. running: how many are
  // under way.
  let seq = 0;
  let running = 0;

  function say(key, params) {
    statusKey = key ? { key, params } : null;
    status.textContent = key ? t(key, params) : "";
  }

  function readFiles(list) {
    const reads = [...list].map((f) => f.text().then((text) => ({ name: f.name, text })));
    return Promise.all(reads).then((got) => {
      files = files.concat(got);
      say("import.dropped", { n: got.length });
    });
  }
  fileInput.addEventListener("change", () => { readFiles(fileInput.files).catch((e) => say("import.failed", { error: String(e) })); });
  for (const el of [textArea, dialog]) {
    el.addEventListener("dragover", (e) => { e.preventDefault(); });
    el.addEventListener("drop", (e) => {
      e.preventDefault();
      if (e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files.length) {
        readFiles(e.dataTransfer.files).catch((err) => say("import.failed", { error: String(err) }));
      }
    });
  }

  // The textarea is named in the page's language: the report's lines point at it by name.
  function inputs() {
    const out = files.slice();
    pasted = null;
    if (textArea.value.trim()) out.push(pasted = { name: t("import.pasteName"), text: textArea.value });
    return out;
  }

  // reader loads the reader of pastes, a wasm of its own, the first time the dialog reads; a
  // load that fails is said, and the next Diagnose tries again.
  async function reader() {
    const lazy = window.LB && window.LB.lazy;
    if (!lazy || lazy.loaded("diagnose")) return true;
    say("import.loading");
    try {
      await lazy.load("diagnose");
      return true;
    } catch (e) {
      last = null;
      loadBtn.disabled = true;
      report.replaceChildren();
      say("import.loadFailed", { error: String(e && e.message ? e.message : e) });
      return false;
    }
  }

  async function diagnose(texts) {
    running++;
    try {
      return await read(texts);
    } finally {
      running--;
    }
  }

  async function read(texts) {
    const my = ++seq;
    const api = window.lbscope;
    if (!api || typeof api.diagnose !== "function") {
      say("import.notReady");
      return null;
    }
    await api.ready;
    const given = texts || inputs();
    if (!given.length) {
      say("import.empty");
      return null;
    }
    lastArgs = { inputs: given, queues: queuesInput.value.trim(), topic: topicInput.value.trim(), group: groupInput.value.trim() };
    // Inputs past what one call may carry (logs are often larger) are handed over in slices
    // (lbscope.diagnoseStage), up to the command line's limits for logs, with the progress and
    // a button that stops it; past those limits they are named with the way to read them.
    const limits = typeof api.limits === "function" ? api.limits() : null;
    const limit = limits && limits.methods && limits.methods.diagnose;
    const chars = limit ? JSON.stringify(lastArgs).length : 0; // as the bridge counts it
    if (limit && chars > limit.chars) {
      last = null;
      loadBtn.disabled = true;
      report.replaceChildren();
      const mb = (n) => (n / (1 << 20)).toFixed(1);
      const stage = limits.stage;
      const bytes = (x) => new TextEncoder().encode(x.text).length;
      const sizes = given.map(bytes);
      const total = sizes.reduce((a, b) => a + b, 0);
      if (!stage || typeof api.diagnoseStage !== "function" || total > stage.total || sizes.some((n) => n > stage.input)) {
        say("import.tooLarge", { size: mb(Math.max(chars, total)), input: mb(stage ? stage.input : limit.chars), limit: mb(stage ? stage.total : limit.chars), command: "lbscope diagnose FILE…" });
        return null;
      }
      // A slice's JSON may be several times its length (escapes): an eighth of what one call
      // carries always fits.
      const per = (limits.methods && limits.methods.diagnoseStage) || limit;
      if (!(await reader())) return null;
      if (!(await handOver(api, given, Math.floor(Math.min(per.chars, per.string) / 8), total, mb))) return null;
      lastArgs = { inputs: [], staged: true, queues: lastArgs.queues, topic: lastArgs.topic, group: lastArgs.group };
    }
    if (!(await reader())) return null;
    say("import.reading");
    const res = await api.diagnose(lastArgs);
    if (my !== seq) return res; // a later reading has begun: its answer is the one shown
    if (!res || res.error) {
      last = null;
      loadBtn.disabled = true;
      report.replaceChildren();
      say("import.failed", { error: res ? String(res.error).replace(/^lbscope\.diagnose: /, "") : "?" });
      return res;
    }
    last = res;
    draw(res);
    loadBtn.disabled = !res.scenario;
    say(res.scenario ? null : "import.noScenario", { error: res.said.scenarioError || "" });
    return res;
  }

  // handOver stages the inputs in slices of at most size characters, each slice cut at a line's
  // end where one is near, yielding to the page between slices; false when stopped or refused.
  let stopping = false;
  async function handOver(api, given, size, total, mb) {
    stopping = false;
    cancelBtn.hidden = false;
    runBtn.disabled = true;
    let done = 0;
    try {
      await api.diagnoseStage({ clear: true });
      for (const x of given) {
        for (let i = 0; i < x.text.length;) {
          let end = Math.min(i + size, x.text.length);
          const nl = x.text.lastIndexOf("\n", end - 1);
          if (end < x.text.length && nl > i) end = nl + 1;
          const part = x.text.slice(i, end);
          const res = await api.diagnoseStage({ name: x.name, text: part });
          if (!res || res.error) {
            say("import.failed", { error: res ? String(res.error).replace(/^lbscope\.diagnoseStage: /, "") : "?" });
            await api.diagnoseStage({ clear: true });
            return false;
          }
          done = res.bytes;
          i = end;
          say("import.handing", { done: mb(done), total: mb(total) });
          await new Promise((r) => setTimeout(r, 0));
          if (stopping) {
            await api.diagnoseStage({ clear: true });
            say("import.stopped");
            return false;
          }
        }
      }
      return true;
    } finally {
      cancelBtn.hidden = true;
      runBtn.disabled = false;
    }
  }
  cancelBtn.addEventListener("click", () => { stopping = true; });

  function table(head, rows) {
    return h("table", { class: "import-table" },
      h("thead", {}, h("tr", {}, ...head.map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", { text: c }))))));
  }

  const ref = (r) => (r.field ? t("import.ref." + r.field) : r.line ? r.input + ":" + r.line : r.input);

  // command shows an mqadmin command whole, on one line that scrolls rather than wraps, with a
  // button that copies it.
  function command(text) {
    const copy = h("button", { type: "button", class: "import-copy", t: "import.copy", "aria-label": t("import.copyLabel", { command: text }) });
    copy.addEventListener("click", () => {
      const done = () => say("import.copied", { command: text });
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, () => say("import.copyFailed"));
      } else {
        say("import.copyFailed");
      }
    });
    return h("div", { class: "import-command" }, h("code", { class: "import-cmd", tabindex: "0", text }), copy);
  }

  const bullets = (key, items) => (items && items.length ? [h("h3", { text: t(key) }), h("ul", {}, ...items.map((x) => h("li", { text: x })))] : []);

  function draw(res) {
    if (!res) return;
    const g = res.group;
    const name = g.name ? (g.nameCut ? t("import.group.cut", { name: g.name, n: g.nameCut }) : g.name) : t("import.unnamed");
    const parts = [
      h("p", { class: "import-group", text: t("import.group", { name, members: g.members.length, model: g.messageModel, strategy: g.strategy }) }),
    ];
    if (g.members.length) {
      parts.push(h("h3", { text: t(g.complete ? "import.members" : "import.membersById") }),
        table(["import.col.client", "import.col.addr", "import.col.lang", "import.col.version", "import.col.line"],
          g.members.map((m) => [m.clientId, m.addr || "–", m.language || "–", m.version || "–", ref(m.ref)])));
    }
    parts.push(...beyond(res));
    res.allocations.forEach((a, i) => {
      parts.push(h("h3", { text: t("import.alloc", { topic: a.topic, strategy: a.strategy }) }));
      if (a.note) {
        parts.push(h("p", { text: res.said.allocations[i] }));
        return;
      }
      parts.push(table(["import.col.client", "import.col.queues", "import.col.count"],
        a.consumers.map((c) => [c.clientId, c.error || (c.queues.length ? compact(c.queues) : t("import.none")), String(c.count)])));
      if (a.orphans.length) parts.push(h("p", { class: "import-orphans", text: t("import.orphans", { queues: compact(a.orphans) }) }));
    });
    parts.push(h("h3", { text: t("import.findings") }));
    if (!res.findings.length) parts.push(h("p", { text: t("import.noFindings") }));
    const list = h("ul", { class: "import-findings" });
    res.findings.forEach((f, i) => {
      const hl = res.headlines[i] || f;
      const item = h("li", { class: "import-finding sev-" + f.severity, "data-code": f.code },
        h("p", { class: "import-finding-head" },
          h("span", { class: "import-sev", text: t("import.sev." + f.severity) }), " ",
          h("code", { text: f.code }), " ",
          h("span", { text: hl.title })),
        h("p", { text: t("import.fix", { fix: hl.fix }) }));
      const ev = h("ul", { class: "import-evidence", "t:aria-label": "import.evidence" },
        ...f.evidence.map((e, j) => h("li", {}, h("code", { text: ref(e.ref) }), " ", res.said.evidence[i][j])));
      item.append(ev);
      const details = h("details", {}, h("summary", { text: t("import.details") }), h("p", { text: res.said.sees[i] }));
      item.append(details);
      list.append(item);
    });
    parts.push(list);
    if (res.said.missing.length) {
      parts.push(h("h3", { text: t("import.missing") }),
        h("ul", { class: "import-missing" }, ...res.said.missing.map((m) => h("li", {}, h("span", { text: m.what }),
          ...(m.command ? [command(m.command)] : []),
          ...(m.read ? [h("p", { class: "hint", text: t("import.read", { line: m.read }) })] : [])))));
    }
    parts.push(...bullets("import.assumed", res.said.assumed), ...bullets("import.leftOut", res.said.leftOut));
    if (res.notes.length) {
      parts.push(h("details", {}, h("summary", { text: t("import.notes", { n: res.notes.length }) }),
        h("ul", {}, ...res.notes.map((n, i) => h("li", {}, h("code", { text: ref(n.ref) }), " ", res.said.notes[i])))));
    }
    if (res.said.scenarioLeft.length) {
      parts.push(h("p", { class: "hint", text: t("import.left", { left: res.said.scenarioLeft.join(t("import.left.and")) }) }));
    }
    report.replaceChildren(...parts);
  }

  // beyond shows what the pastes say besides the group, as lbscope diagnose prints it: the
  // brokers of a cluster (those a cluster page or clusterList gives a version), the groups of a
  // consumer list, and a broker's STATUS table.
  function beyond(res) {
    const out = [];
    const brokers = (res.group.brokers || []);
    if (brokers.some((b) => b.version)) {
      out.push(h("h3", { text: t("import.brokers") }),
        table(["import.col.broker", "import.col.id", "import.col.role", "import.col.addr", "import.col.version", "import.col.line"],
          brokers.map((b) => [b.broker, String(b.id), t(b.id === 0 ? "import.master" : "import.slave"), b.addr, b.version || "–", ref(b.ref)])));
    }
    const groups = res.groupSummaries || [];
    if (groups.length) {
      out.push(h("h3", { text: t("import.groups") }),
        table(["import.col.group", "import.col.connections", "import.col.lowest", "import.col.type", "import.col.model", "import.col.diff", "import.col.line"],
          groups.map((g) => [g.group, String(g.count), g.version || "–", g.type || "–", g.model || "–", String(g.diffTotal), ref(g.ref)])));
    }
    const values = res.brokerValues || [];
    if (values.length) {
      const v = {};
      for (const kv of values) v[kv.name] = kv.value;
      const day = (now, morning) => {
        const a = Number(v[now]), b = Number(v[morning]);
        return v[now] !== undefined && v[morning] !== undefined && Number.isFinite(a) && Number.isFinite(b) ? String(a - b) : "–";
      };
      const rows = ["brokerVersionDesc", "brokerName", "brokerId", "brokerClusterName", "bootTimestamp", "commitLogDiskRatio", "putTps", "getTransferedTps", "getTransferredTps"]
        .filter((k) => v[k] !== undefined && v[k] !== "")
        .map((k) => [k, k === "bootTimestamp" && /^\d+$/.test(v[k]) ? v[k] + " (" + new Date(Number(v[k])).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") + ")" : v[k]]);
      rows.push([t("import.today"), t("import.putGot", { put: day("msgPutTotalTodayNow", "msgPutTotalTodayMorning"), got: day("msgGetTotalTodayNow", "msgGetTotalTodayMorning") })],
        [t("import.yesterday"), t("import.putGot", { put: day("msgPutTotalTodayMorning", "msgPutTotalYesterdayMorning"), got: day("msgGetTotalTodayMorning", "msgGetTotalYesterdayMorning") })]);
      out.push(h("h3", { text: t("import.brokerStatus", { line: ref(values[0].ref) }) }), table(["import.col.key", "import.col.value"], rows));
    }
    return out;
  }

  // compact writes queue lists as the command line does: broker-a:0-3 broker-b:1.
  function compact(qs) {
    const out = [];
    let broker = null;
    let start = -1;
    let prev = -2;
    const flush = () => {
      if (broker === null) return;
      out.push(broker + ":" + (start === prev ? start : start + "-" + prev));
    };
    for (const q of qs) {
      const i = q.lastIndexOf(":");
      const b = q.slice(0, i);
      const id = Number(q.slice(i + 1));
      if (b === broker && id === prev + 1) {
        prev = id;
        continue;
      }
      flush();
      broker = b;
      start = prev = id;
    }
    flush();
    return out.join(" ");
  }

  async function openScenario() {
    if (!last || !last.scenario || !window.lbscope) return null;
    const res = await window.lbscope.dispatch({ type: "load", scenario: last.scenario });
    if (res && res.error) {
      say("import.failed", { error: res.error });
      return res;
    }
    say("import.loaded", { name: last.scenario.group });
    setOpen(false);
    return res;
  }

  function setOpen(open) {
    if (open === !dialog.hidden) return;
    if (open) {
      returnFocus = document.activeElement;
      dialog.hidden = false;
      textArea.focus();
    } else {
      dialog.hidden = true;
      if (returnFocus && typeof returnFocus.focus === "function") returnFocus.focus();
    }
  }

  openBtn.addEventListener("click", () => setOpen(true));
  closeBtn.addEventListener("click", () => setOpen(false));
  runBtn.addEventListener("click", () => { diagnose().catch((e) => say("import.failed", { error: String(e && e.message ? e.message : e) })); });
  loadBtn.addEventListener("click", () => { openScenario().catch((e) => say("import.failed", { error: String(e) })); });
  dialog.addEventListener("click", (e) => { if (e.target === dialog) setOpen(false); });
  dialog.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); setOpen(false); }
  });
  // The findings' headlines come from the reader in the page's language: read again on a
  // change (unless a reading is under way, which reads in the new language itself).
  i18n.onChange(() => {
    if (statusKey) say(statusKey.key, statusKey.params);
    if (last && lastArgs && !running && window.lbscope) {
      if (pasted) pasted.name = t("import.pasteName");
      const my = seq;
      setTimeout(() => {
        Promise.resolve(window.lbscope.diagnose(lastArgs)).then((res) => {
          if (my === seq && !running && res && !res.error) { last = res; draw(res); }
        }, () => {});
      }, 0);
    }
  });

  window.LB.importer = { open: () => setOpen(true), diagnose: (texts) => diagnose(texts) };
}

mount();
