package api

import (
	"encoding/json"
	"errors"

	"github.com/lbscope/lbscope/core/allocate"
)

// strategyJSON is one entry of the strategy table as lbscope.strategies() gives it.
type strategyJSON struct {
	*allocate.StrategySpec
	Params []allocate.ParamSpec `json:"params"`
}

// Strategies is the strategy table in the page's shape:
//
//	lbscope.strategies() → [{name, suffix?, words: {en: {hint}, zh: {…}}, params: [{name,
//	                         type: "int"|"enum"|"names"|"queues", unit?, min?, max?, default?,
//	                         enum?, when?: {param, is}, words: {en: {label, hint?}, zh: {…}}}]}, …]
//
// in the table's order: RocketMQ's six, then any registered since. The panel and the Compare
// tab build their strategy choice and parameter inputs from it.
func Strategies() []strategyJSON {
	var out []strategyJSON
	for _, s := range allocate.Strategies() {
		e := strategyJSON{StrategySpec: s, Params: s.Params}
		if e.Params == nil {
			e.Params = []allocate.ParamSpec{}
		}
		out = append(out, e)
	}
	return out
}

func init() {
	register("strategies", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return Strategies(), nil
	})
}
