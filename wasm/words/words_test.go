package words

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/assets"
	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/cluster"
)

func TestParseRefusesAnIncompleteEntry(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a.b": {"en": "x"}}`, "a.b has no text in zh"},
		{`{"a.b": {"en": "x", "zh": ""}}`, "a.b has no text in zh"},
		{`{"a.b": {"zh": "x"}}`, "a.b has no text in en"},
		{`{"a.b": {"en": "x", "zh": "y", "fr": "z"}}`, "a.b has a language other than en and zh"},
		{`{"command.killConsumer": {"en": "x", "zh": "y"}}`, "command.killConsumer: a command's words are its entry in the command table"},
		{`{"a.b": ["x", "y"]}`, "cannot unmarshal"},
	} {
		if _, err := Parse([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s) = %v; want an error saying %q", tt.in, err, tt.want)
		}
	}
	if d, err := Parse([]byte(`{"a.b": {"en": "x", "zh": "y"}}`)); err != nil || d["a.b"][ZH] != "y" {
		t.Errorf("Parse of a complete entry: %v, %v", d, err)
	}
}

// goVerb matches a fmt verb with its explicit argument index, if any ("%d", "%[2]s", "%.1f").
var goVerb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*[\d.]*[a-zA-Z%]`)

// pageParam matches a page text's parameter ("{clock}", loader.js's "{0}").
var pageParam = regexp.MustCompile(`\{\w+\}`)

// Both languages of a key take the same arguments: the same fmt verbs for the texts Go
// formats (in order, or by explicit index), the same {names} for the page's.
func TestBothLanguagesTakeTheSameArguments(t *testing.T) {
	for _, key := range Keys() {
		en, zh := Word(EN, key), Word(ZH, key)
		if goOnly(key) {
			if a, b := verbs(en), verbs(zh); !slices.Equal(a, b) {
				t.Errorf("%s: English takes %q, Chinese %q", key, a, b)
			}
			continue
		}
		a, b := pageParam.FindAllString(en, -1), pageParam.FindAllString(zh, -1)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(slices.Compact(a), slices.Compact(b)) {
			t.Errorf("%s: English takes %q, Chinese %q", key, a, b)
		}
	}
}

// verbs are a format's verbs by argument: "%[2]s %[1]d" → ["d", "s"].
func verbs(format string) []string {
	var out []string
	next := 1
	byArg := map[int]string{}
	for _, m := range goVerb.FindAllStringSubmatch(format, -1) {
		if m[0] == "%%" {
			continue
		}
		n := next
		if m[1] != "" {
			n = int(m[1][1] - '0')
		}
		byArg[n] = m[0][len(m[0])-1:]
		next = n + 1
	}
	for i := 1; i <= len(byArg); i++ {
		out = append(out, byArg[i])
	}
	return out
}

// The Chinese texts keep no English words: identifiers, units and the product's terms aside.
func TestChineseHasNoEnglishWords(t *testing.T) {
	keep := regexp.MustCompile(`def \w+\([\w, ]*\)|%(\[\d+\])?[\d.]*[a-z]|\{\w+\}|-D[\w.]+|[a-z]+/[a-z-]+#\d+|\b(Broker|NameServer|Dashboard|Java|Topic|Tag|Starlark|Python|allocate|RocketMQ|LBScope|WebAssembly|JavaScript|Firefox|Chrome|Edge|Safari|HTTP|ID|CLUSTERING|BROADCASTING|AVG|AVG_BY_CIRCLE|CONSISTENT_HASH|CONFIG|MACHINE_ROOM|MACHINE_ROOM_NEARBY|consumeRate|consumeridcs|current|legacy-4x|wasm_exec\.js|lbscope|jstack|Proxy|POP|Space|Esc|Ctrl\+C|x2|ms|msg|mod|mqadmin|[a-z]+-[a-z0-9]+|[a-z]+@[a-z]+|[a-z0-9-]+\.[a-z0-9.-]+|[A-Z]\w*[A-Z]\w*|[a-z]+[A-Z]\w*)\b`)
	word := regexp.MustCompile(`[A-Za-z]{2,}`)
	for _, key := range Keys() {
		zh := keep.ReplaceAllString(Word(ZH, key), "")
		if w := word.FindString(zh); w != "" {
			t.Errorf("%s: the Chinese %q keeps the English %q", key, Word(ZH, key), w)
		}
	}
}

