package chart

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// DefaultKubeVersion is the Kubernetes version .Capabilities reports when
// none is configured.
const DefaultKubeVersion = "v1.33.0"

// DefaultAPIVersions are added to the API versions .Capabilities lists,
// as `helm template --api-versions` would: charts render their KEDA
// objects only when the cluster serves keda.sh/v1alpha1.
var DefaultAPIVersions = []string{"keda.sh/v1alpha1"}

// Options are what helm template's flags would say.
type Options struct {
	ReleaseName string // default "release-name", as helm template's
	Namespace   string // default "default"
	KubeVersion string // default DefaultKubeVersion
	APIVersions []string
	Limits      render.Limits
	// Skip names templates (the engine's names) left out from the start:
	// those that stopped the render of the value set a variant is built
	// on (render.Output.Skipped), which a variant that only turns an
	// autoscaler on would stop at again, one render each.
	Skip []string
}

func (o Options) withDefaults() Options {
	if o.ReleaseName == "" {
		o.ReleaseName = "release-name"
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.KubeVersion == "" {
		o.KubeVersion = DefaultKubeVersion
	}
	o.Limits = o.Limits.WithDefaults()
	return o
}

// template is one template of a loaded chart and where it is on disk.
type template struct {
	key    string // the engine's name: CHART/charts/SUB/templates/x.yaml
	rel    string // its slash path below the chart ("" in a packaged subchart)
	source string // the file on disk; for a packaged subchart, the .tgz
	chart  *node
}

// node is a chart of the loaded tree: the root or a subchart.
type node struct {
	dir      string // slash path below the root chart ("" for the root)
	packaged string // the .tgz it came from, for a packaged subchart
	parent   *node
	name     string // its values key in the parent (the alias, if any)
}

// valuesPath is the path from the root chart's values to this chart's.
func (n *node) valuesPath() []string {
	if n.parent == nil {
		return nil
	}
	return append(n.parent.valuesPath(), n.name)
}

// run is one render of a value set: what the locators read.
type run struct {
	c     *Chart
	set   ValueSet
	marks []mark
}

// Render renders the chart with one value set. It returns the rendered
// text of each template that produced any, and the problems: a template
// that does not render (one error, at the line Helm names), a render
// over the limits.
func (c *Chart) Render(ctx context.Context, vs ValueSet, opts Options) (*render.Output, []render.Problem) {
	opts = opts.withDefaults()
	chartFile := filepath.Join(c.Dir, "Chart.yaml")
	fail := func(rule, msg string) (*render.Output, []render.Problem) {
		return nil, []render.Problem{{Rule: rule, Path: chartFile, Message: msg, Set: vs.Name}}
	}
	// Helm logs values it cannot merge, and its warnings, on the
	// process's standard error (render.Hush).
	defer render.Hush()()
	ch, top, err := c.prepare(vs, opts)
	if err != nil {
		return fail(render.RuleError, err.Error())
	}
	r := &run{c: c, set: vs}
	skip := &stopped{}
	for _, k := range opts.Skip {
		skip.add(k, nil)
	}
	tpls, originals, leftOut := c.instrumentAll(ch, skip)
	r.marks = c.markTable()

	out, err := c.engineRender(ctx, ch, top, opts.Limits, r.marks)
	var problems []render.Problem
	if err != nil {
		// The error again without markers, so its columns are the
		// template's.
		for f, d := range originals {
			f.Data = d
		}
		if _, plain := c.engineRender(ctx, ch, top, opts.Limits, nil); plain != nil {
			err = plain
		}
		stopped, ok := c.stoppingTemplates(ctx, vs, opts, err, tpls, skip)
		if !ok || !rendersAny(tpls, stopped) {
			return nil, []render.Problem{c.renderProblem(err, vs, tpls, chartFile)}
		}
		problems = c.stoppedProblems(stopped, vs, tpls, chartFile)
		// The render again, with markers, without the templates that
		// stop it.
		if ch, top, err = c.prepare(vs, opts); err != nil {
			return fail(render.RuleError, err.Error())
		}
		skip = stopped
		tpls, _, leftOut = c.instrumentAll(ch, skip)
		r.marks = c.markTable()
		if out, err = c.engineRender(ctx, ch, top, opts.Limits, r.marks); err != nil {
			return nil, append(problems, c.renderProblem(err, vs, tpls, chartFile))
		}
	}
	total := 0
	for _, s := range out {
		total += len(s)
	}
	if total > opts.Limits.MaxOutput {
		return fail(render.RuleLimit, fmt.Sprintf("the chart renders %d bytes, over the output limit of %d; not linted", total, opts.Limits.MaxOutput))
	}
	o := &render.Output{Root: c.Dir, Set: vs.Name, LeftOut: leftOut, Skipped: skip.keys}
	for _, f := range vs.Files {
		o.Sources = append(o.Sources, c.display(f))
	}
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t := tpls[k]
		if t == nil || strings.HasSuffix(k, "NOTES.txt") {
			continue
		}
		text, spans := strip(out[k])
		if len(strings.TrimSpace(string(text))) == 0 {
			continue
		}
		o.Files = append(o.Files, &render.File{Source: t.source, Text: text, Locator: &locator{r: r, t: t, text: text, spans: spans}})
	}
	return o, problems
}

