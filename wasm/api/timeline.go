package api

import (
	"encoding/json"
	"errors"
)

// timeline() → {nowMs, horizonMs, paused, actions: [{t, text}], checkpoints: [t…]}: what the
// scrubber under the stage draws. Moving along it is the seek command; discarding the future
// is the continue command, both through dispatch.
func init() {
	register("timeline", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return a.Sess.Timeline(), nil
	})
}
