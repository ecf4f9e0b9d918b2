//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run with several topics and groups, as a newcomer opens the two-group preset: the canvas
// shows one group at a time, its members in their colours, the queues of each topic it
// subscribes in a band of their own; the tabs, the panel's group choice and the g key change
// the group shown, in both languages and both themes.

type groupsLayout struct {
	Consumers []box `json:"consumers"`
	Queues    []struct {
		box
		Topic string `json:"topic"`
	} `json:"queues"`
	Groups  []box  `json:"groups"`
	Group   string `json:"group"`
	Tooltip *struct {
		ID    string   `json:"id"`
		Lines []string `json:"lines"`
	} `json:"tooltip"`
}

type groupsState struct {
	Groups []struct {
		Name     string `json:"name"`
		Strategy string `json:"strategy"`
		Backlog  int64  `json:"backlog"`
	} `json:"groups"`
	Consumers []struct {
		ID       string   `json:"id"`
		Group    string   `json:"group"`
		Topics   []string `json:"topics"`
		Queues   []string `json:"queues"`
		Strategy string   `json:"strategy"`
	} `json:"consumers"`
}

func groupsLayoutOf(t *testing.T, ctx context.Context) groupsLayout {
	t.Helper()
	var l groupsLayout
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)), &l))
	return l
}

func groupsStateOf(t *testing.T, ctx context.Context) groupsState {
	t.Helper()
	var s groupsState
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)), &s))
	return s
}

// checkGroupCanvas asserts what the canvas shows of group: its members' boxes, every queue of
// its topics once (a queue of each topic, its retry topic's), each drawn in the colour of the
// member whose box carries that colour and that state says pulls it.
func checkGroupCanvas(t *testing.T, ctx context.Context, group string, members []string, topics []string) map[string][3]uint8 {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.layout().group === %q && window.lbscope.layout().consumers.length === %d`, group, len(members)))
	frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 2, 2)))
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v`, frames))
	l := groupsLayoutOf(t, ctx)
	s := groupsStateOf(t, ctx)
	img := screenshot(t, ctx)
	var ids []string
	boxColour := map[string][3]uint8{}
	for _, c := range l.Consumers {
		ids = append(ids, c.ID)
		boxColour[c.ID] = colourAt(img, c)
	}
	assert.Equal(t, members, ids, "%s's members", group)
	owner := map[string]string{}
	for _, c := range s.Consumers {
		if c.Group == group {
			for _, q := range c.Queues {
				owner[q] = c.ID
			}
		}
	}
	seen := map[string]bool{}
	var shown []string
	for _, q := range l.Queues {
		assert.False(t, seen[q.Queue], "%s: queue %s drawn twice", group, q.Queue)
		seen[q.Queue] = true
		if !slices.Contains(shown, q.Topic) {
			shown = append(shown, q.Topic)
		}
		o := owner[q.Queue]
		if assert.NotEmpty(t, o, "%s: nobody pulls %s", group, q.Queue) {
			assert.Equal(t, boxColour[o], colourAt(img, q.box), "%s: %s is drawn in the colour of %s, who pulls it", group, q.Queue, o)
		}
	}
	assert.Equal(t, topics, shown, "%s's topics", group)
	return boxColour
}