// Every consumer status has its name, and every name is a status's.
func TestEveryStatusHasAName(t *testing.T) {
	statuses := []string{cluster.StatusAlive, cluster.StatusIdle, cluster.StatusKilled, cluster.StatusPartitioned,
		cluster.StatusStopped, cluster.StatusHung}
	var named []string
	for _, key := range Keys() {
		if s, ok := strings.CutPrefix(key, "status."); ok {
			named = append(named, s)
		}
	}
	slices.Sort(statuses)
	if !slices.Equal(named, statuses) {
		t.Errorf("the dictionary names the statuses %q; the engine has %q", named, statuses)
	}
}

// A command's name is its table entry's label, in every language, and the page gets it.
func TestCommandsAreNamedByTheirTable(t *testing.T) {
	for _, s := range cluster.AllCommands() {
		key := "command." + s.Name
		for _, lang := range Langs {
			if got := Word(lang, key); got != s.WordsIn(lang).Label {
				t.Errorf("Word(%s, %s) = %q; the table says %q", lang, key, got, s.WordsIn(lang).Label)
			}
			if got := Page()[lang][key]; got != s.WordsIn(lang).Label {
				t.Errorf("the page's %s %s = %q", lang, key, got)
			}
		}
	}
	if Has("command.noSuchCommand") || Has("no.such.key") {
		t.Error("Has finds a key that is not there")
	}
	for _, key := range Keys() {
		if _, ok := Page()[ZH][key]; ok == goOnly(key) {
			t.Errorf("the page's dictionary holds %s: %v", key, ok)
		}
	}
}

// readers are the source files that read each group of keys.
var readers = []struct {
	prefix string // "" for the page's keys
	globs  []string
}{
	{"canvas.", []string{"../view/*.go"}},
	{"narrate.", []string{"../narrate/*.go"}},
	{"api.", []string{"../api/*.go", "../paste/*.go"}},
	{"", []string{"../../web/*.js", "../../web/*.mjs", "../../web/*.html"}},
}

