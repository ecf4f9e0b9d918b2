// theme.js: the page's look, before anything is drawn. Loaded first, without defer, by
// index.html and embed.html: a classic script, since a module runs only after the page is
// parsed, when the page may have been painted once in the other theme.
//
//   ?theme=light|dark|auto   the page's chrome, the playground's canvas, the embed's poster and
//                            the charts; auto (the default) follows prefers-color-scheme, also
//                            when it changes while the page is open
//   ?present=1               presenter mode: the canvas's labels and marks 1.5 times as large
//                            (the p key and the panel's button toggle it)
//
// It sets <html class="theme-light|theme-dark"> for the CSS, and data-theme (the resolved
// "light" or "dark") and data-present ("1") for the wasm, which reads them with the stage.
//
//   LB.look.theme            "light" or "dark", as drawn now
//   LB.look.present          presenter mode on?
//   LB.look.setPresent(on)   switch presenter mode (window.lbscopePresent() toggles it: the
//                            canvas's p key calls it)
//   LB.look.onChange(fn)     fn({theme, present}) after either changes
(function () {
  "use strict";

  const root = document.documentElement;
  const params = new URLSearchParams(window.location.search);
  const asked = ["light", "dark", "auto"].includes(params.get("theme")) ? params.get("theme") : "auto";
  const dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const listeners = [];

  function resolved() {
    if (asked !== "auto") return asked;
    return dark && dark.matches ? "dark" : "light";
  }

  function changed() {
    for (const fn of listeners) {
      try {
        fn({ theme: look.theme, present: look.present });
      } catch (e) {
        console.error("theme: a listener failed", e);
      }
    }
  }

  function apply() {
    const t = resolved();
    root.classList.toggle("theme-light", t === "light");
    root.classList.toggle("theme-dark", t === "dark");
    root.dataset.theme = t;
  }

  const look = {
    asked,
    get theme() {
      return root.dataset.theme;
    },
    get present() {
      return root.dataset.present === "1";
    },
    setPresent(on) {
      if (on === look.present) return;
      if (on) root.dataset.present = "1";
      else delete root.dataset.present;
      changed();
    },
    onChange(fn) {
      listeners.push(fn);
    },
  };

  apply();
  look.setPresent(params.get("present") === "1");
  if (dark && asked === "auto") {
    const follow = () => {
      apply();
      changed();
    };
    if (dark.addEventListener) dark.addEventListener("change", follow);
    else if (dark.addListener) dark.addListener(follow);
  }
  window.LB = window.LB || {};
  window.LB.look = look;
  window.lbscopePresent = () => look.setPresent(!look.present);
})();
