// Command lspbench measures `scalelint lsp` from outside, as an editor
// sees it: a separate process speaking the Language Server Protocol over
// the server's stdin and stdout.
//
//	lspbench -server /path/to/scalelint -dir CORPUS [-edits 100] [-rss-edits 1000] [-broken] [-wait-lint=false] [-interval 30ms] [-burst 50 -pause 1s] [-log FILE] [-edit-log FILE]
//
// It starts `scalelint lsp --debounce 1ms --log-level info` with CORPUS
// as the one workspace folder, and measures:
//
//   - initialize: from sending initialize to its answer;
//   - first diagnostics: from sending initialize to the publishDiagnostics
//     of the first scaledobject.yaml of CORPUS (in path order) with a
//     kafka trigger's lagThreshold,, opened
//     right after initialized;
//   - full diagnostics: from sending initialize to the opened file's
//     publication after the index (or, when its findings are those of
//     the first diagnostics, to the server's log line "published the
//     indexed workspace's diagnostics"); the first diagnostics, published
//     while the index is read, hold only the findings no other file can
//     change;
//   - indexed: from sending initialize to the server's log line
//     "indexed workspace";
//   - RSS (VmRSS of the server process) once the index is built and its
//     first lint published (no publication for half a second); with
//     -wait-lint=false, as soon as the index is built: the edits then
//     start while the index's lint of the whole workspace runs (and the
//     full diagnostics figure is not measured);
//   - edits: -edits didChange notifications of the opened file, each
//     setting its lagThreshold (alternately "1" and "100000", so the
//     findings change), timed from the didChange to the publishDiagnostics
//     of that version; p50, p90, p99 and max; with -interval, sent at
//     that interval without waiting, as typing does, each timed to the
//     first publication of its version or a later one; with -burst N
//     and -pause D, in bursts of N edits with a pause of D (not timed)
//     between them, as typing does; also the number of edits over 5 ms
//     (edits_over_5ms);
//   - RSS after those edits and, when -rss-edits is larger, after
//     -rss-edits edits in all.
//
// It prints one line of key=value pairs (the bench script's table reads
// it) and exits non-zero when the server fails to answer in time.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  json.RawMessage  `json:"error,omitempty"`
}

type publication struct {
	URI     string `json:"uri"`
	Version *int32 `json:"version"`
	at      time.Time
}

type client struct {
	in      io.Writer
	wmu     sync.Mutex
	mu      sync.Mutex
	cond    *sync.Cond
	answers map[int]time.Time
	pubs    map[string]publication // last publication by URI
	history []publication          // every publication with a version, in order
	lastPub time.Time
	indexed time.Time
	linted  time.Time // the index's lint published
	nextID  int
}

func (c *client) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n", len(b))
	c.in.Write(b)
}

func (c *client) request(method string, params any) int {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// read reads the server's messages: answers, publications; requests
// from the server (workspace/configuration, registrations) get a null
// result.
func (c *client) read(out io.Reader) {
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		now := time.Now()
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p publication
			json.Unmarshal(m.Params, &p)
			p.at = now
			c.mu.Lock()
			c.pubs[p.URI] = p
			if p.Version != nil {
				c.history = append(c.history, p)
			}
			c.lastPub = now
			c.cond.Broadcast()
			c.mu.Unlock()
		case m.Method != "" && m.ID != nil:
			var result any
			if m.Method == "workspace/configuration" {
				result = []any{nil}
			}
			c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.Method == "" && m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			c.answers[id] = now
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}
}

// waitFor waits, at most timeout, until ok holds (called with c.mu held).
func (c *client) waitFor(what string, timeout time.Duration, ok func() bool) {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer t.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() {
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "lspbench: timed out waiting for %s\n", what)
			os.Exit(1)
		}
		c.cond.Wait()
	}
}

func rssMiB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*p+0.5)]
}

