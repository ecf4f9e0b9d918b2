// Unit tests of the page's dictionary lookups (web/i18n.js), on the project's one dictionary
// (assets/words.json, in the form words.js gives the page): node --test scripts/webtest/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createDictionary, pickLang, LANGS } from "../../web/i18n.js";

// pageWords is assets/words.json ({key: {en, zh}}) as words.js holds it: {en: {key: text}, zh: {…}}.
function pageWords() {
  const src = JSON.parse(readFileSync(new URL("../../assets/words.json", import.meta.url), "utf8"));
  const out = { en: {}, zh: {} };
  for (const [key, byLang] of Object.entries(src)) {
    for (const lang of LANGS) if (byLang[lang] !== undefined) out[lang][key] = byLang[lang];
  }
  return out;
}
const words = pageWords();

test("t: a key in both languages", () => {
  assert.equal(createDictionary(words, "en").t("status.partitioned"), "cut off");
  assert.equal(createDictionary(words, "zh").t("status.partitioned"), "断网");
});

test("t: placeholders filled from params, in either language; unknown ones left as they are", () => {
  const en = createDictionary(words, "en"), zh = createDictionary(words, "zh");
  assert.equal(en.t("panel.broker.slow", { name: "broker-a", ms: 250 }), "broker-a (+250 ms)");
  assert.equal(zh.t("panel.broker.slow", { name: "broker-a", ms: 250 }), "broker-a（+250 毫秒）");
  assert.equal(en.t("a11y.more", { n: 0 }), "and 0 more", "a falsy value is still filled in");
  assert.equal(en.t("a11y.more"), "and {n} more", "without params the text is as written");
  assert.equal(en.t("a11y.more", { m: 1 }), "and {n} more");
});

test("t: a key missing in zh falls back to English; one missing everywhere shows the key and warns once", (t) => {
  const warnings = [];
  t.mock.method(console, "warn", (msg) => warnings.push(msg));
  const d = createDictionary({ en: { "only.en": "English only", "both": "both" }, zh: { "both": "两者" } }, "zh");
  assert.equal(d.t("both"), "两者");
  assert.equal(d.t("only.en"), "English only");
  assert.equal(d.t("no.such.key"), "no.such.key");
  assert.equal(d.t("no.such.key", { x: 1 }), "no.such.key");
  assert.deepEqual(warnings, ["i18n: no text for no.such.key"]);
  assert.equal(d.has("only.en"), true);
  assert.equal(d.has("no.such.key"), false);
});

test("use: switches the language of later lookups; an unknown language is an error that names the choices", () => {
  const d = createDictionary(words, "en");
  assert.equal(d.t("status.killed"), "killed");
  d.use("zh");
  assert.equal(d.lang, "zh");
  assert.equal(d.t("status.killed"), "已终止");
  assert.throws(() => d.use("fr"), /language "fr": want "en" or "zh"/);
  assert.equal(d.lang, "zh", "a refused switch keeps the language");
  d.use("en");
  assert.equal(d.t("status.killed"), "killed");
  assert.equal(createDictionary(words, "fr").lang, "en", "an unknown starting language is English");
});

test("pickLang: ?lang= first, then the browser's first en-* or zh-* preference, else English", () => {
  assert.equal(pickLang("?lang=zh", ["en-US"]), "zh");
  assert.equal(pickLang("?x=1&lang=en", ["zh-CN"]), "en");
  assert.equal(pickLang("?lang=fr", ["zh-TW", "en"]), "zh", "an unknown lang= is ignored");
  assert.equal(pickLang("", ["de-DE", "EN-gb"]), "en");
  assert.equal(pickLang("", ["de", "fr"]), "en");
  assert.equal(pickLang("", []), "en");
});

test("the dictionary has every key in both languages", () => {
  const missing = Object.keys(words.en).filter((k) => words.zh[k] === undefined);
  assert.deepEqual(missing, []);
});
