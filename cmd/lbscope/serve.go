package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"maps"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const serveUsage = `Usage:
  lbscope serve [--addr 127.0.0.1:8080] [--no-build]

Builds the browser playground and serves it: lbscope.wasm is built for js/wasm with the Go
that runs this command, next to that Go's wasm_exec.js and the files of web/, precompressed
with brotli and gzip, into a cache directory (rebuilt at every start; unchanged files keep
their compressed copies). Prints the URL to open; Ctrl-C stops it.

Run it from inside the LBScope repository:
  go run ./cmd/lbscope serve
  go run ./cmd/lbscope serve --addr 127.0.0.1:9000
  go run ./cmd/lbscope serve --no-build       # serve the last build as it is

Flags:
`

const buildUsage = `Usage:
  lbscope build --out DIR [--pkg ./wasm] [--brotli-quality 9]

Writes the browser playground as a static site for any static host: lbscope.wasm (built for
js/wasm with the Go that runs this command) and the wasms the page loads when first needed
(starlark.wasm, the Strategy tab's interpreter; diagnose.wasm, the Import dialog's reader),
that Go's wasm_exec.js, every file of web/, .br and .gz siblings of the wasm, js, html, css,
json and svg files, and build.json with each file's raw, gzip, brotli and decoded size.

A host should serve every .wasm as application/wasm. One that serves a .br or .gz sibling
with Content-Encoding should also send X-Decoded-Length (the decoded size in build.json), as
lbscope serve does; without it the page reads build.json to size its progress bar.

DIR must be new, empty, or a site an earlier lbscope build wrote there (its files are
replaced; files it listed that are gone from web/ are removed).

Examples:
  go run ./cmd/lbscope build --out dist
  go run ./cmd/lbscope build --out dist --brotli-quality 10   # ~15 s more for a 10% smaller wasm

Flags:
`

const defaultAddr = "127.0.0.1:8080"

func runBuild(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fs.String("out", "", "directory to write the site to (required)")
	pkg := fs.String("pkg", defaultPkg, "the wasm's main package, relative to the repository root")
	quality := fs.Int("brotli-quality", defaultBrotliQuality, "brotli quality, 1-11 (9: ~5 s for the wasm; 10: ~20 s and 10% smaller)")
	if done, status := parseFlags(fs, buildUsage, args, stdout, stderr); done {
		return status
	}
	if fs.NArg() > 0 {
		return fail(stderr, "build", fmt.Errorf("unexpected argument %q (the directory goes in --out)", fs.Arg(0)))
	}
	if *out == "" {
		return fail(stderr, "build", errors.New("--out is required, e.g. lbscope build --out dist"))
	}
	if *quality < 1 || *quality > 11 {
		return fail(stderr, "build", fmt.Errorf("--brotli-quality %d is out of range 1-11", *quality))
	}
	if err := checkOutDir(*out); err != nil {
		return fail(stderr, "build", err)
	}
	root, err := repoRoot("build")
	if err != nil {
		return fail(stderr, "build", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := buildSite(ctx, siteOptions{root: root, pkg: *pkg, out: *out, brotliQuality: *quality, log: prefixed(stderr, "build")})
	if err != nil {
		if ctx.Err() != nil {
			err = errors.New("interrupted")
		}
		fmt.Fprintf(stderr, "lbscope build: %v\n", err)
		return 1
	}
	abs, _ := filepath.Abs(*out)
	fmt.Fprintf(stdout, "wrote %s in %s (%s, go build %s, compression %s)\n",
		abs, seconds(b.total), b.manifest.Go, seconds(b.goBuild), seconds(b.compress))
	names := slices.Sorted(maps.Keys(b.manifest.Files))
	width := len("FILE")
	for _, name := range names {
		width = max(width, len(name))
	}
	fmt.Fprintf(stdout, "%-*s  %12s  %12s  %12s\n", width, "FILE", "RAW", "GZIP", "BROTLI")
	for _, name := range names {
		f := b.manifest.Files[name]
		fmt.Fprintf(stdout, "%-*s  %12s  %12s  %12s\n", width, name, commas(f.Raw), commas(f.Gzip), commas(f.Brotli))
	}
	return 0
}

// checkOutDir refuses to write into a directory that holds something other than a site:
// a mistyped --out must not mix the site into (or later clean up) someone's files.
func checkOutDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("--out %s is a file, not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, manifestName)); err == nil {
		return nil
	}
	return fmt.Errorf("--out %s is not empty and holds no site written by lbscope build (no %s); choose a new or empty directory", dir, manifestName)
}

func repoRoot(cmd string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, ok := findModuleRoot(wd)
	if !ok {
		return "", fmt.Errorf("run lbscope %s from inside the LBScope repository (no go.mod of module %s in %s or above)", cmd, lbscopeModule, wd)
	}
	return root, nil
}

// serveConfig is what serve needs; tests fill in listener and site directly.
type serveConfig struct {
	addr     string
	listener net.Listener // when set, serve on it instead of listening on addr
	site     string       // the directory the site is built into and served from
	noBuild  bool         // serve the site already in site, if there is one
	pkg      string
	root     string // the module root; found from the working directory when empty
	webDir   string // the site's own files; root/web when empty
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr, "host:port to listen on (127.0.0.1 keeps it to this machine)")
	noBuild := fs.Bool("no-build", false, "serve the site built at the last start instead of rebuilding it (builds when there is none)")
	pkg := fs.String("pkg", defaultPkg, "the wasm's main package, relative to the repository root")
	if done, status := parseFlags(fs, serveUsage, args, stdout, stderr); done {
		return status
	}
	if fs.NArg() > 0 {
		return fail(stderr, "serve", fmt.Errorf("unexpected argument %q (the address goes in --addr)", fs.Arg(0)))
	}
	if err := checkAddr(*addr); err != nil {
		return fail(stderr, "serve", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, serveConfig{addr: *addr, site: defaultSiteDir(), noBuild: *noBuild, pkg: *pkg}, stdout, stderr)
}

// defaultSiteDir keeps the site in the user's cache, so --no-build has something to serve.
func defaultSiteDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "lbscope", "site")
}