// instrumentAll instruments every template of a loaded chart tree but
// those of skip, which it empties (Helm renders an empty template to
// nothing): it returns the templates by name, their texts before, and
// what the skipped ones may define.
func (c *Chart) instrumentAll(ch *chartv2.Chart, skip *stopped) (map[string]*template, map[*common.File][]byte, []workspace.LeftOut) {
	tpls := map[string]*template{}
	originals := map[*common.File][]byte{}
	var leftOut []workspace.LeftOut
	c.walk(ch, nil, "", func(t *template, f *common.File) {
		tpls[t.key] = t
		if skip.has(t.key) {
			leftOut = append(leftOut, workspace.LeftOutOf(t.display(), f.Data))
			f.Data = nil
			return
		}
		originals[f] = f.Data
		f.Data = []byte(c.instrument(t, f.Data))
	})
	return tpls, originals, leftOut
}

// instrument returns a template's text with its markers (instrument),
// made once per chart and template: the value sets' renders share them,
// and their marks (markTable).
func (c *Chart) instrument(t *template, data []byte) string {
	c.instMu.Lock()
	defer c.instMu.Unlock()
	if in, ok := c.instrumented[t.key]; ok && in.src == string(data) {
		return in.text
	}
	if c.instrumented == nil {
		c.instrumented = map[string]instrumentedTemplate{}
	}
	src := string(data)
	text := instrument(t, src, &c.marks)
	c.instrumented[t.key] = instrumentedTemplate{src: src, text: text}
	return text
}

// markTable returns the marks of every template instrumented so far: a
// render's markers are all among them once its templates are
// instrumented (the table only grows; what a render holds never changes).
func (c *Chart) markTable() []mark {
	c.instMu.Lock()
	defer c.instMu.Unlock()
	return c.marks[:len(c.marks):len(c.marks)]
}

// prepare loads the chart afresh and computes the values a template sees,
// as helm template does.
func (c *Chart) prepare(vs ValueSet, opts Options) (*chartv2.Chart, common.Values, error) {
	vals, err := c.values(vs)
	if err != nil {
		return nil, nil, fmt.Errorf("values do not read: %v; not rendered", err)
	}
	ch, err := c.loaded()
	if err != nil {
		return nil, nil, fmt.Errorf("chart does not load: %v; not rendered", err)
	}
	if err := chartutil.ProcessDependencies(ch, vals); err != nil {
		return nil, nil, fmt.Errorf("dependencies do not resolve: %v; not rendered", err)
	}
	caps, err := capabilities(opts)
	if err != nil {
		return nil, nil, err
	}
	// Schema validation is helm's, but a schema may $ref a URL: no
	// network here, so values are not validated against it.
	top, err := util.ToRenderValuesWithSchemaValidation(ch, vals,
		common.ReleaseOptions{Name: opts.ReleaseName, Namespace: opts.Namespace, Revision: 1, IsInstall: true}, caps, true)
	if err != nil {
		return nil, nil, fmt.Errorf("values do not apply: %v; not rendered", err)
	}
	return ch, top, nil
}

