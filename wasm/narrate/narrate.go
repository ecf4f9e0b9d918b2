// Package narrate turns the playground's events into short sentences a screen reader can
// speak, in English or Chinese: one frame's events grouped into what happened at once ("c3
// left; broker-a:4–7 → c1, broker-b:0–1 → c2"), and one event's text for the event log.
//
// It says what a listener needs to follow the story and leaves out the rest: the brokers'
// register and unregister lines that follow every join and leave, and the notice after a
// partition that its own sentence already gives.
package narrate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
)

// Languages.
const (
	EN = "en"
	ZH = "zh"
)

// Bounds of one frame's narration: a seek or a burst of commands can bring hundreds of
// events, and a live region that talks for a minute is worse than a summary.
const (
	maxActions    = 4 // action clauses, then "and N more"
	maxRebalances = 6 // consumers named in a rebalance clause, then "N more"
	maxOthers     = 3 // expiries, isolations, overlaps, errors: each
)

// Frame narrates one frame's events in lang ("en" or "zh"; anything else is English):
// a sentence for the actions with the rebalances they set off, then one for each expiry,
// isolation, overlap, strategy failure and refused command. No events, no sentences.
func Frame(events []cluster.Event, lang string) []string {
	zh := lang == ZH
	var (
		actions  []string
		rebOrder []string
		reb      = map[string][]string{}
		expOrder []string
		exp      = map[string]*expiry{}
		isoOrder []string
		iso      = map[string]fact{}
		ovOrder  []string
		ov       = map[string]*overlap{}
		threw    []string
		errs     []string
	)
	for _, e := range events {
		f := read(e)
		switch {
		case f.kind >= factCommand && f.kind <= factContinued:
			actions = append(actions, actionText(f, zh))
		case f.kind == factRebalance:
			if _, ok := reb[f.consumer]; !ok {
				rebOrder = append(rebOrder, f.consumer)
			}
			reb[f.consumer] = f.queues // the last set of the frame is the one that holds
		case f.kind == factExpire || f.kind == factDropIdle:
			key := strconv.Itoa(f.kind) + "/" + f.consumer
			x := exp[key]
			if x == nil {
				x = &expiry{f: f}
				exp[key] = x
				expOrder = append(expOrder, key)
			}
			x.brokers = append(x.brokers, f.broker)
			x.notify = x.notify || f.notify
		case f.kind == factIsolation:
			if _, ok := iso[f.broker]; !ok {
				isoOrder = append(isoOrder, f.broker)
				iso[f.broker] = f
			}
		case f.kind == factOverlap:
			key := strings.Join(f.owners, ",")
			o := ov[key]
			if o == nil {
				o = &overlap{owners: f.owners}
				ov[key] = o
				ovOrder = append(ovOrder, key)
			}
			o.queues = append(o.queues, f.queues...)
		case f.kind == factThrew:
			threw = append(threw, threwText(f, zh))
		case f.kind == factError:
			errs = append(errs, errorText(f, zh))
		}
	}

	var out []string
	first := capped(actions, maxActions, zh, "and %d more actions", "另有 %d 项操作")
	if len(rebOrder) > 0 {
		clause := rebalanceClause(rebOrder, reb, zh)
		if len(first) == 0 {
			clause = pick(zh, "rebalanced: ", "重平衡：") + clause
		}
		first = append(first, clause)
	}
	if len(first) > 0 {
		out = append(out, strings.Join(first, pick(zh, "; ", "；")))
	}
	var rest []string
	for _, k := range expOrder {
		rest = append(rest, exp[k].text(zh))
	}
	out = append(out, capped(rest, maxOthers, zh, "and %d more brokers' expiries", "另有 %d 条过期")...)
	rest = rest[:0]
	for _, b := range isoOrder {
		rest = append(rest, isolationText(iso[b], zh))
	}
	out = append(out, capped(rest, maxOthers, zh, "and %d more brokers avoided", "另有 %d 个 Broker 被规避")...)
	rest = rest[:0]
	for _, k := range ovOrder {
		rest = append(rest, ov[k].text(zh))
	}
	out = append(out, capped(rest, maxOthers, zh, "and %d more overlaps", "另有 %d 处重复拉取")...)
	out = append(out, capped(threw, maxOthers, zh, "and %d more strategy failures", "另有 %d 次分配失败")...)
	out = append(out, capped(errs, maxOthers, zh, "and %d more refused", "另有 %d 项操作被拒绝")...)
	return out
}

