package api

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/words"
)

// lbscope.diagnose({inputs: [{name, text}], queues?, topic?, strategy?, sdk?, group?}) reads
// what the user pasted from mqadmin or the Dashboard and returns the report of
// `lbscope diagnose --json`, plus, in the page's language, a headline and a fix per finding,
// and the group as a scenario the page can load ({type: "load", scenario}). The pasted text is
// read here, in the page: it is never sent anywhere. The page must show everything from the
// paste as text, never as markup.

type diagnoseInput struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type diagnoseArgs struct {
	Inputs   []diagnoseInput `json:"inputs"`
	Queues   string          `json:"queues"`
	Topic    string          `json:"topic"`
	Strategy string          `json:"strategy"`
	SDK      string          `json:"sdk"`
	Group    string          `json:"group"`
}

// DiagnoseResult is what lbscope.diagnose returns.
type DiagnoseResult struct {
	admin.Export
	Lang string `json:"lang"`
	// Headlines holds, per finding (same order), its headline and fix in the page's language.
	Headlines []Headline `json:"headlines"`
	// Scenario is the group as a playground scenario; ScenarioError says why there is none.
	Scenario      *scenario.Scenario `json:"scenario,omitempty"`
	ScenarioLeft  []string           `json:"scenarioLeft,omitempty"`
	ScenarioError string             `json:"scenarioError,omitempty"`
}

// Headline is one finding in the page's language.
type Headline struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Fix      string `json:"fix"`
}

// findingText is each code's headline and fix in Chinese; English uses the report's own
// title and fix, which name the queues and ids.
var findingText = map[string][2]string{
	admin.CodeDuplicateClientID:  {"多个连接使用同一个客户端 ID：每个副本拉取同一批队列，下一批队列无人消费", "让每个进程的客户端 ID 唯一（设置不同的 instanceName 或客户端 IP）；同 IP 同 PID 的容器会冲突"},
	admin.CodeUnownedQueues:      {"有队列无人消费：消息在这些队列中堆积", "对照预期分配：缺失的成员、重复的 ID 或订阅不同的成员都会留下无人拉取的队列"},
	admin.CodeDoubleOwnedQueues:  {"有队列被多个成员同时持有：消息被重复消费", "让所有成员看到相同的消费者列表并使用相同的分配策略"},
	admin.CodeIdleConsumers:      {"有消费者分不到队列，只是待命", "增加主题的读写队列数，或减少消费者数量"},
	admin.CodeReadWriteMismatch:  {"读队列数与写队列数不同：部分队列无人写入或无人读取", "使读写队列数相等（mqadmin updateTopic -r N -w N）；缩容时先减写队列，消费完后再减读队列"},
	admin.CodeUnwrittenQueues:    {"部分队列从未写入消息", "检查这些 Broker 的写队列数和权限，以及生产者的 MessageQueueSelector"},
	admin.CodeSubscriptionMismat: {"同一消费组的成员订阅不同：部分消息永远不会被消费", "同一消费组的所有成员必须订阅相同的主题和表达式；不同订阅请使用不同的消费组"},
	admin.CodeMixedSDK:           {"同一消费组中混有不同 SDK 的成员", "每个消费组只使用一种 SDK，或使用两者计算结果一致的 AVG 策略"},
	admin.CodeLoopbackClientIP:   {"多个成员上报的客户端 IP 为 127.0.0.1：ID 只靠 PID 区分，可能冲突", "让主机解析到可路由的地址，或显式设置客户端 IP（ClientConfig#setClientIP）"},
	admin.CodeLagOnOwnedQueue:    {"某个队列在其持有者内部卡住：这是消费端的问题，不是负载均衡问题", "对该持有者做 jstack，查看消费线程在做什么"},
	admin.CodeGRPCConsumers:      {"该消费组是 5.x gRPC（Proxy）客户端：队列由 Proxy 分配，客户端策略不适用", "用 Proxy 的视角（消费进度、POP 指标）而不是分配结果来诊断"},
	admin.CodeAllocationOK:       {"分配正常：每个队列恰好有一个持有者", "负载均衡无需修复；如果某个队列堆积，请检查其持有者内部"},
}

func init() {
	register("diagnose", func(a *API, args json.RawMessage) (any, error) {
		const want = `{inputs: [{name: "connection.txt", text: "…what mqadmin printed…"}], queues?: "broker-a:8", topic?, strategy?, sdk?, group?}`
		var in diagnoseArgs
		if err := decode(args, &in, want); err != nil {
			return nil, err
		}
		if len(in.Inputs) == 0 {
			return nil, errors.New("needs inputs: " + want)
		}
		inputs := make([]admin.Input, len(in.Inputs))
		for i, x := range in.Inputs {
			name := x.Name
			if name == "" {
				name = fmt.Sprintf("paste %d", i+1)
			}
			inputs[i] = admin.Input{Name: name, Data: []byte(x.Text)}
		}
		rep, err := admin.Diagnose(inputs, admin.Options{Queues: in.Queues, Topic: in.Topic, Strategy: in.Strategy, SDK: in.SDK, Group: in.Group})
		if err != nil {
			return nil, err
		}
		lang := a.Lang()
		if !rep.Read.Recognised() {
			for _, x := range rep.Read.Inputs {
				if x.Error != "" {
					return nil, errors.New(x.Error)
				}
			}
			return nil, errors.New(words.Word(lang, "api.diagnose.nothing"))
		}
		out := DiagnoseResult{Export: rep.Export(), Lang: lang, Headlines: []Headline{}}
		for _, f := range rep.Findings {
			h := Headline{Code: f.Code, Severity: f.Severity, Title: f.Title, Fix: f.Fix}
			if t, ok := findingText[f.Code]; ok && lang == "zh" {
				h.Title, h.Fix = t[0], t[1]
			}
			out.Headlines = append(out.Headlines, h)
		}
		if s, left, err := rep.Group.Scenario(); err != nil {
			out.ScenarioError = err.Error()
		} else {
			out.Scenario, out.ScenarioLeft = &s, left
		}
		return out, nil
	})
}
