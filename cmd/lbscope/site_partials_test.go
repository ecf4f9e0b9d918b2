package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/view"
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
	assert.NotContains(t, names, "package.json", "Node's marker of modules is not in the site")
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
	assert.Contains(t, string(index), `<script src="panel.js" type="module"></script>`)
	assert.Contains(t, string(index), `<script src="loader.js" defer></script>`, "loader.js stays classic")
	assert.Contains(t, string(embed), `<script type="application/json" id="lbscope-scripts">[{"src":"wasm_exec.js","classic":true}`)
	assert.Contains(t, string(embed), `{"src":"panel.js","controls":true}`)
	palette := `<script type="application/json" id="lbscope-palette">` + string(paletteJSON()) + "</script>"
	assert.Contains(t, string(index), palette)
	assert.Contains(t, string(embed), palette)
}

// Every page script is an ES module except the four that cannot be: Go's wasm_exec.js as Go
// ships it, the generated words.js, which loader.js reads, loader.js, which must run where
// modules do not to say that the browser is too old, and lazy.js (the second wasms), which
// loader.js waits on before it starts a share link.
func TestPartialsLoadEveryScriptButThreeAsAModule(t *testing.T) {
	root, err := repoRoot("test")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "web", partialsDir, "scripts.json"))
	require.NoError(t, err)
	var list []pageScript
	require.NoError(t, json.Unmarshal(data, &list))
	var classic []string
	for _, sc := range list {
		if sc.Classic {
			classic = append(classic, sc.Src)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, "web", sc.Src))
		require.NoError(t, err)
		assert.NotRegexp(t, `(?m)^\(function \(\) \{`, string(src), "%s is a module, not a wrapped classic script", sc.Src)
		assert.NotContains(t, string(src), "window.LB.store", "%s imports the store from store.mjs", sc.Src)
		assert.NotContains(t, string(src), "window.LB.h", "%s imports h from i18n.js", sc.Src)
	}
	assert.Equal(t, []string{wasmExecName, wordsName, "lazy.js", "loader.js"}, classic)
}

// The canvas's colours reach the page from wasm/view, not from a copy: both themes, each
// colour as the canvas draws it, and no page script keeps a palette of its own.
func TestPaletteIsTheCanvasThemes(t *testing.T) {
	var looks map[string]pageLook
	require.NoError(t, json.Unmarshal(paletteJSON(), &looks))
	require.Len(t, looks, 2)
	for _, th := range []view.Theme{view.DarkTheme, view.LightTheme} {
		l, ok := looks[th.Name]
		require.True(t, ok, th.Name)
		require.Len(t, l.Palette, len(th.Palette))
		for i, c := range th.Palette {
			assert.Equal(t, c.Hex(), l.Palette[i], "%s palette[%d]", th.Name, i)
		}
		assert.Equal(t, th.Background.Hex(), l.Background, th.Name)
		assert.Equal(t, th.Empty.Hex(), l.Empty, th.Name)
		assert.Equal(t, th.Text.Hex(), l.Text, th.Name)
	}
	assert.Equal(t, "#e69f00", looks["dark"].Palette[0], "Okabe–Ito's orange")
	assert.Equal(t, "#1b1d23", looks["dark"].Background)

	root, err := repoRoot("test")
	require.NoError(t, err)
	scripts, err := filepath.Glob(filepath.Join(root, "web", "*.*js"))
	require.NoError(t, err)
	for _, p := range scripts {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, th := range []view.Theme{view.DarkTheme, view.LightTheme} {
			for _, c := range th.Palette {
				assert.NotContains(t, strings.ToLower(string(src)), c.Hex(), "%s keeps a copy of the %s palette", filepath.Base(p), th.Name)
			}
		}
	}
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
