package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
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

// csp lets the page run its own files and Telegram's script, and talk
// only to its own origin.
const csp = "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors https://web.telegram.org https://*.telegram.org"

// page is the embedded page, read once, each file with its gzip form
// and an ETag.
type page struct {
	files map[string]file
}

type file struct {
	plain, gz []byte
	etag      string
	ctype     string
}

// loadPage reads the page once per process: the files never change, and
// compressing them is the costly part.
var loadPage = sync.OnceValue(func() *page {
	p := &page{files: map[string]file{}}
	_ = fs.WalkDir(files, "page", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		sum := sha256.Sum256(b)
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		p.files[strings.TrimPrefix(name, "page/")] = file{plain: b, gz: gz.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ctype: ctype}
		return nil
	})
	return p
})

func (p *page) index(w http.ResponseWriter, r *http.Request) {
	p.serve(w, r, "index.html")
}

func (p *page) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == path.Base(ChartFile) {
		name = ChartFile
	}
	if name == "index.html" || strings.HasSuffix(name, ".md") {
		http.NotFound(w, r)
		return
	}
	p.serve(w, r, name)
}

// serve answers one file; the page's URLs carry no version, so a browser
// checks back (no-cache), and an unchanged file costs a 304.
func (p *page) serve(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := p.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	body := f.plain
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}
