package api

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/lbscope/lbscope/core/scenario"
)

// share() → "#s=1.…", the share link of the published moment as a URL fragment, or {error}
// when there is none (past 24 h of virtual time, more actions than a link holds).
// presets() → {small, default, large, …}: the preset scenarios by name, for
// dispatch({type: "load", preset}).
func init() {
	register("share", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		link, err := a.Sess.Share()
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "share: "))
		}
		return "#s=" + link, nil
	})
	register("presets", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return scenario.Presets(), nil
	})
}
