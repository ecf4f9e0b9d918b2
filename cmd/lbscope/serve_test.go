package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/words"
)

// These tests never build the real ./wasm: a stand-in main (one file outside the module,
// which go build accepts as command-line-arguments) keeps them fast and independent of the
// game. The first GOOS=js build of the runtime is the slow part; the build cache serves the
// later ones.

const standinMain = `package main

func main() {
	println("lbscope stand-in")
	select {}
}
`

// standin writes the stand-in main and a small web directory. The web directory holds what
// the build must copy (a nested page, a binary image) and what it must leave out (README.md,
// a dotfile, a stale wasm_exec.js and wasm).
func standin(t *testing.T) (pkg, webDir string) {
	t.Helper()
	dir := t.TempDir()
	pkg = filepath.Join(dir, "main.go")
	require.NoError(t, os.WriteFile(pkg, []byte(standinMain), 0o644))
	webDir = filepath.Join(dir, "web")
	files := map[string]string{
		"index.html":        "<!doctype html><title>stand-in</title>\n" + strings.Repeat("<p>LBScope stand-in page</p>\n", 40),
		"loader.js":         "// stand-in loader\n" + strings.Repeat("console.log('loading');\n", 40),
		"style.css":         strings.Repeat("body { margin: 0; }\n", 40),
		"tiny.css":          "a{}",
		"lessons/one.html":  "<!doctype html><title>lesson</title>\n" + strings.Repeat("<p>queues</p>\n", 40),
		"logo.png":          "\x89PNG\r\n\x1a\nnot really a png",
		"README.md":         "# not part of the site\n",
		".hidden":           "secret\n",
		"wasm_exec.js":      "// a stale copy from another Go\n",
		"old.wasm":          "\x00asm stale",
		"lessons/.DS_Store": "junk",
	}
	for name, content := range files {
		p := filepath.Join(webDir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return pkg, webDir
}

func repoRootForTest(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	root, ok := findModuleRoot(wd)
	require.True(t, ok, "the tests run inside the repository")
	return root
}

// stubSite is the stand-in site built once by TestSite for its subtests. It sits one level
// down in a directory that also holds a go.mod, so "../go.mod" names a real file to reach for.
type stubSite struct {
	dir   string // the site
	web   string
	pkg   string
	build *siteBuild
}

func TestSite(t *testing.T) {
	top := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(top, "go.mod"), []byte("module secret // outside the site\n"), 0o644))
	pkg, web := standin(t)
	st := stubSite{dir: filepath.Join(top, "site"), web: web, pkg: pkg}
	var err error
	st.build, err = buildSite(context.Background(), siteOptions{root: repoRootForTest(t), pkg: pkg, webDir: web, out: st.dir})
	require.NoError(t, err)

	t.Run("files and manifest", func(t *testing.T) { testBuildSiteFiles(t, st) })
	t.Run("reuses unchanged compression", func(t *testing.T) { testBuildSiteReuses(t, st) })
	t.Run("headers", func(t *testing.T) { testServeHeaders(t, st) })
	t.Run("etags", func(t *testing.T) { testServeETags(t, st) })
	t.Run("paths outside the site", func(t *testing.T) { testServeRefusesOutside(t, st) })
	t.Run("escaping symlinks", func(t *testing.T) { testLoadSiteSymlinks(t, st) })
	t.Run("changed files", func(t *testing.T) { testLoadSiteChanged(t, st) })
	t.Run("serve command", func(t *testing.T) { testServeBuildsThenServes(t, st) })
}

func compressibleCount(m manifest) int {
	n := 0
	for name := range m.Files {
		if compressible(name) {
			n++
		}
	}
	return n
}

