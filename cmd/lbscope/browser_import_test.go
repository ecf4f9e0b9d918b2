//go:build !js

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer pastes a real topicRoute and consumerStatus into the Import dialog, reads what
// the consumer gets and the verdict, in English and then Chinese, and opens the group as a
// scenario. A line of markup in the paste shows as text and never becomes an element.
func TestBrowserImportDialog(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	route, err := os.ReadFile(fixture(t, "16"))
	require.NoError(t, err)
	status, err := os.ReadFile(fixture(t, "20"))
	require.NoError(t, err)
	paste := string(route) + "<img src=x onerror=\"window.__pasted=1\">\n" + string(status)
	js, _ := json.Marshal(paste)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = `+string(js)+`; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]') !== null`)

	text := eval[string](t, ctx, `document.getElementById("import-report").textContent`)
	assert.Contains(t, text, "Group please_rename_unique_group_name_4")
	assert.Contains(t, text, "192.168.1.104@14365")
	assert.Contains(t, text, "broker-a:0-3")
	assert.Contains(t, text, "the allocation is sound")
	assert.Contains(t, text, `<img src=x onerror=`, "the markup line is reported as text")
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll("#import-report img").length`))
	assert.False(t, eval[bool](t, ctx, `window.__pasted === 1`))

	// In Chinese, the verdict is Chinese.
	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]').textContent.includes("分配正常")`)
	assert.Equal(t, "作为场景打开", eval[string](t, ctx, `document.getElementById("import-open").textContent`))

	// Open it: the playground now runs the imported group.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-open"))))
	waitFor(t, ctx, `document.getElementById("import-dialog").hidden`)
	waitFor(t, ctx, `lbscope.state().consumers.length === 1 && lbscope.state().consumers[0].id === "192.168.1.104@14365"`)
	assert.Empty(t, con.Errors())
}

