package main

// The static site of the browser playground, as `lbscope build` writes it and `lbscope serve`
// serves it: lbscope.wasm (compiled with only the words its Go reads: wordsOverlay), the
// second wasms the page loads when first needed (starlark.wasm, diagnose.wasm), the
// wasm_exec.js of the Go that built them, every file of web/, words.js (the page's dictionary,
// generated from assets/words.json and the command table),
// .br and .gz siblings of the files worth compressing, and build.json describing all of them.

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	_ "github.com/lbscope/lbscope/wasm/session" // the playground's own commands, named in words.js
	"github.com/lbscope/lbscope/wasm/view"
	"github.com/lbscope/lbscope/wasm/words"
)

const (
	lbscopeModule = "github.com/lbscope/lbscope"
	wasmName      = "lbscope.wasm"
	// starlarkName is the Starlark interpreter's wasm, which the page loads when a strategy's
	// source is first needed (web/lazy.js), from starlarkPkg.
	starlarkName = "starlark.wasm"
	starlarkPkg  = "./wasm/starlark"
	// diagnoseName is the reader of pastes' wasm (the Import dialog's lbscope.diagnose and
	// diagnoseStage), which the page loads when the dialog first reads (web/lazy.js), from
	// diagnosePkg, with only the reader's words (words.PastePart).
	diagnoseName = "diagnose.wasm"
	diagnosePkg  = "./wasm/diagnose"
	wasmExecName = "wasm_exec.js"
	wordsName    = "words.js"
	manifestName = "build.json"
	defaultPkg   = "./wasm"

	// defaultBrotliQuality, measured with this package's brotli on the 2-core machine. The
	// playground's wasm (11.8 MB): q9 2.35 MB in ~5 s, q10 2.12 MB in ~20 s (gzip -9: 2.88 MB
	// in ~1.3 s). A 14.7 MB Ebitengine wasm: q5 2.98 MB in 1.1 s, q9 2.89 MB in 4.3 s, q10
	// 2.59 MB in 28 s; q11 is slower still for ~2% less. `serve` rebuilds at every start, so
	// q10's cost would be paid again and again; q9 keeps a first build within a few seconds of
	// the go build, and later starts reuse the compressed files of an unchanged wasm.
	// `build --brotli-quality 10` is there for a deployment that wants the last 10%.
	defaultBrotliQuality = 9
	gzipLevel            = gzip.BestCompression
)

// siteOptions says what to build and where. root is the directory go build runs in (the
// module root), so pkg is relative to it; webDir defaults to root/web.
type siteOptions struct {
	root          string
	pkg           string
	webDir        string
	out           string
	reuse         string // a complete earlier site whose .br/.gz may be reused for unchanged files
	brotliQuality int
	log           io.Writer // progress lines; nil for none
}

// manifest is build.json: every file of the site except build.json itself, keyed by its path
// in the site. The server serves only what it lists; scripts read sizes from it.
type manifest struct {
	Go            string                  `json:"go"`
	Package       string                  `json:"package"`
	BrotliQuality int                     `json:"brotliQuality"`
	GzipLevel     int                     `json:"gzipLevel"`
	Files         map[string]manifestFile `json:"files"`
}

// manifestFile gives a file's sizes in bytes. Gzip and Brotli are the sizes of the .gz and .br
// siblings, absent when there is none (not a compressible type, or compression did not make
// it smaller). Decoded is what a browser holds after undoing any Content-Encoding: the raw
// size, which the server sends as X-Decoded-Length for the progress bar.
type manifestFile struct {
	Raw     int64  `json:"raw"`
	Gzip    int64  `json:"gzip,omitempty"`
	Brotli  int64  `json:"brotli,omitempty"`
	Decoded int64  `json:"decoded"`
	SHA256  string `json:"sha256"`
}

// siteBuild reports a finished build.
type siteBuild struct {
	manifest           manifest
	goBuild, compress  time.Duration
	total              time.Duration
	reused, compressed int // files whose siblings were copied from opts.reuse / computed now
}

// buildError is a failed go build; its output follows on the next lines.
type buildError struct {
	pkg    string
	output string
}

func (e *buildError) Error() string {
	out := strings.TrimRight(e.output, "\n")
	return fmt.Sprintf("go build %s for js/wasm failed:\n\t%s", e.pkg, strings.ReplaceAll(out, "\n", "\n\t"))
}