func testBuildSiteFiles(t *testing.T, st stubSite) {
	site, b := st.dir, st.build
	goroot, _, err := goEnv(context.Background(), mustGo(t))
	require.NoError(t, err)

	wasm, err := os.ReadFile(filepath.Join(site, wasmName))
	require.NoError(t, err)
	assert.Equal(t, []byte("\x00asm"), wasm[:4], "lbscope.wasm is a wasm module")
	want, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", wasmExecName))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(site, wasmExecName))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "wasm_exec.js comes from the Go that built the wasm, not from web/")

	for _, name := range []string{"index.html", "loader.js", "style.css", "tiny.css", "lessons/one.html", "logo.png"} {
		assert.FileExists(t, filepath.Join(site, filepath.FromSlash(name)))
	}
	for _, name := range []string{"README.md", ".hidden", "old.wasm", "lessons/.DS_Store", "logo.png.gz", "logo.png.br", "tiny.css.gz", "tiny.css.br"} {
		assert.NoFileExists(t, filepath.Join(site, filepath.FromSlash(name)))
	}

	m, err := readManifest(site)
	require.NoError(t, err)
	assert.Equal(t, b.manifest, *m)
	assert.Equal(t, defaultBrotliQuality, m.BrotliQuality)
	assert.Equal(t, 9, m.GzipLevel)
	assert.Regexp(t, `^go1\.`, m.Go)
	names := []string{"index.html", "lessons/one.html", "loader.js", "logo.png", "lbscope.wasm", starlarkName, diagnoseName, "style.css", "tiny.css", "wasm_exec.js", wordsName}
	assert.ElementsMatch(t, names, keys(m.Files))

	for name, f := range m.Files {
		raw, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(name)))
		require.NoError(t, err)
		assert.Equal(t, int64(len(raw)), f.Raw, name)
		assert.Equal(t, f.Raw, f.Decoded, name)
		for _, s := range []struct {
			suffix string
			size   int64
			decode func(io.Reader) (io.Reader, error)
		}{
			{".gz", f.Gzip, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
			{".br", f.Brotli, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		} {
			if s.size == 0 {
				continue
			}
			enc, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(name+s.suffix)))
			require.NoError(t, err)
			assert.Equal(t, int64(len(enc)), s.size, name+s.suffix)
			assert.Less(t, s.size, f.Raw, name+s.suffix)
			r, err := s.decode(bytes.NewReader(enc))
			require.NoError(t, err)
			dec, err := io.ReadAll(r)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(raw, dec), "%s decodes to %s", name+s.suffix, name)
		}
	}
	for _, name := range []string{"lbscope.wasm", starlarkName, diagnoseName, "wasm_exec.js", "index.html", "loader.js", "style.css", "lessons/one.html"} {
		assert.Positive(t, m.Files[name].Gzip, name)
		assert.Positive(t, m.Files[name].Brotli, name)
	}
	assert.Less(t, m.Files[wasmName].Brotli, m.Files[wasmName].Gzip, "brotli beats gzip on the wasm")
	assert.Zero(t, m.Files["logo.png"].Gzip, "images are not precompressed")
	assert.Zero(t, m.Files["tiny.css"].Brotli, "a sibling that is not smaller is not written")
}

func testBuildSiteReuses(t *testing.T, st stubSite) {
	site := st.dir
	out := filepath.Join(t.TempDir(), "site")
	b, err := buildSite(context.Background(), siteOptions{
		root: repoRootForTest(t), pkg: st.pkg, webDir: st.web, out: out, reuse: site,
	})
	require.NoError(t, err)
	assert.Equal(t, 0, b.compressed, "the same wasm and web files: every sibling is reused")
	assert.Equal(t, compressibleCount(st.build.manifest), b.reused)
	first, _ := readManifest(site)
	assert.Equal(t, *first, b.manifest, "reuse changes nothing in the site")
}