// checkAddr accepts host:port with a numeric port; the host may be empty (every interface).
func checkAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	bad := fmt.Errorf("--addr %q is not host:port, e.g. %s", addr, defaultAddr)
	if err != nil {
		return bad
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return bad
	}
	if host != "" && net.ParseIP(host) == nil && strings.ContainsFunc(host, func(r rune) bool {
		return !(r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return bad
	}
	return nil
}

// serve listens first, so a port in use is reported before a long build, then builds, loads
// the site and serves it until ctx ends.
func serve(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer) int {
	ln := cfg.listener
	if ln == nil {
		var err error
		ln, err = net.Listen("tcp", cfg.addr)
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "lbscope serve: %s is in use; choose another with --addr\n", cfg.addr)
			return 1
		}
		if err != nil {
			var op *net.OpError
			if errors.As(err, &op) {
				err = op.Err
			}
			fmt.Fprintf(stderr, "lbscope serve: cannot listen on %s: %v\n", cfg.addr, err)
			return 1
		}
	}
	defer ln.Close()

	_, statErr := os.Stat(filepath.Join(cfg.site, manifestName))
	if !cfg.noBuild || statErr != nil {
		root := cfg.root
		if root == "" {
			var err error
			if root, err = repoRoot("serve"); err != nil {
				return fail(stderr, "serve", err)
			}
		}
		if err := rebuildSite(ctx, cfg.site, siteOptions{root: root, pkg: cfg.pkg, webDir: cfg.webDir, log: prefixed(stderr, "serve")}, stderr); err != nil {
			if ctx.Err() != nil {
				err = errors.New("interrupted")
			}
			fmt.Fprintf(stderr, "lbscope serve: %v\n", err)
			return 1
		}
	}
	h, err := loadSite(cfg.site)
	if err != nil {
		fmt.Fprintf(stderr, "lbscope serve: %v\n", err)
		return 1
	}

	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(stderr, "lbscope serve: ", 0),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	urls := siteURLs(ln.Addr(), interfaceIPs())
	if len(urls) > 1 || isUnspecified(ln.Addr()) {
		fmt.Fprintf(stderr, "lbscope serve: listening on every interface (%s): anyone who can reach this machine can open the playground; --addr 127.0.0.1:PORT keeps it to this machine\n", ln.Addr())
	}
	for _, u := range urls {
		fmt.Fprintf(stdout, "LBScope playground: %s\n", u)
	}

	select {
	case err := <-served:
		fmt.Fprintf(stderr, "lbscope serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	// Open tabs keep idle connections, which Shutdown closes at once; a download in flight
	// gets a few seconds to finish.
	shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	fmt.Fprintln(stderr, "lbscope serve: stopped")
	return 0
}

// rebuildSite builds into a fresh directory beside site and swaps it in only when complete,
// so a failed or interrupted build leaves the last good site for --no-build. The earlier
// site lends its compressed files to unchanged files (a rebuilt wasm is byte-identical when
// neither the code nor the Go changed).
func rebuildSite(ctx context.Context, site string, opts siteOptions, stderr io.Writer) error {
	parent := filepath.Dir(site)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	staging, err := os.MkdirTemp(parent, filepath.Base(site)+".new-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging) // a no-op once renamed
	opts.out = staging
	opts.reuse = site
	b, err := buildSite(ctx, opts)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(site); err != nil {
		return err
	}
	if err := os.Rename(staging, site); err != nil {
		return err
	}
	w := b.manifest.Files[wasmName]
	fmt.Fprintf(stderr, "lbscope serve: built in %s (go build %s, compression %s, %d of %d compressed files reused) into %s\n",
		seconds(b.total), seconds(b.goBuild), seconds(b.compress), b.reused, b.reused+b.compressed, site)
	fmt.Fprintf(stderr, "lbscope serve: %s is %s bytes, %s with brotli, %s with gzip\n",
		wasmName, commas(w.Raw), commas(w.Brotli), commas(w.Gzip))
	return nil
}

// siteURLs are the addresses the playground can be opened at: the one listened on, or for
// every interface (0.0.0.0, [::]) localhost and each of this machine's addresses of that
// family, ips (as interfaceIPs gives them).
func siteURLs(a net.Addr, ips []net.IP) []string {
	if !isUnspecified(a) {
		return []string{siteURL(a)}
	}
	host, port, _ := net.SplitHostPort(a.String())
	v4 := net.ParseIP(host).To4() != nil
	urls := []string{siteURL(a)}
	for _, ip := range ips {
		if ip.IsLoopback() || v4 && ip.To4() == nil { // 0.0.0.0 is IPv4 only; [::] takes both
			continue
		}
		if ip.IsLinkLocalUnicast() && ip.To4() == nil {
			continue // needs a zone to be opened
		}
		urls = append(urls, "http://"+net.JoinHostPort(ip.String(), port)+"/")
	}
	return urls
}

func isUnspecified(a net.Addr) bool {
	host, _, err := net.SplitHostPort(a.String())
	ip := net.ParseIP(host)
	return err == nil && ip != nil && ip.IsUnspecified()
}

// interfaceIPs are this machine's interface addresses (none when they cannot be read).
func interfaceIPs() []net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var ips []net.IP
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ips = append(ips, n.IP)
		}
	}
	return ips
}

func siteURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// The headers every response carries.
//
// The Content-Security-Policy allows what Go's wasm needs and nothing inline:
// 'wasm-unsafe-eval' lets WebAssembly.instantiate compile, without allowing eval; scripts and
// styles come only from files of the site, so index.html has no inline script or style
// attribute. Ebitengine styles html, body and its canvas through CSSOM (element.style), which
// style-src does not govern. frame-ancestors is left open on purpose: the playground is meant
// to be embedded in other pages.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'"

// Cache-Control is no-cache for every file. None of the names is hashed, and the files only
// work together: wasm_exec.js is the other half of the Go that built lbscope.wasm, and
// panel.js talks to the wasm's JS API. A max-age on any of them could pair a fresh file with
// a stale one after a rebuild. With a strong ETag per file and encoding, revalidation costs
// a 304 round trip per file, not a download.
const cacheControl = "no-cache"

// siteHandler serves a built site from memory: exactly the files its build.json lists (and
// build.json), nothing else, so no request path can reach outside the site.
type siteHandler struct {
	files map[string]*asset
}

type asset struct {
	contentType string
	etag        string // the strong ETag of the raw bytes; encodings append -br or -gz
	raw, gz, br []byte
}

// loadSite reads a built site. Files are opened through an os.Root, so a symlink inside the
// site that points outside it fails the load instead of being served.
func loadSite(dir string) (*siteHandler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("no site in %s: %w", dir, err)
	}
	defer root.Close()
	mdata, err := root.ReadFile(manifestName)
	if err != nil {
		return nil, fmt.Errorf("no site in %s: %w", dir, err)
	}
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	h := &siteHandler{files: map[string]*asset{}}
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		f := m.Files[name]
		if !fs.ValidPath(name) || strings.Contains(name, `\`) || name == manifestName {
			return nil, fmt.Errorf("%s lists %q, which is not a file of the site", filepath.Join(dir, manifestName), name)
		}
		a := &asset{contentType: contentType(name)}
		if a.raw, err = readSized(root, name, f.Raw); err != nil {
			return nil, fmt.Errorf("site %s: %w (rebuild it)", dir, err)
		}
		sum := sha256.Sum256(a.raw)
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			return nil, fmt.Errorf("site %s: %s changed since it was built (rebuild it)", dir, name)
		}
		a.etag = f.SHA256[:32]
		if f.Gzip > 0 {
			if a.gz, err = readSized(root, name+".gz", f.Gzip); err != nil {
				return nil, fmt.Errorf("site %s: %w (rebuild it)", dir, err)
			}
		}
		if f.Brotli > 0 {
			if a.br, err = readSized(root, name+".br", f.Brotli); err != nil {
				return nil, fmt.Errorf("site %s: %w (rebuild it)", dir, err)
			}
		}
		h.files[name] = a
	}
	sum := sha256.Sum256(mdata)
	h.files[manifestName] = &asset{contentType: contentType(manifestName), etag: hex.EncodeToString(sum[:16]), raw: mdata}
	return h, nil
}

func readSized(root *os.Root, name string, size int64) ([]byte, error) {
	data, err := root.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("%s is %d bytes, not the %d its build.json says", name, len(data), size)
	}
	return data, nil
}

func (h *siteHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := siteName(r.URL.Path)
	a := h.files[name]
	if !ok || a == nil {
		http.NotFound(w, r)
		return
	}
	hd.Set("Content-Type", a.contentType)
	hd.Set("Cache-Control", cacheControl)
	// The loader sizes its progress bar with this: with Content-Encoding, Content-Length is
	// the compressed size while the body reader yields decoded bytes.
	hd.Set("X-Decoded-Length", strconv.Itoa(len(a.raw)))
	body, etag := a.raw, a.etag
	if a.br != nil || a.gz != nil {
		hd.Add("Vary", "Accept-Encoding")
		switch acceptedEncoding(r.Header.Values("Accept-Encoding"), a.br != nil, a.gz != nil) {
		case "br":
			body, etag = a.br, etag+"-br"
			hd.Set("Content-Encoding", "br")
		case "gzip":
			body, etag = a.gz, etag+"-gz"
			hd.Set("Content-Encoding", "gzip")
		}
	}
	etag = `"` + etag + `"`
	hd.Set("ETag", etag)
	if noneMatch(r.Header.Values("If-None-Match"), etag) {
		for _, k := range []string{"Content-Type", "Content-Encoding", "X-Decoded-Length"} {
			hd.Del(k)
		}
		w.WriteHeader(http.StatusNotModified)
		return
	}
	// Written here rather than by http.ServeContent, which leaves out Content-Length whenever
	// Content-Encoding is set. Range requests are not honoured (the full body is a valid
	// answer); nothing in the site asks for one.
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// noneMatch reports whether If-None-Match names etag (weak comparison, RFC 9110 §13.1.2).
func noneMatch(header []string, etag string) bool {
	for _, h := range header {
		for tag := range strings.SplitSeq(h, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}

// siteName maps a request path to a file of the site. It accepts only clean relative paths
// (fs.ValidPath): no "..", ".", empty or absolute elements, whatever their encoding was, since
// r.URL.Path is already decoded. A path ending in / names that directory's index.html.
func siteName(p string) (string, bool) {
	name, ok := strings.CutPrefix(p, "/")
	if !ok {
		return "", false
	}
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if strings.ContainsAny(name, "\\\x00") || !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// acceptedEncoding picks the response's content coding from Accept-Encoding (RFC 9110
// §12.5.3): the acceptable coding with the highest q, brotli on a tie; "" for identity,
// which is also the answer when the header is absent, as curl and scripts expect.
func acceptedEncoding(header []string, haveBr, haveGzip bool) string {
	q := map[string]float64{}
	for _, h := range header {
		for part := range strings.SplitSeq(h, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" {
				continue
			}
			v := 1.0
			for param := range strings.SplitSeq(params, ";") {
				k, val, ok := strings.Cut(param, "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						v = f
					}
				}
			}
			if coding == "x-gzip" {
				coding = "gzip"
			}
			q[coding] = v
		}
	}
	weight := func(coding string) float64 {
		if v, ok := q[coding]; ok {
			return v
		}
		return q["*"]
	}
	best, bestQ := "", 0.0
	if haveBr && weight("br") > 0 {
		best, bestQ = "br", weight("br")
	}
	if haveGzip && weight("gzip") > bestQ {
		best = "gzip"
	}
	return best
}

// contentType names the media type of a site file.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".wasm":
		return "application/wasm"
	case ".json":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".txt", ".md":
		return "text/plain; charset=utf-8"
	case ".webmanifest":
		return "application/manifest+json"
	case ".woff2":
		return "font/woff2"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// prefixed writes each line as "lbscope CMD: line".
func prefixed(w io.Writer, cmd string) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		for line := range strings.Lines(string(p)) {
			fmt.Fprintf(w, "lbscope %s: %s", cmd, line)
		}
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}

// commas writes a byte count as 14,678,186; 0 (no such file) as -.
func commas(n int64) string {
	if n == 0 {
		return "-"
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