// coldPackages are compiled into the wasm without inlining (-gcflags=PKG=-l): code that runs
// once at start, for a paste or a lesson's step, not in the frames the fps target measures.
// Inlining copies a callee into each of its callers; without it the wasm is smaller with
// brotli (`lbscope build --brotli-quality 11`'s build.json, one tree built both ways), and
// each of these runs too seldom for the calls to cost a measured figure.
var coldPackages = []string{
	// The lessons' checks: with the reader of mqadmin's and the Dashboard's output (core/admin,
	// since moved to diagnose.wasm), 50,690 bytes less with brotli and 242 KB less raw when
	// this was added. core/scenario gains nothing this way.
	lbscopeModule + "/wasm/lesson",
	// Ebitengine's shader compiler and what only it uses: it compiles its three built-in
	// shaders once, at start (Kage source from text/template, parsed by go/parser, constants
	// in go/constant and math/big, GLSL through regexp), and takes half a millisecond more
	// this way (Node: the inits that compile them, 5.4 and 5.9 ms at best of 31 runs).
	// With the next line, 80,594 bytes less with brotli and 130 KB less raw when this was
	// added.
	ebitenInternal + "/shader", ebitenInternal + "/shaderir/glsl", ebitenInternal + "/builtinshader",
	"go/ast", "go/build/constraint", "go/constant", "go/parser", "go/scanner", "go/token",
	"math/big", "regexp", "regexp/syntax", "text/template", "text/template/parse",
	// Run by the page for a share link's packing (compress/flate), if ever: Ebitengine's PNG
	// and archive/zip write its debugging dumps.
	"compress/flate", "archive/zip", ebitenInternal + "/png",
	// fmt and encoding/json: the page formats and marshals at its edges (a call's answer, the
	// state pushed every StateEveryMs), not in a frame's drawing. 46,089
	// bytes less with brotli when this was added; the Go side of a frame was unchanged (the
	// large preset at 10×, under Node: 2.59 ms both ways, medians of 3), and one push of the
	// large preset's state and timeline went from 1.43 to 1.73 ms, 0.3 ms every 250 ms.
	"fmt", "encoding/json",
	// A scenario's reading and checking, the narration of what happened, and the page's
	// calls: each runs once per load, per event shown or per call, never per frame. 14,818
	// bytes less with brotli when this was added (2,811,264 → 2,796,446).
	lbscopeModule + "/core/scenario", lbscopeModule + "/wasm/narrate", lbscopeModule + "/wasm/api",
	// The session's commands and timeline, the recorder of the charts' samples, the
	// controller, and what runs once per rebalance round (the strategies, Java's maps, the
	// route's sorts): per frame, per virtual second or per round, never per message. 21,881
	// bytes less with brotli when this was added (2,817,466 → 2,795,585), with gRPC consumers,
	// the popShareQueueNum lesson and POP's parked-pop wake-up.
	lbscopeModule + "/wasm/session", lbscopeModule + "/wasm/series", lbscopeModule + "/wasm/controller",
	lbscopeModule + "/core/allocate", lbscopeModule + "/core/jmap", lbscopeModule + "/core/route",
	// The client profiles' table and the Java 4.9 and Go producers' own queue choice (the
	// default Java producer's is core/selector's, inlined): 7,484 bytes less with brotli when
	// this was added with the gRPC lesson (2,799,961 → 2,792,477).
	lbscopeModule + "/core/profile", lbscopeModule + "/core/profile/goclient", lbscopeModule + "/core/profile/java49",
	// With the last two lines, the Go side of a frame of the large preset at 10× under Node
	// (BenchmarkPlaygroundFrameLarge10x, js/wasm) took 2.59 ms, and 2.64 ms with inlining
	// (medians of 5 runs in turns on an idle machine): no cost a frame can see.
}

const ebitenInternal = "github.com/hajimehoshi/ebiten/v2/internal"