func TestBuildSiteRemovesWhatAnEarlierBuildListed(t *testing.T) {
	pkg, web := standin(t)
	out := filepath.Join(t.TempDir(), "dist")
	root := repoRootForTest(t)
	_, err := buildSite(context.Background(), siteOptions{root: root, pkg: pkg, webDir: web, out: out})
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(web, "lessons", "one.html")))
	_, err = buildSite(context.Background(), siteOptions{root: root, pkg: pkg, webDir: web, out: out})
	require.NoError(t, err)
	for _, name := range []string{"one.html", "one.html.gz", "one.html.br"} {
		assert.NoFileExists(t, filepath.Join(out, "lessons", name))
	}
	m, err := readManifest(out)
	require.NoError(t, err)
	assert.NotContains(t, m.Files, "lessons/one.html")
}

func TestBuildSiteRefusesToWriteIntoWeb(t *testing.T) {
	pkg, web := standin(t)
	_, err := buildSite(context.Background(), siteOptions{root: repoRootForTest(t), pkg: pkg, webDir: web, out: filepath.Join(web, "dist")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "which it is copied from")
	assert.NoDirExists(t, filepath.Join(web, "dist"))
}

func TestBuildSiteReportsCompileErrors(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "main.go")
	require.NoError(t, os.WriteFile(pkg, []byte("package main\n\nfunc main() { undefinedThing() }\n"), 0o644))
	_, web := standin(t)
	_, err := buildSite(context.Background(), siteOptions{root: repoRootForTest(t), pkg: pkg, webDir: web, out: filepath.Join(dir, "out")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "for js/wasm failed:")
	assert.Contains(t, err.Error(), "undefinedThing")
}

// startServer serves the stand-in site on 127.0.0.1:0 through serve itself, as the command
// does after its build, and stops it when the test ends.
func startServer(t *testing.T, site string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() { done <- serve(ctx, serveConfig{listener: ln, site: site, noBuild: true}, &stdout, &stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case status := <-done:
			assert.Equal(t, 0, status, stderr.String())
		case <-time.After(60 * time.Second): // a coarse guard against a hang, not a speed bound
			t.Error("serve did not stop")
		}
	})
	base := "http://" + ln.Addr().String() + "/"
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "\n") }, 60*time.Second, 10*time.Millisecond, "serve printed no URL in a minute (a coarse guard against a hang, not a speed bound)")
	assert.Equal(t, "LBScope playground: "+base+"\n", stdout.String(), "exactly one line, with the URL")
	return base
}

