package analyzer

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/suggest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// ConfigFileNames are the names of the configuration file, in the order
// they are looked for.
var ConfigFileNames = []string{".scalelint.yaml", ".scalelint.yml"}

// Config is a parsed .scalelint.yaml.
type Config struct {
	Path string // the file it was read from; "" for the built-in config
	Dir  string // paths in the config are relative to this directory

	Rules     map[string]RuleConfig
	Defaults  scaling.Inputs
	Exclude   []string
	Namespace string
	Overrides []Override
	// Limits bound what one input file may cost (zero fields: defaults).
	Limits manifest.Limits
	// RenderLimits bound what rendering one chart value set or building
	// one kustomization may cost (zero fields: defaults).
	RenderLimits render.Limits
	// Charts are the charts configured under helm.charts: the value sets
	// they are rendered with beyond their own.
	Charts []ChartConfig
	// KubernetesVersion is the version of the clusters the manifests are
	// applied to (kubernetes-version), against which removed-api judges
	// API versions; DefaultKubernetesVersion when the file sets none.
	KubernetesVersion KubernetesVersion
	// Infer are the inference settings: the controllers whose data-plane
	// defaults the repository opts into.
	Infer infer.Options

	// scoped are the configuration files of a run that govern parts of
	// its inputs, deepest directory first (Scoped, For).
	scoped  []*Config
	absDir  string      // Dir made absolute, for For
	forMu   *sync.Mutex // guards forMemo; shared by the copies Scoped makes
	forMemo map[string]*Config
}

// ChartConfig is one entry of helm.charts: a chart and how to render it,
// as helm template's flags would say.
type ChartConfig struct {
	Path        string // the chart directory, as written (relative to Dir)
	ReleaseName string
	Namespace   string
	// Values are values files (relative to Dir), layered in order over the
	// chart's defaults, and Set are helm --set assignments (key=value)
	// applied over them: one value set. None: the chart's own sets only,
	// with this release name and namespace.
	Values []string
	Set    []string
	// Line and Col are where the entry is written, for messages.
	Line, Col int
}

