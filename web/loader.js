// loader.js downloads lbscope.wasm with a progress bar, starts it with Go's wasm_exec.js and
// turns every way it can fail into a message with a Reload button.
//
// It is a classic script written in ES5 (no arrow functions, no async, no module) on purpose:
// a browser too old for WebAssembly must still parse and run this file to show the message
// that says so. Its words ("loader."
// keys) come from the page's dictionary, words.js (LB.words, plain data that any browser
// reads), not through i18n.js (an ES2020 module): it takes the language from LB.i18n when that
// loaded, and otherwise chooses it the same way (?lang=en|zh, else the browser's first zh-* or
// en-* preference, else English). It also puts index.html's static texts (the loader card, the
// title) in that language.
//
// State for tests and other scripts:
//   window.lbscopeLoader = {progress: 0..1, done: bool, error: string|null}
//     done turns true when the wasm starts; error holds the first failure, even a later one.
//   window.lbscopeFatal(message) shows the error box; the Go program calls it on a panic.
//   window.lbscopeArgText(value, limit, textIsJSON) is how every lbscope.* argument becomes
//     JSON before it reaches Go: {text} or {error}, for the Go program (wasm/values_js.go).
//   Events on window: "lbscope:started" before go.run, "lbscope:error" (detail: message).
(function () {
  "use strict";

  var WASM = "lbscope.wasm";
  var MANIFEST = "build.json";

  // The page's dictionary (words.js), by language; a page without it shows the keys.
  var WORDS = (window.LB && window.LB.words) || { en: {}, zh: {} };

  // pickLang mirrors i18n.js's choice for a browser that could not run i18n.js.
  function pickLang() {
    var m = /[?&]lang=(en|zh)(&|$)/.exec(window.location.search);
    if (m) return m[1];
    var prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (var i = 0; i < prefs.length; i++) {
      var base = String(prefs[i]).toLowerCase().split("-")[0];
      if (base === "en" || base === "zh") return base;
    }
    return "en";
  }

  var i18n = window.LB && window.LB.i18n;
  function lang() {
    return i18n && WORDS[i18n.lang] ? i18n.lang : fallbackLang;
  }
  var fallbackLang = pickLang();

  // s is key's string in the page's language (English when that lacks it), {0}, {1}, …
  // replaced by the arguments after the key.
  function s(key) {
    var text = WORDS[lang()][key];
    if (text === undefined) text = WORDS.en[key];
    if (text === undefined) text = key;
    var args = arguments;
    return text.replace(/\{(\d)\}/g, function (m, i) { return String(args[+i + 1]); });
  }

  var NO_WASM = s("loader.noWasm");
  var STOPPED = s("loader.stopped");

  var state = { progress: 0, done: false, error: null };
  window.lbscopeLoader = state;

  var root = document.documentElement;
  root.className = root.className.replace(/(^|\s)no-js(\s|$)/, " ").replace(/^\s+|\s+$/g, "");

  var loader = document.getElementById("loader");
  var bar = document.getElementById("loader-progress");
  var fill = document.getElementById("loader-fill");
  var statusText = document.getElementById("loader-status");
  var errorBox = document.getElementById("loader-error");
  var errorText = document.getElementById("loader-error-text");
  var reload = document.getElementById("loader-reload");

  reload.addEventListener("click", function () { window.location.reload(); });

  // The page's static texts in its language, again after a switch. The status line's current
  // message is redrawn from the function that last wrote it.
  var tagline = loader.querySelector(".loader-tagline");
  var statusNow = null;
  function setStatus(fn) {
    statusNow = fn;
    statusText.textContent = fn();
  }
  function staticTexts() {
    var l = lang();
    if (!i18n) document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
    document.title = s("loader.title");
    if (tagline) tagline.textContent = s("loader.tagline");
    bar.setAttribute("aria-label", s("loader.progressLabel"));
    reload.textContent = s("loader.reload");
    if (statusNow) statusText.textContent = statusNow();
    else statusText.textContent = s("panel.loading");
  }
  staticTexts();
  if (i18n && typeof i18n.onChange === "function") i18n.onChange(staticTexts);

  function emit(name, detail) {
    var ev;
    try {
      ev = new CustomEvent(name, { detail: detail });
    } catch (e) {
      return; // no CustomEvent constructor: nobody modern is listening
    }
    window.dispatchEvent(ev);
  }

  function size(n) {
    return n < 1e6 ? Math.max(1, Math.round(n / 1e3)) + " kB" : (n / 1e6).toFixed(1) + " MB";
  }

  function describe(err) {
    if (!err) return s("loader.unknown");
    if (err.name && err.message) return err.name + ": " + err.message;
    return String(err.message || err);
  }

  // problem marks an error whose message is already written for the reader.
  function problem(message) {
    var err = new Error(message);
    err.lbscope = true;
    return err;
  }

  function showProgress(loaded, total) {
    if (total > 0) {
      var p = Math.min(loaded / total, 1);
      state.progress = p;
      bar.className = "loader-bar";
      bar.setAttribute("aria-valuenow", String(Math.round(p * 100)));
      bar.setAttribute("aria-valuetext", s("loader.of", size(Math.min(loaded, total)), size(total)));
      fill.style.transform = "scaleX(" + p + ")";
      setStatus(function () { return s("loader.downloading", s("loader.of", size(Math.min(loaded, total)), size(total))); });
    } else {
      // The size is unknown: an indeterminate bar, and no aria-valuenow (ARIA's way to say so).
      bar.className = "loader-bar indeterminate";
      bar.removeAttribute("aria-valuenow");
      bar.setAttribute("aria-valuetext", s("loader.downloadedSize", size(loaded)));
      setStatus(function () { return s("loader.downloading", size(loaded)); });
    }
  }

  function fail(message) {
    if (state.error !== null) return; // the first failure explains the rest
    state.error = message;
    errorText.textContent = message;
    errorBox.hidden = false;
    bar.hidden = true;
    statusText.hidden = true;
    // After a start the loader is out of the page: it comes back over the stopped canvas.
    loader.className = state.done ? "failed" : "";
    if (!loader.parentNode) document.body.appendChild(loader);
    reload.focus();
    emit("lbscope:error", message);
  }

  // lbscopeArgText turns a page's argument into JSON text with the page's own JSON.stringify,
  // and refuses, in JavaScript's words and before any of it reaches Go, what cannot become JSON
  // (a cycle, a BigInt, a getter or toJSON that throws) and what is over limit — {chars, depth,
  // string}, which the Go program passes from its one set of limits (lbscope.limits()): the
  // text's length, how deeply arrays and objects nest, the longest string. A string is a JSON
  // string, unless textIsJSON: then it is the JSON text itself (dispatch('{"type": "pause"}')).
  window.lbscopeArgText = function (value, limit, textIsJSON) {
    var text;
    try {
      text = typeof value === "string" && textIsJSON ? value : JSON.stringify(value);
    } catch (e) {
      var why = "an exception";
      try { why = String(e && e.message !== undefined ? e.message : e).split("\n")[0].slice(0, 200); } catch (e2) { /* a hostile message */ }
      return { error: "the argument cannot become JSON: " + why };
    }
    if (typeof text !== "string") return { error: "the argument is a " + typeof value + ", which JSON cannot hold" };
    if (text.length > limit.chars) {
      return { error: "the argument is " + text.length + " characters of JSON; at most " + limit.chars };
    }
    // One pass over the text: nesting depth and string lengths (in JSON characters).
    var depth = 0, inString = false, start = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (inString) {
        if (c === 92) i++; // a backslash escapes the next character
        else if (c === 34) {
          inString = false;
          if (i - start > limit.string) {
            return { error: "the argument holds a string of " + (i - start) + " characters; at most " + limit.string };
          }
        }
      } else if (c === 34) {
        inString = true;
        start = i + 1;
      } else if (c === 91 || c === 123) {
        if (++depth > limit.depth) return { error: "the argument nests deeper than " + limit.depth + " levels of arrays and objects" };
      } else if (c === 93 || c === 125) {
        depth--;
      }
    }
    if (inString && text.length - start > limit.string) {
      return { error: "the argument holds a string of " + (text.length - start) + " characters; at most " + limit.string };
    }
    return { text: text };
  };

  window.lbscopeFatal = function (message) {
    fail(message ? String(message) : STOPPED);
  };

  // decodedLength is the size the body reader will yield. lbscope serve sends it as
  // X-Decoded-Length; an uncompressed response's Content-Length is it too; otherwise (a static
  // host compressing on the fly) build.json has it. 0 means unknown.
  function decodedLength(resp) {
    var decoded = parseInt(resp.headers.get("X-Decoded-Length"), 10);
    if (decoded > 0) return Promise.resolve(decoded);
    var encoding = resp.headers.get("Content-Encoding");
    var length = parseInt(resp.headers.get("Content-Length"), 10);
    if ((!encoding || encoding === "identity") && length > 0) return Promise.resolve(length);
    return fetch(MANIFEST, { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (m) {
      var f = m && m.files && m.files[WASM];
      return f && f.decoded > 0 ? f.decoded : 0;
    }, function () { return 0; });
  }

  function downloaded() {
    state.progress = 1;
    bar.className = "loader-bar";
    bar.setAttribute("aria-valuenow", "100");
    bar.removeAttribute("aria-valuetext");
    fill.style.transform = "scaleX(1)";
    setStatus(function () { return s("loader.starting"); });
  }

  // readBody reads a response to its end, showing progress, and returns its bytes.
  function readBody(resp) {
    var total = 0;
    var loaded = 0;
    var finished = false;
    decodedLength(resp).then(function (n) {
      total = n;
      if (!finished) showProgress(loaded, total);
    }).then(null, function () {});
    showProgress(0, total);
    if (!resp.body || typeof resp.body.getReader !== "function") {
      return resp.arrayBuffer().then(function (buf) {
        finished = true;
        downloaded();
        return new Uint8Array(buf);
      });
    }
    var reader = resp.body.getReader();
    var chunks = [];
    function next() {
      return reader.read().then(function (step) {
        if (step.done) return;
        chunks.push(step.value);
        loaded += step.value.byteLength;
        showProgress(loaded, total);
        return next();
      });
    }
    return next().then(function () {
      finished = true;
      downloaded();
      var bytes = new Uint8Array(loaded);
      var at = 0;
      for (var i = 0; i < chunks.length; i++) {
        bytes.set(chunks[i], at);
        at += chunks[i].byteLength;
      }
      return bytes;
    }, function (err) {
      finished = true;
      throw problem(s("loader.brokeOff", WASM, size(loaded), describe(err)));
    });
  }

  function startProblem(err) {
    throw problem(s("loader.cannotStart", describe(err)));
  }

  // instantiate compiles the module while it downloads (instantiateStreaming, which also lets
  // the browser cache the compiled code) and counts the progress on a clone of the response.
  // Without streaming, or when it refuses the response (a static host sending another
  // Content-Type than application/wasm), it instantiates the bytes the clone read.
  function instantiate(resp, go) {
    function fromBytes(bytes) {
      return WebAssembly.instantiate(bytes, go.importObject).then(function (result) {
        return result.instance;
      }, startProblem);
    }
    if (typeof WebAssembly.instantiateStreaming !== "function" || typeof resp.clone !== "function") {
      return readBody(resp).then(fromBytes);
    }
    var counted = resp.clone();
    var streamed = WebAssembly.instantiateStreaming(resp, go.importObject).then(function (result) {
      return { instance: result.instance };
    }, function (err) {
      return { err: err };
    });
    return Promise.all([streamed, readBody(counted)]).then(function (both) {
      var s = both[0];
      if (s.instance) return s.instance;
      if (s.err && s.err.name === "TypeError") return fromBytes(both[1]);
      return startProblem(s.err);
    });
  }

  // watchGo keeps the last lines the Go program wrote to stderr, so an exit after a panic can
  // say which panic; wasm_exec.js sends Go's output through globalThis.fs.writeSync.
  function watchGo(go) {
    var tail = "";
    var decoder = typeof TextDecoder === "function" ? new TextDecoder("utf-8") : null;
    var fsys = window.fs;
    if (fsys && typeof fsys.writeSync === "function" && decoder) {
      var write = fsys.writeSync;
      fsys.writeSync = function (fd, buf) {
        if (fd === 2) tail = (tail + decoder.decode(buf)).slice(-4096);
        return write.call(fsys, fd, buf);
      };
    }
    var exitCode = null;
    var exit = go.exit;
    go.exit = function (code) {
      exitCode = code;
      return exit.call(go, code);
    };
    return function why() {
      var m = /(?:^|\n)((?:panic|fatal error): [^\n]*)/.exec(tail);
      if (m) return STOPPED + " " + m[1];
      if (exitCode) return STOPPED + " " + s("loader.exitStatus", exitCode);
      return STOPPED;
    };
  }

  function start(instance, go, why) {
    state.progress = 1;
    state.done = true;
    // The loader leaves before go.run: Ebitengine adds its canvas to <body> as it starts.
    if (loader.parentNode) loader.parentNode.removeChild(loader);
    var app = document.getElementById("app");
    if (app) app.removeAttribute("aria-busy");
    emit("lbscope:started");
    // The frame gate. Ebitengine asks for an animation frame every display frame, even
    // when the game has nothing to draw (paused: wasm/game_js.go's pace), and each one wakes
    // the wasm and the browser's frame machinery. Ebitengine keeps the requestAnimationFrame
    // it finds when its package starts, inside go.run: it gets this gated one, the page keeps
    // the browser's. While the game says idle, the frame it asks for is held until it
    // releases it (a command, input, a page change: wake in the wasm).
    var nativeRAF = window.requestAnimationFrame;
    var gate = { idle: false, parked: null };
    gate.release = function () {
      gate.idle = false;
      var cb = gate.parked;
      gate.parked = null;
      if (cb) nativeRAF.call(window, cb);
    };
    window.lbscopeFrameGate = gate;
    // Ebitengine polls navigator.getGamepads() every frame, eight or more calls from the
    // wasm to the page (Chromium lists four empty slots), about 0.3 ms of each frame on the
    // page's thread. The playground takes no gamepad input: it finds none.
    try {
      Object.defineProperty(navigator, "getGamepads", { value: function () { return []; }, configurable: true });
    } catch (e) { /* a browser that refuses keeps its own */ }
    var run;
    try {
      if (window.performance && performance.mark) performance.mark("lbscope:go-run");
      window.requestAnimationFrame = function (cb) {
        if (gate.idle) {
          gate.parked = cb;
          return 0;
        }
        return nativeRAF.call(window, cb);
      };
      run = go.run(instance);
    } catch (err) {
      window.requestAnimationFrame = nativeRAF;
      fail(s("loader.cannotStart", describe(err)));
      return;
    }
    window.requestAnimationFrame = nativeRAF;
    run.then(function () {
      fail(why());
    }, function (err) {
      fail(STOPPED + " " + describe(err));
    });
  }

  function load() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      fail(NO_WASM);
      return;
    }
    if (typeof fetch !== "function" || typeof Promise !== "function") {
      fail(s("loader.tooOld"));
      return;
    }
    if (typeof window.Go !== "function") {
      fail(s("loader.noExec"));
      return;
    }
    var go = new window.Go();
    var why = watchGo(go);
    fetch(WASM, { credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) {
        throw problem(s("loader.http", WASM, resp.status + (resp.statusText ? " " + resp.statusText : "")));
      }
      return instantiate(resp, go);
    }, function (err) {
      throw problem(s("loader.network", WASM, describe(err)));
    }).then(function (instance) {
      // A share link whose strategy comes with its source needs the interpreter's wasm
      // before the page's opens it (lazy.js); a failure there is the link's to say.
      var sl = window.LB && window.LB.starlark;
      var ready = sl ? sl.forLink(window.location.hash).then(null, function () {}) : null;
      if (!ready) {
        start(instance, go, why);
        return;
      }
      return ready.then(function () {
        start(instance, go, why);
      });
    }).then(null, function (err) {
      fail(err && err.lbscope ? err.message : s("loader.failed", describe(err)));
    });
  }

  load();
})();