// buildSite writes the site into opts.out, which must be new, empty, or an earlier site: files
// an earlier build.json listed and this build does not produce are removed.
func buildSite(ctx context.Context, opts siteOptions) (*siteBuild, error) {
	start := time.Now()
	logf := func(format string, args ...any) {
		if opts.log != nil {
			fmt.Fprintf(opts.log, format+"\n", args...)
		}
	}
	if opts.pkg == "" {
		opts.pkg = defaultPkg
	}
	if opts.webDir == "" {
		opts.webDir = filepath.Join(opts.root, "web")
	}
	if opts.brotliQuality == 0 {
		opts.brotliQuality = defaultBrotliQuality
	}
	out, err := filepath.Abs(opts.out)
	if err != nil {
		return nil, err
	}
	if web, err := filepath.Abs(opts.webDir); err == nil {
		if rel, err := filepath.Rel(web, out); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return nil, fmt.Errorf("the site cannot be written into %s, which it is copied from", opts.webDir)
		}
	}
	old, _ := readManifest(out) // an earlier site here, to clean up after
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}

	goTool, err := findGo()
	if err != nil {
		return nil, err
	}
	goroot, goVersion, err := goEnv(ctx, goTool)
	if err != nil {
		return nil, err
	}

	logf("building %s for js/wasm with %s…", opts.pkg, goVersion)
	t := time.Now()
	// Each wasm with only the words its Go reads: the playground's and the reader of pastes'
	// parts of the dictionary (the interpreter reads none).
	overlay, err := wordsOverlay(opts.root, words.GoPart)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Dir(overlay))
	pasteOverlay, err := wordsOverlay(opts.root, words.PastePart)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Dir(pasteOverlay))
	var cold []string
	for _, pkg := range coldPackages {
		cold = append(cold, "-gcflags="+pkg+"=-l")
	}
	for _, w := range []struct {
		name, pkg string
		flags     []string
	}{
		{wasmName, opts.pkg, append([]string{"-overlay=" + overlay}, cold...)},
		{starlarkName, starlarkPkg, nil},
		{diagnoseName, diagnosePkg, []string{"-overlay=" + pasteOverlay}},
	} {
		args := append([]string{"build", "-trimpath", "-ldflags=-s -w"}, w.flags...)
		cmd := exec.CommandContext(ctx, goTool, append(args, "-o", filepath.Join(out, w.name), w.pkg)...)
		cmd.Dir = opts.root
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOROOT="+goroot)
		if output, err := cmd.CombinedOutput(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &buildError{pkg: w.pkg, output: string(output)}
		}
	}
	goBuild := time.Since(t)

	// wasm_exec.js must come from the Go that built the wasm: it is the other half of that
	// Go's js/wasm ABI and changes between releases.
	if err := copyFile(filepath.Join(goroot, "lib", "wasm", wasmExecName), filepath.Join(out, wasmExecName)); err != nil {
		return nil, fmt.Errorf("copying %s of %s: %w", wasmExecName, goVersion, err)
	}
	names, err := copyWeb(opts.webDir, out)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, wordsName), wordsJS(), 0o644); err != nil {
		return nil, err
	}
	names = append(names, wasmName, starlarkName, diagnoseName, wasmExecName, wordsName)
	slices.Sort(names)

	m := manifest{
		Go:            goVersion,
		Package:       opts.pkg,
		BrotliQuality: opts.brotliQuality,
		GzipLevel:     gzipLevel,
		Files:         make(map[string]manifestFile, len(names)),
	}
	var prev *manifest
	if opts.reuse != "" {
		prev, _ = readManifest(opts.reuse)
	}
	t = time.Now()
	b := &siteBuild{}
	if err := compressSite(out, names, &m, prev, opts.reuse, b); err != nil {
		return nil, err
	}
	b.compress = time.Since(t)

	if old != nil {
		for name := range old.Files {
			if _, ok := m.Files[name]; !ok && fs.ValidPath(name) {
				for _, suffix := range []string{"", ".gz", ".br"} {
					os.Remove(filepath.Join(out, filepath.FromSlash(name+suffix)))
				}
			}
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, manifestName), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	b.manifest = m
	b.goBuild = goBuild
	b.total = time.Since(start)
	return b, nil
}