func main() {
	server := flag.String("server", "scalelint", "the scalelint binary")
	dir := flag.String("dir", "", "the workspace folder (a generated corpus)")
	edits := flag.Int("edits", 100, "edits timed")
	rssEdits := flag.Int("rss-edits", 0, "edits in all before the last RSS reading (at least -edits)")
	debounce := flag.String("debounce", "1ms", "the server's --debounce")
	timeout := flag.Duration("timeout", 120*time.Second, "the longest wait for any one answer")
	logFile := flag.String("log", "", "write the server's log (at info level) to this file")
	editLog := flag.String("edit-log", "", "write each edit's send time (seconds since the server was started, as GODEBUG=gctrace=1 counts) and latency in ms to this file, one edit a line, to line the slow ones up with the server's log (without -interval)")
	interval := flag.Duration("interval", 0, "send an edit every interval without waiting for its diagnostics, as typing does (0: wait for each edit's); an edit's latency is then until the first publication of its version or a later one")
	waitLint := flag.Bool("wait-lint", true, "wait for the index's lint of the whole workspace to be published before editing (false: edit as soon as the index is done, while that lint runs)")
	burst := flag.Int("burst", 0, "send the edits in bursts of this many, with -pause between them (0: no pauses)")
	pause := flag.Duration("pause", time.Second, "the pause between two bursts of -burst edits")
	broken := flag.Bool("broken", false, "open the file with a broken YAML document appended (a yaml-syntax finding, which the server may publish before the index is read)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "lspbench: -dir is required")
		os.Exit(2)
	}
	root, _ := filepath.Abs(*dir)
	key := []byte("lagThreshold: \"")
	var open string
	var text []byte
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if open == "" && err == nil && strings.HasSuffix(p, "scaledobject.yaml") {
			if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, key) {
				open, text = p, b
			}
		}
		return nil
	})
	if open == "" {
		fmt.Fprintln(os.Stderr, "lspbench: no scaledobject.yaml with a lagThreshold under", root)
		os.Exit(2)
	}

	if *broken {
		text = append(bytes.Clone(text), "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\n"...)
	}
	cmd := exec.Command(*server, "lsp", "--debounce", *debounce, "--log-level", "info")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	c := &client{in: stdin, answers: map[int]time.Time{}, pubs: map[string]publication{}}
	c.cond = sync.NewCond(&c.mu)
	launched := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(2)
	}
	go c.read(stdout)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var log io.Writer = io.Discard
		if *logFile != "" {
			if f, err := os.Create(*logFile); err == nil {
				defer f.Close()
				log = f
			}
		}
		for sc.Scan() {
			fmt.Fprintln(log, sc.Text())
			switch line := sc.Text(); {
			case strings.Contains(line, "published the indexed workspace's diagnostics"):
				c.mu.Lock()
				c.linted = time.Now()
				c.mu.Unlock()
			case strings.Contains(line, "indexed workspace"):
				c.mu.Lock()
				c.indexed = time.Now()
				c.cond.Broadcast()
				c.mu.Unlock()
			}
		}
	}()

	rootURI := "file://" + root
	uri := "file://" + open
	start := time.Now()
	id := c.request("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": filepath.Base(root)}},
		"capabilities":     map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}},
	})
	c.waitFor("initialize", *timeout, func() bool { _, ok := c.answers[id]; return ok })
	initAt := c.answers[id]
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(text)}})
	c.waitFor("the opened file's diagnostics", *timeout, func() bool {
		p, ok := c.pubs[uri]
		return ok && p.Version != nil && *p.Version == 1
	})
	firstAt := c.pubs[uri].at
	c.waitFor("the index", *timeout, func() bool { return !c.indexed.IsZero() })
	indexedAt := c.indexed
	// The index's lint publishes every file with findings: wait for it
	// to be over (an edit would cancel it): the server's log line says
	// so, or, from a server that does not log it (and so published the
	// opened file only after the index), no publication for half a
	// second.
	early := firstAt.Before(indexedAt)
	for *waitLint {
		time.Sleep(250 * time.Millisecond)
		c.mu.Lock()
		quiet := time.Since(c.lastPub) > 500*time.Millisecond
		done := !c.linted.IsZero() || (!early && quiet)
		c.mu.Unlock()
		if done && quiet {
			break
		}
	}
	rssIndexed := rssMiB(cmd.Process.Pid)
	// The complete diagnostics: the opened file's publication after the
	// index, or, when they equal the first ones (not published again),
	// the server's log line once the index's lint is published.
	c.mu.Lock()
	fullAt := c.pubs[uri].at
	if !fullAt.After(indexedAt) && !c.linted.IsZero() {
		fullAt = c.linted
	}
	c.mu.Unlock()

	at := bytes.Index(text, key) + len(key)
	line := bytes.Count(text[:at], []byte("\n"))
	col := at - (bytes.LastIndexByte(text[:at], '\n') + 1)
	cur := string(text[at : at+bytes.IndexByte(text[at:], '"')])
	version := int32(1)
	// send sends the i-th edit and returns its version and when it was
	// sent.
	send := func(i int) (int32, time.Time) {
		value := "1"
		if i%2 == 1 {
			value = "100000"
		}
		version++
		v := version
		t0 := time.Now()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": line, "character": col}, "end": map[string]any{"line": line, "character": col + len(cur)}},
				"text":  value,
			}},
		})
		cur = value
		return v, t0
	}
	wait := func(v int32) {
		c.waitFor(fmt.Sprintf("the diagnostics of version %d", v), *timeout, func() bool {
			p, ok := c.pubs[uri]
			return ok && p.Version != nil && *p.Version >= v
		})
	}
	var edited bytes.Buffer // -edit-log
	edit := func(i int) time.Duration {
		v, t0 := send(i)
		wait(v)
		c.mu.Lock()
		d := c.pubs[uri].at.Sub(t0)
		c.mu.Unlock()
		fmt.Fprintf(&edited, "%.4f %s\n", t0.Sub(launched).Seconds(), ms(d))
		return d
	}
	// pauseBefore pauses before the first edit of every burst but the
	// first (-burst, -pause).
	pauseBefore := func(i int) bool {
		if *burst > 0 && i > 0 && i%*burst == 0 {
			time.Sleep(*pause)
			return true
		}
		return false
	}
	lat := make([]time.Duration, 0, *edits)
	if *interval > 0 {
		versions, sent := make([]int32, *edits), make([]time.Time, *edits)
		for i := range *edits {
			if !pauseBefore(i) && i > 0 {
				time.Sleep(time.Until(sent[i-1].Add(*interval)))
			}
			versions[i], sent[i] = send(i)
		}
		wait(versions[len(versions)-1])
		c.mu.Lock()
		for i, v := range versions {
			for _, p := range c.history {
				if p.URI == uri && *p.Version >= v && !p.at.Before(sent[i]) {
					lat = append(lat, p.at.Sub(sent[i]))
					break
				}
			}
		}
		c.mu.Unlock()
	} else {
		for i := 0; i < *edits; i++ {
			pauseBefore(i)
			lat = append(lat, edit(i))
		}
	}
	rssEdited := rssMiB(cmd.Process.Pid)
	total := *edits
	for ; total < *rssEdits; total++ {
		pauseBefore(total)
		edit(total)
	}
	rssLast := rssMiB(cmd.Process.Pid)
	if *editLog != "" {
		if err := os.WriteFile(*editLog, edited.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "lspbench:", err)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	over5 := len(lat) - sort.Search(len(lat), func(i int) bool { return lat[i] > 5*time.Millisecond })

	c.request("shutdown", nil)
	c.notify("exit", nil)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
	}
	fmt.Printf("initialize_ms=%s first_diag_ms=%s full_diag_ms=%s indexed_ms=%s rss_indexed_MiB=%.0f edits=%d edit_p50_ms=%s edit_p90_ms=%s edit_p99_ms=%s edit_max_ms=%s edits_over_5ms=%d rss_after_%d_MiB=%.0f rss_after_%d_MiB=%.0f\n",
		ms(initAt.Sub(start)), ms(firstAt.Sub(start)), ms(fullAt.Sub(start)), ms(indexedAt.Sub(start)), rssIndexed, *edits,
		ms(percentile(lat, 0.5)), ms(percentile(lat, 0.9)), ms(percentile(lat, 0.99)), ms(lat[len(lat)-1]), over5,
		*edits, rssEdited, total, rssLast)
}