// dropMissing removes the dependencies charts/ does not hold, which the
// chart renders without (reported once by Load), from the chart and from
// every subchart (a dependency taken from the tree may miss its own).
func dropMissing(ch *chartv2.Chart) {
	have := map[string]bool{}
	for _, d := range ch.Dependencies() {
		have[d.Name()] = true
		dropMissing(d)
	}
	deps := ch.Metadata.Dependencies[:0]
	for _, d := range ch.Metadata.Dependencies {
		if d != nil && have[d.Name] {
			deps = append(deps, d)
		}
	}
	ch.Metadata.Dependencies = deps
}

// capabilities returns helm template's default capabilities with the
// configured Kubernetes version and the extra API versions.
func capabilities(opts Options) (*common.Capabilities, error) {
	kv, err := common.ParseKubeVersion(opts.KubeVersion)
	if err != nil {
		return nil, fmt.Errorf("kubernetes version %q: %v", opts.KubeVersion, err)
	}
	caps := common.DefaultCapabilities.Copy()
	caps.KubeVersion = *kv
	extra := append(append([]string(nil), DefaultAPIVersions...), opts.APIVersions...)
	caps.APIVersions = append(append(common.VersionSet(nil), caps.APIVersions...), extra...)
	return caps, nil
}

// walk calls fn for every template of the chart tree, with where its
// chart is on disk.
func (c *Chart) walk(ch *chartv2.Chart, parent *node, name string, fn func(*template, *common.File)) {
	n := &node{parent: parent, name: name}
	if dir, ok := c.dirOf(ch); ok {
		n.dir = dir
	} else if parent != nil {
		n.packaged = c.packagedSource(parent, ch)
	}
	for _, t := range ch.Templates {
		if t == nil {
			continue
		}
		src, rel := n.packaged, ""
		if src == "" {
			rel = path.Join(n.dir, t.Name)
			src = c.diskPath(rel)
		}
		fn(&template{key: path.Join(ch.ChartFullPath(), t.Name), rel: rel, source: src, chart: n}, t)
	}
	for _, d := range ch.Dependencies() {
		c.walk(d, n, d.Name(), fn)
	}
}

// dirOf finds a loaded chart's directory by the Chart.yaml bytes it was
// loaded from.
func (c *Chart) dirOf(ch *chartv2.Chart) (string, bool) {
	for _, f := range ch.Raw {
		if f.Name == "Chart.yaml" && len(f.Data) > 0 {
			d, ok := c.chartDirs[&f.Data[0]]
			return d, ok
		}
	}
	return "", false
}

// packagedSource names the .tgz of charts/ a packaged subchart came from
// (the parent's charts/ folder when it cannot tell which).
func (c *Chart) packagedSource(parent *node, ch *chartv2.Chart) string {
	dir := path.Join(parent.dir, "charts")
	if parent.packaged != "" {
		return parent.packaged
	}
	for rel := range c.data {
		if path.Dir(rel) == dir && strings.HasPrefix(path.Base(rel), ch.Name()) && strings.HasSuffix(rel, ".tgz") {
			return c.diskPath(rel)
		}
	}
	return c.diskPath(path.Join(parent.dir, "Chart.yaml"))
}

// engineRender runs Helm's engine within the time limit, with the marker
// function (marks nil: without markers, to read an error), and bounded functions that
// could otherwise build unbounded output.
func (c *Chart) engineRender(ctx context.Context, ch *chartv2.Chart, top common.Values, lim render.Limits, marks []mark) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	funcs := boundedFuncs(lim.MaxOutput)
	for k, f := range fixedRandom() {
		funcs[k] = f
	}
	for k, f := range fakeCrypto() {
		funcs[k] = f
	}
	for k, f := range fastDeepCopy() {
		funcs[k] = f
	}
	funcs[markFunc] = func(id int, data any) string { return markText(marks, id, data) }
	e := engine.Engine{CustomTemplateFuncs: funcs}
	type result struct {
		out map[string]string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := e.RenderWithContext(ctx, ch, top)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-ctx.Done():
		// A template cannot be stopped: it is left to finish in the
		// background, and its result dropped.
		return nil, &limitError{fmt.Sprintf("rendering took longer than the time limit of %s; not linted", lim.Timeout)}
	}
}

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// boundedFuncs replace the template functions that build a result of any
// size from a number: past the output limit they fail instead.
func boundedFuncs(maxOutput int) map[string]any {
	tooBig := func(n int) error {
		return fmt.Errorf("%d is %s %d bytes", n, overLimit, maxOutput)
	}
	return map[string]any{
		"repeat": func(count int, s string) (string, error) {
			if count < 0 {
				count = 0
			}
			if count > 0 && len(s) > maxOutput/count {
				return "", tooBig(count * max(len(s), 1))
			}
			return strings.Repeat(s, count), nil
		},
		"until": func(n int) ([]int, error) {
			if n > maxOutput {
				return nil, tooBig(n)
			}
			return untilStep(0, n, 1), nil
		},
		"untilStep": func(start, stop, step int) ([]int, error) {
			if step != 0 && (stop-start)/step > maxOutput {
				return nil, tooBig((stop - start) / step)
			}
			return untilStep(start, stop, step), nil
		},
	}
}

