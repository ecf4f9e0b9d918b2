// panel.js: the playground's HTML controls in <aside id="panel">. Everything goes through
// window.lbscope (defined by the wasm's bridge): dispatch(command) for actions, state() for
// the status line and the controls' values, on("*", fn) for the event log.
//
// No inline styles or handlers (the page's Content-Security-Policy forbids them): elements are
// built with the DOM API, styled by panel.css through classes and the hidden attribute.
//
// Every piece of prose comes from i18n.js in English and Chinese, bound so that the
// language switch in the panel's head changes it without a reload; numbers are formatted with
// Intl for the language. This file also puts the page's own static texts (index.html's
// aria-labels) through the dictionary; loader.js does the loader card's.
//
// A module: the page's store, readiness, clock and speed steps come from store.mjs.
import { i18n, h } from "./i18n.js";
import { store, ready, clock, SPEEDS } from "./store.mjs";
import { strategyForm, strategyWords } from "./strategies.mjs";
import { rowsFor, startsConsumer, controlOf, idOf, labelKey, hintKey, optionsOf, enabled, payloadOf, currentOf, shownText } from "./commands.mjs";

function mount() {
  "use strict";

  const panel = document.getElementById("panel");
  if (!panel) return;
  const t = i18n.t;

  const STEP_MS = 1000;
  const LOG_MAX = 200;
  // The presets' titles as the scenario carries them (English, from Go) and in the page's words.
  const PRESET_TITLES = {
    "Small cluster": "small", "Default cluster": "default", "Large cluster": "large",
    "Two topics, two groups": "groups", "An autoscaled group": "autoscale",
  };
  // What each consumer status allows: the command table's "from" (lbscope.commands()), as the
  // canvas's click menu offers it. Filled when the wasm is ready.
  const ALLOWED = {};

  function option(value, label, selected) {
    const o = h("option", { value: String(value) }, label);
    if (selected) o.selected = true;
    return o;
  }

  // toption is an option whose label is a dictionary key.
  function toption(value, key, selected, params) {
    const o = h("option", { value: String(value) });
    i18n.bind(o, key, params);
    if (selected) o.selected = true;
    return o;
  }

  // field is a labelled control; label and hint are dictionary keys.
  function field(label, control, hint) {
    const id = control.id;
    if (hint) control.setAttribute("aria-describedby", id + "-hint");
    return h("div", { class: "field" },
      h("label", { for: id, t: label }),
      control,
      hint ? h("p", { class: "hint", id: id + "-hint", t: hint }) : null);
  }

  let fmt = null;
  function setFormat() {
    fmt = new Intl.NumberFormat(i18n.lang === "zh" ? "zh-CN" : "en");
  }
  setFormat();

  function speedLabel(x) {
    return fmt.format(x) + "×";
  }

  // say shows a dictionary text in el and shows it again, in the new language, on a switch.
  const said = new Map();
  function say(el, key, params) {
    said.set(el, { key, params });
    el.textContent = t(key, params);
  }
  function unsay(el, text) {
    said.delete(el);
    el.textContent = text;
  }

  // ---- Building the panel ----

  const statusLine = h("p", { id: "status-line", class: "status-line", role: "status" });
  say(statusLine, "panel.loading");
  const toggle = h("button", {
    type: "button", id: "panel-toggle", class: "panel-toggle", "aria-expanded": "false", "aria-controls": "panel-body", t: "panel.toggle",
  });
  // The language switch: each language named in itself, the current one pressed.
  const langNames = { en: "EN", zh: "中文" };
  const langBtns = i18n.langs.map((l) => h("button", {
    type: "button", class: "lang-button", id: "lang-" + l, "data-lang": l, lang: l === "zh" ? "zh-CN" : "en",
    "aria-pressed": String(l === i18n.lang), onclick: () => { if (i18n.lang !== l) i18n.set(l); },
  }, langNames[l]));
  const langSwitch = h("div", { id: "lang-switch", class: "lang-switch", role: "group", "t:aria-label": "panel.lang.label" }, ...langBtns);
  const feedback = h("p", { id: "panel-feedback", class: "feedback", role: "alert", hidden: true });

  const pauseBtn = h("button", { type: "button", id: "pause", class: "primary", "aria-pressed": "false" }, t("panel.pause"));
  const stepBtn = h("button", { type: "button", id: "step", "t:title": "panel.step.title", t: "panel.step" });
  const resetBtn = h("button", { type: "button", id: "reset", t: "panel.reset" });
  const speedSel = h("select", { id: "speed" }, ...SPEEDS.map((x) => option(x, speedLabel(x), x === 1)));
  const presetSel = h("select", { id: "preset" },
    toption("small", "panel.preset.small"),
    toption("default", "panel.preset.default", true),
    toption("large", "panel.preset.large"),
    toption("groups", "panel.preset.groups"),
    toption("autoscale", "panel.preset.autoscale"));
  const loadBtn = h("button", { type: "button", id: "load-preset", t: "panel.load" });
  const shareBtn = h("button", { type: "button", id: "share", "t:title": "panel.share.title", t: "panel.share" });
  const embedBtn = h("button", { type: "button", id: "embed", "aria-haspopup": "dialog", "aria-controls": "embed-dialog", t: "panel.embed" });
  const shareNote = h("p", { id: "share-note", class: "hint", role: "status" });
  const shareField = h("input", { type: "text", id: "share-link", readonly: true, hidden: true, "t:aria-label": "panel.share.link", spellcheck: "false" });

  const consumerSel = h("select", { id: "consumer-target" });
  // The group's commands that start a consumer (addConsumer, with the SDK it runs, spec §9: a
  // group may mix them), from the command table.
  const startRows = h("div", { class: "command-rows" });
  // The consumer commands' buttons come from the command table (lbscope.commands()): one per
  // consumer command of the canvas's menu, worded by the table, enabled by its "from". Their
  // ids (consumer-kill for killConsumer, …) are what tests and pages find them by.
  const consumerBtns = [];
  const consumerGroup = h("div", { class: "row wrap", role: "group", "t:aria-label": "panel.consumerActions" });
  // The consumer commands beyond the canvas's menu (setSubscription), rows from the table.
  const consumerRows = h("div", { class: "command-rows" });
  // The consumer group of a run with several topics or groups: the one the canvas shows
  // (<html data-group>, which its tabs and g key set too), and the one the group commands
  // and setSubscription name. Hidden with one group.
  const groupSel = h("select", { id: "group-target" });
  const groupField = h("div", { hidden: true }, field("panel.group", groupSel, "panel.group.hint"));

  // The broker, group and producer controls come from the command table too (commands.mjs):
  // a row per command of the target, an input per argument, its button worded and enabled by
  // the table; a section's target choice gives the argument that names the target.
  const brokerSel = h("select", { id: "broker-target" });
  const brokerRows = h("div", { class: "command-rows" });
  // The RocketMQ 5 proxies of a run that has them (state().proxies): the section is hidden
  // in a run without.
  const proxySel = h("select", { id: "proxy-target" });
  const proxyRows = h("div", { class: "command-rows" });
  const producerSel = h("select", { id: "producer-target" }, toption("", "panel.allProducers", true));
  const producerRows = h("div", { class: "command-rows" });
  const groupRows = h("div", { class: "command-rows" });
  // The cluster's commands (addBroker, addTopic) create what is not there yet: no target
  // choice, and no current value shown in their inputs.
  const clusterRows = h("div", { class: "command-rows" });
  // Each section's target choice, the rows built in it and how to read its target's status and view.
  const SECTIONS = {
    broker: {
      sel: brokerSel, box: brokerRows, rows: [],
      view: (st) => st.brokers.find((b) => b.name === brokerSel.value),
      status: (b) => (b ? (b.down ? "down" : "up") : null),
    },
    proxy: {
      sel: proxySel, box: proxyRows, rows: [],
      view: (st) => (st.proxies || []).find((p) => p.name === proxySel.value),
      // A local-mode proxy lives inside the brokers: no proxy command applies to it.
      status: (p) => (p ? (p.mode === "local" ? "local" : p.down ? "down" : "up") : null),
    },
    producer: {
      sel: producerSel, box: producerRows, rows: [],
      view: (st) => st.producers.find((p) => p.id === producerSel.value) || st.producers[0],
      status: () => "",
    },
    // The group's view is the state with the chosen group's strategy and message model.
    group: { sel: null, box: groupRows, rows: [], view: (st) => groupState(st), status: () => "" },
    cluster: { sel: null, box: clusterRows, rows: [], view: () => ({}), status: () => "" },
    consumer: {
      sel: consumerSel, box: consumerRows, rows: [],
      view: (st) => memberOf(st, consumerSel.value),
      status: (c) => (c ? c.status : null),
    },
  };

  // groupState is the state as the chosen group sees it: its strategy and message model.
  function groupState(st) {
    const g = (st.groups || []).find((x) => x.name === groupSel.value);
    return g ? { ...st, strategy: g.strategy, messageModel: g.messageModel } : st;
  }

  // memberOf is consumer id's entry in the state: its membership of the chosen group where
  // it has one (a process that is a member of several groups has an entry in each).
  function memberOf(st, id) {
    const all = st.consumers.filter((c) => c.id === id);
    return all.find((c) => c.group === groupSel.value) || all[0];
  }

  // The strategy choice and its parameters' inputs come from the strategy table
  // (lbscope.strategies()), built when the wasm is ready (useStrategies).
  const strategyBox = h("div", { class: "strategy-form" });
  let strategies = null;
  const strategyBtn = h("button", { type: "button", id: "strategy-apply", t: "panel.applyStrategy" });
  // Who the strategy is for: the whole group, or one member (a rolling deploy redeploys one
  // member at a time: it computes with its own strategy while the others keep theirs).
  // Shown in a run with groups listed (scenario format 2).
  const strategyMember = h("select", { id: "strategy-member" }, toption("", "panel.strategy.wholeGroup", true));
  const strategyMemberField = h("div", { hidden: true }, field("panel.strategy.member", strategyMember));

  const log = h("ol", { id: "event-log", class: "event-log", role: "log", "aria-live": "polite", "aria-relevant": "additions", "t:aria-label": "panel.log", tabindex: "0" });
  const showRebalances = h("input", { type: "checkbox", id: "log-rebalances", checked: true });
  const clearLogBtn = h("button", { type: "button", id: "log-clear", class: "small", t: "panel.clear" });

  const helpBtn = h("button", { type: "button", id: "help-button", "aria-haspopup": "dialog", "aria-controls": "help", t: "panel.helpButton" });
  // The canvas's legend: <html data-legend="1">, which the canvas reads with the stage
  // (also ?legend=1, the canvas's l key and its header's button).
  const root = document.documentElement;
  if (new URLSearchParams(location.search).get("legend") === "1") root.dataset.legend = "1";
  const legendBtn = h("button", { type: "button", id: "legend", "aria-pressed": String(root.dataset.legend === "1"), t: "panel.legend" });
  legendBtn.addEventListener("click", () => {
    if (root.dataset.legend === "1") delete root.dataset.legend;
    else root.dataset.legend = "1";
  });
  new MutationObserver(() => legendBtn.setAttribute("aria-pressed", String(root.dataset.legend === "1")))
    .observe(root, { attributes: true, attributeFilter: ["data-legend"] });
  // Presenter mode (theme.js's LB.look; also ?present=1 and the canvas's p key).
  const look = window.LB.look;
  const presentBtn = h("button", { type: "button", id: "present", "aria-pressed": String(!!(look && look.present)), t: "panel.present" });
  presentBtn.addEventListener("click", () => look && look.setPresent(!look.present));
  if (look) look.onChange((l) => presentBtn.setAttribute("aria-pressed", String(l.present)));

  function section(id, title, ...content) {
    return h("section", { class: "panel-section", "aria-labelledby": id }, h("h2", { id, t: title }), ...content);
  }
  const proxySection = section("h-proxies", "panel.proxies",
    field("panel.proxy", proxySel, "panel.proxy.hint"),
    proxyRows);
  proxySection.id = "proxies";
  proxySection.hidden = true;

  const body = h("div", { class: "panel-content" },
    feedback,
    section("h-run", "panel.run",
      h("div", { class: "row" }, pauseBtn, stepBtn, resetBtn),
      field("panel.speed", speedSel, "panel.speed.hint"),
      h("div", { class: "row end" }, field("panel.scenario", presetSel), loadBtn),
      h("div", { class: "row" }, shareBtn, embedBtn),
      shareNote, shareField),
    section("h-consumers", "panel.consumers",
      startRows,
      field("panel.consumer", consumerSel),
      consumerGroup,
      consumerRows),
    section("h-brokers", "panel.brokers",
      field("panel.broker", brokerSel),
      brokerRows,
      clusterRows),
    proxySection,
    section("h-allocation", "panel.allocation",
      groupField,
      h("div", { "data-row": "setStrategy" }, strategyBox, strategyMemberField, strategyBtn),
      groupRows),
    section("h-producers", "panel.producers",
      field("panel.producer", producerSel),
      producerRows),
    section("h-events", "panel.events",
      h("div", { class: "row spread" },
        h("div", { class: "check" }, showRebalances, h("label", { for: "log-rebalances", t: "panel.showRebalances" })),
        clearLogBtn),
      log),
    h("div", { class: "panel-foot" }, helpBtn, legendBtn, presentBtn,
      h("p", { class: "hint", t: "panel.foot" })));

  const head = h("div", { class: "panel-head" }, toggle, statusLine, langSwitch);
  const controls = h("fieldset", { class: "panel-controls", disabled: true }, h("legend", { class: "visually-hidden", t: "panel.label" }), body);
  // The scroller is this inner element, not #panel: an opaque scrolling #panel over the
  // WebGL canvas made Chromium drop the canvas from the page in the stacked (phone) layout.
  const scroller = h("div", { id: "panel-body", class: "panel-body" }, controls);
  panel.append(head, scroller);

  // The loaded scenario's name and description, over the stage: a preset's, a lesson's or an
  // incident's in the page's language, an imported group's, or a link's own.
  const scenarioName = h("h1", { id: "scenario-title", class: "scenario-title" });
  const scenarioKind = h("span", { id: "scenario-kind", class: "scenario-kind", hidden: true });
  const scenarioDesc = h("p", { id: "scenario-desc", class: "scenario-desc" });
  // With a history read from logs: what is held against what (state().observed).
  const scenarioObserved = h("p", { id: "scenario-observed", class: "scenario-observed", hidden: true });
  const scenarioHead = h("header", { id: "scenario-head", class: "scenario-head", hidden: true },
    h("div", { class: "scenario-line" }, scenarioKind, scenarioName), scenarioDesc, scenarioObserved);
  const mainCol = document.getElementById("main-col");
  if (mainCol) mainCol.prepend(scenarioHead);

  // ---- Help overlay (window.lbscopeHelp, which the canvas's ? key calls) ----

  const helpClose = h("button", { type: "button", id: "help-close", t: "panel.close" });
  const help = h("div", { id: "help", class: "help", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-title", hidden: true },
    h("div", { class: "help-card" },
      h("h2", { id: "help-title", t: "help.title" }),
      h("p", { t: "help.brokers" }),
      h("p", { t: "help.consumers" }),
      h("h3", { t: "help.keyboard" }),
      h("dl", { class: "keys" },
        h("dt", { t: "help.key.space" }), h("dd", { t: "help.do.space" }),
        h("dt", {}, "."), h("dd", { t: "help.do.step" }),
        h("dt", {}, "+ / −"), h("dd", { t: "help.do.speed" }),
        h("dt", {}, "a"), h("dd", { t: "help.do.add" }),
        h("dt", {}, "l"), h("dd", { t: "help.do.legend" }),
        h("dt", {}, "g"), h("dd", { t: "help.do.group" }),
        h("dt", {}, "?"), h("dd", { t: "help.do.help" }),
        h("dt", {}, "p"), h("dd", { t: "help.do.present" }),
        h("dt", { t: "help.key.esc" }), h("dd", { t: "help.do.esc" })),
      h("p", { t: "help.reach" }),
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
  // Tab stays inside the dialog (a11y.js traps focus in every open modal dialog).
  help.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); setHelp(false); }
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
      const err = link && link.error ? link.error : "";
      // A history read from logs too large for a link (core/scenario share.go): in the
      // page's words.
      const long = /link would be (\d+) characters/.exec(err);
      if (long && last && last.observed) showError(t("panel.share.observedTooLong", { n: fmt.format(Number(long[1])) }));
      else showError(err || t("panel.noShareLink"));
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
      say(shareNote, "panel.share.copied", { clock: clock(secs * 1000), n: fmt.format(url.length) });
    } else {
      shareField.hidden = false;
      say(shareNote, "panel.share.manual");
      shareField.focus();
      shareField.select();
    }
  });
  shareField.addEventListener("focus", () => shareField.select());

  const embedControls = h("select", { id: "embed-controls" },
    toption("full", "embed.controls.full", true), toption("min", "embed.controls.min"), toption("none", "embed.controls.none"));
  const embedCode = h("textarea", { id: "embed-code", readonly: true, rows: 5, spellcheck: "false", "t:aria-label": "embed.code" });
  // The preview is the snippet's own frame: the embed as a documentation page shows it, its
  // poster until the reader presses play there.
  const embedFrame = h("iframe", { id: "embed-preview-frame", "t:title": "embed.preview" });
  const embedPreview = h("div", { id: "embed-preview", class: "embed-preview" }, embedFrame);
  // Said when the snippet points at this computer: documentation needs the site's public address.
  const embedLocal = h("p", { id: "embed-local", class: "hint embed-local", hidden: true });
  const embedCopy = h("button", { type: "button", id: "embed-copy", class: "primary", t: "embed.copy" });
  const embedClose = h("button", { type: "button", id: "embed-close", t: "panel.close" });
  const embedNote = h("p", { id: "embed-note", class: "hint", role: "status" });
  const embedDialog = h("div", { id: "embed-dialog", class: "help", role: "dialog", "aria-modal": "true", "aria-labelledby": "embed-title", hidden: true },
    h("div", { class: "help-card" },
      h("h2", { id: "embed-title", t: "embed.title" }),
      h("p", { t: "embed.text" }),
      embedPreview,
      h("div", { class: "field" }, h("label", { for: "embed-controls", t: "embed.controls" }), embedControls),
      embedCode,
      embedLocal,
      embedNote,
      h("div", { class: "row" }, embedCopy, embedClose)));
  document.body.append(embedDialog);
  let embedReturn = null;

  // localHost says whether a host name is this computer or a private network's: an address
  // the readers of a documentation page cannot reach.
  function localHost(host) {
    const name = host.replace(/^\[|\]$/g, "").toLowerCase();
    return name === "localhost" || name.endsWith(".localhost") || name === "::1" || name === "0.0.0.0" ||
      /^127\./.test(name) || /^10\./.test(name) || /^192\.168\./.test(name) || /^172\.(1[6-9]|2[0-9]|3[01])\./.test(name) ||
      /^169\.254\./.test(name) || /^f[cd][0-9a-f]{2}:/.test(name) || /^fe80:/.test(name);
  }

  // embedURL is the address the snippet's frame loads, or null after showing why there is none.
  function embedURL() {
    const link = shareLink();
    if (!link) return null;
    const url = new URL("embed.html", location.href);
    // The embed speaks the page's language: lang= goes with the snippet when it is not English.
    const q = new URLSearchParams();
    if (embedControls.value !== "full") q.set("controls", embedControls.value);
    if (i18n.lang !== "en") q.set("lang", i18n.lang);
    url.search = q.toString() ? "?" + q.toString() : "";
    url.hash = link;
    return url;
  }

  function embedSnippet(url) {
    if (!url) return null;
    const title = t("embed.frameTitle", { title: last && last.title ? scenarioWords(last).title : t("embed.defaultTitle") });
    const esc = (v) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    return '<div style="position:relative;width:100%;aspect-ratio:16/9">' +
      '<iframe src="' + esc(url.href) + '" title="' + esc(title) + '" loading="lazy" ' +
      'style="position:absolute;inset:0;width:100%;height:100%;border:0"></iframe></div>';
  }

  // showEmbed puts the current moment's snippet, its preview and the local-address note in
  // the dialog; false when there is no link to give.
  function showEmbed() {
    const url = embedURL();
    if (!url) return false;
    embedCode.value = embedSnippet(url);
    if (embedFrame.getAttribute("src") !== url.href) embedFrame.setAttribute("src", url.href);
    embedLocal.hidden = !localHost(url.hostname);
    if (!embedLocal.hidden) say(embedLocal, "embed.local", { host: url.host });
    else unsay(embedLocal, "");
    return true;
  }

  function setEmbed(open) {
    if (open === !embedDialog.hidden) return;
    if (open) {
      if (!showEmbed()) return;
      unsay(embedNote, "");
      embedReturn = document.activeElement;
      embedDialog.hidden = false;
      embedCopy.focus();
    } else {
      embedDialog.hidden = true;
      embedFrame.removeAttribute("src"); // a preview the reader played stops with the dialog
      if (embedReturn && typeof embedReturn.focus === "function") embedReturn.focus();
    }
  }
  embedBtn.addEventListener("click", () => setEmbed(true));
  embedClose.addEventListener("click", () => setEmbed(false));
  embedControls.addEventListener("change", () => { showEmbed(); });
  embedCopy.addEventListener("click", async () => {
    if (await copyText(embedCode.value)) {
      say(embedNote, "embed.copied");
    } else {
      say(embedNote, "embed.manual");
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
  const linkErrorClose = h("button", { type: "button", id: "link-error-close", t: "panel.dismiss" });
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

  // showError shows an error of the simulation (its words) or of this panel (a key's).
  function showError(msg, key) {
    if (key) say(feedback, key);
    else unsay(feedback, msg);
    feedback.hidden = false;
  }

  function clearError() {
    feedback.hidden = true;
    unsay(feedback, "");
  }

  async function send(cmd) {
    if (!api) {
      showError(null, "panel.stillLoading");
      return { error: t("panel.stillLoading") };
    }
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

  // ---- Controls → commands ----

  pauseBtn.addEventListener("click", () => send({ type: last && last.paused ? "play" : "pause" }));
  stepBtn.addEventListener("click", () => send({ type: "step", ms: STEP_MS }));
  resetBtn.addEventListener("click", () => send({ type: "reset" }));
  speedSel.addEventListener("change", () => send({ type: "setSpeed", x: Number(speedSel.value) }));
  loadBtn.addEventListener("click", () => send(presetSel.value === LOADED ? { type: "reset" } : { type: "load", preset: presetSel.value }).then((r) => {
    if (presetSel.value === LOADED) return;
    if (r && r.ok) { log.replaceChildren(); addLog({ t: 0, kind: "action", text: t("panel.loaded", { preset: presetSel.value }) }); }
  }));
  // useCommands takes the command table: its consumer commands become the buttons (named
  // command.<name> in the dictionary, as on the canvas), their "from" what each status allows.
  function useCommands(list) {
    for (const c of list) {
      if (c.target !== "consumer" || !c.menu) continue;
      for (const st of c.from) (ALLOWED[st] = ALLOWED[st] || []).push(c.name);
      const b = h("button", { type: "button", "data-command": c.name, id: "consumer-" + c.name.replace(/Consumer$/, ""), t: "command." + c.name });
      b.addEventListener("click", () => {
        if (consumerSel.value) send({ type: b.dataset.command, id: consumerSel.value });
      });
      consumerBtns.push(b);
      consumerGroup.appendChild(b);
    }
    for (const [target, sec] of Object.entries(SECTIONS)) {
      let line = null; // buttons of commands without arguments share a line
      for (const row of rowsFor(list, target)) {
        const built = buildRow(row, sec);
        sec.rows.push(built);
        if (startsConsumer(row)) {
          startRows.append(built.el);
          continue;
        }
        if (row.args.length) {
          line = null;
          sec.box.append(built.el);
          continue;
        }
        if (!line) sec.box.append(line = h("div", { class: "row wrap" }));
        line.append(built.el);
      }
    }
    updateConsumerButtons();
  }
  consumerSel.addEventListener("change", () => updateConsumerButtons());
  // A new target: its values replace what the inputs showed.
  for (const sel of [brokerSel, proxySel, producerSel]) {
    sel.addEventListener("change", () => {
      for (const sec of Object.values(SECTIONS)) for (const r of sec.rows) for (const input of Object.values(r.inputs)) delete input.dataset.shown;
      sync();
    });
  }
  strategyBtn.addEventListener("click", () => {
    if (!strategies) return;
    const v = strategies.value();
    const cmd = { type: "setStrategy", strategy: v.strategy, params: v.params || {} };
    if (groupSel.value) cmd.group = groupSel.value;
    if (strategyMember.value) cmd.id = strategyMember.value;
    send(cmd);
  });
  // The group chosen is the group the canvas shows: <html data-group>, which the canvas's
  // tabs and g key set too.
  groupSel.addEventListener("change", () => {
    root.dataset.group = groupSel.value;
    sync();
  });
  new MutationObserver(() => sync()).observe(root, { attributes: true, attributeFilter: ["data-group"] });
  strategyMember.addEventListener("change", () => { if (strategies) strategies.select.dataset.shown = ""; sync(); });

  // choice is a select's option for one of optionsOf's: worded by the dictionary where it has
  // the option's key, else the value itself.
  function choice(o) {
    return i18n.has(o.key) ? toption(o.value, o.key, false, () => ({ n: fmt.format(o.params ? o.params.n : 0) })) : option(o.value, o.text);
  }

  // buildRow builds a command's row: a labelled input per argument (a lone switch labelled
  // with the command's name) and, unless it sends on change, the command's button.
  function buildRow(row, sec) {
    const inputs = {};
    const fields = [];
    for (const a of row.args) {
      const id = idOf(row.name, a.name);
      const kind = controlOf(a);
      let input;
      if (kind === "checkbox") {
        input = h("input", { type: "checkbox", id });
        fields.push(h("div", { class: "check" }, input, h("label", { for: id, t: row.instant ? "command." + row.name : labelKey(a) })));
      } else {
        if (kind === "select") {
          input = h("select", { id }, ...optionsOf(a).map(choice));
          if (a.default !== undefined && a.default !== null && a.type !== "bool") {
            input.value = optionsOf(a).some((o) => o.value === String(a.default)) ? String(a.default) : "";
          }
        }
        else if (kind === "number") input = h("input", { type: "number", id, min: a.min, max: a.max, step: 1, inputmode: "numeric" });
        else input = h("input", { type: "text", id, autocomplete: "off", spellcheck: "false", inputmode: kind === "list" ? "numeric" : "text" });
        // A default said in words rather than a value has its own words (addConsumer's proxy).
        if (a.optional && a.default !== undefined && a.default !== null && kind !== "select") {
          if (i18n.has("panel.arg." + a.name + ".placeholder")) i18n.bind(input, "panel.arg." + a.name + ".placeholder", null, "placeholder");
          else input.placeholder = String(a.default);
        }
        if (!a.optional && row.command.fill && kind === "text") i18n.bind(input, "panel.filled", null, "placeholder");
        // An optional argument without a default, left empty, is left out: the engine keeps what
        // it has (setSendMode's threads keep the producer's).
        if (a.optional && (a.default === undefined || a.default === null) && kind !== "select" && kind !== "checkbox") i18n.bind(input, "panel.unchanged", null, "placeholder");
        // A command's own label for an argument where the shared one does not fit it
        // (addTopic's topic is the new topic's name, not "empty: the first").
        const own = "panel.arg." + row.name + "." + a.name;
        fields.push(field(i18n.has(own) ? own : labelKey(a), input, i18n.has(hintKey(a)) ? hintKey(a) : null));
      }
      inputs[a.name] = input;
    }
    const btn = row.instant ? null : h("button", { type: "button", id: idOf(row.name), class: startsConsumer(row) ? "primary" : null, t: "command." + row.name });
    const go = () => {
      const values = {};
      for (const [name, input] of Object.entries(inputs)) values[name] = input.type === "checkbox" ? input.checked : input.value;
      const p = payloadOf(row, values, sec.sel ? sec.sel.value : undefined, groupSel.value);
      if (p.error) {
        showError(null, p.error.key);
        inputs[p.error.arg].focus();
        return;
      }
      // A command that started a consumer (addConsumer) selects it.
      send(p.cmd).then((r) => { if (r && r.id) selectWhenListed(consumerSel, r.id); });
    };
    if (btn) btn.addEventListener("click", go);
    else for (const input of Object.values(inputs)) input.addEventListener("change", go);
    // Lists and several arguments stack; a few short inputs share a line with the button.
    const stacked = row.args.some((a) => controlOf(a) === "list");
    if (!row.args.length) btn.dataset.row = row.name;
    const el = !row.args.length ? btn
      : stacked ? h("div", { class: "command-row", "data-row": row.name }, ...fields, btn)
      : row.instant ? h("div", { "data-row": row.name }, ...fields)
      : h("div", { class: "row end wrap", "data-row": row.name }, ...fields, btn);
    return { row, el, btn, inputs };
  }

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
      case "g": case "G": {
        // The next group, as the canvas's g key.
        const names = last && last.groups ? last.groups.map((g) => g.name) : [];
        if (names.length < 2) return;
        root.dataset.group = names[(names.indexOf(groupSel.value) + 1) % names.length];
        break;
      }
      case "?": window.lbscopeHelp(); break;
      default: return;
    }
    e.preventDefault();
  });

  // ---- State → controls ----

  // useStrategies builds the Allocation section's strategy form from the strategy table.
  function useStrategies(list) {
    i18n.add(strategyWords(list));
    strategies = strategyForm({ h, i18n, list, prefix: "", field, selected: "AVG" });
    strategies.select.setAttribute("aria-describedby", strategies.hint.id);
    strategyBox.append(field("panel.strategy", strategies.select), strategies.hint, ...strategies.fields);
    strategies.show();
  }

  // setOptions replaces a select's options when their list changed, keeping the selection.
  function setOptions(sel, items, keepFirst) {
    const key = JSON.stringify(items); // labels are in the page's language: a switch rebuilds
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

  // updateRows enables each generated row from its command's "from" and the target's status,
  // and shows in its inputs the target's values as they are now (not while one is edited).
  function updateRows(st) {
    for (const sec of Object.values(SECTIONS)) {
      const view = sec.view(st);
      const status = sec.status(view);
      for (const { row, btn, inputs } of sec.rows) {
        const on = status !== null && enabled(row.command, status);
        if (btn) btn.disabled = !on;
        for (const a of row.args) {
          const input = inputs[a.name];
          if (!btn) input.disabled = !on;
          const v = currentOf(row, a, view, sec === SECTIONS.group ? view : st);
          if (v === undefined || focused(input)) continue;
          const text = input.type === "checkbox" ? String(!!v) : shownText(v);
          if (input.dataset.shown === text) continue;
          input.dataset.shown = text;
          if (input.type === "checkbox") input.checked = !!v;
          else input.value = text;
        }
      }
    }
  }

  // The canvas's labels of the consumers (lbscope.palette().labels), asked again only when
  // the ids change: where a box reads "3 ~@4026", the list says which id 3 is.
  let labelsKey = null, labels = {};
  function consumerLabel(id) {
    const l = labels[id];
    return l && l !== id ? l.split(" ")[0] + " · " : "";
  }

  function sync() {
    if (!api) return;
    const st = store.state; // the latest the playground pushed (store.mjs)
    if (!st || st.error) return;
    last = st;
    const m = st.metrics;
    unsay(statusLine, t("panel.status", {
      clock: clock(st.timeMs), speed: speedLabel(st.speed), paused: st.paused ? t("panel.status.paused") : "",
      produced: fmt.format(m.produced), consumed: fmt.format(m.consumed),
      duplicates: fmt.format(m.duplicates), lost: fmt.format(m.lost),
    }));
    statusLine.classList.toggle("warn", m.duplicates > 0 || m.lost > 0);

    pauseBtn.textContent = t(st.paused ? "panel.play" : "panel.pause");
    pauseBtn.setAttribute("aria-pressed", String(st.paused));
    if (!focused(speedSel)) {
      if (![...speedSel.options].some((o) => Number(o.value) === st.speed)) speedSel.append(option(st.speed, speedLabel(st.speed)));
      speedSel.value = String(st.speed);
    }

    const ids = st.consumers.map((c) => c.id).join("\n");
    if (ids !== labelsKey && typeof api.palette === "function") {
      labelsKey = ids;
      labels = (api.palette() || {}).labels || {};
    }
    // The groups, and the one the canvas shows: the page's choice when the run has it, else
    // the first (as the canvas falls back).
    const groups = (st.groups || []).map((g) => g.name);
    setOptions(groupSel, groups.map((g) => [g, g]));
    if (groups.length && !focused(groupSel)) groupSel.value = groups.includes(root.dataset.group) ? root.dataset.group : groups[0];
    groupField.hidden = groups.length < 2;
    // Each process once (a member of several groups has an entry in each): its entry in the
    // chosen group where it has one.
    const procs = [...new Set(st.consumers.map((c) => c.id))];
    setOptions(consumerSel, procs.map((id) => memberOf(st, id)).map((c) => [c.id, consumerLabel(c.id) + t("panel.consumer.option", {
      id: c.id, status: i18n.has("status." + c.status) ? t("status." + c.status) : c.status, n: fmt.format(c.queues.length),
    })]));
    // The strategy's target: the group, or one of its members.
    const members = groups.length ? st.consumers.filter((c) => c.group === groupSel.value).map((c) => c.id) : procs;
    setOptions(strategyMember, members.map((id) => [id, id]), true);
    strategyMemberField.hidden = !groups.length;
    // A member's subscriptions are a run's of several topics or groups (format 2) to change.
    consumerRows.hidden = !groups.length;
    updateConsumerButtons();
    setOptions(brokerSel, st.brokers.map((b) => [b.name, b.down ? t("panel.broker.down", { name: b.name })
      : b.latencyMs ? t("panel.broker.slow", { name: b.name, ms: fmt.format(b.latencyMs) }) : b.name]));
    const proxies = st.proxies || [];
    setOptions(proxySel, proxies.map((p) => [p.name, p.down ? t("panel.proxy.down", { name: p.name })
      : t("panel.proxy.option", { name: p.name, n: fmt.format(p.clients.length) })]));
    proxySection.hidden = !proxies.length;
    setOptions(producerSel, st.producers.map((p) => [p.id, p.id]), true);
    // The strategy the target runs: the chosen member's own during a rolling deploy, else its group's.
    const gst = groupState(st);
    const member = strategyMember.value ? memberOf(st, strategyMember.value) : null;
    const runs = (member && member.strategy) || gst.strategy;
    if (strategies && !focused(strategies.select) && strategies.select.dataset.shown !== runs) {
      strategies.select.dataset.shown = runs;
      strategies.set(runs);
    }
    updateRows(st);
    showScenario(st);
  }

  // ---- The loaded scenario's name ----

  // LOADED is the Scenario control's choice for what is loaded when it is none of the presets:
  // named by it, and Load starts it again.
  const LOADED = "loaded";
  const loadedOpt = h("option", { value: LOADED, id: "preset-loaded" });

  // scenarioWords names a state's scenario in the page's language: {kind, title, desc}, kind
  // the dictionary's scenario.kind.* or "" for a scenario of its own (a link's, a file's).
  function scenarioWords(st) {
    const title = st.title || "";
    const L = i18n.lang;
    const tx = (w) => (w && (w[L] || w.en)) || "";
    if (PRESET_TITLES[title]) {
      const p = PRESET_TITLES[title];
      return { kind: "preset", preset: p, title: t("panel.title." + p), desc: t("panel.desc." + p) };
    }
    const l = listOf("lessons").find((x) => x.scenario === title);
    if (l) return { kind: "lesson", title: tx(l.title), desc: tx(l.goal) };
    const inc = listOf("incidents").find((x) => x.title && x.title.en === title);
    if (inc) return { kind: "incident", title: tx(inc.title), desc: tx(inc.text) };
    const m = /^Imported group (.+)$/.exec(title);
    if (m) return { kind: "import", title: t("scenario.imported", { group: m[1] }), desc: L === "en" ? st.description || "" : t("scenario.imported.desc") };
    return { kind: "", title: title || t("scenario.untitled"), desc: st.description || "" };
  }

  // listOf is the wasm's list of the lessons or the incidents (their titles and texts in both
  // languages), read once: they never change while the page runs.
  const lists = {};
  function listOf(name) {
    if (!lists[name] && api && typeof api[name] === "function") {
      const list = api[name]();
      if (Array.isArray(list)) lists[name] = list;
    }
    return lists[name] || [];
  }

  function showScenario(st) {
    const o = st.observed || null;
    const key = JSON.stringify([i18n.lang, st.title, st.description, o]);
    if (scenarioHead.dataset.key === key) return;
    scenarioHead.dataset.key = key;
    const w = scenarioWords(st);
    scenarioName.textContent = w.title;
    scenarioDesc.textContent = w.desc;
    scenarioDesc.title = w.desc; // the whole of a description cut to two lines
    scenarioDesc.hidden = !w.desc;
    scenarioKind.hidden = !w.kind;
    scenarioKind.textContent = w.kind ? t("scenario.kind." + w.kind) : "";
    scenarioHead.dataset.kind = w.kind;
    scenarioHead.hidden = false;
    scenarioObserved.hidden = !o;
    scenarioObserved.textContent = o ? t("scenario.observed", {
      source: o.source || t("scenario.observed.noSource"),
      zone: o.zone || t("scenario.observed.noZone"),
      start: o.start || "00:00",
    }) : "";
    scenarioObserved.title = scenarioObserved.textContent; // the whole of it, cut to two lines
    // The Scenario control shows what is loaded: a preset as itself, anything else by name.
    if (w.preset) {
      loadedOpt.remove();
      if (!focused(presetSel)) presetSel.value = w.preset;
    } else {
      loadedOpt.textContent = w.kind ? t("panel.preset.loadedKind", { kind: t("scenario.kind." + w.kind), title: w.title })
        : t("panel.preset.loaded", { title: w.title });
      if (!loadedOpt.isConnected) presetSel.prepend(loadedOpt);
      if (!focused(presetSel)) presetSel.value = LOADED;
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
        h("span", { class: "ev-time" }, clock(ev.t)), " ", ev.say || ev.text));
    }
    if (!items.length) return;
    log.append(...items);
    while (log.childElementCount > LOG_MAX) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  // ---- Start ----

  // ---- Language ----

  // index.html's own labels: the panel's landmark.
  i18n.bind(panel, "panel.label", null, "aria-label");

  i18n.onChange((lang) => {
    setFormat();
    for (const b of langBtns) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
    for (const [el, s] of said) el.textContent = t(s.key, s.params);
    for (const o of speedSel.options) o.textContent = speedLabel(Number(o.value));
    pauseBtn.textContent = t(last && last.paused ? "panel.play" : "panel.pause");
    if (!embedDialog.hidden) showEmbed();
    sync();
  });

  ready().then((lb) => {
    api = lb;
    useCommands(api.commands());
    useStrategies(api.strategies());
    controls.disabled = false;
    if (lb.linkError) showLinkError(lb.linkError);
    api.on("*", addLog);
    store.on("state", () => sync());
    store.on("frame", flushLog);
  }, (err) => {
    say(statusLine, "panel.notStarted", { error: err && err.message ? err.message : String(err) });
  });
}

mount();