func get(t *testing.T, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if acceptEncoding != "" {
		// Set explicitly, so the client hands back the body as sent.
		req.Header.Set("Accept-Encoding", acceptEncoding)
	} else {
		req.Header.Set("Accept-Encoding", "identity")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

func testServeHeaders(t *testing.T, st stubSite) {
	site := st.dir
	base := startServer(t, site)
	m, err := readManifest(site)
	require.NoError(t, err)

	resp, body := get(t, base, "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	assert.Equal(t, string(index), string(body), "/ is index.html")
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	csp := resp.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "script-src 'self' 'wasm-unsafe-eval'")
	assert.Contains(t, csp, "style-src 'self'")
	assert.Contains(t, csp, "default-src 'self'")
	assert.NotContains(t, csp, "unsafe-inline")
	assert.NotContains(t, csp, "'unsafe-eval'")
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))

	for name, want := range map[string]string{
		"lbscope.wasm":     "application/wasm",
		starlarkName:       "application/wasm",
		diagnoseName:       "application/wasm",
		"wasm_exec.js":     "text/javascript; charset=utf-8",
		"loader.js":        "text/javascript; charset=utf-8",
		"style.css":        "text/css; charset=utf-8",
		"lessons/one.html": "text/html; charset=utf-8",
		"logo.png":         "image/png",
		"build.json":       "application/json",
	} {
		resp, body := get(t, base+name, "")
		require.Equal(t, http.StatusOK, resp.StatusCode, name)
		assert.Equal(t, want, resp.Header.Get("Content-Type"), name)
		assert.Empty(t, resp.Header.Get("Content-Encoding"), name)
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), name)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), name)
		raw, _ := os.ReadFile(filepath.Join(site, filepath.FromSlash(name)))
		assert.True(t, bytes.Equal(raw, body), name)
	}

	wasm := m.Files[wasmName]
	rawWasm, _ := os.ReadFile(filepath.Join(site, wasmName))
	for _, tc := range []struct {
		accept, want string
		size         int64
	}{
		{"gzip, deflate, br", "br", wasm.Brotli},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", "br", wasm.Brotli},
		{"gzip", "gzip", wasm.Gzip},
		{"x-gzip", "gzip", wasm.Gzip},
		{"br;q=0, gzip", "gzip", wasm.Gzip},
		{"br;q=0.5, gzip", "gzip", wasm.Gzip},
		{"*", "br", wasm.Brotli},
		{"identity", "", wasm.Raw},
		{"deflate", "", wasm.Raw},
		{"*;q=0", "", wasm.Raw},
	} {
		resp, body := get(t, base+wasmName, tc.accept)
		require.Equal(t, http.StatusOK, resp.StatusCode, tc.accept)
		assert.Equal(t, tc.want, resp.Header.Get("Content-Encoding"), tc.accept)
		assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"), tc.accept)
		assert.Equal(t, "Accept-Encoding", resp.Header.Get("Vary"), tc.accept)
		assert.Equal(t, strconv.FormatInt(wasm.Raw, 10), resp.Header.Get("X-Decoded-Length"), tc.accept)
		assert.Equal(t, strconv.FormatInt(tc.size, 10), resp.Header.Get("Content-Length"), tc.accept)
		assert.Equal(t, tc.size, int64(len(body)), tc.accept)
		var r io.Reader = bytes.NewReader(body)
		switch tc.want {
		case "br":
			r = brotli.NewReader(r)
		case "gzip":
			r, err = gzip.NewReader(r)
			require.NoError(t, err)
		}
		decoded, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(rawWasm, decoded), "%q: the body decodes to lbscope.wasm", tc.accept)
	}

	// A file without siblings is the same for every client: no Vary.
	resp, _ = get(t, base+"logo.png", "br, gzip")
	assert.Empty(t, resp.Header.Get("Content-Encoding"))
	assert.Empty(t, resp.Header.Get("Vary"))
}

