package view

import (
	"fmt"

	"github.com/lbscope/lbscope/core/cluster"

	"slices"
	"strings"
)

// Languages of the canvas's words. Identifiers (c1, broker-a, queue numbers, the clock,
// strategy names) are the same in both; only the words change.
const (
	EN = "en"
	ZH = "zh"
)

// words are the canvas's words in English and Chinese, by key. Values are fmt formats when
// the caller gives arguments. Every rune of a Chinese value needs a glyph in the atlas:
// after changing one, run `go run ./scripts/glyphs` (TestChineseGlyphs fails until then).
var words = map[string][2]string{
	// A consumer box's countdown to its next rebalance, in seconds.
	"countdown": {"%ds", "%d秒"},

	// Broker menu (the commands' names are the command table's).
	"menu.slow":         {"slow %d ms", "变慢 %d 毫秒"},
	"menu.normal":       {"normal (0 ms)", "正常（0 毫秒）"},
	"broker.down.title": {"%s down", "%s 宕机"},

	// Header.
	"paused":    {"PAUSED", "已暂停"},
	"broadcast": {"BROADCAST", "广播"},
	"lf":        {"LF", "容错"},
	"dupLost":   {"dup %d lost %d", "重复 %d 丢失 %d"},
	// Broker title.
	"DOWN": {"DOWN", "宕机"},

	// Durations (the isolation tier on a broker's title).
	"ms": {"%dms", "%d毫秒"},
	"s":  {"%ss", "%s秒"},
	"m":  {"%dm", "%d分"},
	"h":  {"%dh", "%d时"},

	// Tooltips.
	"tip.queues":    {"%d queues", "%d 个队列"},
	"tip.rebalance": {", rebalance in %.1fs", "，%.1f 秒后重平衡"},
	"tip.consumed":  {"consumed %d, cached %d", "已消费 %d，缓存 %d"},
	"tip.orphan":    {"orphan: nobody pulls it", "孤立：无人拉取"},
	"tip.pulledBy":  {"pulled by %s", "由 %s 拉取"},
	"tip.overlap":   {"OVERLAP: %s", "重复拉取：%s"},
	"tip.backlog":   {"backlog %d, offset %d", "积压 %d，位点 %d"},
	"tip.up":        {"up", "正常"},
	"tip.down":      {"DOWN", "宕机"},
	"tip.latency":   {"+%d ms, sends %d, failed %d", "+%d 毫秒，发送 %d，失败 %d"},
	"tip.avoided":   {"avoided %.1fs more of %ds", "还将规避 %.1f 秒（共 %d 秒）"},
	"tip.lists":     {"lists %d consumers", "列出 %d 个消费者"},
	"tip.rate":      {"%s %d msg/s", "%s %d 条/秒"},
	"tip.sent":      {"sent %d", "已发送 %d"},
	"tip.listSep":   {", ", "、"},
}

// Word is the canvas's word for key in lang (English for any other language), formatted with
// args when there are any.
func Word(lang, key string, args ...any) string {
	w, ok := words[key]
	if !ok {
		panic("view: no word " + key) // a bug: every key is in the table
	}
	s := w[0]
	if lang == ZH {
		s = w[1]
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// ChineseRunes lists, sorted, every non-ASCII rune the Chinese words use: the runes the
// glyph generator rasterises.
func ChineseRunes() []rune {
	var out []rune
	texts := make([]string, 0, len(words))
	for _, w := range words {
		texts = append(texts, w[1])
	}
	for _, w := range cluster.StatusWords {
		texts = append(texts, w[ZH])
	}
	for _, s := range cluster.Commands() {
		if s.Menu { // the click menus show their labels
			texts = append(texts, s.WordsIn(ZH).Label)
		}
	}
	for _, w := range texts {
		for _, r := range w {
			if r > 0x7e && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// statusWord is a consumer's status as every reader words it (cluster.StatusWords).
func statusWord(lang, status string) string {
	w, ok := cluster.StatusWords[status]
	if !ok {
		return status
	}
	if lang == ZH {
		return w[ZH]
	}
	return w[EN]
}

// joinList joins ids as the language lists them.
func joinList(lang string, ids []string) string {
	return strings.Join(ids, Word(lang, "tip.listSep"))
}
