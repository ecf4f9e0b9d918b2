package api

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/lbscope/lbscope/assets"
)

// galleryOrder is the editor's examples in the order the page lists them: each is
// assets/strategies/<id>.star, its words the page's editor.gallery.<id>.
var galleryOrder = []string{"avg", "weighted", "rounding", "region", "sticky", "composite"}

// galleryEntry is one example: its id, the strategy name it runs under and its source.
type galleryEntry struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Source string `json:"source"`
}

// Gallery is the editor's examples.
func Gallery() ([]galleryEntry, error) {
	out := make([]galleryEntry, 0, len(galleryOrder))
	for _, id := range galleryOrder {
		b, err := assets.Strategies.ReadFile("strategies/" + id + ".star")
		if err != nil {
			return nil, err
		}
		out = append(out, galleryEntry{ID: id, Name: strings.ToUpper(id) + "_EXAMPLE", Source: string(b)})
	}
	return out, nil
}

// gallery() → [{id, name, source}, …]: the editor's examples.
func init() {
	register("gallery", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return Gallery()
	})
}
