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
import { posterLayout, consumerLabel, textWidth, PRESENT_ZOOM } from "./poster.mjs";

function mount() {
  "use strict";

  const VERSION = 1;
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

  // posterStage is where the canvas will be once the playground runs, in CSS pixels of the
  // page: the whole frame without controls, above the slim bar with controls=min (its height,
  // BAR_H, is embed.css's), and with the full panel the whole frame too (the panel and the
  // timeline then take their room: the picture is the same scenario, laid out a little larger).
  const BAR_H = 43;
  function posterStage() {
    const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
    return { w, h: opt.controls === "min" ? Math.max(0, h - BAR_H) : h };
  }

  // avgOwners is who takes each queue once the group settles under AVG (spec §4.1): the
  // consumers by id, the queues by broker and id, each consumer a contiguous run. It returns
  // the owner's id by queue name.
  function avgOwners(shape) {
    const cids = shape.consumers.map((c) => c.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const qs = [];
    for (const b of [...shape.brokers].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      for (let q = 0; q < b.queues; q++) qs.push(b.name + ":" + q);
    }
    const owner = {};
    const n = cids.length, total = qs.length;
    if (!n) return owner;
    const mod = total % n;
    cids.forEach((id, k) => {
      const size = total <= n ? 1 : mod > 0 && k < mod ? Math.floor(total / n) + 1 : Math.floor(total / n);
      const start = mod > 0 && k < mod ? k * size : k * size + mod;
      for (let i = start; i < Math.min(start + size, total); i++) owner[qs[i]] = id;
    });
    return owner;
  }

  // The canvas's font, as near as the page has it (the canvas draws WenQuanYi Micro Hei, whose
  // Latin is Droid Sans), at its em.
  const FONT = { "font-family": "'WenQuanYi Micro Hei', 'Droid Sans', 'Noto Sans', 'DejaVu Sans', sans-serif", "font-size": 12 };

  // inkOn is black or white, whichever reads better on the colour hex (the canvas's inkOn).
  function inkOn(hex) {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    const l = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#111111" : "#ffffff";
  }

  // drawPoster pictures a scenario settled under AVG where and as the canvas will draw it
  // (poster.mjs lays it out as wasm/view does): brokers as blocks of queue cells, each cell in
  // the colour of the consumer that takes it, producers above, consumers along the bottom.
  function drawPoster(shape) {
    if (!poster.isConnected) return; // the playground replaced it before a link's shape came
    const L = look(root.dataset.theme), PALETTE = L.palette; // the canvas's (wasm/view's), from Go
    const stage = posterStage();
    const zoom = root.dataset.present === "1" ? PRESENT_ZOOM : 1;
    const lay = posterLayout(shape, stage.w, stage.h, posters.text || {}, lang, zoom);
    const W = stage.w / zoom, H = stage.h / zoom;
    const pic = svg("svg", { viewBox: "0 0 " + W + " " + H, width: stage.w, height: stage.h, preserveAspectRatio: "xMinYMin meet" });
    svg("rect", { width: W, height: H, fill: L.background }, pic);
    const text = (x, y, s, fill, attrs) => {
      const t = svg("text", Object.assign({ x, y, fill, "dominant-baseline": "hanging" }, FONT, attrs || {}), pic);
      t.textContent = s;
      return t;
    };
    for (const p of lay.producers) {
      svg("rect", { x: p.x, y: p.y, width: p.w, height: p.h, fill: L.panel, stroke: L.border, "data-producer": p.id }, pic);
      text(p.x + p.w / 2, p.y + 3, p.label, L.text, { "text-anchor": "middle" });
    }
    const owner = avgOwners(shape);
    const colour = (id) => PALETTE[lay.marks[id].index % PALETTE.length];
    for (const b of lay.brokers) {
      svg("rect", { x: b.x, y: b.y, width: b.w, height: b.h, fill: L.panel, stroke: L.border, "data-broker": b.name }, pic);
      if (b.label) text(b.x + 3, b.y + 1, b.label, L.text);
      if (b.meter) {
        // The meter as the canvas draws it before any send (card.go's drawMeter): "0%" and an
        // empty track.
        const m = b.meter, pctW = textWidth(posters.text || {}, "0%") + 4;
        let x = m.x;
        if (pctW <= m.w) {
          text(x, m.y + 1, "0%", L.text);
          x += pctW;
        }
        if (m.x + m.w - x > 2) svg("rect", { x, y: m.y + m.h / 2 - 2, width: m.x + m.w - x, height: 4, fill: L.empty }, pic);
      }
    }
    for (const c of lay.cells) {
      const id = owner[c.queue];
      const fill = id === undefined ? L.empty : colour(id);
      svg("rect", { x: c.x, y: c.y, width: c.w, height: c.h, fill, "fill-opacity": 0.85, "data-queue": c.queue }, pic);
      if (id !== undefined && lay.cellText) text(c.x + c.w / 2, c.y + (c.h - 13) / 2, lay.marks[id].label, inkOn(fill), { "text-anchor": "middle" });
    }
    for (const c of lay.consumers) {
      const fill = colour(c.id);
      svg("rect", { x: c.x, y: c.y, width: c.w, height: c.h, fill, stroke: fill, "data-consumer": c.id }, pic);
      if (lay.consumerMode !== 2) {
        const label = consumerLabel(c.id, lay.marks[c.id]);
        const room = lay.consumerMode === 1 ? c.w - 10 : c.w;
        text(c.x + room / 2, c.y + (lay.consumerMode === 1 ? 1 : 3), label, inkOn(fill), { "text-anchor": "middle", "data-label-of": c.id });
      }
    }
    const pictureEl = document.getElementById("poster-picture");
    pictureEl.replaceChildren(pic);
    titleEl.textContent = posterTitle(shape.title);
  }

  // posterTitle is a shape's title in the poster's language: a named scenario's own words
  // ({en, zh}, from the posters), a preset's or "shared" in the page's, a link's as it is.
  function posterTitle(title) {
    if (title && typeof title === "object") return String(title[lang] || title.en || "LBScope");
    if (["small", "default", "large", "shared"].includes(title)) return S[title];
    return title || "LBScope";
  }

  // The named scenarios' shapes (#lbscope-posters, which lbscope build puts in the page from
  // the scenarios themselves): {presets: {name: shape}, lessons: {id: shape}}.
  let posters = { presets: {}, lessons: {} };
  try {
    const block = document.getElementById("lbscope-posters");
    if (block) posters = JSON.parse(block.textContent);
  } catch (err) {
    console.error("embed: #lbscope-posters: " + err.message);
  }
  const own = (o, k) => o && typeof k === "string" && Object.prototype.hasOwnProperty.call(o, k);

  // firstShape is what plays first: the lesson asked for (lessons.js loads it with full
  // controls), else the preset asked for, else the default cluster.
  function firstShape() {
    const id = params.get("lesson");
    if (opt.controls === "full" && own(posters.lessons, id)) return posters.lessons[id];
    if (own(posters.presets, opt.preset)) return posters.presets[opt.preset];
    if (own(posters.presets, "default")) return posters.presets.default;
    return { title: "default", brokers: [], consumers: [] };
  }

  let posterShape = firstShape();
  drawPoster(posterShape);
  if (opt.link) {
    linkShape(opt.link).then((shape) => { if (shape) drawPoster((posterShape = shape)); }).catch(() => {});
  }
  // theme=auto follows the system while the poster shows (theme.js), and the poster follows
  // the frame's size, as the canvas does.
  if (window.LB && window.LB.look) window.LB.look.onChange(() => { if (poster.isConnected) drawPoster(posterShape); });
  window.addEventListener("resize", () => { if (poster.isConnected) drawPoster(posterShape); });

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
    if (window.LB && window.LB.starlark) {
      try {
        await window.LB.starlark.ensure(cmd); // a scenario or setStrategy with its source
      } catch (e) {
        return { error: String(e && e.message ? e.message : e) };
      }
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