// compressSite hashes every file and writes the .gz and .br siblings of the compressible ones.
// The compressions run on a pool of GOMAXPROCS workers, largest file first and brotli before
// gzip, so the wasm's brotli (most of the time) starts at once and the rest fits beside it.
func compressSite(out string, names []string, m *manifest, prev *manifest, prevDir string, b *siteBuild) error {
	type file struct {
		name    string
		path    string
		raw     []byte
		f       manifestFile
		gz, br  []byte
		pending bool
	}
	type job struct {
		file   *file
		brotli bool
	}
	files := make([]*file, len(names))
	var jobs []job
	for i, name := range names {
		p := filepath.Join(out, filepath.FromSlash(name))
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(raw)
		fl := &file{name: name, path: p, raw: raw, f: manifestFile{Raw: int64(len(raw)), Decoded: int64(len(raw)), SHA256: hex.EncodeToString(sum[:])}}
		files[i] = fl
		if !compressible(name) {
			removeSiblings(p)
			continue
		}
		if prev != nil && prev.BrotliQuality == m.BrotliQuality && prev.GzipLevel == m.GzipLevel {
			if pf, ok := prev.Files[name]; ok && pf.SHA256 == fl.f.SHA256 && pf.Raw == fl.f.Raw {
				if reuseSiblings(filepath.Join(prevDir, filepath.FromSlash(name)), p, pf) == nil {
					fl.f = pf
					b.reused++
					continue
				}
			}
		}
		fl.pending = true
		b.compressed++
		jobs = append(jobs, job{fl, true}, job{fl, false})
	}
	slices.SortStableFunc(jobs, func(a, b job) int { return len(b.file.raw) - len(a.file.raw) })

	queue := make(chan job)
	errs := make(chan error, len(jobs))
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for j := range queue {
				var err error
				if j.brotli {
					j.file.br, err = brotliBytes(j.file.raw, m.BrotliQuality)
				} else {
					j.file.gz, err = gzipBytes(j.file.raw)
				}
				if err != nil {
					errs <- fmt.Errorf("compressing %s: %w", j.file.name, err)
				}
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}

	for _, fl := range files {
		if fl.pending {
			// A sibling that is not smaller would only cost the client bytes and a decode.
			var err error
			if fl.f.Gzip, err = writeSibling(fl.path+".gz", fl.gz, len(fl.raw)); err != nil {
				return err
			}
			if fl.f.Brotli, err = writeSibling(fl.path+".br", fl.br, len(fl.raw)); err != nil {
				return err
			}
		}
		m.Files[fl.name] = fl.f
	}
	return nil
}

func writeSibling(p string, data []byte, rawLen int) (int64, error) {
	if len(data) >= rawLen {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
		return 0, nil
	}
	return int64(len(data)), os.WriteFile(p, data, 0o644)
}

func removeSiblings(p string) {
	os.Remove(p + ".gz")
	os.Remove(p + ".br")
}

// reuseSiblings copies an unchanged file's siblings from an earlier site, after checking
// their sizes against that site's manifest.
func reuseSiblings(from, to string, f manifestFile) error {
	for _, s := range []struct {
		suffix string
		size   int64
	}{{".gz", f.Gzip}, {".br", f.Brotli}} {
		if s.size == 0 {
			continue
		}
		fi, err := os.Stat(from + s.suffix)
		if err != nil {
			return err
		}
		if fi.Size() != s.size {
			return fmt.Errorf("%s has changed", from+s.suffix)
		}
	}
	for _, s := range []struct {
		suffix string
		size   int64
	}{{".gz", f.Gzip}, {".br", f.Brotli}} {
		if s.size == 0 {
			os.Remove(to + s.suffix)
			continue
		}
		if err := copyFile(from+s.suffix, to+s.suffix); err != nil {
			return err
		}
	}
	return nil
}

func gzipBytes(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzipLevel)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// brotliWindow is the base-2 logarithm of the brotli window, the largest RFC 7932 allows
// and every browser decodes: the wasm is about 15 MB, and at the window brotli chooses by
// itself (4 MB) it came out 1.2% larger at quality 11 (2,619,864 bytes against 2,589,221).
const brotliWindow = 24

func brotliBytes(raw []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: brotliWindow})
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// copyWeb copies the site's own files from web/ and returns their slash-separated names.
// Dotfiles, the README that documents the directory, its package.json (which tells Node that
// web/*.js are modules, for the unit tests), symlinks and anything the build itself writes (a
// stale wasm or wasm_exec.js left in web/ by hand) are not part of the site.
func copyWeb(webDir, out string) ([]string, error) {
	fi, err := os.Stat(webDir)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("no web directory at %s", webDir)
	}
	var names []string
	err = filepath.WalkDir(webDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == webDir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || d.IsDir() && p == filepath.Join(webDir, partialsDir) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(webDir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if generated(name) || !fs.ValidPath(name) {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, rel)), 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if path.Ext(name) == ".html" {
			if data, err = expandPartials(webDir, name, data); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(out, rel), data, 0o644); err != nil {
			return err
		}
		names = append(names, name)
		return nil
	})
	return names, err
}

// partialsDir holds what the pages share, put in their place by expandPartials; it is not
// part of the site itself.
const partialsDir = "partials"