// Event is one event's text in lang, for the event log: the engine's own words in English,
// their translation in Chinese (an event it does not know keeps its English text).
func Event(e cluster.Event, lang string) string {
	if lang != ZH {
		return e.Text
	}
	f := read(e)
	c, b := f.consumer, f.broker
	switch f.kind {
	case factUnknown:
		return e.Text
	case factCommand:
		return tableText(f, true, true)
	case factRebalance:
		if len(f.queues) == 0 {
			return c + " 重平衡：无队列"
		}
		return c + " 重平衡：" + strings.Join(Ranges(f.queues), " ")
	case factRegister:
		return b + " 注册 " + c + "（心跳），并通知消费者组"
	case factUnregister:
		return b + " 注销 " + c + "（正常关闭），并通知消费者组"
	case factDropClosed:
		return b + " 移除 " + c + "（连接已关闭），并通知消费者组"
	case factDropIdle:
		return fmt.Sprintf("%s 关闭 %s 的空闲连接（%d 秒无读写），并通知消费者组", b, c, f.n)
	case factExpire:
		if f.notify {
			return fmt.Sprintf("%s 使 %s 过期：%d 秒没有心跳；关闭与扫描竞争，会通知消费者组", b, c, f.n)
		}
		return fmt.Sprintf("%s 使 %s 过期：%d 秒没有心跳；不通知任何人，其他消费者在下一次定期重平衡时才发现", b, c, f.n)
	case factIsolation:
		why := fmt.Sprintf("一次发送耗时 %d 毫秒", f.latency)
		if f.latency == 0 {
			why = "一次发送失败"
		}
		return fmt.Sprintf("%s 规避 %s 直到 %s：%s，规避 %d 秒", f.producer, b, f.clock, why, f.n)
	case factOverlap:
		return f.queues[0] + " 同时被 " + strings.Join(f.owners, "、") + " 拉取"
	case factExpiryAhead:
		return "没有人收到通知：各 Broker 将在 " + f.clock + " 左右使 " + c +
			" 过期（最后一次心跳后 120 秒），且不通知任何人；在此之前，每次重平衡仍会给它分配队列"
	case factThrew:
		return threwText(f, true)
	case factError:
		return errorText(f, true)
	}
	return actionText(f, true)
}

func pick(zh bool, en, cn string) string {
	if zh {
		return cn
	}
	return en
}

// actionText is a command's or a page action's clause.
func actionText(f fact, zh bool) string {
	switch f.kind {
	case factPaused:
		return pick(zh, "paused", "已暂停")
	case factPlaying:
		return pick(zh, "playing at "+f.arg, "继续播放，"+f.arg)
	case factSpeed:
		return pick(zh, "speed "+f.arg, "速度 "+f.arg)
	case factReset:
		return pick(zh, "reset: "+f.arg, "已重置："+f.arg)
	case factLoaded:
		return pick(zh, "loaded "+f.arg, "已加载："+f.arg)
	case factOpenedLink:
		return pick(zh, "opened a shared link: "+f.arg+" at "+f.clock, "已打开分享链接："+f.arg+"，"+f.clock)
	case factMoved:
		return pick(zh, "moved to "+f.clock, "已跳转到 "+f.clock)
	case factCommand:
		return tableText(f, zh, false)
	case factContinued:
		en := fmt.Sprintf("continuing from %s; %d later %s discarded", f.clock, f.n, map[bool]string{true: "action", false: "actions"}[f.n == 1])
		cn := fmt.Sprintf("从 %s 继续；丢弃了之后的 %d 个操作", f.clock, f.n)
		if f.arg != "" {
			en = f.arg + " behind the end of the timeline: " + en
			cn = "在时间线末尾之前执行“" + commandZH(f.arg) + "”：" + cn
		}
		return pick(zh, en, cn)
	}
	return f.text
}

// commandZH is a session's short action text ("killConsumer c3": the type, then its target) in
// Chinese, named as the command table names it; an unknown type stays as it is.
func commandZH(s string) string {
	typ, rest, _ := strings.Cut(s, " ")
	if spec, ok := cluster.Lookup(typ); ok {
		return strings.TrimSpace(spec.WordsIn(ZH).Label + " " + rest)
	}
	return s
}

