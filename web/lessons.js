// lessons.js: guided lessons in #tab-lessons. The lessons, their steps and the checks live in
// the wasm (wasm/lesson, through lbscope.lessons / lessonStart / lessonStatus / lessonStop);
// this file shows the list and the lesson in progress, in i18n.lang, and remembers which
// lessons a learner completed (localStorage, when the browser allows it: a third-party frame
// or a privacy mode may refuse, and then nothing is remembered).
//
// ?lesson=<id> in the address opens that lesson directly (workshop links).
//
// Below the lessons, the incidents gallery: one-click reproductions of problems users
// reported (lbscope.incidents(), every entry of the registry in core/scenario), each with
// links to the reports it cites. Everything in it is built with the DOM from strings.
import { i18n } from "./i18n.js";
import { store, ready } from "./store.mjs";
import { panelTabs } from "./tabs.js";

function mount() {
  "use strict";

  const root = document.getElementById("tab-lessons");
  if (!root) return;


  // ---- Progress, kept when storage works ----
  const KEY = "lbscope.lessons.v1";
  function readProgress() {
    const p = { completed: {}, current: null };
    try {
      const raw = window.localStorage.getItem(KEY);
      const v = raw ? JSON.parse(raw) : null;
      if (v && typeof v === "object") {
        if (v.completed && typeof v.completed === "object") p.completed = v.completed;
        if (v.current && typeof v.current.id === "string") p.current = { id: v.current.id, step: Number(v.current.step) || 0 };
      }
    } catch (e) { /* storage blocked or damaged: start afresh */ }
    return p;
  }
  function writeProgress() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(progress));
    } catch (e) { /* storage blocked: progress lasts for this page only */ }
  }
  const progress = readProgress();

  // ---- Elements ----
  const announcer = document.createElement("div");
  announcer.className = "visually-hidden";
  announcer.setAttribute("role", "status");
  announcer.id = "lesson-announce";
  const view = document.createElement("div");
  view.className = "lessons";
  root.append(view, announcer);

  let lessons = [];        // from lbscope.lessons()
  let incidents = [];      // from lbscope.incidents()
  let active = null;       // id of the lesson shown (null: the list)
  let status = null;       // the last status of the active lesson the playground pushed
  let statusKey = "";
  let error = "";
  let follow = null;      // unsubscribes from the store's lesson pushes
  let api = null;

  const L = () => i18n.lang;
  const tx = (t) => (t && (t[L()] || t.en)) || "";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function button(cls, text, onClick) {
    const b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }
  function announce(text) {
    // Cleared first so that the same words said twice are read twice.
    announcer.textContent = "";
    window.setTimeout(() => { announcer.textContent = text; }, 30);
  }

  // ---- Rendering ----
  function render() {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
    view.replaceChildren(active ? lessonView() : listView());
    if (focused) {
      const again = view.querySelector('[data-focus-key="' + focused + '"]');
      if (again) again.focus();
    }
  }

  function listView() {
    const box = el("div", "lesson-index");
    box.append(el("h2", "lesson-heading", i18n.t("lessons.heading")), el("p", "lesson-intro", i18n.t("lessons.intro")));
    if (error) box.append(el("p", "lesson-error", error));
    const list = el("ul", "lesson-list");
    lessons.forEach((l, i) => {
      const li = el("li", "lesson-item");
      const b = button("lesson-open", "", () => start(l.id));
      b.dataset.lesson = l.id;
      b.dataset.focusKey = "open-" + l.id;
      const done = !!progress.completed[l.id];
      if (done) li.classList.add("completed");
      const title = el("span", "lesson-title", (i + 1) + ". " + tx(l.title));
      const tick = el("span", "lesson-tick", done ? "✓" : "");
      tick.setAttribute("aria-hidden", "true");
      b.append(tick, title);
      if (done) b.append(el("span", "visually-hidden", " (" + i18n.t("lessons.completed") + ")"));
      else if (progress.current && progress.current.id === l.id && progress.current.step > 0) {
        b.append(el("span", "lesson-progress", i18n.t("lessons.inProgress", { step: progress.current.step + 1 })));
      }
      b.append(el("span", "lesson-goal", tx(l.goal)));
      li.append(b);
      list.append(li);
    });
    box.append(list);
    if (incidents.length) box.append(incidentsView());
    return box;
  }

  // The incidents gallery: a card per incident, its title loading it, its text, and links to
  // the reports it cites.
  function incidentsView() {
    const sec = el("section", "incident-gallery");
    sec.setAttribute("aria-labelledby", "incidents-heading");
    const h = el("h2", "lesson-heading", i18n.t("incidents.heading"));
    h.id = "incidents-heading";
    sec.append(h, el("p", "lesson-intro", i18n.t("incidents.intro")));
    const list = el("ul", "lesson-list incident-list");
    for (const inc of incidents) {
      const li = el("li", "incident-item");
      li.dataset.incident = inc.name;
      const b = button("lesson-open incident-open", "", () => loadIncident(inc));
      b.dataset.incident = inc.name;
      b.dataset.focusKey = "incident-" + inc.name;
      const mark = el("span", "lesson-tick", "▶");
      mark.setAttribute("aria-hidden", "true");
      b.append(mark, el("span", "lesson-title", tx(inc.title)), el("span", "lesson-goal", tx(inc.text)));
      const cites = el("p", "incident-cites");
      cites.append(document.createTextNode(i18n.t("incidents.reported") + " "));
      (inc.cites || []).forEach((c, i) => {
        if (i > 0) cites.append(document.createTextNode(", "));
        const a = el("a", "incident-cite", c.label);
        // Only a GitHub page is linked; anything else is shown as text.
        if (/^https:\/\/github\.com\//.test(c.url)) {
          a.href = c.url;
          a.target = "_blank";
          a.rel = "noopener noreferrer";
        }
        cites.append(a);
      });
      li.append(b, cites);
      list.append(li);
    }
    sec.append(list);
    return sec;
  }

  async function loadIncident(inc) {
    if (!api) return;
    error = "";
    if (active) await stop();
    let res;
    try {
      res = await api.dispatch({ type: "load", preset: inc.name });
    } catch (e) {
      res = { error: e && e.message ? e.message : String(e) };
    }
    const bad = failed(res);
    if (bad) {
      error = i18n.t("incidents.error", { error: bad });
      render();
      return;
    }
    announce(i18n.t("incidents.loaded", { title: tx(inc.title) }));
    try { await api.dispatch({ type: "play" }); } catch (e) { /* it stays paused */ }
  }

  function lessonView() {
    const l = lessons.find((x) => x.id === active);
    const box = el("div", "lesson-view");
    const bar = el("div", "lesson-bar");
    const back = button("lesson-back", i18n.t("lessons.back"), stop);
    back.dataset.focusKey = "back";
    const restart = button("lesson-restart", i18n.t("lessons.restart"), () => start(active));
    restart.dataset.focusKey = "restart";
    bar.append(back, restart);
    box.append(bar);
    if (!l) return box;
    const h = el("h2", "lesson-heading", tx(l.title));
    h.tabIndex = -1;
    h.id = "lesson-title";
    box.append(h);
    const goal = el("p", "lesson-goal");
    goal.append(el("strong", "", i18n.t("lessons.goal") + ": "), document.createTextNode(tx(l.goal)));
    box.append(goal);
    if (error) box.append(el("p", "lesson-error", error));
    if (!status) {
      box.append(el("p", "lesson-loading", i18n.t("lessons.loading")));
      return box;
    }
    const steps = el("ol", "lesson-steps");
    status.steps.forEach((s, i) => {
      const li = el("li", "lesson-step");
      const current = !status.done && i === status.step;
      if (s.done) li.classList.add("done");
      if (current) {
        li.classList.add("current");
        li.setAttribute("aria-current", "step");
      }
      const mark = el("span", "lesson-mark", s.done ? "✓" : String(i + 1));
      mark.setAttribute("aria-hidden", "true");
      const body = el("div", "lesson-step-body");
      const label = el("span", "visually-hidden",
        i18n.t("lessons.step", { n: i + 1, total: status.steps.length }) + ", " +
        i18n.t(s.done ? "lessons.done" : current ? "lessons.current" : "lessons.todo") + ": ");
      body.append(label, el("p", "lesson-prompt", tx(s.prompt)));
      if (current && s.speed) {
        const sp = button("lesson-speed", i18n.t("lessons.speed", { x: s.speed }), () => {
          if (api) api.dispatch({ type: "setSpeed", x: s.speed }).then(() => api.dispatch({ type: "play" }));
        });
        sp.dataset.focusKey = "speed-" + i;
        body.append(sp);
      }
      if (s.done) {
        const why = el("p", "lesson-explain");
        why.append(el("strong", "", i18n.t("lessons.why") + ": "), document.createTextNode(tx(s.explain)));
        body.append(why);
      }
      li.append(mark, body);
      steps.append(li);
    });
    box.append(steps);
    if (status.done) {
      const end = el("div", "lesson-complete");
      end.append(el("p", "", i18n.t("lessons.complete")));
      const idx = lessons.findIndex((x) => x.id === active);
      if (idx >= 0 && idx + 1 < lessons.length) {
        const next = button("lesson-next", i18n.t("lessons.next") + ": " + tx(lessons[idx + 1].title), () => start(lessons[idx + 1].id));
        next.dataset.focusKey = "next";
        end.append(next);
      }
      box.append(end);
    }
    return box;
  }

  // ---- Driving the wasm ----
  function failed(res) {
    return res && typeof res === "object" && typeof res.error === "string" ? res.error : "";
  }

  async function start(id) {
    if (!api) return;
    error = "";
    const l = lessons.find((x) => x.id === id);
    if (!l) {
      error = i18n.t("lessons.unknown", { id });
      active = null;
      render();
      return;
    }
    if (l.scripted && window.LB && window.LB.starlark) {
      try {
        await window.LB.starlark.load(); // its strategy comes with its source
      } catch (e) {
        error = i18n.t("lessons.error", { error: String(e && e.message ? e.message : e) });
        render();
        return;
      }
    }
    const res = await Promise.resolve(api.lessonStart({ id }));
    const bad = failed(res);
    if (bad) {
      error = i18n.t("lessons.error", { error: bad });
      render();
      return;
    }
    active = id;
    status = null;
    statusKey = "";
    progress.current = { id, step: 0 };
    writeProgress();
    render();
    const h = document.getElementById("lesson-title");
    if (h) h.focus();
    announce(i18n.t("lessons.started", { title: tx(l.title) }));
    try { await api.dispatch({ type: "play" }); } catch (e) { /* the lesson runs paused */ }
    startPolling();
  }

  async function stop() {
    stopPolling();
    if (api) await Promise.resolve(api.lessonStop());
    active = null;
    status = null;
    error = "";
    render();
    const b = view.querySelector('[data-focus-key="open-' + (progress.current ? progress.current.id : "") + '"]') || view.querySelector(".lesson-open");
    if (b) b.focus();
  }

  // The lesson's status comes with the frames the playground pushes (store.mjs), when it
  // changes.
  function startPolling() {
    stopPolling();
    follow = store.on("lesson", refresh);
    refresh(api.lessonStatus()); // now, not the store's: it may still hold an earlier run
  }
  function stopPolling() {
    if (follow) follow();
    follow = null;
  }

  function refresh(s) {
    if (!api || !active) return;
    if (failed(s) || !s || s.id !== active) return;
    const key = JSON.stringify([s.step, s.done]);
    if (key === statusKey) return;
    const before = status;
    status = s;
    statusKey = key;
    if (before) {
      for (let i = 0; i < s.steps.length; i++) {
        if (s.steps[i].done && !before.steps[i].done) {
          announce(s.done ? i18n.t("lessons.lessonDone", { title: tx(lessons.find((x) => x.id === active).title) })
            : i18n.t("lessons.stepDone", { n: i + 1, prompt: tx(s.steps[i].prompt) }));
        }
      }
    }
    progress.current = { id: active, step: s.step };
    if (s.done) {
      progress.completed[active] = true;
      stopPolling();
    }
    writeProgress();
    render();
  }

  i18n.onChange(render);
  render();

  ready().then((lb) => {
    api = lb;
    const list = lb.lessons();
    lessons = Array.isArray(list) ? list : [];
    const inc = typeof lb.incidents === "function" ? lb.incidents() : [];
    incidents = Array.isArray(inc) ? inc : [];
    render();
    let wanted = null;
    try { wanted = new URLSearchParams(window.location.search).get("lesson"); } catch (e) { /* no query */ }
    if (wanted) {
      if (panelTabs) panelTabs.select("lessons");
      if (lessons.some((l) => l.id === wanted)) start(wanted);
      else {
        error = i18n.t("lessons.unknown", { id: wanted });
        render();
      }
    }
  }).catch(() => { /* the loader shows the failure */ });
}

mount();