func TestBrowserGroupsPreset(t *testing.T) {
	for _, tc := range []struct{ query, lang string }{{"?preset=groups", "en"}, {"?preset=groups&lang=zh&theme=light", "zh"}} {
		t.Run(tc.lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, tc.query)
			dispatch(t, ctx, `{type: "step", ms: 5000}`)
			order := checkGroupCanvas(t, ctx, "GID_ORDER", []string{"c1", "c2", "c3"}, []string{"TopicOrder", "TopicPay", "%RETRY%GID_ORDER"})
			l := groupsLayoutOf(t, ctx)
			require.Len(t, l.Groups, 2)
			assert.Equal(t, "GID_ORDER", l.Groups[0].ID)
			// The state has every group and every membership; c3 is in both.
			s := groupsStateOf(t, ctx)
			require.Len(t, s.Groups, 2)
			inBoth := 0
			for _, c := range s.Consumers {
				if c.ID == "c3" {
					inBoth++
				}
			}
			assert.Equal(t, 2, inBoth, "c3 has an entry in each group")

			// A click on GID_AUDIT's tab shows it; the panel's choice follows.
			click(t, ctx, l.Groups[1])
			audit := checkGroupCanvas(t, ctx, "GID_AUDIT", []string{"c3", "c4"}, []string{"TopicPay", "%RETRY%GID_AUDIT"})
			assert.Equal(t, order["c3"], audit["c3"], "c3 keeps its colour in both groups")
			assert.NotEqual(t, audit["c3"], audit["c4"])
			assert.Equal(t, "GID_AUDIT", eval[string](t, ctx, `document.documentElement.dataset.group`))
			waitFor(t, ctx, `document.getElementById("group-target").value === "GID_AUDIT"`)

			// A queue's hover card names its topic and group.
			l = groupsLayoutOf(t, ctx)
			q := l.Queues[0]
			frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
			require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, q.X+q.W*0.7, q.Y+q.H*0.7)))
			waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v && window.lbscope.layout().tooltip && window.lbscope.layout().tooltip.id === %q`, frames, q.Queue))
			card := strings.Join(groupsLayoutOf(t, ctx).Tooltip.Lines, "\n")
			if tc.lang == "zh" {
				assert.Contains(t, card, "主题 TopicPay，消费组 GID_AUDIT")
			} else {
				assert.Contains(t, card, "topic TopicPay, group GID_AUDIT")
			}

			// The panel's choice shows the other group; g (outside the canvas) the next one.
			eval[bool](t, ctx, `(() => { const s = document.getElementById("group-target"); s.value = "GID_ORDER"; s.dispatchEvent(new Event("change")); return true; })()`)
			checkGroupCanvas(t, ctx, "GID_ORDER", []string{"c1", "c2", "c3"}, []string{"TopicOrder", "TopicPay", "%RETRY%GID_ORDER"})
			eval[bool](t, ctx, `(document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "g", bubbles: true})), true)`)
			checkGroupCanvas(t, ctx, "GID_AUDIT", []string{"c3", "c4"}, []string{"TopicPay", "%RETRY%GID_AUDIT"})
			// Paused, it goes still; a click on a tab draws the other group, and it is still again.
			still := settledCounters(t, ctx, "window")
			click(t, ctx, groupsLayoutOf(t, ctx).Groups[0])
			checkGroupCanvas(t, ctx, "GID_ORDER", []string{"c1", "c2", "c3"}, []string{"TopicOrder", "TopicPay", "%RETRY%GID_ORDER"})
			again := settledCounters(t, ctx, "window")
			assert.Greater(t, again.Frames, still.Frames, "the other group was drawn")
			assert.False(t, again.Running, "paused: the loop does not run every display frame")
			assert.Empty(t, con.Errors())
		})
	}
}

// The panel of a run with several groups: its group choice names the group the group
// commands change (the strategy, of the whole group or of one member during a rolling
// deploy, the message model) and the group setSubscription changes a member's subscription
// in; setPerm and removeBroker have their rows; in both languages.
func TestBrowserGroupsPanel(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?preset=groups&lang="+lang)
			dispatch(t, ctx, `{type: "step", ms: 2000}`)
			waitFor(t, ctx, `document.getElementById("group-target").options.length === 2 && document.getElementById("strategy") !== null`)
			assert.False(t, eval[bool](t, ctx, `document.getElementById("group-target").closest("[hidden]") !== null`), "the group choice shows")
			set := func(id, v string) {
				t.Helper()
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, id, v))
			}
			// The whole of GID_AUDIT changes strategy; GID_ORDER keeps its own.
			set("group-target", "GID_AUDIT")
			waitFor(t, ctx, `window.lbscope.layout().group === "GID_AUDIT" && [...document.getElementById("strategy-member").options].map(o => o.value).join() === ",c3,c4"`)
			set("strategy", "AVG_BY_CIRCLE")
			eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
			waitFor(t, ctx, `(() => { const g = lbscope.state().groups; return g[1].strategy === "AVG_BY_CIRCLE" && g[0].strategy === "AVG"; })()`)
			// One member of GID_ORDER is redeployed with its own.
			set("group-target", "GID_ORDER")
			waitFor(t, ctx, `[...document.getElementById("strategy-member").options].map(o => o.value).join() === ",c1,c2,c3"`)
			set("strategy-member", "c2")
			set("strategy", "CONSISTENT_HASH")
			eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
			waitFor(t, ctx, `lbscope.state().consumers.find(c => c.id === "c2" && c.group === "GID_ORDER").strategy === "CONSISTENT_HASH"`)
			assert.Equal(t, "AVG", eval[string](t, ctx, `lbscope.state().groups[0].strategy`), "the group keeps its strategy")
			// The message model of the group chosen.
			set("group-target", "GID_AUDIT")
			set("cmd-setMessageModel-model", "BROADCASTING")
			waitFor(t, ctx, `(() => { const g = lbscope.state().groups; return g[1].messageModel === "BROADCASTING" && g[0].messageModel === "CLUSTERING"; })()`)
			// A member's subscription, in the group chosen.
			set("consumer-target", "c3")
			require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setSubscription-subscription"), "TopicPay:TagA"), chromedp.Click(chromedp.ID("cmd-setSubscription"))))
			waitFor(t, ctx, `(() => { const c = lbscope.state().consumers.filter(c => c.id === "c3"); `+
				`return c.find(m => m.group === "GID_AUDIT").tags?.TopicPay === "TagA" && !c.find(m => m.group === "GID_ORDER").tags; })()`)
			// Permission and removal of a broker, worded by the table.
			words := eval[map[string]string](t, ctx, fmt.Sprintf(`(() => { const w = (n) => lbscope.commands().find(c => c.name === n).words.%s.label;
				return {perm: w("setPerm"), remove: w("removeBroker"), sub: w("setSubscription"),
					permRow: document.querySelector('[data-row="setPerm"]').textContent, removeBtn: document.getElementById("cmd-removeBroker").textContent,
					subBtn: document.getElementById("cmd-setSubscription").textContent,
					permR: document.querySelector('#cmd-setPerm-perm option[value="R"]').textContent}; })()`, lang))
			assert.Contains(t, words["removeBtn"], words["remove"])
			assert.Contains(t, words["subBtn"], words["sub"])
			assert.NotContains(t, words["permRow"], "panel.")
			if lang == "zh" {
				assert.Equal(t, "R：只读", words["permR"])
			} else {
				assert.Equal(t, "R: read only", words["permR"])
			}
			set("broker-target", "broker-b")
			set("cmd-setPerm-perm", "R")
			waitFor(t, ctx, `[...document.querySelectorAll("#event-log li")].some(li => li.textContent.includes("broker-b"))`)
			assert.Empty(t, con.Errors())
		})
	}
}

// The panel changes what a scenario file sets, while the run goes on: a member's failure rate
// (its sends back appear in the metrics), the chosen group's autoscaler (its rule in the event
// log) and a new topic with a producer (in the state, then subscribed); in both languages.
func TestBrowserGroupsPanelFailuresAutoscalerTopic(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?preset=groups&lang="+lang)
			dispatch(t, ctx, `{type: "step", ms: 2000}`)
			waitFor(t, ctx, `document.getElementById("group-target").options.length === 2 && document.getElementById("cmd-setFailRate") !== null`)
			set := func(id, v string) {
				t.Helper()
				eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, id, v))
			}
			for _, id := range []string{"cmd-setFailRate", "cmd-setAutoscale", "cmd-addTopic"} {
				assert.NotContains(t, eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-row="%s"]').textContent`, strings.TrimPrefix(id, "cmd-"))), "panel.", id+" is worded")
			}
			// c1 of GID_ORDER fails half its deliveries.
			set("group-target", "GID_ORDER")
			set("consumer-target", "c1")
			require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setFailRate-failPercent"), "50"), chromedp.Click(chromedp.ID("cmd-setFailRate"))))
			dispatch(t, ctx, `{type: "step", ms: 5000}`)
			waitFor(t, ctx, `lbscope.state().metrics.retried > 0`)
			// GID_AUDIT gets an autoscaler of at most 4 members.
			set("group-target", "GID_AUDIT")
			require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setAutoscale-outAbove"), "1000"),
				chromedp.SetValue(chromedp.ID("cmd-setAutoscale-maxMembers"), "4"), chromedp.Click(chromedp.ID("cmd-setAutoscale"))))
			waitFor(t, ctx, `[...document.querySelectorAll("#event-log li")].some(li => li.textContent.includes("4"))`)
			want := map[string]string{"en": "autoscaler on, up to 4 members", "zh": "自动扩缩容开启，最多 4 个成员"}[lang]
			waitFor(t, ctx, fmt.Sprintf(`[...document.querySelectorAll("#event-log li")].some(li => li.textContent.includes(%q))`, want))
			// A new topic with a producer, which c4 then subscribes.
			require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-addTopic-topic"), "TopicNew"),
				chromedp.SetValue(chromedp.ID("cmd-addTopic-rate"), "50"), chromedp.Click(chromedp.ID("cmd-addTopic"))))
			waitFor(t, ctx, `lbscope.state().queues.some(q => q.topic === "TopicNew") && lbscope.state().producers.length === 3`)
			set("consumer-target", "c4")
			require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setSubscription-subscription"), "TopicPay;TopicNew"), chromedp.Click(chromedp.ID("cmd-setSubscription"))))
			dispatch(t, ctx, `{type: "step", ms: 40000}`)
			waitFor(t, ctx, `lbscope.state().consumers.some(c => c.id === "c4" && c.queues.some(q => q.startsWith("TopicNew/")))`)
			screenshot(t, ctx)
			assert.Empty(t, con.Errors())
		})
	}
}