// tableText is a command's clause (or, with log, its event-log line): the command table's
// Done words (When's variant when its condition holds) with the event's values, or its label
// and target when the table gives none.
func tableText(f fact, zh, log bool) string {
	spec, _ := cluster.Lookup(f.cause)
	w := spec.WordsIn(pick(zh, EN, ZH))
	n, lat := strconv.Itoa(f.n), strconv.Itoa(f.latency)
	tmpl := w.Done
	if log && w.Log != "" {
		tmpl = w.Log
	}
	for cond, alt := range w.When {
		field, want, _ := strings.Cut(cond, "=")
		if v := map[string]string{"n": n, "latencyMs": lat, "arg": f.arg}[field]; v == want {
			tmpl = alt
		}
	}
	if tmpl == "" {
		return strings.TrimSpace(w.Label + " " + f.consumer + f.broker)
	}
	return strings.NewReplacer("{id}", f.consumer, "{broker}", f.broker, "{n}", n,
		"{arg}", f.arg, "{latencyMs}", lat).Replace(tmpl)
}

// rebalanceClause says which queues each consumer pulls now: "broker-a:4–7 → c1, …".
func rebalanceClause(order []string, sets map[string][]string, zh bool) string {
	parts := make([]string, 0, min(len(order), maxRebalances)+1)
	for i, c := range order {
		if i == maxRebalances {
			parts = append(parts, pick(zh, fmt.Sprintf("%d more consumers rebalanced", len(order)-i),
				fmt.Sprintf("另有 %d 个消费者重平衡", len(order)-i)))
			break
		}
		qs := sets[c]
		if len(qs) == 0 {
			parts = append(parts, pick(zh, c+" pulls nothing", c+" 不再拉取任何队列"))
			continue
		}
		parts = append(parts, strings.Join(Ranges(qs), pick(zh, " and ", "、"))+" → "+c)
	}
	return strings.Join(parts, pick(zh, ", ", "，"))
}

type expiry struct {
	f       fact
	brokers []string
	notify  bool
}

func (x *expiry) text(zh bool) string {
	who := pick(zh, "brokers", "各 Broker")
	if len(x.brokers) == 1 {
		who = x.brokers[0]
	}
	c := x.f.consumer
	if x.f.kind == factDropIdle {
		return pick(zh, fmt.Sprintf("%s dropped %s (channel idle for %d s)", who, c, x.f.n),
			fmt.Sprintf("%s 移除了 %s（连接空闲 %d 秒）", who, c, x.f.n))
	}
	if x.notify {
		return pick(zh, who+" dropped "+c+" (channel expired)", who+" 移除了 "+c+"（连接过期）")
	}
	return pick(zh, who+" dropped "+c+" (channel expired; nobody is notified)", who+" 移除了 "+c+"（连接过期，不通知任何人）")
}

func isolationText(f fact, zh bool) string {
	if f.latency == 0 {
		return pick(zh, fmt.Sprintf("%s avoided for %d s (send failed)", f.broker, f.n),
			fmt.Sprintf("生产者规避 %s %d 秒（发送失败）", f.broker, f.n))
	}
	return pick(zh, fmt.Sprintf("%s avoided for %d s (latency %d ms)", f.broker, f.n, f.latency),
		fmt.Sprintf("生产者规避 %s %d 秒（延迟 %d 毫秒）", f.broker, f.n, f.latency))
}

type overlap struct {
	owners []string
	queues []string
}

func (o *overlap) text(zh bool) string {
	qs := Ranges(o.queues)
	if zh {
		return strings.Join(qs, "、") + " 同时被 " + list(o.owners, "、", "和") + " 拉取"
	}
	return strings.Join(qs, " and ") + " pulled by " + list(o.owners, ", ", "and")
}

// list joins items as a sentence does: "c1 and c2", "c1, c2 and c3".
func list(items []string, sep, and string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], sep) + " " + and + " " + items[len(items)-1]
}

func threwText(f fact, zh bool) string {
	return pick(zh, f.consumer+": "+f.arg+" failed; it keeps its queues and retries",
		f.consumer+"：分配策略 "+f.arg+" 出错，保留现有队列并重试")
}

// errorText keeps the refusal's own words, which name what was wrong (an id, a value).
func errorText(f fact, zh bool) string {
	return pick(zh, "refused: "+f.text, "操作被拒绝："+f.text)
}

// capped keeps the first n-1 items and says how many more there were.
func capped(items []string, n int, zh bool, enMore, zhMore string) []string {
	if len(items) <= n {
		return items
	}
	out := append([]string(nil), items[:n-1]...)
	return append(out, pick(zh, fmt.Sprintf(enMore, len(items)-n+1), fmt.Sprintf(zhMore, len(items)-n+1)))
}