func sources(t *testing.T, globs []string) string {
	t.Helper()
	var b strings.Builder
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files %s: %v", g, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// No key is unused: each is written out, quoted, in the sources of its reader, or its
// reader builds it from a quoted prefix ("panel.hint." + name). And every key written out
// there is in the dictionary.
func TestEveryKeyIsUsedAndEveryUseIsAKey(t *testing.T) {
	for _, r := range readers {
		src := sources(t, r.globs)
		for _, key := range Keys() {
			mine := strings.HasPrefix(key, r.prefix)
			if r.prefix == "" {
				mine = !goOnly(key) && !strings.HasPrefix(key, "status.")
			}
			if !mine || used(src, key) {
				continue
			}
			t.Errorf("%s is not used by %s", key, strings.Join(r.globs, " "))
		}
		pattern := regexp.QuoteMeta(r.prefix) + `[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*`
		if r.prefix == "" {
			// The page's uses: t("key"), t: "key", "t:attr": "key", bind(el, "key", and
			// loader.js's s("key") and embed.js's w("key").
			pattern = `[a-z0-9]+(\.[A-Za-z0-9_]+)+`
		}
		uses := regexp.MustCompile(`"(` + pattern + `)"`)
		if r.prefix == "" {
			uses = regexp.MustCompile(`(?:\b[tsw]\(\s*|\bt:\s*|"t:[\w-]+":\s*|\bbind\(\w+,\s*)"(` + pattern + `)"`)
		}
		has := Has // Go's readers read Go's part, the page words.js
		if r.prefix == "" {
			page := Page()[EN]
			has = func(key string) bool { _, ok := page[key]; return ok }
		}
		for _, m := range uses.FindAllStringSubmatch(src, -1) {
			if !has(m[1]) {
				t.Errorf("%s uses %s, which the dictionary lacks", strings.Join(r.globs, " "), m[1])
			}
		}
	}
}

// The wasm carries only the words Go reads (GoPart, which the site's wasm is built with):
// every key Go reads is in it with its texts, no other key is, and the page's dictionary
// (words.js) has every other key. No Go source of the playground names a key of the page's
// only, written out or as a prefix ("panel.title." + name): the wasm would not find it.
func TestGoPartIsWhatGoReads(t *testing.T) {
	data, err := GoPart(assets.Words)
	if err != nil {
		t.Fatal(err)
	}
	part, err := Parse(data)
	if err != nil {
		t.Fatalf("GoPart does not parse: %v", err)
	}
	page := Page()
	for _, key := range Keys() {
		if e, ok := part[key]; ok != (goReads(key) && !pasteReads(key)) {
			t.Errorf("GoPart holds %s: %v", key, ok)
		} else if ok && (e[EN] != table[key][EN] || e[ZH] != table[key][ZH]) {
			t.Errorf("GoPart's %s = %v; the dictionary's %v", key, e, table[key])
		}
		for _, lang := range Langs {
			if got, ok := page[lang][key]; ok == goOnly(key) || (ok && got != table[key][lang]) {
				t.Errorf("the page's %s %s = %q (%v)", lang, key, got, ok)
			}
		}
	}
	if len(part) == 0 || len(part) == len(table) {
		t.Errorf("GoPart holds %d of the %d keys", len(part), len(table))
	}
	for _, key := range []string{"canvas.legend.button", "narrate.rebalanced", "api.lesson.step", "status.alive"} {
		if _, ok := part[key]; !ok {
			t.Errorf("GoPart lacks %s", key)
		}
	}
	if _, ok := part["panel.pause"]; ok {
		t.Error("GoPart holds the page's panel.pause")
	}
	pageOnly := func(key string) bool {
		_, ok := page[EN][key]
		return ok && !goReads(key) && !strings.HasPrefix(key, "command.")
	}
	src := sources(t, []string{"../*.go", "../*/*.go"})
	for _, m := range regexp.MustCompile(`"([a-z0-9]+(\.[A-Za-z0-9_]+)+)"`).FindAllStringSubmatch(src, -1) {
		if pageOnly(m[1]) {
			t.Errorf("a Go source of the playground reads the page's %s", m[1])
		}
	}
	for _, m := range prefixUse.FindAllStringSubmatch(src, -1) {
		for _, key := range Keys() {
			if strings.HasPrefix(key, m[1]) && pageOnly(key) {
				t.Errorf("a Go source of the playground builds the page's key %s from %q", key, m[1])
				break
			}
		}
	}
}

// The reader of pastes carries its own words (PastePart, which diagnose.wasm is built with)
// and the playground's wasm does not (GoPart): every key of the reader is in PastePart with its
// texts, no other key is; the reader's Go (wasm/paste) names no other key Go reads, and no
// other Go source of the playground names one of the reader's, written out or as a prefix:
// one wasm would not find it.
func TestPastePartIsWhatTheReaderReads(t *testing.T) {
	data, err := PastePart(assets.Words)
	if err != nil {
		t.Fatal(err)
	}
	part, err := Parse(data)
	if err != nil {
		t.Fatalf("PastePart does not parse: %v", err)
	}
	for _, key := range Keys() {
		if e, ok := part[key]; ok != pasteReads(key) {
			t.Errorf("PastePart holds %s: %v", key, ok)
		} else if ok && (e[EN] != table[key][EN] || e[ZH] != table[key][ZH]) {
			t.Errorf("PastePart's %s = %v; the dictionary's %v", key, e, table[key])
		}
	}
	for _, key := range []string{"api.diagnose.nothing", "api.finding.and", "api.said.missing.members", "api.field.queues.name"} {
		if _, ok := part[key]; !ok {
			t.Errorf("PastePart lacks %s", key)
		}
	}
	if _, ok := part["api.lesson.step"]; ok {
		t.Error("PastePart holds the playground's api.lesson.step")
	}
	named := func(src string) []string { // the keys src writes out and the prefixes it builds keys from
		var out []string
		for _, m := range regexp.MustCompile(`"([a-z0-9]+(\.[A-Za-z0-9_]+)+)"`).FindAllStringSubmatch(src, -1) {
			out = append(out, m[1])
		}
		for _, m := range prefixUse.FindAllStringSubmatch(src, -1) {
			out = append(out, m[1])
		}
		return out
	}
	reader := sources(t, []string{"../paste/*.go"})
	var uses int
	for _, name := range named(reader) {
		for _, key := range Keys() {
			if key == name || strings.HasPrefix(key, name) && strings.HasSuffix(name, ".") {
				if goReads(key) && !pasteReads(key) {
					t.Errorf("the reader of pastes reads the playground's %s (%q)", key, name)
					break
				}
				uses++
			}
		}
	}
	if uses == 0 {
		t.Error("found no key that wasm/paste reads")
	}
	globs, _ := filepath.Glob("../*")
	var others []string
	for _, g := range append(globs, "..") {
		if fi, err := os.Stat(g); err == nil && fi.IsDir() && filepath.Base(g) != "paste" && filepath.Base(g) != "diagnose" {
			if files, _ := filepath.Glob(filepath.Join(g, "*.go")); len(files) > 0 {
				others = append(others, filepath.Join(g, "*.go"))
			}
		}
	}
	for _, name := range named(sources(t, others)) {
		for _, key := range Keys() {
			if (key == name || strings.HasPrefix(key, name) && strings.HasSuffix(name, ".")) && pasteReads(key) {
				t.Errorf("a Go source of the playground reads the reader of pastes' %s (%q)", key, name)
				break
			}
		}
	}
}

// used says whether src writes key out, quoted, or a quoted prefix of it followed by +
// ("charts.export" + k).
func used(src, key string) bool {
	for _, q := range []string{`"`, `'`} {
		if strings.Contains(src, q+key+q) {
			return true
		}
	}
	for _, m := range prefixUse.FindAllStringSubmatch(src, -1) {
		if strings.HasPrefix(key, m[1]) {
			return true
		}
	}
	return false
}

var prefixUse = regexp.MustCompile(`["']([a-z0-9]+\.[A-Za-z0-9_.]*)["']\s*\+`)

// The diagnosis's findings are worded by the dictionary: each variant core/admin words has
// its title and fix here, the English exactly core/admin's (the verbs of both languages are
// held together by TestBothLanguagesTakeTheSameArguments), every code has its words, and no
// finding key is left without a variant.
func TestFindingWordsAreTheDiagnosis(t *testing.T) {
	for variant, w := range admin.FindingWords {
		for part, want := range map[string]string{"title": w.Title, "fix": w.Fix} {
			key := "api.finding." + variant + "." + part
			if !Has(key) {
				t.Errorf("the dictionary lacks %s", key)
				continue
			}
			if got := Word(EN, key); got != want {
				t.Errorf("%s: the dictionary says %q; core/admin %q", key, got, want)
			}
		}
	}
	for _, code := range admin.Codes {
		if _, ok := admin.FindingWords[code]; !ok {
			t.Errorf("the finding code %s has no words", code)
		}
	}
	for _, key := range Keys() {
		rest, ok := strings.CutPrefix(key, "api.finding.")
		if !ok || rest == "and" {
			continue
		}
		variant := rest[:strings.LastIndex(rest, ".")]
		if _, ok := admin.FindingWords[variant]; !ok {
			t.Errorf("%s: core/admin has no finding %s", key, variant)
		}
	}
}

// What the diagnosis says besides its findings is worded by the dictionary too: each sentence
// core/admin says has its words here, the English exactly core/admin's, no such key is left
// without a sentence, and every field a sentence points at has the page's words for it.
func TestSaidWordsAreTheDiagnosis(t *testing.T) {
	for key, want := range admin.Words {
		k := "api.said." + key
		if !Has(k) {
			t.Errorf("the dictionary lacks %s", k)
			continue
		}
		if got := Word(EN, k); got != want {
			t.Errorf("%s: the dictionary says %q; core/admin %q", k, got, want)
		}
	}
	for _, key := range Keys() {
		if rest, ok := strings.CutPrefix(key, "api.said."); ok {
			if _, ok := admin.Words[rest]; !ok {
				t.Errorf("%s: core/admin says no %s", key, rest)
			}
		}
	}
	for _, f := range []admin.Field{admin.FieldQueues, admin.FieldTopic, admin.FieldGroup, admin.FieldStrategy} {
		for _, part := range []string{"hint", "name"} {
			if k := "api.field." + string(f) + "." + part; !Has(k) {
				t.Errorf("the dictionary lacks %s", k)
			}
		}
	}
}
