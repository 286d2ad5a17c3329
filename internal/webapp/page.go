package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

//go:embed page
var files embed.FS

// ChartFile is the chart library the page needs, fetched at build.
const ChartFile = "vendor/lightweight-charts.js"

// chartLibrary says which chart library was copied to ChartFile.
type chartLibrary struct {
	Version   string
	Integrity string // package-lock.json's, of the npm package
	SHA256    string // hex, of ChartFile
}

// chart is declared by chartlib_gen.go, which make webapp-assets writes
// beside the library (both gitignored: no third-party code in the
// repository). A build without that step stops here, the compiler naming
// it, rather than giving a page that cannot draw.
var chart = runMakeWebappAssets

// csp lets the page run its own files, its one inline script (by its
// hash, %s) and Telegram's script, and talk only to its own origin.
const csp = "default-src 'none'; script-src 'self' %s https://telegram.org; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors https://web.telegram.org https://*.telegram.org"

// inlineScript is index.html's one inline script: it asks for the data
// while the page's own script is still on its way.
var inlineScript = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<script>(.*?)</script>`) })

// page is the embedded page, read once, each file with its gzip form
// and an ETag. The page names its static files by content
// (static/app.<hash>.js), so a browser keeps them for good and a new
// build's page asks for new names.
type page struct {
	csp    string
	files  map[string]file
	hashed map[string]string // static/app.<hash>.js's file part: the file's name
}

type file struct {
	plain, gz []byte
	etag      string
	ctype     string
}

// loadPage reads the page once per process: the files never change, and
// compressing them is the costly part.
var loadPage = sync.OnceValue(func() *page {
	p := &page{files: map[string]file{}, hashed: map[string]string{}}
	_ = fs.WalkDir(files, "page", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		if name == "page/look.js" {
			// The page's words ride with its look: no request of their own
			// before the first figures. A catalog that does not parse fails
			// the page's tests; the page then shows keys.
			if texts, err := pageScript(); err == nil {
				b = append(texts, b...)
			}
		}
		p.add(strings.TrimPrefix(name, "page/"), b)
		return nil
	})
	// index.html names each static file by its hash.
	index := string(p.files["index.html"].plain)
	for name, f := range p.files {
		base := path.Base(name)
		if name == "index.html" || (name != ChartFile && strings.Contains(name, "/")) {
			continue
		}
		ext := path.Ext(base)
		named := strings.TrimSuffix(base, ext) + "." + strings.Trim(f.etag, `"`) + ext
		if strings.Contains(index, `"static/`+base+`"`) {
			index = strings.ReplaceAll(index, `"static/`+base+`"`, `"static/`+named+`"`)
			p.hashed[named] = name
		}
	}
	p.add("index.html", []byte(index))
	hashes := []string{}
	for _, m := range inlineScript().FindAllStringSubmatch(index, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	p.csp = fmt.Sprintf(csp, strings.Join(hashes, " "))
	return p
})

func (p *page) add(name string, b []byte) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	sum := sha256.Sum256(b)
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	p.files[name] = file{plain: b, gz: gz.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ctype: ctype}
}

func (p *page) index(w http.ResponseWriter, r *http.Request) {
	p.serve(w, r, "index.html", false)
}

// static answers a static file: by its hashed name, kept for good; by its
// plain name (an older page), checked back each time.
func (p *page) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if orig, ok := p.hashed[name]; ok {
		p.serve(w, r, orig, true)
		return
	}
	if name == "index.html" || strings.Contains(name, "/") || strings.HasSuffix(name, ".md") {
		http.NotFound(w, r)
		return
	}
	if name == path.Base(ChartFile) {
		name = ChartFile
	}
	p.serve(w, r, name, false)
}

// serve answers one file; one not named by its hash is checked back
// (no-cache), and an unchanged file costs a 304.
func (p *page) serve(w http.ResponseWriter, r *http.Request, name string, immutable bool) {
	f, ok := p.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", p.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	body := f.plain
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept-Encoding"), "gzip")
}
