// import.js: the Import dialog. The reader pastes (or drops files of) what mqadmin or the
// Dashboard printed for their consumer group; lbscope.diagnose reads it here, in the page —
// nothing is sent anywhere — and the dialog shows the group, what each member's client
// allocates, what the outputs show it holding, and the findings, in the page's language. "Open
// as scenario" loads the group into the playground, so the reader can kill, add and slow
// things in their own cluster.
//
// Everything that comes from the paste is shown with textContent, never as markup.
//
//   LB.importer.open()           open the dialog
//   LB.importer.diagnose(texts)  diagnose [{name, text}] now; a Promise of the report
(function () {
  "use strict";

  if (!window.LB || !window.LB.i18n || !window.LB.h) return;
  const i18n = window.LB.i18n;
  const h = window.LB.h;
  const t = (k, p) => i18n.t(k, p);

  i18n.add({
    en: {
      "import.button": "Import…",
      "import.title": "Import your own cluster",
      "import.text": "Paste what mqadmin or the RocketMQ Dashboard printed — consumerConnection, consumerProgress, consumerStatus, topicRoute, clusterList, topicStatus, their JSON — or drop the files here. Several outputs may follow one another. The text is read in this page and never sent anywhere.",
      "import.paste": "Pasted outputs",
      "import.files": "Or choose files",
      "import.queues": "Queues, when no topicRoute is pasted",
      "import.queues.hint": "e.g. broker-a:8,broker-b:8",
      "import.topic": "Topic name, when no paste names it",
      "import.run": "Diagnose",
      "import.open": "Open as scenario",
      "import.close": "Close",
      "import.reading": "Reading…",
      "import.failed": "Could not read it: {error}",
      "import.notReady": "The simulation is still loading.",
      "import.dropped": "{n} file(s) added.",
      "import.group": "Group {name} · {members} member(s) · {model} · strategy {strategy}",
      "import.unnamed": "(not named in the paste)",
      "import.members": "Members, one row per connection",
      "import.membersById": "Members, one row per client id (duplicates do not show)",
      "import.col.client": "Client id",
      "import.col.addr": "Address",
      "import.col.lang": "SDK",
      "import.col.version": "Version",
      "import.col.line": "Line",
      "import.col.queues": "Queues",
      "import.col.count": "Count",
      "import.alloc": "Expected allocation of {topic} ({strategy})",
      "import.none": "(none)",
      "import.orphans": "Pulled by nobody: {queues}",
      "import.findings": "Findings",
      "import.noFindings": "No finding: the pastes do not hold enough to judge the allocation.",
      "import.evidence": "Evidence",
      "import.fix": "Fix: {fix}",
      "import.details": "Details (English)",
      "import.missing": "Not in the paste",
      "import.run.cmd": "{what}: {command}",
      "import.notes": "{n} line(s) skipped or read in part",
      "import.left": "The scenario leaves out: {left}",
      "import.loaded": "Loaded group {name} as a scenario.",
      "import.noScenario": "No scenario: {error}",
      "import.sev.problem": "problem",
      "import.sev.warning": "warning",
      "import.sev.ok": "ok",
    },
    zh: {
      "import.button": "导入…",
      "import.title": "导入你自己的集群",
      "import.text": "粘贴 mqadmin 或 RocketMQ 控制台输出的内容（consumerConnection、consumerProgress、consumerStatus、topicRoute、clusterList、topicStatus 及其 JSON），或把文件拖到这里。可以连续粘贴多段输出。内容只在本页面中读取，不会发送到任何地方。",
      "import.paste": "粘贴的输出",
      "import.files": "或选择文件",
      "import.queues": "队列（未粘贴 topicRoute 时填写）",
      "import.queues.hint": "例如 broker-a:8,broker-b:8",
      "import.topic": "主题名（粘贴内容未给出时填写）",
      "import.run": "诊断",
      "import.open": "作为场景打开",
      "import.close": "关闭",
      "import.reading": "正在读取…",
      "import.failed": "无法读取：{error}",
      "import.notReady": "模拟仍在加载。",
      "import.dropped": "已添加 {n} 个文件。",
      "import.group": "消费组 {name} · {members} 个成员 · {model} · 策略 {strategy}",
      "import.unnamed": "（粘贴内容中未给出）",
      "import.members": "成员（每个连接一行）",
      "import.membersById": "成员（每个客户端 ID 一行，看不到重复）",
      "import.col.client": "客户端 ID",
      "import.col.addr": "地址",
      "import.col.lang": "SDK",
      "import.col.version": "版本",
      "import.col.line": "行",
      "import.col.queues": "队列",
      "import.col.count": "数量",
      "import.alloc": "{topic} 的预期分配（{strategy}）",
      "import.none": "（无）",
      "import.orphans": "无人拉取：{queues}",
      "import.findings": "诊断结果",
      "import.noFindings": "没有诊断结果：粘贴的内容不足以判断分配。",
      "import.evidence": "依据",
      "import.fix": "修复：{fix}",
      "import.details": "详情（英文）",
      "import.missing": "粘贴内容中缺少",
      "import.run.cmd": "{what}：{command}",
      "import.notes": "{n} 行被跳过或只读取了一部分",
      "import.left": "场景中省略了：{left}",
      "import.loaded": "已将消费组 {name} 加载为场景。",
      "import.noScenario": "无法生成场景：{error}",
      "import.sev.problem": "问题",
      "import.sev.warning": "警告",
      "import.sev.ok": "正常",
    },
  });

  const anchor = document.getElementById("embed");
  if (!anchor) return;

  const openBtn = h("button", { type: "button", id: "import", "aria-haspopup": "dialog", "aria-controls": "import-dialog", t: "import.button" });
  anchor.parentElement.append(openBtn);

  const textArea = h("textarea", { id: "import-text", rows: 8, spellcheck: "false", autocomplete: "off", "t:aria-label": "import.paste" });
  const fileInput = h("input", { type: "file", id: "import-files", multiple: true, accept: ".txt,.json,.log,text/plain,application/json" });
  const queuesInput = h("input", { type: "text", id: "import-queues", autocomplete: "off", spellcheck: "false", "t:placeholder": "import.queues.hint" });
  const topicInput = h("input", { type: "text", id: "import-topic", autocomplete: "off", spellcheck: "false" });
  const runBtn = h("button", { type: "button", id: "import-run", class: "primary", t: "import.run" });
  const loadBtn = h("button", { type: "button", id: "import-open", t: "import.open", disabled: true });
  const closeBtn = h("button", { type: "button", id: "import-close", t: "import.close" });
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
      h("div", { class: "row" }, runBtn, loadBtn, closeBtn),
      status,
      report));
  document.body.append(dialog);

  // Files (chosen or dropped) are kept by name; the textarea is one more input.
  let files = [];
  let last = null;
  let lastArgs = null;
  let statusKey = null;
  let returnFocus = null;

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

  function inputs() {
    const out = files.slice();
    if (textArea.value.trim()) out.push({ name: "paste", text: textArea.value });
    return out;
  }

  async function diagnose(texts) {
    const api = window.lbscope;
    if (!api || typeof api.diagnose !== "function") {
      say("import.notReady");
      return null;
    }
    await api.ready;
    lastArgs = { inputs: texts || inputs(), queues: queuesInput.value.trim(), topic: topicInput.value.trim() };
    say("import.reading");
    const res = api.diagnose(lastArgs);
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
    say(res.scenario ? null : "import.noScenario", { error: res.scenarioError || "" });
    return res;
  }

  function table(head, rows) {
    return h("table", { class: "import-table" },
      h("thead", {}, h("tr", {}, ...head.map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", { text: c }))))));
  }

  const ref = (r) => (r.line ? r.input + ":" + r.line : r.input);

  function draw(res) {
    if (!res) return;
    const g = res.group;
    const parts = [
      h("p", { class: "import-group", text: t("import.group", { name: g.name || t("import.unnamed"), members: g.members.length, model: g.messageModel, strategy: g.strategy }) }),
    ];
    if (g.members.length) {
      parts.push(h("h3", { text: t(g.complete ? "import.members" : "import.membersById") }),
        table(["import.col.client", "import.col.addr", "import.col.lang", "import.col.version", "import.col.line"],
          g.members.map((m) => [m.clientId, m.addr || "–", m.language || "–", m.version || "–", ref(m.ref)])));
    }
    for (const a of res.allocations) {
      parts.push(h("h3", { text: t("import.alloc", { topic: a.topic, strategy: a.strategy }) }));
      if (a.note) {
        parts.push(h("p", { text: a.note }));
        continue;
      }
      parts.push(table(["import.col.client", "import.col.queues", "import.col.count"],
        a.consumers.map((c) => [c.clientId, c.error || (c.queues.length ? compact(c.queues) : t("import.none")), String(c.count)])));
      if (a.orphans.length) parts.push(h("p", { class: "import-orphans", text: t("import.orphans", { queues: compact(a.orphans) }) }));
    }
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
        ...f.evidence.map((e) => h("li", {}, h("code", { text: ref(e.ref) }), " ", e.text)));
      item.append(ev);
      const details = h("details", {}, h("summary", { text: t("import.details") }), h("p", { text: f.title + " — " + f.sees }), h("p", { text: f.fix }));
      item.append(details);
      list.append(item);
    });
    parts.push(list);
    if (g.missing.length) {
      parts.push(h("h3", { text: t("import.missing") }),
        h("ul", {}, ...g.missing.map((m) => h("li", { text: t("import.run.cmd", { what: m.what, command: m.command }) }))));
    }
    if (res.notes.length) {
      parts.push(h("details", {}, h("summary", { text: t("import.notes", { n: res.notes.length }) }),
        h("ul", {}, ...res.notes.map((n) => h("li", {}, h("code", { text: ref(n.ref) }), " ", n.text)))));
    }
    if (res.scenarioLeft && res.scenarioLeft.length) {
      parts.push(h("p", { class: "hint", text: t("import.left", { left: res.scenarioLeft.join("; ") }) }));
    }
    report.replaceChildren(...parts);
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
  // The findings' headlines come from the wasm in the page's language: read again on a change.
  i18n.onChange(() => {
    if (statusKey) say(statusKey.key, statusKey.params);
    if (last && lastArgs && window.lbscope) {
      setTimeout(() => {
        const res = window.lbscope.diagnose(lastArgs);
        if (res && !res.error) { last = res; draw(res); }
      }, 0);
    }
  });

  window.LB.importer = { open: () => setOpen(true), diagnose: (texts) => diagnose(texts) };
})();