func testServeETags(t *testing.T, st stubSite) {
	site := st.dir
	base := startServer(t, site)
	etags := map[string]bool{}
	for _, accept := range []string{"br", "gzip", "identity"} {
		resp, _ := get(t, base+wasmName, accept)
		etag := resp.Header.Get("ETag")
		require.NotEmpty(t, etag)
		etags[etag] = true
		req, _ := http.NewRequest(http.MethodGet, base+wasmName, nil)
		req.Header.Set("Accept-Encoding", accept)
		req.Header.Set("If-None-Match", etag)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotModified, resp.StatusCode, accept)
	}
	assert.Len(t, etags, 3, "each encoding has its own ETag")

	req, _ := http.NewRequest(http.MethodHead, base+wasmName, nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	assert.NotEmpty(t, resp.Header.Get("X-Decoded-Length"))

	resp, err = http.Post(base, "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
}

// rawGet sends a request line exactly as written, since clients (Go's, curl) clean paths.
func rawGet(t *testing.T, addr, target string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func testServeRefusesOutside(t *testing.T, st stubSite) {
	site := st.dir
	// Bait outside the site: a symlink inside it that escapes, and the go.mod one level up.
	require.NoError(t, os.Symlink(filepath.Join("..", "go.mod"), filepath.Join(site, "escape.txt")))
	t.Cleanup(func() { os.Remove(filepath.Join(site, "escape.txt")) })
	base := startServer(t, site)
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")

	for _, target := range []string{
		"/../go.mod",
		"/%2e%2e/go.mod",
		"/%2E%2E/go.mod",
		"/..%2fgo.mod",
		"/.%2e/go.mod",
		"/%2e%2e%2fgo.mod",
		"/lessons/../../go.mod",
		"/lessons/%2e%2e/%2e%2e/go.mod",
		"//etc/passwd",
		"/%2fetc/passwd",
		"/..\\go.mod",
		"/.\\..\\go.mod",
		"/escape.txt",
		"/build.json/../../go.mod",
		"/./index.html",
		"/lessons//one.html",
		"/index.html%00",
		"/lessons",
		"/README.md",
		"/.hidden",
	} {
		status, body := rawGet(t, addr, target)
		assert.Equal(t, http.StatusNotFound, status, target)
		assert.NotContains(t, body, "secret", target)
		assert.NotContains(t, body, "root:", target)
	}
	status, _ := rawGet(t, addr, "/lessons/one.html")
	assert.Equal(t, http.StatusOK, status)
	status, _ = rawGet(t, addr, "/%69ndex.html") // an encoded ordinary letter is still the file
	assert.Equal(t, http.StatusOK, status)
}

func testLoadSiteSymlinks(t *testing.T, st stubSite) {
	site := st.dir
	copyDir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, os.CopyFS(copyDir, os.DirFS(site)))
	outside := filepath.Join(t.TempDir(), "style.css")
	raw, _ := os.ReadFile(filepath.Join(copyDir, "style.css"))
	require.NoError(t, os.WriteFile(outside, raw, 0o644))
	require.NoError(t, os.Remove(filepath.Join(copyDir, "style.css")))
	require.NoError(t, os.Symlink(outside, filepath.Join(copyDir, "style.css")))

	_, err := loadSite(copyDir)
	require.Error(t, err, "a listed file that is a symlink out of the site")
	assert.Contains(t, err.Error(), "style.css")

	m, _ := readManifest(site)
	m.Files["../go.mod"] = manifestFile{Raw: 1}
	data, _ := json.Marshal(m)
	require.NoError(t, os.Remove(filepath.Join(copyDir, "style.css")))
	require.NoError(t, os.WriteFile(filepath.Join(copyDir, "style.css"), raw, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(copyDir, manifestName), data, 0o644))
	_, err = loadSite(copyDir)
	require.Error(t, err, "a build.json naming a path outside the site")
	assert.Contains(t, err.Error(), `"../go.mod"`)
}

func testLoadSiteChanged(t *testing.T, st stubSite) {
	site := st.dir
	copyDir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, os.CopyFS(copyDir, os.DirFS(site)))
	p := filepath.Join(copyDir, "style.css")
	raw, _ := os.ReadFile(p)
	raw[0] ^= 1
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	_, err := loadSite(copyDir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "style.css changed since it was built")
}