// pageScript is one entry of partials/scripts.json: the page's scripts in the order they
// run, ES modules unless classic says otherwise (Go's wasm_exec.js, the generated words.js,
// and loader.js, which must run in browsers too old for modules to say so); controls marks
// those the embed loads only with its full controls, indexOnly those it never loads
// (features of the playground's own page).
type pageScript struct {
	Src       string `json:"src"`
	Classic   bool   `json:"classic,omitempty"`
	Controls  bool   `json:"controls,omitempty"`
	IndexOnly bool   `json:"indexOnly,omitempty"`
}

// expandPartials puts the shared parts into a page: <!--#loader--> (or <!--#loader hidden-->)
// becomes partials/loader.html, <!--#scripts--> the script elements of partials/scripts.json
// (type="module", or defer for a classic one), <!--#scripts json--> that list as a JSON data
// block, for a page that adds the scripts itself (the embed, on play), <!--#palette--> the
// canvas's colours (paletteJSON) and <!--#posters--> the named scenarios' shapes
// (postersJSON) as JSON data blocks. Both pages load the same scripts
// from one list. Data blocks are not scripts: the Content-Security-Policy has nothing to allow.
func expandPartials(webDir, name string, page []byte) ([]byte, error) {
	if !bytes.Contains(page, []byte("<!--#")) {
		return page, nil
	}
	fail := func(err error) ([]byte, error) { return nil, fmt.Errorf("web/%s: %w", name, err) }
	loader, err := os.ReadFile(filepath.Join(webDir, partialsDir, "loader.html"))
	if err != nil {
		return fail(err)
	}
	list, err := os.ReadFile(filepath.Join(webDir, partialsDir, "scripts.json"))
	if err != nil {
		return fail(err)
	}
	var scripts []pageScript
	if err := json.Unmarshal(list, &scripts); err != nil {
		return fail(fmt.Errorf("%s/scripts.json: %w", partialsDir, err))
	}
	var tags strings.Builder
	for _, sc := range scripts {
		if !fs.ValidPath(sc.Src) || strings.ContainsAny(sc.Src, `"<>&`) {
			return fail(fmt.Errorf("%s/scripts.json: %q is not a file of the site", partialsDir, sc.Src))
		}
		kind := `type="module"`
		if sc.Classic {
			kind = "defer"
		}
		fmt.Fprintf(&tags, "<script src=\"%s\" %s></script>\n", sc.Src, kind)
	}
	compact, err := json.Marshal(scripts)
	if err != nil {
		return fail(err)
	}
	out := strings.NewReplacer(
		"<!--#loader-->\n", strings.ReplaceAll(string(loader), "{{hidden}}", ""),
		"<!--#loader hidden-->\n", strings.ReplaceAll(string(loader), "{{hidden}}", " hidden"),
		"<!--#scripts-->\n", tags.String(),
		"<!--#scripts json-->\n", `<script type="application/json" id="lbscope-scripts">`+string(compact)+"</script>\n",
		"<!--#palette-->\n", `<script type="application/json" id="lbscope-palette">`+string(paletteJSON())+"</script>\n",
		"<!--#posters-->\n", `<script type="application/json" id="lbscope-posters">`+string(postersJSON())+"</script>\n",
	).Replace(string(page))
	if i := strings.Index(out, "<!--#"); i >= 0 {
		end := min(len(out), i+40)
		return fail(fmt.Errorf("unknown partial %q", out[i:end]))
	}
	return []byte(out), nil
}

func generated(name string) bool {
	switch name {
	case wasmName, wasmExecName, wordsName, manifestName, "README.md", "package.json":
		return true
	}
	switch path.Ext(name) {
	case ".br", ".gz", ".wasm":
		return true
	}
	return false
}

// wordsOverlay writes, into a new temporary directory, the part of root's assets/words.json
// that one wasm's Go reads (part: words.GoPart, words.PastePart) and a go build -overlay file
// that compiles the wasm with it in place of the whole: the page's words come in words.js,
// and would otherwise travel twice, and each wasm carries only its own. It returns the
// overlay file's path; the caller removes its directory.
func wordsOverlay(root string, part func([]byte) ([]byte, error)) (string, error) {
	src, err := filepath.Abs(filepath.Join(root, "assets", "words.json"))
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	own, err := part(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", src, err)
	}
	dir, err := os.MkdirTemp("", "lbscope-words-")
	if err != nil {
		return "", err
	}
	overlay := struct{ Replace map[string]string }{map[string]string{src: filepath.Join(dir, "words.json")}}
	spec, _ := json.Marshal(overlay) // strings only
	if err := os.WriteFile(overlay.Replace[src], own, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), spec, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return filepath.Join(dir, "overlay.json"), nil
}

