// Package words is the project's one dictionary: every word the canvas, the narration and the
// page show, in English and Chinese, by key. The words themselves are assets/words.json; a
// command's own words are its entry in the command table (cluster.CommandSpec.Words), which
// the dictionary gives as "command.<name>" (its label) so that every reader names a command
// the same way.
//
// Keys are grouped by their first segment: "status." (consumer statuses), "command." (the
// command table), "canvas." (wasm/view), "narrate." (wasm/narrate), "api." (the notes and
// messages wasm/api words itself) and the page's own
// ("panel.", "help.", "charts.", …). Texts read by Go are fmt formats ("%d queues"; "%[2]s"
// where Chinese takes the arguments in another order); texts read by the page name their
// parameters ("{clock} · {speed}"), as web/i18n.js fills them in. The site's wasm carries
// only the groups Go reads (GoPart) but those of the reader of pastes, which its own wasm
// carries (PastePart); the page's travel once, in the site's words.js.
package words

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/assets"
	"github.com/lbscope/lbscope/core/cluster"
)

// Languages.
const (
	EN = "en"
	ZH = "zh"
)

// Langs are the dictionary's languages, English first.
var Langs = []string{EN, ZH}

// Entry is one key's text in each language.
type Entry map[string]string

// goPrefixes are the groups read by Go only: the page's dictionary leaves them out. Go reads
// these and the consumers' statuses ("status.", which the page reads too), nothing else: the
// site's wasm carries only those (GoPart).
var goPrefixes = []string{"canvas.", "narrate.", "api."}

// pastePrefixes are the groups of goPrefixes that only the reader of pastes (wasm/paste) reads:
// what the diagnosis says, its findings, the Import dialog's fields. They travel in the
// reader's wasm (PastePart), not in the playground's (GoPart).
var pastePrefixes = []string{"api.said.", "api.finding.", "api.field.", "api.diagnose."}

// pasteReads says whether only the reader of pastes reads key.
func pasteReads(key string) bool {
	return slices.ContainsFunc(pastePrefixes, func(p string) bool { return strings.HasPrefix(key, p) })
}

// goReads says whether Go reads key: a key of goPrefixes or a status.
func goReads(key string) bool {
	return goOnly(key) || strings.HasPrefix(key, "status.")
}

func goOnly(key string) bool {
	return slices.ContainsFunc(goPrefixes, func(p string) bool { return strings.HasPrefix(key, p) })
}

var table map[string]Entry

func init() {
	t, err := Parse(assets.Words)
	if err != nil {
		panic("assets/words.json: " + err.Error()) // a bug: the file is compiled in
	}
	table = t
}

// Parse reads a dictionary in the shape of assets/words.json, {"key": {"en": …, "zh": …}, …},
// and checks that every key has a text in every language and no other.
func Parse(data []byte) (map[string]Entry, error) {
	var t map[string]Entry
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	for _, key := range slices.Sorted(maps.Keys(t)) {
		e := t[key]
		for _, lang := range Langs {
			if e[lang] == "" {
				return nil, fmt.Errorf("%s has no text in %s", key, lang)
			}
		}
		if len(e) != len(Langs) {
			return nil, fmt.Errorf("%s has a language other than %s", key, strings.Join(Langs, " and "))
		}
		if strings.HasPrefix(key, "command.") {
			return nil, fmt.Errorf("%s: a command's words are its entry in the command table", key)
		}
		if strings.HasPrefix(key, "strategy.") {
			return nil, fmt.Errorf("%s: a strategy's words are its entry in the strategy table (core/allocate)", key)
		}
	}
	return t, nil
}

// Has says whether key is in the dictionary.
func Has(key string) bool {
	_, ok := lookup(key)
	return ok
}

func lookup(key string) (Entry, bool) {
	if name, ok := strings.CutPrefix(key, "command."); ok {
		s, ok := cluster.Lookup(name)
		if !ok {
			return nil, false
		}
		e := Entry{}
		for _, lang := range Langs {
			e[lang] = s.WordsIn(lang).Label
		}
		return e, true
	}
	e, ok := table[key]
	return e, ok
}

// Word is key's text in lang (English for a language the dictionary lacks). An unknown key
// is a bug in the program: Word panics, and the tests call every reader.
func Word(lang, key string) string {
	e, ok := lookup(key)
	if !ok {
		panic("words: no word " + key)
	}
	if s, ok := e[lang]; ok {
		return s
	}
	return e[EN]
}

// Format is key's text in lang formatted with args (fmt.Sprintf).
func Format(lang, key string, args ...any) string {
	return fmt.Sprintf(Word(lang, key), args...)
}

// Keys are the keys of assets/words.json, sorted (the command table's are not among them):
// in the site's wasm, those Go reads.
func Keys() []string {
	return slices.Sorted(maps.Keys(table))
}

// Lang is the dictionary of one language, key → text, of the keys whose names start with
// one of prefixes (every key when none is given), the command table's labels included.
func Lang(lang string, prefixes ...string) map[string]string {
	out := map[string]string{}
	want := func(key string) bool {
		return len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(key, p) })
	}
	for key := range table {
		if want(key) {
			out[key] = Word(lang, key)
		}
	}
	for _, s := range cluster.AllCommands() {
		if key := "command." + s.Name; want(key) {
			out[key] = Word(lang, key)
		}
	}
	return out
}

// Page is the page's dictionary by language: every key but those only Go reads (canvas.,
// narrate., api.). `lbscope build` writes it into the site as words.js; the site's wasm does
// not carry it (GoPart).
func Page() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range Langs {
		d := Lang(lang)
		for key := range d {
			if goOnly(key) {
				delete(d, key)
			}
		}
		out[lang] = d
	}
	return out
}

// GoPart is the part of a dictionary in the shape of assets/words.json (data) that the
// playground's Go reads: its canvas., narrate., api. and status. keys but the reader of
// pastes' (PastePart), as JSON. `lbscope build` compiles the playground's wasm with it in
// place of assets/words.json, so that the page's words travel once, in words.js, the
// reader's with the reader, and the wasm parses only its own at start.
func GoPart(data []byte) ([]byte, error) {
	return part(data, func(key string) bool { return goReads(key) && !pasteReads(key) })
}

// PastePart is the part of a dictionary that only the reader of pastes reads (wasm/paste:
// api.said., api.finding., api.field., api.diagnose.), as JSON: `lbscope build` compiles the
// reader's wasm, diagnose.wasm, with it in place of assets/words.json.
func PastePart(data []byte) ([]byte, error) {
	return part(data, pasteReads)
}

func part(data []byte, keep func(key string) bool) ([]byte, error) {
	t, err := Parse(data)
	if err != nil {
		return nil, err
	}
	maps.DeleteFunc(t, func(key string, _ Entry) bool { return !keep(key) })
	return json.Marshal(t)
}