// fixedRandom replaces the template functions that return random text
// with ones seeded the same for every render: a chart renders the same
// text each time (findings keep their place; the language server sees
// no change where there is none). The texts are as long and of the same
// alphabet as sprig's.
func fixedRandom() map[string]any {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(alphabet string) func(int) string {
		return func(n int) string {
			b := make([]byte, max(n, 0))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			return string(b)
		}
	}
	const lower, upper, digits = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	return map[string]any{
		"randAlphaNum": pick(lower + upper + digits),
		"randAlpha":    pick(lower + upper),
		"randNumeric":  pick(digits),
		"randAscii":    pick("!\"#$%&'()*+,-./" + digits + ":;<=>?@" + upper + "[\\]^_`" + lower + "{|}~"),
		"uuidv4": func() string {
			h := pick("0123456789abcdef")
			return h(8) + "-" + h(4) + "-4" + h(3) + "-a" + h(3) + "-" + h(12)
		},
	}
}

// pemCert and pemKey stand for the certificates and keys templates
// generate.
const (
	pemCert = "-----BEGIN CERTIFICATE-----\nc2NhbGVsaW50IGNlcnRpZmljYXRl\n-----END CERTIFICATE-----\n"
	pemKey  = "-----BEGIN PRIVATE KEY-----\nc2NhbGVsaW50IGtleQ==\n-----END PRIVATE KEY-----\n"
)

// fakeCert has the fields templates read of sprig's certificates.
type fakeCert struct{ Cert, Key string }

// fakeCrypto replaces the template functions that generate keys and
// certificates (an RSA key takes a second or more: a chart of TLS secrets
// took 13 s to render), or hash a password with bcrypt, with ones that
// return fixed text of the same form at once. What they make goes into
// Secrets, which no rule reads; and the text is the same at every render.
func fakeCrypto() map[string]any {
	cert := func(...any) (fakeCert, error) { return fakeCert{Cert: pemCert, Key: pemKey}, nil }
	return map[string]any{
		"genPrivateKey":            func(...any) string { return pemKey },
		"genCA":                    cert,
		"genCAWithKey":             cert,
		"genSelfSignedCert":        cert,
		"genSelfSignedCertWithKey": cert,
		"genSignedCert":            cert,
		"genSignedCertWithKey":     cert,
		"buildCustomCert":          cert,
		"htpasswd": func(user any, _ ...any) string {
			return fmt.Sprint(user) + ":$2a$10$c2NhbGVsaW50c2NhbGVsaOtBZGtPc2NhbGVsaW50c2NhbGVsaW50"
		},
	}
}

// untilStep is sprig's: the integers from start towards stop by step.
func untilStep(start, stop, step int) []int {
	var v []int
	if stop < start {
		if step >= 0 {
			return v
		}
		for i := start; i > stop; i += step {
			v = append(v, i)
		}
		return v
	}
	if step <= 0 {
		return v
	}
	for i := start; i < stop; i += step {
		v = append(v, i)
	}
	return v
}

// errPos finds template positions in a Helm error: NAME:LINE or
// NAME:LINE:COL (the engine's own names, CHART/templates/x.yaml), as
// text/template writes them ("template: NAME:3:5: executing") and as
// Helm rewrites them ("NAME:3:5 executing", "execution error at
// (NAME:3:5)").
var errPos = regexp.MustCompile(`([^\s:()"'<>]+):(\d+)(?::(\d+))?`)