// The Import dialog speaks in its own terms and the page's language: a consumerProgress
// summary that cuts the group's name at 32 characters (fixture 19) is reported as maybe cut,
// the commands it suggests ask for the full name and are shown whole, on one line with a copy
// button; the Group field puts the name right; a consumerStatus alone (fixture 20) says the
// scenario needs the Queues field, not a command-line flag; a bad Queues field is named. In
// English, then in Chinese, where nothing of the report is left in English but names and
// commands.
func TestBrowserImportInThePagesTerms(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en", 1280, 900, 2)
	const cut = "please_rename_unique_group_name_"
	progress, err := os.ReadFile(fixture(t, "19"))
	require.NoError(t, err)
	status, err := os.ReadFile(fixture(t, "20"))
	require.NoError(t, err)
	connection, err := os.ReadFile(fixture(t, "01"))
	require.NoError(t, err)
	running, err := os.ReadFile(fixture(t, "02"))
	require.NoError(t, err)
	paste := func(text, queues, group string) {
		t.Helper()
		args, _ := json.Marshal([]string{text, queues, group})
		eval[bool](t, ctx, `(() => { const [text, queues, group] = `+string(args)+`;
			document.getElementById("import-text").value = text;
			document.getElementById("import-queues").value = queues;
			document.getElementById("import-group").value = group;
			document.getElementById("import-report").replaceChildren();
			document.getElementById("import-status").textContent = "";
			return true; })()`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
		waitFor(t, ctx, `document.getElementById("import-report").childElementCount > 0 || document.getElementById("import-status").textContent.startsWith(`+
			`LB.i18n.t("import.failed", {error: ""}))`)
	}
	report := func() string { return eval[string](t, ctx, `document.getElementById("import-report").innerText`) }
	statusLine := func() string { return eval[string](t, ctx, `document.getElementById("import-status").textContent`) }
	commands := func() []string {
		return eval[[]string](t, ctx, `[...document.querySelectorAll("#import-report .import-missing code")].map((c) => c.textContent)`)
	}

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	for _, lang := range []string{"en", "zh"} {
		eval[bool](t, ctx, `(() => { LB.i18n.set("`+lang+`"); return true; })()`)
		en := lang == "en"
		// Nothing pasted: the dialog says what to do.
		eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = ""; return true; })()`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
		waitFor(t, ctx, `document.getElementById("import-status").textContent === LB.i18n.t("import.empty")`)
		assert.Equal(t, map[string]string{"en": "Paste an output or choose a file first.", "zh": "请先粘贴输出或选择文件。"}[lang],
			eval[string](t, ctx, `document.getElementById("import-status").textContent`))
		pick := func(e, z string) string {
			if en {
				return e
			}
			return z
		}

		// The cut name: said, asked for, never spelt in a command.
		paste(string(progress), "", "")
		text := report()
		assert.Contains(t, text, pick(cut+" (maybe cut at 32 characters)", cut+"（可能在第 32 个字符处被截断）"), lang)
		assert.Contains(t, text, pick("the group's full name: "+cut+" is 32 characters long", "消费组的完整名称："+cut+" 长 32 个字符"), lang)
		assert.Contains(t, text, pick("fill in the Group field", "填写“消费组”一栏"), lang)
		assert.Contains(t, commands(), "mqadmin consumerConnection -g <full group name>", lang)
		for _, c := range commands() {
			assert.NotContains(t, c, cut, "%s: %q spells the cut name as complete", lang, c)
		}
		assert.NotContains(t, text, "--", "%s: the report names a command-line flag", lang)
		// Each command whole on one line: not wrapped, scrolled if it must, with a copy button.
		lines := eval[[]float64](t, ctx, `[...document.querySelectorAll("#import-report .import-cmd")].map((c) =>
			c.getClientRects().length === 1 && getComputedStyle(c).whiteSpace === "pre" ? c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).fontSize) : 99)`)
		require.NotEmpty(t, lines)
		for _, l := range lines {
			assert.Less(t, l, 2.5, "%s: a command takes more than one line", lang)
		}
		assert.Equal(t, len(lines), eval[int](t, ctx, `document.querySelectorAll("#import-report .import-command .import-copy").length`))
		assert.Equal(t, pick("Copy", "复制"), eval[string](t, ctx, `document.querySelector("#import-report .import-copy").textContent`))
		assert.Equal(t, pick("Copy ", "复制 ")+"mqadmin consumerConnection -g <full group name>",
			eval[string](t, ctx, `document.querySelector("#import-report .import-copy").getAttribute("aria-label")`), "each copy button names its command")
		// Copying says so in the page's language, whether the browser lets the page copy or not.
		eval[bool](t, ctx, `(() => { document.querySelector("#import-report .import-copy").click(); return true; })()`)
		waitFor(t, ctx, `[LB.i18n.t("import.copied", {command: "mqadmin consumerConnection -g <full group name>"}), LB.i18n.t("import.copyFailed")].includes(document.getElementById("import-status").textContent)`)
		if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
			eval[bool](t, ctx, `(() => { document.querySelector("#import-report .import-missing").scrollIntoView(); return true; })()`)
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "import-cut-"+lang+".png"), buf, 0o644))
		}

		// The Group field with the whole name: the commands spell it.
		paste(string(progress), "", cut+"4")
		assert.Contains(t, commands(), "mqadmin consumerConnection -g "+cut+"4", lang)
		assert.NotContains(t, report(), pick("maybe cut", "截断"), lang)

		// No queues: the scenario needs the dialog's Queues field.
		paste(string(status), "", "")
		assert.Equal(t, pick("No scenario: no topic with known queues: the scenario needs one (paste topicRoute, or fill in the Queues field)",
			"无法生成场景：没有已知队列的主题：场景需要一个（粘贴 topicRoute，或填写“队列”一栏）"), statusLine(), lang)
		text = report()
		assert.Contains(t, text, pick("the connections (consumerStatus lists each client id once", "连接列表（consumerStatus 每个客户端 ID 只列一次"), lang)
		assert.Contains(t, text, pick("In what it prints, read allocateMessageQueueStrategy.", "在它的输出中查看 allocateMessageQueueStrategy。"), lang)
		assert.Equal(t, []string{"mqadmin consumerConnection -g " + cut + "4", "mqadmin consumerStatus -g " + cut + "4 -i <clientId>",
			"mqadmin consumerProgress -g " + cut + "4 -s true"}, commands(), "%s: each command as it is typed, nothing else in it", lang)
		assert.NotContains(t, text, "--", lang)
		if !en {
			// Nothing of the report or the status line is English but names, ids and commands.
			left := eval[string](t, ctx, `(() => {
				const r = document.getElementById("import-report").cloneNode(true);
				r.querySelectorAll("code, td, .import-group").forEach((e) => e.remove());
				return r.innerText + " " + document.getElementById("import-status").textContent; })()`)
			assert.Empty(t, importEnglish(left), "the Chinese dialog keeps English words: %s", left)
		}

		// A bad Queues field is named as the field.
		paste(string(status), "broker-a", "")
		assert.Contains(t, statusLine(), pick("the Queues field: ", "“队列”一栏无法读取（应写作 broker-a:8,broker-b:4）"), lang)
		assert.NotContains(t, statusLine(), "--queues", lang)
		// And a good one gives a scenario.
		paste(string(status), "broker-a:4", "")
		waitFor(t, ctx, `!document.getElementById("import-open").disabled`)

		// Group A: the reader's notes on the paste (JVM warnings skipped, the user's own
		// "#####" mark) and what the scenario leaves out, in the page's language.
		paste(string(connection)+"\n"+string(running), "broker-a:8,broker-b:8,broker-c:8", "")
		eval[bool](t, ctx, `(() => { document.querySelectorAll("#import-report details").forEach((d) => { d.open = true; }); return true; })()`)
		text = report()
		assert.Contains(t, eval[[]string](t, ctx, `[...document.querySelectorAll("#import-report td")].map((c) => c.textContent)`), pick("paste:4", "粘贴:4"),
			"%s: the members' lines point at the pasted text by its name in the page's language", lang)
		assert.Contains(t, text, pick(`skipped: Java HotSpot(TM) 64-Bit Server VM warning`, `已跳过：Java HotSpot(TM) 64-Bit Server VM warning`), lang)
		assert.Contains(t, text, pick(`the "#####" before the row is not part of the output (a mark?); read without it`, `行前的 "#####" 不属于输出（是标记？）；忽略它读取`), lang)
		assert.Contains(t, text, pick(`The scenario leaves out: the topic's name "UNKNOWN_TOPIC" (the scenario calls it TopicTest); the topic %RETRY%oms_thirdpush_consumer_ios`,
			`场景中省略了：主题名 "UNKNOWN_TOPIC"（场景中叫作 TopicTest）；主题 %RETRY%oms_thirdpush_consumer_ios`), lang)
		// What the finding means, in the page's language.
		assert.Contains(t, text, pick("every queue of UNKNOWN_TOPIC has exactly one owner under AVG (spread 0)", "UNKNOWN_TOPIC 的每个队列在 AVG 下恰好有一个持有者（差值 0）"), lang)
		// The evidence: the queues came from the dialog's Queues field, not a flag.
		assert.Contains(t, text, pick("Queues field UNKNOWN_TOPIC: 24 queues (the Queues field)", "“队列”一栏 UNKNOWN_TOPIC：24 个队列（“队列”一栏）"), lang)
		assert.Contains(t, text, pick("paste:4 6 member(s) (consumerConnection)", "粘贴:4 6 个成员（consumerConnection）"), lang)
		assert.NotContains(t, text, "--", lang)
		assert.Contains(t, text, pick(`the topic's name is not in the paste: it is shown as UNKNOWN_TOPIC (fill in the Topic name field to name it)`,
			`粘贴内容中没有主题名：显示为 UNKNOWN_TOPIC（填写“主题名”一栏即可命名）`), lang)
		if !en {
			// Chinese but for names: ids, commands and their camel-case names, and what the
			// reader's notes quote of the paste.
			left := eval[string](t, ctx, `(() => {
				const r = document.getElementById("import-report").cloneNode(true);
				r.querySelectorAll("code, td, .import-group, :scope > details").forEach((e) => e.remove());
				return r.innerText; })()`)
			assert.Empty(t, importEnglish(left), "the Chinese dialog keeps English words: %s", left)
		}
		if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
			eval[bool](t, ctx, `(() => { document.querySelector("#import-report .hint:last-child, #import-report details:last-of-type").scrollIntoView(); return true; })()`)
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "import-groupA-"+lang+".png"), buf, 0o644))
		}
	}
	assert.Empty(t, con.Errors())
}

// importEnglish is englishWords less the names the Import dialog shows as they are: camel-case
// names of outputs, fields and topics (consumerStatus, TopicTest), names with underscores (the
// pasted group's), mqadmin and jstack.
func importEnglish(s string) []string {
	var out []string
	for _, w := range englishWords(s) {
		if w != "mqadmin" && w != "jstack" && !strings.Contains(w, "_") && !regexp.MustCompile(`^[A-Za-z][a-z]+[A-Z]`).MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}