// CheckCharts reports the first entry of helm.charts whose chart directory
// holds no Chart.yaml or one of whose values files is not a readable
// file, as a configuration error at the entry.
func (c *Config) CheckCharts() error {
	for _, ch := range c.Charts {
		at := func(format string, args ...any) error {
			return &ConfigError{Path: c.Path, Line: ch.Line, Col: ch.Col, Msg: fmt.Sprintf(format, args...)}
		}
		if st, err := os.Stat(filepath.Join(c.ChartDir(ch), "Chart.yaml")); err != nil || !st.Mode().IsRegular() {
			return at("helm.charts: %s holds no Chart.yaml", ch.Path)
		}
		for i, v := range c.ValuesFiles(ch) {
			if st, err := os.Stat(v); err != nil {
				return at("helm.charts: values file %s: %v", ch.Values[i], unwrapPath(err))
			} else if !st.Mode().IsRegular() {
				return at("helm.charts: values file %s is not a regular file", ch.Values[i])
			}
		}
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ChartDir returns the chart directory of an entry, as a path on disk.
func (c *Config) ChartDir(ch ChartConfig) string { return c.resolve(ch.Path) }

// ValuesFiles returns an entry's values files as paths on disk.
func (c *Config) ValuesFiles(ch ChartConfig) []string {
	var out []string
	for _, v := range ch.Values {
		out = append(out, c.resolve(v))
	}
	return out
}

// resolve returns a path of the configuration (relative to its directory)
// as a path on disk.
func (c *Config) resolve(p string) string {
	if filepath.IsAbs(p) || c.Dir == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(c.Dir, filepath.FromSlash(p))
}

// RuleConfig is the configuration of one rule.
type RuleConfig struct {
	Off      bool
	Severity Severity // 0: the rule's default
	Options  map[string]float64
}

// Override changes rule settings for the files its globs match.
type Override struct {
	Paths []string
	Rules map[string]RuleConfig
}

// DefaultConfig is the configuration when no file is found.
func DefaultConfig() *Config {
	return &Config{Rules: map[string]RuleConfig{}, Defaults: scaling.Inputs{}, KubernetesVersion: DefaultKubernetesVersion}
}

// Scoped returns c with the configuration files that govern parts of a
// run's inputs: a file is linted with the nearest of them whose
// directory holds it, and with c when none does (For). A configuration
// file is whole on its own: the files above it are not merged in (as
// ruff reads pyproject.toml files).
func (c *Config) Scoped(configs []*Config) *Config {
	out := *c
	out.scoped = nil
	seen := map[string]bool{}
	for _, sc := range configs {
		if sc == nil || sc.Path == "" || seen[sc.Path] || sc.Path == c.Path {
			continue
		}
		seen[sc.Path] = true
		s := *sc
		s.scoped = nil
		s.absDir, _ = filepath.Abs(s.Dir)
		out.scoped = append(out.scoped, &s)
	}
	sort.SliceStable(out.scoped, func(i, j int) bool { return len(out.scoped[i].absDir) > len(out.scoped[j].absDir) })
	out.forMu, out.forMemo = &sync.Mutex{}, map[string]*Config{}
	return &out
}

// For returns the configuration that governs a file: the nearest scoped
// configuration file whose directory holds it (Scoped), else c. Standard
// input ("<stdin>") is read as a file of the working directory.
func (c *Config) For(file string) *Config {
	if len(c.scoped) == 0 || file == "" {
		return c
	}
	c.forMu.Lock()
	defer c.forMu.Unlock()
	if g, ok := c.forMemo[file]; ok {
		return g
	}
	g := c
	if abs, err := filepath.Abs(file); err == nil {
		for _, s := range c.scoped {
			if abs == s.absDir || strings.HasPrefix(abs, strings.TrimSuffix(s.absDir, string(filepath.Separator))+string(filepath.Separator)) {
				g = s
				break
			}
		}
	}
	c.forMemo[file] = g
	return g
}

// DefaultsFor returns the annotation defaults of the configuration that
// governs a file.
func (c *Config) DefaultsFor(file string) scaling.Inputs { return c.For(file).Defaults }

// ScopedConfigs returns the configuration files c scopes (Scoped),
// deepest directory first.
func (c *Config) ScopedConfigs() []*Config { return c.scoped }

// ConfigError is a problem in a configuration file, with its position.
type ConfigError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// FindConfig returns the configuration file nearest above path (a file
// or a directory): in path's directory or the directories above it up to
// the repository root, the home directory or a child of the filesystem
// root, whichever comes first (workspace.ProjectDirs), as ESLint and ruff
// look for theirs; "" when there is none. The path is absolute.
func FindConfig(path string) string {
	dir := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		dir = filepath.Dir(path)
	}
	for _, d := range workspace.ProjectDirs(dir) {
		for _, name := range ConfigFileNames {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	return ""
}

// IsConfigName reports whether a path names a configuration file: never
// an input, even in a directory walked for manifests.
func IsConfigName(path string) bool {
	base := filepath.Base(path)
	for _, n := range ConfigFileNames {
		if base == n {
			return true
		}
	}
	return false
}

// LoadConfig reads and parses a configuration file.
func LoadConfig(file string, analyzers []*Analyzer) (*Config, error) {
	// Read as the manifests are: a regular file (a FIFO would hang the
	// run, /dev/zero fill memory) within the default size limit (the
	// configuration sets the limits of what follows, not its own).
	data, err := workspace.ReadWhole(file, manifest.DefaultMaxFileSize)
	if err != nil {
		return nil, err
	}
	return ParseConfig(file, data, analyzers)
}

// ParseConfig parses the bytes of a configuration file. Unknown keys, rule
// names, options and bad values are errors naming their line.
func ParseConfig(file string, data []byte, analyzers []*Analyzer) (*Config, error) {
	c := DefaultConfig()
	c.Path = file
	c.Dir = filepath.Dir(file)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ConfigError{Path: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	p := &configParser{file: file, byName: map[string]*Analyzer{}, lines: len(outputLines(data))}
	for _, a := range analyzers {
		p.byName[a.Name] = a
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errf(root, "the configuration must be a mapping (%s)", strings.Join(ConfigKeys, ", "))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var err error
		switch k.Value {
		case "rules":
			c.Rules, err = p.rules(v)
		case "defaults":
			c.Defaults, err = p.defaults(v)
		case "exclude":
			if c.Exclude, err = p.strings(v); err == nil {
				err = p.globs(v, c.Exclude, "exclude")
			}
		case "namespace":
			c.Namespace, err = p.str(v)
		case "overrides":
			c.Overrides, err = p.overrides(v)
		case "limits":
			c.Limits, c.RenderLimits, err = p.limits(v)
		case "helm":
			c.Charts, err = p.helm(v)
		case "kubernetes-version":
			c.KubernetesVersion, err = p.kubernetesVersion(v)
		case "infer":
			c.Infer, err = p.infer(v)
		default:
			err = p.unknown(k, ConfigKeys)
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// ConfigKeys are the top-level keys of .scalelint.yaml.
var ConfigKeys = []string{"rules", "defaults", "exclude", "namespace", "overrides", "limits", "kubernetes-version", "infer", "helm"}

// infer reads {controllers: [name, ...]}: the data-plane controllers whose
// defaults apply where the manifests leave a value to them.
func (p *configParser) infer(n *yaml.Node) (infer.Options, error) {
	var o infer.Options
	if err := p.mapping(n, "infer"); err != nil {
		return o, err
	}
	known := infer.ControllerNames()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "controllers" {
			return o, p.unknown(k, []string{"controllers"})
		}
		if v.Kind != yaml.SequenceNode {
			return o, p.errf(v, "infer.controllers must be a list of controller names (%s)", strings.Join(known, ", "))
		}
		for _, c := range v.Content {
			name, err := p.str(c)
			if err != nil {
				return o, err
			}
			if !slices.Contains(known, name) {
				msg := fmt.Sprintf("unknown controller %q", name)
				if s := suggest.Closest(name, known); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return o, p.errf(c, "%s; known controllers: %s", msg, strings.Join(known, ", "))
			}
			if !slices.Contains(o.Controllers, name) {
				o.Controllers = append(o.Controllers, name)
			}
		}
	}
	return o, nil
}

// kubernetesVersion reads a Kubernetes minor version: 1.30, v1.30 or
// 1.30.2 (the patch is ignored).
func (p *configParser) kubernetesVersion(n *yaml.Node) (KubernetesVersion, error) {
	v, ok := ParseKubernetesVersion(n.Value)
	if n.Kind != yaml.ScalarNode || !ok {
		return v, p.errf(n, "kubernetes-version must be a Kubernetes minor version such as %q, not %q", DefaultKubernetesVersion.String(), n.Value)
	}
	return v, nil
}

// limitKeys are the keys of the limits mapping.
var limitKeys = []string{"maxFileSize", "maxDocuments", "maxDepth", "maxNodes", "maxAliasNodes", "timeout",
	"renderTimeout", "maxRenderOutput", "maxRenderInput", "maxRenderFiles"}

// limits reads the limits mapping: sizes as byte counts or Kubernetes
// quantities (10Mi), counts as positive integers, times as durations.
func (p *configParser) limits(n *yaml.Node) (manifest.Limits, render.Limits, error) {
	var l manifest.Limits
	var r render.Limits
	if err := p.mapping(n, "limits"); err != nil {
		return l, r, err
	}
	positive := func(v *yaml.Node, what string) (int, error) {
		i, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || i <= 0 {
			return 0, p.errf(v, "%s must be a positive integer, not %q", what, v.Value)
		}
		return i, nil
	}
	size := func(v *yaml.Node, what string, example int) (int, error) {
		q, err := resource.ParseQuantity(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || q.Sign() <= 0 || q.Value() > math.MaxInt32 {
			return 0, p.errf(v, "%s must be a size in bytes (%d) or a quantity (%dMi) up to 2Gi, not %q", what, example, example>>20, v.Value)
		}
		return int(q.Value()), nil
	}
	duration := func(v *yaml.Node, what string) (time.Duration, error) {
		d, err := time.ParseDuration(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || d <= 0 {
			return 0, p.errf(v, "%s must be a duration such as 10s, not %q", what, v.Value)
		}
		return d, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "maxFileSize":
			l.MaxFileSize, err = size(v, "maxFileSize", manifest.DefaultMaxFileSize)
		case "maxDocuments":
			l.MaxDocuments, err = positive(v, "maxDocuments")
		case "maxDepth":
			l.MaxDepth, err = positive(v, "maxDepth")
		case "maxAliasNodes":
			l.MaxNodes, err = positive(v, "maxAliasNodes")
		case "maxNodes":
			l.MaxFileNodes, err = positive(v, "maxNodes")
		case "timeout":
			l.Timeout, err = duration(v, "timeout")
		case "renderTimeout":
			r.Timeout, err = duration(v, "renderTimeout")
		case "maxRenderOutput":
			r.MaxOutput, err = size(v, "maxRenderOutput", render.DefaultMaxOutput)
		case "maxRenderInput":
			r.MaxInput, err = size(v, "maxRenderInput", render.DefaultMaxInput)
		case "maxRenderFiles":
			r.MaxFiles, err = positive(v, "maxRenderFiles")
		default:
			err = p.unknown(k, limitKeys)
		}
		if err != nil {
			return l, r, err
		}
	}
	return l, r, nil
}

// helm reads the helm mapping: {charts: [{path, releaseName, namespace,
// values: [files], set: {key: value}}]}.
func (p *configParser) helm(n *yaml.Node) ([]ChartConfig, error) {
	if err := p.mapping(n, "helm"); err != nil {
		return nil, err
	}
	var out []ChartConfig
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "charts" {
			return nil, p.unknown(k, []string{"charts"})
		}
		if v.Kind != yaml.SequenceNode {
			return nil, p.errf(v, "helm.charts must be a list of {path, releaseName, namespace, values, set}")
		}
		for _, item := range v.Content {
			ch, err := p.chart(item)
			if err != nil {
				return nil, err
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

func (p *configParser) chart(item *yaml.Node) (ChartConfig, error) {
	ch := ChartConfig{Line: item.Line, Col: item.Column}
	if err := p.mapping(item, "a chart of helm.charts"); err != nil {
		return ch, err
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		var err error
		switch k.Value {
		case "path":
			ch.Path, err = p.str(v)
		case "releaseName":
			ch.ReleaseName, err = p.str(v)
		case "namespace":
			ch.Namespace, err = p.str(v)
		case "values":
			ch.Values, err = p.strings(v)
		case "set":
			if err = p.mapping(v, "set"); err != nil {
				return ch, err
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				sk, sv := v.Content[j], v.Content[j+1]
				if sv.Kind != yaml.ScalarNode {
					return ch, p.errf(sv, "set.%s must be a scalar (helm --set %s=VALUE); write lists and mappings in a values file", sk.Value, sk.Value)
				}
				ch.Set = append(ch.Set, sk.Value+"="+sv.Value)
			}
		default:
			err = p.unknown(k, []string{"path", "releaseName", "namespace", "values", "set"})
		}
		if err != nil {
			return ch, err
		}
	}
	if ch.Path == "" {
		return ch, p.errf(item, "a chart of helm.charts needs a path (the directory holding its Chart.yaml)")
	}
	return ch, nil
}

type configParser struct {
	file   string
	byName map[string]*Analyzer
	lines  int
}

func (p *configParser) errf(n *yaml.Node, format string, args ...any) error {
	line, col := n.Line, n.Column
	if line > p.lines { // yaml.v3 places an empty document's node past the end
		line, col = p.lines, 1
	}
	return &ConfigError{Path: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// outputLines splits text into lines at "\n", "\r\n" and "\r".
func outputLines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

func (p *configParser) unknown(k *yaml.Node, known []string) error {
	msg := fmt.Sprintf("unknown key %q", k.Value)
	if s := suggest.Closest(k.Value, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += fmt.Sprintf(" (known keys: %s)", strings.Join(known, ", "))
	}
	return p.errf(k, "%s", msg)
}

func (p *configParser) mapping(n *yaml.Node, what string) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s must be a mapping", what)
	}
	return nil
}

func (p *configParser) str(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.errf(n, "expected a string")
	}
	return n.Value, nil
}

func (p *configParser) strings(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "expected a list of strings")
	}
	var out []string
	for _, c := range n.Content {
		s, err := p.str(c)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// globs checks a list of globs: at most MaxGlobs of them, each at most
// MaxGlobLen long.
func (p *configParser) globs(n *yaml.Node, globs []string, what string) error {
	if len(globs) > MaxGlobs {
		return p.errf(n, "%s holds %d patterns, over the limit of %d", what, len(globs), MaxGlobs)
	}
	for i, g := range globs {
		if len(g) > MaxGlobLen {
			return p.errf(n.Content[i], "%s: a pattern of %d characters, over the limit of %d", what, len(g), MaxGlobLen)
		}
	}
	return nil
}

func (p *configParser) ruleNames() []string {
	var names []string
	for n := range p.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (p *configParser) rules(n *yaml.Node) (map[string]RuleConfig, error) {
	if err := p.mapping(n, "rules"); err != nil {
		return nil, err
	}
	out := map[string]RuleConfig{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		a, ok := p.byName[k.Value]
		if !ok {
			msg := fmt.Sprintf("unknown rule %q", k.Value)
			if s := suggest.Closest(k.Value, p.ruleNames()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, p.errf(k, "%s; `scalelint rules` lists them", msg)
		}
		rc, err := p.rule(a, v)
		if err != nil {
			return nil, err
		}
		out[k.Value] = rc
	}
	return out, nil
}

// rule reads "off|info|warning|error" or {severity: ..., OPTION: number}.
func (p *configParser) rule(a *Analyzer, v *yaml.Node) (RuleConfig, error) {
	var rc RuleConfig
	sev := func(n *yaml.Node) error {
		if n.Kind == yaml.ScalarNode && (n.Value == "off" || n.Value == "false") {
			rc.Off = true
			return nil
		}
		s, ok := ParseSeverity(n.Value)
		if n.Kind != yaml.ScalarNode || !ok {
			return p.errf(n, "rule %s: severity must be off, info, warning or error, not %q", a.Name, n.Value)
		}
		rc.Severity = s
		return nil
	}
	if v.Kind == yaml.ScalarNode {
		return rc, sev(v)
	}
	if err := p.mapping(v, "rule "+a.Name); err != nil {
		return rc, err
	}
	known := []string{"severity"}
	for _, o := range a.Options {
		known = append(known, o.Name)
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Value == "severity" {
			if err := sev(val); err != nil {
				return rc, err
			}
			continue
		}
		if _, ok := a.Option(k.Value); !ok {
			return rc, p.unknown(k, known)
		}
		f, err := strconv.ParseFloat(val.Value, 64)
		if err != nil || val.Kind != yaml.ScalarNode || f < 0 {
			return rc, p.errf(val, "rule %s: option %s must be a number of zero or more, not %q", a.Name, k.Value, val.Value)
		}
		if rc.Options == nil {
			rc.Options = map[string]float64{}
		}
		rc.Options[k.Value] = f
	}
	return rc, nil
}

func (p *configParser) defaults(n *yaml.Node) (scaling.Inputs, error) {
	if err := p.mapping(n, "defaults"); err != nil {
		return nil, err
	}
	out := scaling.Inputs{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := strings.TrimPrefix(k.Value, scaling.Prefix)
		spec, ok := scaling.SpecOf(name)
		if !ok {
			return nil, p.unknown(k, scaling.AnnotationNames())
		}
		if v.Kind != yaml.ScalarNode {
			return nil, p.errf(v, "defaults.%s must be a scalar such as %q", name, spec.Example)
		}
		in, err := scaling.ParseValue(spec, v.Value)
		if err != nil {
			return nil, p.errf(v, "defaults.%s: %v", name, err)
		}
		in.Origin = scaling.FromConfig
		out[name] = in
	}
	return out, nil
}

func (p *configParser) overrides(n *yaml.Node) ([]Override, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "overrides must be a list of {paths: [...], rules: {...}}")
	}
	if len(n.Content) > MaxGlobs {
		return nil, p.errf(n, "overrides holds %d entries, over the limit of %d", len(n.Content), MaxGlobs)
	}
	var out []Override
	total := 0
	for _, item := range n.Content {
		if err := p.mapping(item, "an override"); err != nil {
			return nil, err
		}
		var o Override
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			var err error
			switch k.Value {
			case "paths":
				if o.Paths, err = p.strings(v); err == nil {
					err = p.globs(v, o.Paths, "an override's paths")
				}
			case "rules":
				o.Rules, err = p.rules(v)
			default:
				err = p.unknown(k, []string{"paths", "rules"})
			}
			if err != nil {
				return nil, err
			}
		}
		if len(o.Paths) == 0 {
			return nil, p.errf(item, "an override needs paths")
		}
		// Every rule of every file matches the paths of every override:
		// the patterns of all overrides count against one limit.
		if total += len(o.Paths); total > MaxGlobs {
			return nil, p.errf(item, "overrides hold %d path patterns in all, over the limit of %d", total, MaxGlobs)
		}
		out = append(out, o)
	}
	return out, nil
}

// rel returns file relative to the config's directory, with slashes.
func (c *Config) rel(file string) string {
	if c.Dir == "" {
		return filepath.ToSlash(filepath.Clean(file))
	}
	absDir, err1 := filepath.Abs(c.Dir)
	absFile, err2 := filepath.Abs(file)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(absDir, absFile); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// Excluded reports whether a file is excluded by the configuration that
// governs it (For).
func (c *Config) Excluded(file string) bool {
	c = c.For(file)
	rel := c.rel(file)
	for _, g := range c.Exclude {
		if MatchGlob(g, rel) {
			return true
		}
	}
	return false
}

// RuleSetting returns the effective setting of a rule for a file: the
// rule's default, then the config's rules, then matching overrides in
// order. ok is false when the rule is off.
func (c *Config) RuleSetting(a *Analyzer, file string) (sev Severity, options map[string]float64, ok bool) {
	sev, options, ok, _ = c.ruleSetting(a, file)
	return
}

// Option returns the value of a rule's option for a file: the last
// matching override's, else the config's rules', else the option's
// default (0 for an option the rule does not declare). Pass.Option reads
// options through it, and so does every driver that shows what a rule
// computes (the audit, the editor's hover), so they agree with the rule.
func (c *Config) Option(a *Analyzer, file, name string) float64 {
	if _, options, _ := c.RuleSetting(a, file); options != nil {
		if v, ok := options[name]; ok {
			return v
		}
	}
	if o, ok := a.Option(name); ok {
		return o.Default
	}
	return 0
}

// ruleSetting also reports whether the severity was configured rather
// than the rule's default.
func (c *Config) ruleSetting(a *Analyzer, file string) (sev Severity, options map[string]float64, ok, configured bool) {
	c = c.For(file)
	sev, ok = a.Severity, true
	apply := func(rc RuleConfig, exists bool) {
		if !exists {
			return
		}
		if rc.Off {
			ok = false
		} else if rc.Severity != 0 {
			sev, ok, configured = rc.Severity, true, true
		}
		for k, v := range rc.Options {
			if options == nil {
				options = map[string]float64{}
			}
			options[k] = v
		}
	}
	rc, exists := c.Rules[a.Name]
	apply(rc, exists)
	if file != "" && len(c.Overrides) > 0 {
		rel := c.rel(file)
		for _, o := range c.Overrides {
			for _, g := range o.Paths {
				if MatchGlob(g, rel) {
					rc, exists := o.Rules[a.Name]
					apply(rc, exists)
					break
				}
			}
		}
	}
	return sev, options, ok, configured
}