// overLimit is in the error of a template function that would build a
// result past the output limit (boundedFuncs).
const overLimit = "over the output limit of"

// OtherSetsLinted ends the message of a value set that does not render
// for want of values: the chart's other sets are linted, and how to give
// this one its values.
const OtherSetsLinted = " (its other value sets are linted; give values in ci/*-values.yaml, .scalelint.yaml helm.charts or --values to lint this one)"

// requiredPrefix starts the error of a value the chart requires: Helm's
// required and fail functions.
const requiredPrefix = "execution error at ("

// noDefaults reports whether vs is the defaults value set of a chart that
// has no values.yaml: Helm renders it with no values.
func (c *Chart) noDefaults(vs ValueSet) bool {
	_, ok := c.data["values.yaml"]
	return vs.Name == DefaultsName && len(vs.Files) == 0 && len(vs.Set) == 0 && len(vs.Enable) == 0 && !ok
}

// renderProblem places a render error at the template line Helm names
// (the deepest, where an include failed inside another template), or at
// Chart.yaml. An error is the chart's own (render-error) unless the chart
// asked for it or may not render as it stands: a value it requires
// (Helm's required or fail: the chart wants values its defaults do not
// give), or any error of a chart whose dependencies are not vendored
// (their templates and values are missing), or the defaults of a chart
// that has no values.yaml (a build step writes it: envoyproxy/gateway's
// gateway-helm generates it from values.tmpl.yaml and git ignores it; Helm
// renders such a chart with no values at all, and a template that reads
// below one stops at a nil value). Those are render-incomplete.
func (c *Chart) renderProblem(err error, vs ValueSet, tpls map[string]*template, chartFile string) render.Problem {
	if le, ok := err.(*limitError); ok {
		return render.Problem{Rule: render.RuleLimit, Path: chartFile, Message: le.msg, Set: vs.Name}
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	p := render.Problem{Rule: render.RuleError, Path: chartFile, Set: vs.Name}
	for _, m := range errPos.FindAllStringSubmatch(msg, -1) {
		t := tpls[m[1]]
		if t == nil {
			continue
		}
		p.Path = t.source
		p.Line, _ = strconv.Atoi(m[2])
		p.Col = 0
		if m[3] != "" {
			p.Col, _ = strconv.Atoi(m[3])
		}
	}
	why := "template does not render: "
	switch {
	case strings.Contains(msg, overLimit):
		// repeat, until or untilStep asked for more than the output
		// limit (boundedFuncs).
		p.Rule = render.RuleLimit
		why = "template stops at the output limit: "
	case strings.HasPrefix(msg, requiredPrefix):
		p.Rule = render.RuleIncomplete
		why = "value set does not render: the chart requires a value its values do not give: "
		if i := strings.Index(msg, "): "); i >= 0 {
			msg = msg[i+3:]
		}
		msg += OtherSetsLinted
	case len(c.Missing) > 0:
		p.Rule = render.RuleIncomplete
		why = fmt.Sprintf("template does not render without the dependencies not vendored (%s): ", strings.Join(c.Missing, ", "))
	case c.noDefaults(vs) && strings.Contains(msg, " executing "):
		// An execution error, not a parse error: the template may read
		// values the chart does not give.
		p.Rule = render.RuleIncomplete
		why = "value set does not render: the chart has no values.yaml and its templates read values: "
		msg += OtherSetsLinted
	}
	// The engine names templates CHART/templates/x.yaml; say where they
	// are on disk.
	keys := make([]string, 0, len(tpls))
	for key := range tpls {
		keys = append(keys, key)
	}
	// The longest first: a name that begins another is not taken for it.
	sort.Slice(keys, func(i, j int) bool {
		return len(keys[i]) > len(keys[j]) || len(keys[i]) == len(keys[j]) && keys[i] < keys[j]
	})
	var pairs []string
	for _, key := range keys {
		pairs = append(pairs, key, tpls[key].source)
	}
	msg = strings.NewReplacer(pairs...).Replace(msg)
	p.Message = why + msg
	return p
}