// The serve command end to end: it builds into its cache directory, reusing an earlier build's
// compression, prints one line, serves, and stops cleanly when its context ends (as on
// SIGINT/SIGTERM).
func testServeBuildsThenServes(t *testing.T, st stubSite) {
	cache := filepath.Join(t.TempDir(), "lbscope", "site")
	require.NoError(t, os.CopyFS(cache, os.DirFS(st.dir)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- serve(ctx, serveConfig{listener: ln, site: cache, pkg: st.pkg, root: repoRootForTest(t), webDir: st.web}, &stdout, &stderr)
	}()
	require.Eventually(t, func() bool { return stdout.String() != "" }, 60*time.Second, 20*time.Millisecond, stderr.String())

	url := "http://" + ln.Addr().String() + "/"
	assert.Equal(t, "LBScope playground: "+url+"\n", stdout.String())
	assert.Contains(t, stderr.String(), "building "+st.pkg+" for js/wasm with go1.")
	n := compressibleCount(st.build.manifest)
	assert.Contains(t, stderr.String(), fmt.Sprintf("%d of %d compressed files reused", n, n), "an unchanged wasm keeps its compression")
	resp, _ := get(t, url+wasmName, "br")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	entries, _ := os.ReadDir(filepath.Dir(cache))
	assert.Len(t, entries, 1, "the staging directory was swapped in, nothing left beside it")

	cancel()
	select {
	case status := <-done:
		assert.Equal(t, 0, status, stderr.String())
	case <-time.After(60 * time.Second): // a coarse guard against a hang, not a speed bound
		t.Fatal("serve did not stop")
	}
	assert.Equal(t, "LBScope playground: "+url+"\n", stdout.String(), "still one line on stdout")
	_, err = http.Get(url)
	assert.Error(t, err, "the listener is closed")
}

func TestServeCommandFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "8080"}, `lbscope serve: --addr "8080" is not host:port, e.g. 127.0.0.1:8080`},
		{[]string{"serve", "--addr", "127.0.0.1:http"}, `lbscope serve: --addr "127.0.0.1:http" is not host:port, e.g. 127.0.0.1:8080`},
		{[]string{"serve", "--addr", "127.0.0.1:70000"}, `lbscope serve: --addr "127.0.0.1:70000" is not host:port, e.g. 127.0.0.1:8080`},
		{[]string{"serve", "--addr", "bad host:80"}, `lbscope serve: --addr "bad host:80" is not host:port, e.g. 127.0.0.1:8080`},
		{[]string{"serve", "--port", "80"}, "lbscope serve: flag provided but not defined: -port (see lbscope serve --help)"},
		{[]string{"serve", "now"}, `lbscope serve: unexpected argument "now" (the address goes in --addr)`},
		{[]string{"build"}, "lbscope build: --out is required, e.g. lbscope build --out dist"},
		{[]string{"build", "--out"}, "lbscope build: flag needs an argument: -out (see lbscope build --help)"},
		{[]string{"build", "--out", "x", "y"}, `lbscope build: unexpected argument "y" (the directory goes in --out)`},
		{[]string{"build", "--out", "x", "--brotli-quality", "12"}, "lbscope build: --brotli-quality 12 is out of range 1-11"},
		{[]string{"build", "--out", "x", "--brotli-quality", "0"}, "lbscope build: --brotli-quality 0 is out of range 1-11"},
	} {
		stdout, stderr, status := lbscope(t, "", tc.args...)
		assert.Equal(t, 2, status, tc.args)
		assert.Empty(t, stdout, tc.args)
		assert.Equal(t, tc.want+"\n", stderr, tc.args)
	}
}

func TestServeHelp(t *testing.T) {
	for _, cmd := range []string{"serve", "build"} {
		stdout, _, status := lbscope(t, "", cmd, "--help")
		assert.Equal(t, 0, status)
		assert.Contains(t, stdout, "lbscope "+cmd)
		assert.Contains(t, stdout, "-pkg")
	}
	stdout, _, _ := lbscope(t, "", "--help")
	assert.Contains(t, stdout, "serve")
	assert.Contains(t, stdout, "build")
}

func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	addr := ln.Addr().String()
	// Refused before any build, so no repository, site or go command is touched.
	stdout, stderr, status := lbscope(t, "", "serve", "--addr", addr)
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, "lbscope serve: "+addr+" is in use; choose another with --addr\n", stderr)
}

func TestBuildRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	stdout, stderr, status := lbscope(t, "", "build", "--out", dir)
	assert.Equal(t, 2, status)
	assert.Empty(t, stdout)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "is not empty and holds no site written by lbscope build")
	assert.FileExists(t, filepath.Join(dir, "notes.txt"))

	file := filepath.Join(dir, "notes.txt")
	_, stderr, status = lbscope(t, "", "build", "--out", file)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "is a file, not a directory")
}

