// Package assets holds the files compiled into the project's binaries with //go:embed.
package assets

import "embed"

// Words is words.json: every word of the canvas, the narration and the page, by key, in
// English and Chinese. Package wasm/words reads it; `lbscope build` and `serve` write the
// page's part of it into the site as words.js, and compile the site's wasm with only the rest
// in its place (words.GoPart).
//
//go:embed words.json
var Words []byte

// Strategies are the playground's gallery of strategies written in Starlark (its editor's
// examples), one file each; wasm/api's gallery() lists them in the order the page shows.
//
//go:embed strategies/*.star
var Strategies embed.FS
