// panel.js: the playground's HTML controls in <aside id="panel">. Everything goes through
// window.lbscope (defined by the wasm's bridge): dispatch(command) for actions, state() for
// the status line and the controls' values, on("*", fn) for the event log.
//
// No inline styles or handlers (the page's Content-Security-Policy forbids them): elements are
// built with the DOM API, styled by panel.css through classes and the hidden attribute.
(function () {
  "use strict";

  const panel = document.getElementById("panel");
  if (!panel) return;

  const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];
  const LATENCIES = [0, 100, 600, 2000, 6000];
  const STEP_MS = 1000;
  const LOG_MAX = 200;
  const SYNC_MS = 250;
  const INNER = ["AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH"];
  const STRATEGY_HINTS = {
    AVG: "Contiguous blocks: each consumer takes the next run of queues.",
    AVG_BY_CIRCLE: "Round robin: queue i goes to consumer i mod n.",
    CONSISTENT_HASH: "A hash ring with virtual nodes per consumer.",
    CONFIG: "A fixed list of queues for every consumer (none set here: consumers get none).",
    MACHINE_ROOM: "Only brokers named room@broker in the listed rooms, averaged.",
    MACHINE_ROOM_NEARBY: "Rooms from the part before the first dash; an inner strategy inside each room.",
  };
  const CONSUMER_ACTIONS = [
    ["killConsumer", "Kill"],
    ["partitionConsumer", "Partition"],
    ["healConsumer", "Heal"],
    ["stopConsumer", "Stop"],
    ["restartConsumer", "Restart"],
    ["hangConsumer", "Hang"],
    ["resumeConsumer", "Resume"],
  ];
  // What each consumer status allows, as the canvas's click menu offers it.
  const ALLOWED = {
    alive: ["killConsumer", "partitionConsumer", "stopConsumer", "hangConsumer"],
    idle: ["killConsumer", "partitionConsumer", "stopConsumer", "hangConsumer"],
    hung: ["resumeConsumer", "killConsumer", "partitionConsumer", "stopConsumer"],
    partitioned: ["healConsumer", "restartConsumer", "killConsumer"],
    killed: ["restartConsumer"],
    stopped: ["restartConsumer"],
  };

  // h builds an element: h("button", {id: "x", type: "button"}, "text", child, …).
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return el;
  }

  function option(value, label, selected) {
    const o = h("option", { value: String(value) }, label);
    if (selected) o.selected = true;
    return o;
  }

  function field(label, control, hint) {
    const id = control.id;
    return h("div", { class: "field" },
      h("label", { for: id }, label),
      control,
      hint ? h("p", { class: "hint", id: id + "-hint" }, hint) : null);
  }

  function speedLabel(x) {
    return String(x) + "×";
  }

  function clock(ms) {
    const s = Math.floor(ms / 1000);
    const mm = String(Math.floor(s / 60) % 60).padStart(2, "0");
    const ss = String(s % 60).padStart(2, "0");
    return s >= 3600 ? Math.floor(s / 3600) + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  const fmt = new Intl.NumberFormat("en");

  // ---- Building the panel ----

  const statusLine = h("p", { id: "status-line", class: "status-line", role: "status" }, "Loading the simulation…");
  const toggle = h("button", {
    type: "button", id: "panel-toggle", class: "panel-toggle", "aria-expanded": "false", "aria-controls": "panel-body",
  }, "Controls");
  const feedback = h("p", { id: "panel-feedback", class: "feedback", role: "alert", hidden: true });

  const pauseBtn = h("button", { type: "button", id: "pause", class: "primary", "aria-pressed": "false" }, "Pause");
  const stepBtn = h("button", { type: "button", id: "step", title: "Advance a paused simulation by 1 s of virtual time" }, "Step 1 s");
  const resetBtn = h("button", { type: "button", id: "reset" }, "Reset");
  const speedSel = h("select", { id: "speed" }, ...SPEEDS.map((x) => option(x, speedLabel(x), x === 1)));
  const presetSel = h("select", { id: "preset" },
    option("small", "Small: 2 brokers, 3 consumers"),
    option("default", "Default: 4 brokers, 4 consumers", true),
    option("large", "Large: 16 brokers, 64 consumers"));
  const loadBtn = h("button", { type: "button", id: "load-preset" }, "Load");
  const shareBtn = h("button", { type: "button", id: "share", title: "Copy a link that reopens this scenario at this moment" }, "Share");
  const embedBtn = h("button", { type: "button", id: "embed", "aria-haspopup": "dialog", "aria-controls": "embed-dialog" }, "Embed");
  const shareNote = h("p", { id: "share-note", class: "hint", role: "status" });
  const shareField = h("input", { type: "text", id: "share-link", readonly: true, hidden: true, "aria-label": "Share link", spellcheck: "false" });

  const addBtn = h("button", { type: "button", id: "add-consumer", class: "primary" }, "Add consumer");
  const consumerSel = h("select", { id: "consumer-target" });
  const consumerBtns = CONSUMER_ACTIONS.map(([type, label]) =>
    h("button", { type: "button", "data-command": type, id: "consumer-" + label.toLowerCase() }, label));

  const brokerSel = h("select", { id: "broker-target" });
  const latencySel = h("select", { id: "broker-latency" },
    ...LATENCIES.map((ms) => option(ms, ms === 0 ? "0 ms (normal)" : ms + " ms")));
  const slowBtn = h("button", { type: "button", id: "broker-slow" }, "Set latency");
  const killBrokerBtn = h("button", { type: "button", id: "broker-kill" }, "Kill broker");
  const restoreBtn = h("button", { type: "button", id: "broker-restore" }, "Restore broker");
  const queuesInput = h("input", { type: "number", id: "queues", min: 0, max: 4096, step: 1, value: 8, inputmode: "numeric" });
  const queuesTarget = h("select", { id: "queues-target" }, option("*", "All brokers", true));
  const queuesBtn = h("button", { type: "button", id: "queues-apply" }, "Set queues");

  const strategySel = h("select", { id: "strategy", "aria-describedby": "strategy-hint" });
  const strategyHint = h("p", { class: "hint", id: "strategy-hint" });
  const vnodesInput = h("input", { type: "number", id: "virtual-nodes", min: 1, max: 1000, step: 1, value: 10, inputmode: "numeric" });
  const roomsInput = h("input", { type: "text", id: "rooms", value: "", autocomplete: "off", spellcheck: "false", placeholder: "room1, room2" });
  const innerSel = h("select", { id: "inner" }, ...INNER.map((n) => option(n, n, n === "AVG")));
  const innerVnodesInput = h("input", { type: "number", id: "inner-virtual-nodes", min: 1, max: 1000, step: 1, value: 10, inputmode: "numeric" });
  const vnodesField = field("Virtual nodes", vnodesInput);
  const roomsField = field("Rooms (consumeridcs)", roomsInput, "Comma-separated machine rooms this group consumes from.");
  const innerField = field("Inner strategy", innerSel);
  const innerVnodesField = field("Inner virtual nodes", innerVnodesInput);
  const strategyBtn = h("button", { type: "button", id: "strategy-apply" }, "Apply strategy");
  const modelSel = h("select", { id: "model" }, option("CLUSTERING", "Clustering", true), option("BROADCASTING", "Broadcasting"));

  const rateInput = h("input", { type: "number", id: "rate", min: 0, max: 100000, step: 1, value: 200, inputmode: "numeric" });
  const rateBtn = h("button", { type: "button", id: "rate-apply" }, "Set rate");
  const faultBox = h("input", { type: "checkbox", id: "latency-fault" });
  const tableSel = h("select", { id: "fault-table" },
    option("current", "Current (5.1.4 and later)", true), option("legacy-4x", "Legacy 4.x (4.0 – 5.1.3)"));

  const log = h("ol", { id: "event-log", class: "event-log", role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-label": "Event log" });
  const showRebalances = h("input", { type: "checkbox", id: "log-rebalances", checked: true });
  const clearLogBtn = h("button", { type: "button", id: "log-clear", class: "small" }, "Clear");

  const helpBtn = h("button", { type: "button", id: "help-button", "aria-haspopup": "dialog", "aria-controls": "help" }, "Help and shortcuts");

  function section(id, title, ...content) {
    return h("section", { class: "panel-section", "aria-labelledby": id }, h("h2", { id }, title), ...content);
  }

  const body = h("div", { class: "panel-content" },
    feedback,
    section("h-run", "Run",
      h("div", { class: "row" }, pauseBtn, stepBtn, resetBtn),
      field("Speed", speedSel, "Virtual time per wall-clock second."),
      h("div", { class: "row end" }, field("Scenario", presetSel), loadBtn),
      h("div", { class: "row" }, shareBtn, embedBtn),
      shareNote, shareField),
    section("h-consumers", "Consumers",
      h("div", { class: "row" }, addBtn),
      field("Consumer", consumerSel),
      h("div", { class: "row wrap", role: "group", "aria-label": "Consumer actions" }, ...consumerBtns)),
    section("h-brokers", "Brokers",
      field("Broker", brokerSel),
      h("div", { class: "row end" }, field("Extra send latency", latencySel), slowBtn),
      h("div", { class: "row wrap" }, killBrokerBtn, restoreBtn),
      h("div", { class: "row end" }, field("Queues per broker", queuesInput), field("On", queuesTarget), queuesBtn)),
    section("h-allocation", "Allocation",
      field("Strategy", strategySel),
      strategyHint,
      vnodesField, roomsField, innerField, innerVnodesField,
      strategyBtn,
      field("Message model", modelSel, "Broadcasting: every consumer gets every queue.")),
    section("h-producers", "Producers",
      h("div", { class: "row end" }, field("Producer rate (msg/s)", rateInput), rateBtn),
      h("div", { class: "check" }, faultBox, h("label", { for: "latency-fault" }, "Latency fault tolerance")),
      field("Fault table", tableSel, "How long a slow broker is avoided after each latency.")),
    section("h-events", "Events",
      h("div", { class: "row spread" },
        h("div", { class: "check" }, showRebalances, h("label", { for: "log-rebalances" }, "Show rebalances")),
        clearLogBtn),
      log),
    h("div", { class: "panel-foot" }, helpBtn,
      h("p", { class: "hint" }, "On the canvas: click a consumer or a broker for its actions. Keys: Space pause, . step, + and − speed, a add consumer, ? help.")));

  const head = h("div", { class: "panel-head" }, toggle, statusLine);
  const controls = h("fieldset", { class: "panel-controls", disabled: true }, h("legend", { class: "visually-hidden" }, "Simulation controls"), body);
  // The scroller is this inner element, not #panel: an opaque scrolling #panel over the
  // WebGL canvas made Chromium drop the canvas from the page in the stacked (phone) layout.
  const scroller = h("div", { id: "panel-body", class: "panel-body" }, controls);
  panel.append(head, scroller);

  // ---- Help overlay (window.lbscopeHelp, which the canvas's ? key calls) ----

  const helpClose = h("button", { type: "button", id: "help-close" }, "Close");
  const help = h("div", { id: "help", class: "help", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-title", hidden: true },
    h("div", { class: "help-card" },
      h("h2", { id: "help-title" }, "LBScope playground"),
      h("p", {}, "Brokers are the columns of cells at the top: each cell is one queue of the topic, coloured by the consumer that pulls it and marked with its name (or, when cells are small, a shape). A red outline marks a queue two consumers pull at once (an overlap, labelled x2) or that nobody pulls (an orphan, ?). The dark strip at a cell's foot is its backlog."),
      h("p", {}, "Consumers are the boxes along the bottom, with a line to each queue they pull and a bar counting down to their next periodic rebalance. A crossed grey box was killed, a faded one is cut off from the network (the brokers still list it), two bars mean hung. A broker with +ms is slow; the ring shows how long producers still avoid it; a crossed broker is down."),
      h("h3", {}, "Keyboard"),
      h("dl", { class: "keys" },
        h("dt", {}, "Space"), h("dd", {}, "pause or play"),
        h("dt", {}, "."), h("dd", {}, "step 1 s of virtual time (pauses first)"),
        h("dt", {}, "+ / −"), h("dd", {}, "faster / slower (0.25× to 100×)"),
        h("dt", {}, "a"), h("dd", {}, "add a consumer"),
        h("dt", {}, "?"), h("dd", {}, "this help"),
        h("dt", {}, "Esc"), h("dd", {}, "close a menu or this help")),
      h("p", {}, "Every control of this panel works from the keyboard; the canvas's click menus have the same actions under Consumers and Brokers."),
      helpClose));
  document.body.append(help);
  let helpReturn = null;

  function setHelp(open) {
    if (open === !help.hidden) return;
    help.hidden = !open;
    if (open) {
      helpReturn = document.activeElement;
      helpClose.focus();
    } else if (helpReturn && typeof helpReturn.focus === "function") {
      helpReturn.focus();
    }
  }
  helpClose.addEventListener("click", () => setHelp(false));
  helpBtn.addEventListener("click", () => setHelp(true));
  help.addEventListener("click", (e) => { if (e.target === help) setHelp(false); });
  help.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); setHelp(false); }
    if (e.key === "Tab") { e.preventDefault(); helpClose.focus(); } // the one control: keep focus in the dialog
  });
  if (typeof window.lbscopeHelp !== "function") {
    window.lbscopeHelp = () => setHelp(help.hidden);
  }

  // ---- Share and embed ----

  // copyText puts text on the clipboard; false when the browser refuses (no permission, an
  // insecure origin, a sandboxed frame), and the caller shows the text to copy by hand.
  async function copyText(text) {
    try {
      if (!navigator.clipboard || !navigator.clipboard.writeText) return false;
      await navigator.clipboard.writeText(text);
      return true;
    } catch (err) {
      return false;
    }
  }

  // shareLink is the current moment's link ("#s=1.…"), or null after showing why not.
  function shareLink() {
    if (!api) return null;
    const link = api.share();
    if (typeof link !== "string") {
      showError(link && link.error ? link.error : "cannot make a share link");
      return null;
    }
    return link;
  }

  shareBtn.addEventListener("click", async () => {
    const link = shareLink();
    if (!link) return;
    const url = location.origin + location.pathname + link;
    shareField.value = url;
    const secs = Math.floor((last ? last.timeMs : 0) / 1000);
    if (await copyText(url)) {
      shareField.hidden = true;
      shareNote.textContent = "Link copied: it reopens this scenario at " + clock(secs * 1000) + " (" + url.length + " characters).";
    } else {
      shareField.hidden = false;
      shareNote.textContent = "The clipboard is not available here: copy the link below.";
      shareField.focus();
      shareField.select();
    }
  });
  shareField.addEventListener("focus", () => shareField.select());

  const embedControls = h("select", { id: "embed-controls" },
    option("full", "Full panel", true), option("min", "Slim bar: play, pause, step, speed"), option("none", "None: the canvas only"));
  const embedCode = h("textarea", { id: "embed-code", readonly: true, rows: 5, spellcheck: "false", "aria-label": "Embed code" });
  const embedPreview = h("div", { class: "embed-preview", "aria-hidden": "true" }, h("span", {}, "16 : 9"));
  const embedCopy = h("button", { type: "button", id: "embed-copy", class: "primary" }, "Copy");
  const embedClose = h("button", { type: "button", id: "embed-close" }, "Close");
  const embedNote = h("p", { id: "embed-note", class: "hint", role: "status" });
  const embedDialog = h("div", { id: "embed-dialog", class: "help", role: "dialog", "aria-modal": "true", "aria-labelledby": "embed-title", hidden: true },
    h("div", { class: "help-card" },
      h("h2", { id: "embed-title" }, "Embed this scenario"),
      h("p", {}, "Paste this into a page: a frame that keeps a 16:9 shape at any width. It shows a picture and a play button, and loads the simulation only when the reader clicks. The scenario starts at this moment, with everything done so far."),
      embedPreview,
      h("div", { class: "field" }, h("label", { for: "embed-controls" }, "Controls"), embedControls),
      embedCode,
      embedNote,
      h("div", { class: "row" }, embedCopy, embedClose)));
  document.body.append(embedDialog);
  let embedReturn = null;

  function embedSnippet() {
    const link = shareLink();
    if (!link) return null;
    const url = new URL("embed.html", location.href);
    url.search = embedControls.value === "full" ? "" : "?controls=" + embedControls.value;
    url.hash = link;
    const title = "LBScope: " + (last && last.title ? last.title : "RocketMQ load balancing");
    const esc = (v) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    return '<div style="position:relative;width:100%;aspect-ratio:16/9">' +
      '<iframe src="' + esc(url.href) + '" title="' + esc(title) + '" loading="lazy" ' +
      'style="position:absolute;inset:0;width:100%;height:100%;border:0"></iframe></div>';
  }

  function setEmbed(open) {
    if (open === !embedDialog.hidden) return;
    if (open) {
      const code = embedSnippet();
      if (!code) return;
      embedCode.value = code;
      embedNote.textContent = "";
      embedReturn = document.activeElement;
      embedDialog.hidden = false;
      embedCopy.focus();
    } else {
      embedDialog.hidden = true;
      if (embedReturn && typeof embedReturn.focus === "function") embedReturn.focus();
    }
  }
  embedBtn.addEventListener("click", () => setEmbed(true));
  embedClose.addEventListener("click", () => setEmbed(false));
  embedControls.addEventListener("change", () => { embedCode.value = embedSnippet() || embedCode.value; });
  embedCopy.addEventListener("click", async () => {
    if (await copyText(embedCode.value)) {
      embedNote.textContent = "Copied.";
    } else {
      embedNote.textContent = "The clipboard is not available here: the code is selected, copy it with Ctrl+C or ⌘C.";
      embedCode.focus();
      embedCode.select();
    }
  });
  embedDialog.addEventListener("click", (e) => { if (e.target === embedDialog) setEmbed(false); });
  embedDialog.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); setEmbed(false); }
  });

  // ---- A link that could not be opened ----

  const linkErrorText = h("p", { id: "link-error-text" });
  const linkErrorClose = h("button", { type: "button", id: "link-error-close" }, "Dismiss");
  const linkError = h("div", { id: "link-error", class: "link-error", role: "alert", hidden: true }, linkErrorText, linkErrorClose);
  document.body.append(linkError);
  linkErrorClose.addEventListener("click", () => { linkError.hidden = true; });

  function showLinkError(msg) {
    linkErrorText.textContent = msg;
    linkError.hidden = false;
  }

  // ---- Narrow screens: the panel collapses to its head ----

  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    panel.classList.toggle("open", open);
  });

  // ---- Talking to the simulation ----

  let api = null;
  let last = null;

  function showError(msg) {
    feedback.textContent = msg;
    feedback.hidden = false;
  }

  function clearError() {
    feedback.hidden = true;
    feedback.textContent = "";
  }

  async function send(cmd) {
    if (!api) return { error: "the simulation is still loading" };
    let res;
    try {
      res = await api.dispatch(cmd);
    } catch (err) {
      res = { error: String(err && err.message ? err.message : err) };
    }
    if (res && res.error) showError(res.error);
    else clearError();
    sync();
    return res;
  }

  // whenReady waits for the wasm to define window.lbscope, then for its first frame.
  function whenReady() {
    return new Promise((resolve) => {
      const poll = () => (window.lbscope ? resolve(window.lbscope) : setTimeout(poll, 50));
      poll();
    }).then((lb) => lb.ready.then(() => lb));
  }

  // ---- Controls → commands ----

  pauseBtn.addEventListener("click", () => send({ type: last && last.paused ? "play" : "pause" }));
  stepBtn.addEventListener("click", () => send({ type: "step", ms: STEP_MS }));
  resetBtn.addEventListener("click", () => send({ type: "reset" }));
  speedSel.addEventListener("change", () => send({ type: "setSpeed", x: Number(speedSel.value) }));
  loadBtn.addEventListener("click", () => send({ type: "load", preset: presetSel.value }).then((r) => {
    if (r && r.ok) { log.replaceChildren(); addLog({ t: 0, kind: "action", text: "loaded the " + presetSel.value + " preset" }); }
  }));
  addBtn.addEventListener("click", () => send({ type: "addConsumer" }).then((r) => {
    if (r && r.id) selectWhenListed(consumerSel, r.id);
  }));
  for (const b of consumerBtns) {
    b.addEventListener("click", () => {
      if (consumerSel.value) send({ type: b.dataset.command, id: consumerSel.value });
    });
  }
  consumerSel.addEventListener("change", () => updateConsumerButtons());
  brokerSel.addEventListener("change", () => updateBrokerButtons());
  slowBtn.addEventListener("click", () => send({ type: "slowBroker", broker: brokerSel.value, latencyMs: Number(latencySel.value) }));
  killBrokerBtn.addEventListener("click", () => send({ type: "killBroker", broker: brokerSel.value }));
  restoreBtn.addEventListener("click", () => send({ type: "restoreBroker", broker: brokerSel.value }));
  queuesBtn.addEventListener("click", async () => {
    const n = Number(queuesInput.value);
    const names = queuesTarget.value === "*" ? (last ? last.brokers.map((b) => b.name) : []) : [queuesTarget.value];
    for (const name of names) {
      const r = await send({ type: "setQueues", broker: name, queues: n });
      if (r && r.error) break;
    }
  });
  strategySel.addEventListener("change", () => showStrategyParams());
  innerSel.addEventListener("change", () => showStrategyParams());
  strategyBtn.addEventListener("click", () => {
    const strategy = strategySel.value;
    const params = {};
    if (strategy === "CONSISTENT_HASH") params.virtualNodeCnt = Number(vnodesInput.value);
    if (strategy === "MACHINE_ROOM") params.consumeridcs = roomsInput.value.split(",").map((s) => s.trim()).filter(Boolean);
    if (strategy === "MACHINE_ROOM_NEARBY") {
      params.inner = innerSel.value;
      if (innerSel.value === "CONSISTENT_HASH") params.innerVirtualNodeCnt = Number(innerVnodesInput.value);
    }
    send({ type: "setStrategy", strategy, params });
  });
  modelSel.addEventListener("change", () => send({ type: "setMessageModel", model: modelSel.value }));
  rateBtn.addEventListener("click", () => send({ type: "setProducerRate", rate: Number(rateInput.value) }));
  faultBox.addEventListener("change", () => send({ type: "setLatencyFault", on: faultBox.checked }));
  tableSel.addEventListener("change", () => send({ type: "setFaultTable", table: tableSel.value }));
  clearLogBtn.addEventListener("click", () => log.replaceChildren());

  // Shortcuts outside the canvas (the canvas handles its own keys): not while typing.
  document.addEventListener("keydown", (e) => {
    if (!api || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "CANVAS" || t.closest("input, select, textarea, button, [contenteditable]"))) return;
    if (!help.hidden && e.key !== "?") return;
    if (!embedDialog.hidden) return;
    const speed = last ? last.speed : 1;
    switch (e.key) {
      case " ": send({ type: last && last.paused ? "play" : "pause" }); break;
      case ".": send({ type: "step", ms: STEP_MS }); break;
      case "+": case "=": send({ type: "setSpeed", x: SPEEDS.find((s) => s > speed + 1e-9) || 100 }); break;
      case "-": case "_": send({ type: "setSpeed", x: [...SPEEDS].reverse().find((s) => s < speed - 1e-9) || 0.25 }); break;
      case "a": case "A": send({ type: "addConsumer" }); break;
      case "?": window.lbscopeHelp(); break;
      default: return;
    }
    e.preventDefault();
  });

  // ---- State → controls ----

  function showStrategyParams() {
    const s = strategySel.value;
    vnodesField.hidden = s !== "CONSISTENT_HASH";
    roomsField.hidden = s !== "MACHINE_ROOM";
    innerField.hidden = s !== "MACHINE_ROOM_NEARBY";
    innerVnodesField.hidden = !(s === "MACHINE_ROOM_NEARBY" && innerSel.value === "CONSISTENT_HASH");
    strategyHint.textContent = STRATEGY_HINTS[s] || "";
  }

  // setOptions replaces a select's options when their list changed, keeping the selection.
  function setOptions(sel, items, keepFirst) {
    const key = JSON.stringify(items);
    if (sel.dataset.key === key) return;
    sel.dataset.key = key;
    const before = sel.value;
    const fixed = keepFirst ? [sel.options[0]] : [];
    sel.replaceChildren(...fixed, ...items.map(([v, label]) => option(v, label, v === before)));
    if (!items.some(([v]) => v === before) && !keepFirst && items.length) sel.value = items[0][0];
  }

  function selectWhenListed(sel, value) {
    sync();
    if ([...sel.options].some((o) => o.value === value)) {
      sel.value = value;
      updateConsumerButtons();
    }
  }

  function focused(el) {
    return document.activeElement === el;
  }

  function updateConsumerButtons() {
    const c = last && last.consumers.find((x) => x.id === consumerSel.value);
    const allowed = c ? ALLOWED[c.status] || [] : [];
    for (const b of consumerBtns) b.disabled = !allowed.includes(b.dataset.command);
  }

  function updateBrokerButtons() {
    const b = last && last.brokers.find((x) => x.name === brokerSel.value);
    killBrokerBtn.disabled = !b || b.down;
    restoreBtn.disabled = !b || !b.down;
    slowBtn.disabled = !b;
  }

  function sync() {
    if (!api) return;
    let st;
    try {
      st = api.state();
    } catch (err) {
      return; // the program stopped: the loader's error box says so
    }
    if (!st || st.error) return;
    last = st;
    const m = st.metrics;
    statusLine.textContent = clock(st.timeMs) + " · " + speedLabel(st.speed) + (st.paused ? " · paused" : "") +
      " · produced " + fmt.format(m.produced) + " · consumed " + fmt.format(m.consumed) +
      " · duplicates " + fmt.format(m.duplicates) + " · lost " + fmt.format(m.lost);
    statusLine.classList.toggle("warn", m.duplicates > 0 || m.lost > 0);

    pauseBtn.textContent = st.paused ? "Play" : "Pause";
    pauseBtn.setAttribute("aria-pressed", String(st.paused));
    if (!focused(speedSel)) {
      if (![...speedSel.options].some((o) => Number(o.value) === st.speed)) speedSel.append(option(st.speed, speedLabel(st.speed)));
      speedSel.value = String(st.speed);
    }

    setOptions(consumerSel, st.consumers.map((c) => [c.id, c.id + " (" + (c.status === "partitioned" ? "cut off" : c.status) + ", " + c.queues.length + " queues)"]));
    updateConsumerButtons();
    setOptions(brokerSel, st.brokers.map((b) => [b.name, b.name + (b.down ? " (down)" : b.latencyMs ? " (+" + b.latencyMs + " ms)" : "")]));
    setOptions(queuesTarget, st.brokers.map((b) => [b.name, b.name]), true);
    updateBrokerButtons();

    setOptions(strategySel, st.strategies.map((n) => [n, n]));
    if (!focused(strategySel) && strategySel.dataset.shown !== st.strategy) {
      strategySel.dataset.shown = st.strategy;
      const [base, inner] = st.strategy.split("-");
      strategySel.value = base;
      if (inner && INNER.includes(inner)) innerSel.value = inner;
      showStrategyParams();
    }
    if (!focused(modelSel)) modelSel.value = st.messageModel;
    if (!focused(faultBox)) faultBox.checked = st.latencyFault;
    if (!focused(tableSel)) tableSel.value = st.faultTable;
    const rate = st.producers.length ? st.producers[0].rate : 0;
    if (!focused(rateInput) && rateInput.dataset.shown !== String(rate)) {
      rateInput.dataset.shown = String(rate);
      rateInput.value = String(rate);
    }
    const queues = st.brokers.length ? st.brokers[0].queues : 0;
    if (!focused(queuesInput) && queuesInput.dataset.shown !== String(queues)) {
      queuesInput.dataset.shown = String(queues);
      queuesInput.value = String(queues);
    }
    if (presetSel.dataset.shown !== st.title) {
      presetSel.dataset.shown = st.title;
      const match = { "Small cluster": "small", "Default cluster": "default", "Large cluster": "large" }[st.title];
      if (match && !focused(presetSel)) presetSel.value = match;
    }
  }

  // ---- The event log ----

  const pending = [];

  function addLog(ev) {
    pending.push(ev);
  }

  function flushLog() {
    if (!pending.length) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    const items = [];
    for (const ev of pending.splice(0)) {
      if (ev.kind === "rebalance" && !showRebalances.checked) continue;
      items.push(h("li", { class: "ev ev-" + ev.kind },
        h("span", { class: "ev-time" }, clock(ev.t)), " ", ev.text));
    }
    if (!items.length) return;
    log.append(...items);
    while (log.childElementCount > LOG_MAX) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  // ---- Start ----

  showStrategyParams();
  whenReady().then((lb) => {
    api = lb;
    controls.disabled = false;
    if (lb.linkError) showLinkError(lb.linkError);
    api.on("*", addLog);
    sync();
    setInterval(() => { sync(); flushLog(); }, SYNC_MS);
  }, (err) => {
    statusLine.textContent = "The simulation did not start: " + (err && err.message ? err.message : err);
  });
})();