// wordsJS is words.js: the page's part of the one dictionary (package words), which
// web/i18n.js reads, as a classic script that older browsers' loader.js can read too.
func wordsJS() []byte {
	data, err := json.Marshal(words.Page())
	if err != nil {
		panic(err) // strings only
	}
	var b bytes.Buffer
	b.WriteString("// words.js: the page's dictionary, by language and key. Generated by lbscope build from\n")
	b.WriteString("// assets/words.json and the command table: edit those, not this.\n")
	b.WriteString("window.LB = window.LB || {};\nwindow.LB.words = ")
	b.Write(data)
	b.WriteString(";\n")
	return b.Bytes()
}

// pageLook is one theme of the canvas (wasm/view's Theme) as the page reads it: CSS colours.
type pageLook struct {
	Palette    []string `json:"palette"`
	Background string   `json:"background"`
	Panel      string   `json:"panel"`
	PanelDown  string   `json:"panelDown"`
	Border     string   `json:"border"`
	Text       string   `json:"text"`
	Dim        string   `json:"dim"`
	Empty      string   `json:"empty"`
	Warn       string   `json:"warn"`
	Slow       string   `json:"slow"`
	Dead       string   `json:"dead"`
	Tooltip    string   `json:"tooltip"`
	Highlight  string   `json:"highlight"`
	Bright     string   `json:"bright"`
}

// paletteJSON is {"dark": pageLook, "light": pageLook}: the canvas's own colours, which the
// page's store.mjs hands to what draws without the wasm (the embed's poster, before it
// loads) and to the charts' and the comparison's defaults, so that none of them keeps a copy.
func paletteJSON() []byte {
	looks := map[string]pageLook{}
	for _, th := range []view.Theme{view.DarkTheme, view.LightTheme} {
		l := pageLook{
			Background: th.Background.Hex(), Panel: th.Panel.Hex(), PanelDown: th.PanelDown.Hex(), Border: th.Border.Hex(),
			Text: th.Text.Hex(), Dim: th.Dim.Hex(), Empty: th.Empty.Hex(), Warn: th.Warn.Hex(), Slow: th.Slow.Hex(),
			Dead: th.Dead.Hex(), Tooltip: th.Tooltip.Hex(), Highlight: th.Highlight.Hex(), Bright: th.Bright.Hex(),
		}
		for _, c := range th.Palette {
			l.Palette = append(l.Palette, c.Hex())
		}
		looks[th.Name] = l
	}
	data, err := json.Marshal(looks)
	if err != nil {
		panic(err) // strings only
	}
	return data
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

func readManifest(dir string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	return &m, nil
}

// compressible lists the types worth precompressing; images and fonts are compressed already.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".wasm", ".js", ".mjs", ".html", ".css", ".json", ".svg", ".txt", ".xml", ".webmanifest":
		return true
	}
	return false
}

// findGo finds the go command of the Go that runs lbscope: `go run` puts its GOROOT in the
// environment, a built lbscope remembers the GOROOT it was built with, and PATH comes last.
func findGo() (string, error) {
	exe := "go"
	if runtime.GOOS == "windows" {
		exe = "go.exe"
	}
	for _, root := range []string{os.Getenv("GOROOT"), runtime.GOROOT()} {
		if root == "" {
			continue
		}
		p := filepath.Join(root, "bin", exe)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("cannot find the go command; install Go 1.26 or set GOROOT")
	}
	return p, nil
}

// goEnv asks a go command for its own GOROOT and version.
func goEnv(ctx context.Context, goTool string) (goroot, version string, err error) {
	cmd := exec.CommandContext(ctx, goTool, "env", "GOROOT", "GOVERSION")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("%s env: %v: %s", goTool, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] == "" {
		return "", "", fmt.Errorf("%s env GOROOT GOVERSION printed %q", goTool, out)
	}
	return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), nil
}

// findModuleRoot walks up from dir to the directory whose go.mod declares LBScope's module.
// Other modules on the way (scripts/peerbench) are passed by.
func findModuleRoot(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modulePath(data) == lbscopeModule {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