// The build command as a user runs it, on the repository's own web/ and a stand-in wasm.
func TestBuildCommand(t *testing.T) {
	pkg, _ := standin(t)
	out := filepath.Join(t.TempDir(), "dist")
	stdout, stderr, status := lbscope(t, "", "build", "--out", out, "--pkg", pkg, "--brotli-quality", "5")
	require.Equal(t, 0, status, stderr)
	assert.Contains(t, stdout, "wrote "+out)
	assert.Regexp(t, `(?m)^\s*lbscope\.wasm\s+[0-9,]+\s+[0-9,]+\s+[0-9,]+\s*$`, stdout)
	m, err := readManifest(out)
	require.NoError(t, err)
	assert.Equal(t, 5, m.BrotliQuality)
	assert.Contains(t, m.Files, "index.html")
	assert.Contains(t, m.Files, "loader.js")
	assert.Contains(t, m.Files, wasmExecName)
	assert.NotContains(t, m.Files, "README.md")
	// words.js is the page's dictionary, generated from the one source.
	assert.Contains(t, m.Files, wordsName)
	js, err := os.ReadFile(filepath.Join(out, wordsName))
	require.NoError(t, err)
	_, literal, ok := strings.Cut(strings.TrimSuffix(string(js), ";\n"), "window.LB.words = ")
	require.True(t, ok, "words.js does not set LB.words: %s", js)
	var dict map[string]map[string]string
	require.NoError(t, json.Unmarshal([]byte(literal), &dict))
	assert.Equal(t, words.Page(), dict)
	assert.Equal(t, "运行中", dict["zh"]["status.alive"])
	assert.Equal(t, "Kill", dict["en"]["command.killConsumer"])
	assert.Equal(t, "Pause", dict["en"]["panel.pause"])
	// A second build into the same directory is allowed: it holds a site.
	_, stderr, status = lbscope(t, "", "build", "--out", out, "--pkg", pkg, "--brotli-quality", "5")
	require.Equal(t, 0, status, stderr)
}

func TestFindModuleRoot(t *testing.T) {
	root := repoRootForTest(t)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	assert.Equal(t, lbscopeModule, modulePath(gomod))

	got, ok := findModuleRoot(filepath.Join(root, "scripts", "peerbench"))
	assert.True(t, ok, "another module inside the repository is passed by")
	assert.Equal(t, root, got)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n"), 0o644))
	_, ok = findModuleRoot(dir)
	assert.False(t, ok)

	for gomod, want := range map[string]string{
		"module github.com/lbscope/lbscope\n\ngo 1.26\n":     lbscopeModule,
		"// c\nmodule \"github.com/lbscope/lbscope\" // x\n": lbscopeModule,
		"modulex foo\n": "",
		"go 1.26\n":     "",
	} {
		assert.Equal(t, want, modulePath([]byte(gomod)), gomod)
	}
}

func TestSiteName(t *testing.T) {
	for p, want := range map[string]string{
		"/":                  "index.html",
		"/index.html":        "index.html",
		"/lessons/":          "lessons/index.html",
		"/lessons/one.html":  "lessons/one.html",
		"/../go.mod":         "",
		"//etc/passwd":       "",
		"/a/./b":             "",
		"/a//b":              "",
		"/a/../b":            "",
		"/..":                "",
		"/a\\..\\b":          "",
		"/a\x00":             "",
		"index.html":         "",
		"/lessons/../../etc": "",
	} {
		got, ok := siteName(p)
		assert.Equal(t, want != "", ok, p)
		assert.Equal(t, want, got, p)
	}
}

