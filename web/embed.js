// embed.js: the embeddable playground (embed.html). Until the reader presses play it shows a
// poster, an SVG picture of the scenario drawn here from its shape, and loads nothing else;
// play (or ?autoplay=1, or a message from an allowed host) adds the playground's styles and
// scripts, whose loader.js downloads and starts the wasm.
//
// URL options
//   #s=1.…               a share link: its scenario, opened at its moment
//   preset=NAME          small, default or large (when there is no #s=)
//   controls=full|min|none   the whole playground (panel with its tabs — lessons, charts,
//                        compare — and the timeline), a slim bar (play/pause, step, speed),
//                        or nothing
//   lesson=ID            with controls=full: open that guided lesson (lessons.js reads it)
//   speed=X              0.25…100, set once the simulation runs
//   autoplay=1           load at once and play, without the poster
//   theme=light|dark|auto  the chrome, the poster and the canvas (theme.js; auto: the system's)
//   present=1            presenter mode: the canvas's labels and marks 1.5 times as large
//   lang=en|zh           the language of the poster, the slim bar and the playground (which
//                        reads the same parameter through i18n.js); without it the browser's
//                        preference, as on the playground's own page
//   origins=A,B          exact origins (https://example.org) allowed to drive it by postMessage
//
// postMessage, version 1. The host sends {lbscope: 1, id, type, …}:
//   play, pause, step {ms = 1000}, seek {ms}, load {preset | scenario | link},
//   dispatch {command}, getState
// and gets {lbscope: 1, re: id, ok: true, state?} (state for getState) or
// {lbscope: 1, re: id, error: "…"}, posted back to its origin. A message from an origin not in
// origins= is ignored: no answer, no effect. Events go out to the allowed host as
// {lbscope: 1, event: "rebalance" | "isolation" | "action", data}. A message from an allowed
// host starts the simulation if the reader has not yet.
//
// This page must work in a third-party frame whose storage is blocked: nothing here uses
// storage, and the lessons keep progress only where the browser allows it.
//
// A module: it reads share links with link.mjs, and the canvas's colours (Go's, which
// lbscope build puts in the page), the readiness, the store, the clock and the speed steps
// with store.mjs.
import { linkShape } from "./link.mjs";
import { store, ready, clock, SPEEDS, look } from "./store.mjs";
import { pickLang } from "./i18n.js";

