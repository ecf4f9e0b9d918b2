// tabs.js: the panel's tabs. panel.js builds the Controls tab (#panel-body); this file puts a
// tab list under the panel's head and an empty tab panel for each feature, which that
// feature's file fills:
//
//   #tab-lessons (lessons.js), #tab-charts (charts.js), #tab-compare (compare.js),
//   #tab-strategy (editor.js)
//
//   import { panelTabs } from "./tabs.js";   null until the tabs are built (after panel.js)
//   panelTabs.select(name)   show tab name ("controls", "lessons", "charts", "compare", "strategy")
//   panelTabs.current()      the tab shown
//   panelTabs.onSelect(fn)   call fn(name) whenever a tab is shown (a chart redraws only then)
//
// window.LB.tabs is the same object, for the page's tests.
//
// The tab list follows the WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs.
import { i18n } from "./i18n.js";

// panelTabs is the panel's tabs once built.
export let panelTabs = null;

function mount() {
  "use strict";

  const panel = document.getElementById("panel");
  const controls = document.getElementById("panel-body");
  const head = panel && panel.querySelector(".panel-head");
  if (!panel || !controls || !head) return;

  const NAMES = ["controls", "lessons", "charts", "compare", "strategy"];
  const list = document.createElement("div");
  list.className = "tab-list";
  list.setAttribute("role", "tablist");
  i18n.bind(list, "tabs.label", null, "aria-label");
  const tabs = {};
  const panels = { controls };
  const listeners = [];
  let current = "controls";

  for (const name of NAMES) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.id = "tab-button-" + name;
    tab.className = "tab";
    tab.setAttribute("role", "tab");
    tab.dataset.tab = name;
    i18n.bind(tab, "tabs." + name);
    tabs[name] = tab;
    list.append(tab);
    let p = panels[name];
    if (!p) {
      p = document.createElement("div");
      p.id = "tab-" + name;
      p.className = "panel-body tab-panel";
      panel.append(p);
      panels[name] = p;
    }
    p.setAttribute("role", "tabpanel");
    p.setAttribute("aria-labelledby", tab.id);
    tab.setAttribute("aria-controls", p.id);
  }
  head.after(list);

  function select(name, focus) {
    if (!panels[name]) throw new Error('tab "' + name + '": want one of ' + NAMES.join(", "));
    current = name;
    for (const n of NAMES) {
      const on = n === name;
      tabs[n].setAttribute("aria-selected", on ? "true" : "false");
      tabs[n].tabIndex = on ? 0 : -1;
      panels[n].hidden = !on;
    }
    if (focus) tabs[name].focus();
    for (const fn of listeners) {
      try {
        fn(name);
      } catch (e) {
        console.error("tabs: a listener threw", e);
      }
    }
  }

  list.addEventListener("click", (e) => {
    const tab = e.target.closest(".tab");
    if (tab) select(tab.dataset.tab, false);
  });
  list.addEventListener("keydown", (e) => {
    const i = NAMES.indexOf(current);
    let j = -1;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = (i + 1) % NAMES.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = (i + NAMES.length - 1) % NAMES.length;
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = NAMES.length - 1;
    if (j < 0) return;
    e.preventDefault();
    select(NAMES[j], true);
  });

  panelTabs = window.LB.tabs = {
    select: (name) => select(name, false),
    current: () => current,
    onSelect: (fn) => listeners.push(fn),
  };
  select("controls", false);
}

mount();