// index.html and loader.js must work under the CSP lbscope serve sends: no inline script,
// event handler attributes or style attributes; scripts in the order the loader needs.
func TestWebPageFollowsTheCSP(t *testing.T) {
	root := repoRootForTest(t)
	page, err := os.ReadFile(filepath.Join(root, "web", "index.html"))
	require.NoError(t, err)
	page, err = expandPartials(filepath.Join(root, "web"), "index.html", page) // as lbscope build writes it
	require.NoError(t, err)
	html := string(page)
	noComments := regexp.MustCompile(`(?s)<!--.*?-->`).ReplaceAllString(html, "")
	for _, m := range regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`).FindAllStringSubmatch(noComments, -1) {
		if strings.Contains(m[1], `type="application/json"`) && !strings.Contains(m[1], "src=") {
			// A data block (the canvas's colours) is never run: it must hold JSON and only that.
			assert.True(t, json.Valid([]byte(m[2])), "a data block holds JSON: %.200s", m[0])
			continue
		}
		assert.Contains(t, m[1], "src=", "no inline script: %s", m[0])
		assert.Empty(t, strings.TrimSpace(m[2]), "no inline script: %s", m[0])
	}
	assert.NotRegexp(t, `(?i)\son[a-z]+\s*=`, noComments, "no event handler attributes")
	assert.NotRegexp(t, `(?i)\sstyle\s*=`, noComments, "no style attributes")
	assert.NotRegexp(t, `(?i)<style\b`, noComments, "no style elements")

	order := []string{`src="wasm_exec.js"`, `src="loader.js"`, `src="panel.js"`}
	last := -1
	for _, s := range order {
		i := strings.Index(noComments, s)
		require.GreaterOrEqual(t, i, 0, s)
		assert.Greater(t, i, last, "%s comes after the scripts it needs", s)
		last = i
	}
	for _, s := range []string{`<main`, `id="stage"`, `id="panel"`, `id="loader"`, `role="progressbar"`,
		`aria-valuenow=`, `id="loader-status"`, `id="loader-error"`, `id="loader-reload"`, `href="style.css"`, `href="panel.css"`} {
		assert.Contains(t, noComments, s)
	}

	js, err := os.ReadFile(filepath.Join(root, "web", "loader.js"))
	require.NoError(t, err)
	for _, banned := range []string{"eval(", "new Function", "innerHTML", "setAttribute(\"style\"", "=>", "async ", "await ", "`"} {
		assert.False(t, strings.Contains(string(js), banned), "loader.js stays CSP-clean ES5: %q", banned)
	}
	for _, s := range []string{"window.lbscopeLoader", "window.lbscopeFatal", "X-Decoded-Length", "getReader",
		"go.importObject", "typeof WebAssembly", `s("loader.noWasm")`, `s("loader.stopped")`} {
		assert.True(t, strings.Contains(string(js), s), "loader.js has %q", s)
	}
	// The loader's words come from words.js, which an old browser reads too: plain ES5 data.
	words := string(wordsJS())
	_, literal, ok := strings.Cut(strings.TrimSuffix(words, ";\n"), "window.LB = window.LB || {};\nwindow.LB.words = ")
	require.True(t, ok, "words.js: %.200s", words)
	assert.True(t, json.Valid([]byte(literal)), "words.js holds one JSON literal")
	for _, s := range []string{"Your browser cannot run WebAssembly, which the LBScope playground needs. Try a current Firefox, Chrome, Edge or Safari.",
		"The simulation stopped unexpectedly"} {
		assert.Contains(t, words, s)
	}
}

func TestAcceptedEncoding(t *testing.T) {
	for _, tc := range []struct {
		header         []string
		haveBr, haveGz bool
		want           string
	}{
		{nil, true, true, ""},
		{[]string{"gzip, deflate, br, zstd"}, true, true, "br"},
		{[]string{"gzip, deflate, br"}, false, true, "gzip"},
		{[]string{"br"}, false, true, ""},
		{[]string{"gzip;q=1, br;q=0.9"}, true, true, "gzip"},
		{[]string{"GZIP", "BR"}, true, true, "br"},
		{[]string{"br ; q=0"}, true, true, ""},
		{[]string{"*;q=0.5, br;q=0"}, true, true, "gzip"},
		{[]string{"identity"}, true, true, ""},
	} {
		assert.Equal(t, tc.want, acceptedEncoding(tc.header, tc.haveBr, tc.haveGz), tc.header)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustGo(t *testing.T) string {
	t.Helper()
	goTool, err := findGo()
	require.NoError(t, err)
	return goTool
}

// syncBuffer is a bytes.Buffer safe for serve's goroutine and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