function mount() {
  "use strict";

  const VERSION = 1;
  const PRESETS = {
    small: { title: "small", brokers: 2, queues: 4, consumers: 3 },
    default: { title: "default", brokers: 4, queues: 8, consumers: 4 },
    large: { title: "large", brokers: 16, queues: 16, consumers: 64 },
  };
  const SVGNS = "http://www.w3.org/2000/svg";
  const MESSAGE_TYPES = ["play", "pause", "step", "seek", "load", "dispatch", "getState"];
  const EVENTS = ["rebalance", "isolation", "action"];

  const params = new URLSearchParams(location.search);
  const root = document.documentElement;
  const opt = {
    controls: ["full", "min", "none"].includes(params.get("controls")) ? params.get("controls") : "full",
    theme: params.get("theme"),
    lang: params.get("lang"),
    speed: Number(params.get("speed")),
    autoplay: params.get("autoplay") === "1" || params.get("autoplay") === "true",
    preset: params.get("preset"),
    link: location.hash.startsWith("#s=") ? location.hash : "",
    origins: (params.get("origins") || "").split(",").map((s) => s.trim()).filter(Boolean),
  };

  root.classList.remove("no-js");
  root.classList.add("controls-" + opt.controls);
  // The same choice as i18n.js: lang=, else the browser's first en-* or zh-* preference.
  const lang = pickLang(location.search, navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"]);
  // The poster's and the slim bar's words, from the page's dictionary (words.js, which
  // embed.html loads first): the same as the panel's where they say the same.
  const words = (window.LB && window.LB.words && window.LB.words[lang]) || {};
  const w = (key) => (words[key] === undefined ? key : words[key]);
  const S = {
    small: w("panel.title.small"), default: w("panel.title.default"), large: w("panel.title.large"), shared: w("poster.shared"),
    title: w("poster.title"), play: w("poster.play"), sub: w("poster.sub"),
    controls: w("panel.label"), pause: w("panel.pause"), resume: w("panel.play"), step: w("panel.step"),
    stepTitle: w("poster.stepTitle"), speed: w("panel.speed"), paused: w("panel.status.paused"), dismiss: w("panel.dismiss"),
  };
  root.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = S.title;
  document.getElementById("poster-play").setAttribute("aria-label", S.play);
  document.querySelector(".poster-sub").textContent = S.sub;
  document.getElementById("panel").setAttribute("aria-label", S.controls);

  // ---- The poster ----

  const poster = document.getElementById("poster");
  const playBtn = document.getElementById("poster-play");
  const titleEl = document.getElementById("poster-title");

  function svg(tag, attrs, parent) {
    const el = document.createElementNS(SVGNS, tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  }

  // drawPoster pictures a scenario settled under AVG: brokers as columns of queue cells, each
  // coloured by the consumer that takes it, consumers along the bottom.
  function drawPoster(shape) {
    if (!poster.isConnected) return; // the playground replaced it before a link's shape came
    const L = look(root.dataset.theme), PALETTE = L.palette; // the canvas's (wasm/view's), from Go
    const W = 1280, H = 720;
    const pic = svg("svg", { viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "xMidYMid meet" });
    svg("rect", { width: W, height: H, fill: L.background }, pic);
    const brokers = shape.brokers.slice(0, 64);
    const consumers = shape.consumers.slice(0, 128);
    const total = brokers.reduce((n, b) => n + b.queues, 0);
    const colW = Math.min(120, (W - 80) / Math.max(brokers.length, 1));
    const maxQ = Math.max(1, ...brokers.map((b) => b.queues));
    const top = 70, areaH = 430;
    const cellH = Math.min(32, areaH / maxQ);
    const x0 = (W - colW * brokers.length) / 2;
    // AVG: consumer i of n takes a contiguous run of the queues in order.
    const n = consumers.length;
    let q = 0;
    brokers.forEach((b, bi) => {
      const x = x0 + bi * colW;
      svg("rect", { x: x + 4, y: top - 22, width: colW - 8, height: b.queues * cellH + 30, rx: 4, fill: L.panel, stroke: L.border }, pic);
      if (colW >= 60) {
        const t = svg("text", { x: x + 8, y: top - 8, fill: L.text, "font-size": 13, "font-family": "monospace" }, pic);
        t.textContent = b.name;
      }
      for (let i = 0; i < b.queues; i++, q++) {
        const owner = n ? Math.min(n - 1, Math.floor(q * n / total)) : -1;
        svg("rect", {
          x: x + 10, y: top + i * cellH + 1, width: colW - 20, height: Math.max(1, cellH - 3), rx: 2,
          fill: owner < 0 ? L.empty : PALETTE[owner % PALETTE.length], "fill-opacity": 0.85,
        }, pic);
      }
    });
    const boxW = Math.min(56, (W - 80) / Math.max(n, 1));
    const cx0 = (W - boxW * n) / 2;
    consumers.forEach((c, i) => {
      svg("rect", { x: cx0 + i * boxW + 2, y: 560, width: boxW - 4, height: 34, rx: 3, fill: L.panel, stroke: PALETTE[i % PALETTE.length], "stroke-width": 2 }, pic);
      if (boxW >= 40) {
        const t = svg("text", { x: cx0 + i * boxW + boxW / 2, y: 582, fill: L.text, "font-size": 12, "font-family": "monospace", "text-anchor": "middle" }, pic);
        t.textContent = c.id.length > 6 ? c.id.slice(0, 5) + "…" : c.id;
      }
    });
    const pictureEl = document.getElementById("poster-picture");
    pictureEl.replaceChildren(pic);
    const known = ["small", "default", "large", "shared"].includes(shape.title);
    titleEl.textContent = known ? S[shape.title] : shape.title || "LBScope";
  }

  function presetShape(name) {
    const p = PRESETS[name] || PRESETS.default;
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const brokers = [];
    for (let i = 0; i < p.brokers; i++) {
      brokers.push({ name: "broker-" + (p.brokers <= 26 ? letters[i] : String(i + 1).padStart(2, "0")), queues: p.queues });
    }
    const consumers = [];
    for (let i = 1; i <= p.consumers; i++) consumers.push({ id: "c" + i });
    return { title: p.title, brokers, consumers };
  }

  let posterShape = presetShape(opt.preset);
  drawPoster(posterShape);
  if (opt.link) {
    linkShape(opt.link).then((shape) => { if (shape) drawPoster((posterShape = shape)); }).catch(() => {});
  }
  // theme=auto follows the system while the poster shows (theme.js).
  if (window.LB && window.LB.look) window.LB.look.onChange(() => { if (poster.isConnected) drawPoster(posterShape); });

  // ---- Starting the playground ----

  let started = null;

  function addScript(entry) {
    const src = entry.src;
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      if (!entry.classic) s.type = "module";
      s.src = src;
      s.async = false; // run in the order added
      s.onload = resolve;
      s.onerror = () => reject(new Error("could not load " + src));
      document.head.appendChild(s);
    });
  }

  function addStyle(href) {
    return new Promise((resolve) => {
      const l = document.createElement("link");
      l.rel = "stylesheet";
      l.href = href;
      l.onload = resolve;
      l.onerror = resolve; // the playground works unstyled; loader.js reports real failures
      document.head.appendChild(l);
    });
  }

  // start loads the playground once; play says whether to run the clock when it is ready
  // (the reader pressed play; a shared link opens paused).
  function start(play) {
    if (started) return started;
    started = (async () => {
      const full = opt.controls === "full";
      const styles = ["style.css", "panel.css"];
      if (full) styles.push("features.css", "timeline.css", "lessons.css", "charts.css", "compare.css");
      styles.push("present.css"); // presenter mode (present=1) for the panel and the timeline
      await Promise.all(styles.map(addStyle));
      poster.remove();
      document.getElementById("app").hidden = false;
      document.getElementById("loader").hidden = false;
      if (opt.controls !== "full") document.getElementById("panel").remove();
      // index.html's scripts, from the same list (web/partials/scripts.json, which lbscope build
      // puts in the page), in its order; those of the panel and its tabs with full controls only,
      // none of the playground page's own (indexOnly).
      const list = JSON.parse(document.getElementById("lbscope-scripts").textContent);
      await Promise.all(list.filter((s) => !s.indexOnly && (full || !s.controls)).map(addScript));
      const api = await ready();
      if (opt.speed >= 0.25 && opt.speed <= 100) await api.dispatch({ type: "setSpeed", x: opt.speed });
      if (play) await api.dispatch({ type: "play" });
      if (opt.controls === "min") slimBar(api);
      if (opt.controls !== "full" && api.linkError) linkNotice(api.linkError);
      for (const kind of EVENTS) api.on(kind, (ev) => postEvent(kind, ev));
      return api;
    })();
    return started;
  }

  playBtn.addEventListener("click", () => { start(true); });
  if (opt.autoplay) start(true);

  // ---- controls=min: play/pause, step, speed and the clock ----

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }

  function slimBar(api) {
    const bar = el("div", { class: "embed-bar", role: "toolbar", "aria-label": S.controls });
    const playPause = el("button", { type: "button", id: "bar-play" }, S.pause);
    const step = el("button", { type: "button", id: "bar-step", title: S.stepTitle }, S.step);
    const speed = el("select", { id: "bar-speed", "aria-label": S.speed });
    const nf = new Intl.NumberFormat(lang === "zh" ? "zh-CN" : "en");
    for (const x of SPEEDS) speed.appendChild(el("option", { value: String(x) }, nf.format(x) + "×"));
    const time = el("span", { class: "embed-clock", role: "status" });
    bar.append(playPause, step, speed, time);
    document.getElementById("app").appendChild(bar);
    let paused = false;
    const sync = () => {
      const st = store.state; // the latest the playground pushed (store.mjs)
      if (!st || st.error) return;
      paused = st.paused;
      playPause.textContent = paused ? S.resume : S.pause;
      if (document.activeElement !== speed) speed.value = String(st.speed);
      time.textContent = clock(st.timeMs) + (paused ? S.paused : "");
    };
    playPause.addEventListener("click", () => api.dispatch({ type: paused ? "play" : "pause" }).then(sync));
    step.addEventListener("click", () => api.dispatch({ type: "step", ms: 1000 }).then(sync));
    speed.addEventListener("change", () => api.dispatch({ type: "setSpeed", x: Number(speed.value) }).then(sync));
    store.on("state", sync);
  }

  function linkNotice(text) {
    const box = el("div", { id: "link-error", class: "link-error", role: "alert" });
    const p = el("p", { id: "link-error-text" }, text);
    const close = el("button", { type: "button" }, S.dismiss);
    close.addEventListener("click", () => box.remove());
    box.append(p, close);
    document.body.appendChild(box);
  }

  // ---- postMessage ----

  // hosts are allowed origins that have written to us from the parent window: events go to
  // them, and to the parent's origin when the browser tells it (location.ancestorOrigins).
  const hosts = new Set();

  function eventOrigins() {
    const out = new Set(hosts);
    const ao = location.ancestorOrigins;
    if (ao && ao.length && opt.origins.includes(ao[0])) out.add(ao[0]);
    return out;
  }

  function postEvent(kind, data) {
    if (window.parent === window) return;
    for (const origin of eventOrigins()) {
      try {
        window.parent.postMessage({ lbscope: VERSION, event: kind, data }, origin);
      } catch (err) { /* the parent navigated away */ }
    }
  }

  async function handle(m) {
    if (!MESSAGE_TYPES.includes(m.type)) {
      throw new Error("unknown message type " + JSON.stringify(m.type) + " (types: " + MESSAGE_TYPES.join(", ") + ")");
    }
    const api = await start(false);
    let cmd;
    switch (m.type) {
      case "getState":
        return { ok: true, state: api.state() };
      case "play":
      case "pause":
        cmd = { type: m.type };
        break;
      case "step":
        cmd = { type: "step", ms: m.ms === undefined ? 1000 : m.ms };
        break;
      case "seek":
        cmd = { type: "seek", ms: m.ms };
        break;
      case "load":
        cmd = { type: "load" };
        for (const k of ["preset", "scenario", "link"]) if (m[k] !== undefined) cmd[k] = m[k];
        break;
      case "dispatch":
        cmd = m.command;
        break;
    }
    const res = await api.dispatch(cmd);
    if (res && res.error) return { error: res.error };
    return res && res.id ? { ok: true, id: res.id } : { ok: true };
  }

  window.addEventListener("message", (e) => {
    if (!opt.origins.includes(e.origin)) return; // not an allowed host: ignored, not answered
    const m = e.data;
    if (!m || typeof m !== "object" || !("lbscope" in m) || "re" in m || "event" in m) return;
    const source = e.source;
    const reply = (body) => {
      if (!source) return;
      try {
        source.postMessage(Object.assign({ lbscope: VERSION, re: m.id }, body), e.origin);
      } catch (err) { /* the sender went away */ }
    };
    if (m.lbscope !== VERSION) {
      reply({ error: "message version " + JSON.stringify(m.lbscope) + " is not supported; this LBScope speaks lbscope: " + VERSION });
      return;
    }
    if (source === window.parent) hosts.add(e.origin);
    handle(m).then(reply, (err) => reply({ error: String(err && err.message ? err.message : err) }));
  });
}

mount();
