package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two pages load the same scripts from one list and show the same loader card.
func TestPartialsPutOneListAndOneLoaderInBothPages(t *testing.T) {
	root, err := repoRoot("test")
	require.NoError(t, err)
	web := filepath.Join(root, "web")
	out := t.TempDir()
	names, err := copyWeb(web, out)
	require.NoError(t, err)
	for _, n := range names {
		assert.False(t, strings.HasPrefix(n, partialsDir+"/"), "%s is in the site", n)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	embed, err := os.ReadFile(filepath.Join(out, "embed.html"))
	require.NoError(t, err)
	for _, page := range []string{string(index), string(embed)} {
		assert.NotContains(t, page, "<!--#")
		assert.Contains(t, page, `<div id="loader-progress"`)
	}
	assert.Contains(t, string(index), `<div id="loader">`)
	assert.Contains(t, string(embed), `<div id="loader" hidden>`)
	assert.Contains(t, string(index), `<script src="store.mjs" type="module"></script>`)
	assert.Contains(t, string(index), `<script src="panel.js" defer></script>`)
	assert.Contains(t, string(embed), `<script type="application/json" id="lbscope-scripts">[{"src":"wasm_exec.js"}`)
	assert.Contains(t, string(embed), `{"src":"panel.js","controls":true}`)
}

func TestPartialsRefuseAnUnknownMarker(t *testing.T) {
	root, err := repoRoot("test")
	require.NoError(t, err)
	_, err = expandPartials(filepath.Join(root, "web"), "x.html", []byte("<p>\n<!--#footer-->\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown partial")
	got, err := expandPartials(t.TempDir(), "plain.html", []byte("<p>no markers</p>"))
	require.NoError(t, err)
	assert.Equal(t, "<p>no markers</p>", string(got), "a page without markers needs no partials")
}
