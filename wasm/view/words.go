package view

import (
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/words"
)

// Languages of the canvas's words. Identifiers (c1, broker-a, queue numbers, the clock,
// strategy names) are the same in both; only the words change.
const (
	EN = words.EN
	ZH = words.ZH
)

// Word is the dictionary's word for key in lang (English for any other language), formatted
// with args when there are any. The canvas's own keys start with "canvas." (assets/words.json);
// every rune of their Chinese texts needs a glyph in the atlas: after changing one, run
// `go run ./scripts/glyphs` (TestChineseGlyphs fails until then).
func Word(lang, key string, args ...any) string {
	if len(args) > 0 {
		return words.Format(lang, key, args...)
	}
	return words.Word(lang, key)
}

// canvasKeys are the dictionary's keys the canvas draws: its own, the consumers' statuses and
// the click menus' command labels.
func canvasKeys() []string {
	var keys []string
	for _, k := range words.Keys() {
		if strings.HasPrefix(k, "canvas.") || strings.HasPrefix(k, "status.") {
			keys = append(keys, k)
		}
	}
	for _, s := range cluster.Commands() {
		if s.Menu { // the click menus show their labels
			keys = append(keys, "command."+s.Name)
		}
	}
	return keys
}

// ChineseRunes lists, sorted, every non-ASCII rune the canvas's Chinese words use: the runes
// the glyph generator rasterises.
func ChineseRunes() []rune {
	var out []rune
	for _, k := range canvasKeys() {
		for _, r := range words.Word(ZH, k) {
			if r > 0x7e && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// statusWord is a consumer's status as every reader words it ("status.<status>").
func statusWord(lang, status string) string {
	if !words.Has("status." + status) {
		return status
	}
	return words.Word(lang, "status."+status)
}

// joinList joins ids as the language lists them.
func joinList(lang string, ids []string) string {
	return strings.Join(ids, Word(lang, "canvas.tip.listSep"))
}
