package analyzer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// ConfigFile is the shape of .scalelint.yaml. ParseConfig reads the file
// from its node tree (for positioned errors); this type exists so its JSON
// Schema is generated from Go types, for yaml-language-server users.
type ConfigFile struct {
	Rules     map[string]RuleSetting `json:"rules,omitempty" jsonschema_description:"Rule severities and options by rule name: off, info, warning or error, or a mapping with severity and the rule's options."`
	Defaults  map[string]string      `json:"defaults,omitempty" jsonschema_description:"Repository-wide values of scalelint.dev annotations, by name without the prefix (dead-time: 90s). An annotation on the autoscaler or its target wins."`
	Exclude   []string               `json:"exclude,omitempty" jsonschema_description:"Globs of paths (relative to this file) that directory walks skip: * and ? within a path segment, ** across segments; a pattern without a slash matches any path element."`
	Namespace string                 `json:"namespace,omitempty" jsonschema_description:"Namespace of objects that set none and that no kustomization places (default: default)."`
	Overrides []OverrideSetting      `json:"overrides,omitempty" jsonschema_description:"Rule settings for the files matching paths, applied in order after rules."`
	Limits    *LimitsSetting         `json:"limits,omitempty" jsonschema_description:"What one input file, chart value set or kustomization build may cost before it is refused with an input-limit finding (check, audit, simulate and the language server)."`
	Helm      *HelmSetting           `json:"helm,omitempty" jsonschema_description:"How Helm charts are rendered beyond their own value sets (values.yaml, ci/*-values.yaml and the autoscaling variant)."`
	// KubernetesVersion is read from the text as written: 1.30 is 1.30
	// (not the number 1.3), quoted or not.
	KubernetesVersion any           `json:"kubernetes-version,omitempty" jsonschema:"oneof_type=string;number" jsonschema_description:"Kubernetes minor version the manifests are applied to, such as 1.30 or v1.30: removed-api reports the API versions it no longer serves. Default: the oldest minor version still supported upstream when this scalelint was released (1.35)."`
	Infer             *InferSetting `json:"infer,omitempty" jsonschema_description:"What scalelint may assume when it reads law inputs from traffic configuration."`
}

// HelmSetting is the helm mapping.
type HelmSetting struct {
	Charts []ChartSetting `json:"charts,omitempty" jsonschema_description:"Charts and the value sets they are also rendered with."`
}

// ChartSetting is one entry of helm.charts.
type ChartSetting struct {
	Path        string            `json:"path" jsonschema_description:"The chart directory (holding Chart.yaml), relative to this file."`
	ReleaseName string            `json:"releaseName,omitempty" jsonschema_description:"The release name templates see (default release-name, as helm template's)."`
	Namespace   string            `json:"namespace,omitempty" jsonschema_description:"The release namespace templates see (default: default)."`
	Values      []string          `json:"values,omitempty" jsonschema_description:"Values files (relative to this file) layered in order over the chart's defaults, as helm -f: one more value set."`
	Set         map[string]string `json:"set,omitempty" jsonschema_description:"Values set over them, as helm --set key=value (keys dotted: autoscaling.enabled)."`
}

// InferSetting is the infer mapping.
type InferSetting struct {
	Controllers []string `json:"controllers,omitempty" jsonschema_description:"Data-plane controllers that serve this repository's traffic objects, whose defaults apply where the manifests leave a value to them (a retry count, a timeout); without them only what the manifests write is read."`
}

// LimitsSetting is the limits mapping.
type LimitsSetting struct {
	MaxFileSize     any    `json:"maxFileSize,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Largest file read, in bytes or as a quantity such as 10Mi (default 10Mi)."`
	MaxDocuments    int    `json:"maxDocuments,omitempty" jsonschema:"minimum=1" jsonschema_description:"Most YAML documents read from one file (default 10000)."`
	MaxDepth        int    `json:"maxDepth,omitempty" jsonschema:"minimum=1" jsonschema_description:"Deepest nesting of mappings and sequences (default 256)."`
	MaxNodes        int    `json:"maxNodes,omitempty" jsonschema:"minimum=1" jsonschema_description:"Most YAML nodes (keys, values and items) of one file, counted before they are built: the memory its trees may take (default 2000000)."`
	MaxAliasNodes   int    `json:"maxAliasNodes,omitempty" jsonschema:"minimum=1" jsonschema_description:"Most nodes one object may expand to through YAML aliases: a billion-laughs document is refused (default 1000000)."`
	Timeout         string `json:"timeout,omitempty" jsonschema_description:"Longest time to read and parse one file, as a duration such as 10s (default 10s)."`
	RenderTimeout   string `json:"renderTimeout,omitempty" jsonschema_description:"Longest time to render one value set of a chart or build one kustomization, as a duration (default 10s)."`
	MaxRenderOutput any    `json:"maxRenderOutput,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Most bytes one chart value set or kustomization build may render, in bytes or as a quantity (default 64Mi)."`
	MaxRenderInput  any    `json:"maxRenderInput,omitempty" jsonschema:"oneof_type=integer;string" jsonschema_description:"Most bytes read from one chart or kustomization tree (default 64Mi)."`
	MaxRenderFiles  int    `json:"maxRenderFiles,omitempty" jsonschema:"minimum=1" jsonschema_description:"Most files read from one chart or kustomization tree (default 10000)."`
}

// RuleSetting is a rule's entry under rules: a severity word, or a
// mapping with severity and options.
type RuleSetting struct {
	Severity string             `json:"severity,omitempty"`
	Options  map[string]float64 `json:"-"`
}

// OverrideSetting is one entry of overrides.
type OverrideSetting struct {
	Paths []string               `json:"paths" jsonschema:"minItems=1" jsonschema_description:"Globs of the files this override applies to."`
	Rules map[string]RuleSetting `json:"rules,omitempty"`
}

var severityWords = []any{"off", "info", "warning", "error"}

// JSONSchema gives the generic shape of a rule setting; ConfigSchema
// replaces it with each rule's own.
func (RuleSetting) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
		{Type: "string", Enum: severityWords},
		{Type: "object"},
	}}
}

// ConfigSchema returns the JSON Schema of .scalelint.yaml: the Go types
// above, with every rule name, its options and every annotation name
// filled in.
func ConfigSchema(analyzers []*Analyzer) ([]byte, error) {
	r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true}
	s := r.Reflect(&ConfigFile{})
	s.Version = "http://json-schema.org/draft-07/schema#"
	s.ID = "https://github.com/scalelint/scalelint/analyzer/config.schema.json"
	s.Title = "scalelint configuration (.scalelint.yaml)"
	rulesSchema := func() *jsonschema.Schema {
		props := orderedmap.New[string, *jsonschema.Schema]()
		for _, a := range analyzers {
			opts := orderedmap.New[string, *jsonschema.Schema]()
			opts.Set("severity", &jsonschema.Schema{Type: "string", Enum: severityWords, Description: "default: " + a.Severity.String()})
			for _, o := range a.Options {
				opts.Set(o.Name, &jsonschema.Schema{Type: "number", Minimum: "0", Description: fmt.Sprintf("%s (default %g)", o.Doc, o.Default)})
			}
			props.Set(a.Name, &jsonschema.Schema{
				Description: a.Doc.Title + ". Default severity: " + a.Severity.String() + ".",
				OneOf: []*jsonschema.Schema{
					{Type: "string", Enum: severityWords},
					// YAML 1.1 readers take an unquoted off for false.
					{Type: "boolean", Enum: []any{false}},
					{Type: "object", Properties: opts, AdditionalProperties: jsonschema.FalseSchema},
				},
			})
		}
		return &jsonschema.Schema{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema,
			Description: s.Properties.Value("rules").Description}
	}
	s.Properties.Set("rules", rulesSchema())
	if ov := s.Properties.Value("overrides"); ov != nil && ov.Items != nil && ov.Items.Properties != nil {
		ov.Items.Properties.Set("rules", rulesSchema())
	}
	defaults := orderedmap.New[string, *jsonschema.Schema]()
	for _, spec := range scaling.Annotations {
		d := &jsonschema.Schema{Description: spec.Doc, Examples: []any{spec.Example}}
		switch spec.Kind {
		case scaling.Enum:
			var words []any
			for _, w := range spec.Words {
				words = append(words, w)
			}
			d.Type, d.Enum = "string", words
		case scaling.Duration:
			d.Type, d.Pattern = "string", `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h)?)+$`
		case scaling.IntList:
			d.Type, d.Pattern = "string", `^ *[0-9]+( *, *[0-9]+)* *$`
		default:
			d.OneOf = []*jsonschema.Schema{{Type: "number"}, {Type: "string", Pattern: `^[0-9]+(\.[0-9]+)?$`}}
		}
		if spec.Default != "" {
			d.Default = spec.Default
		}
		defaults.Set(spec.Name, d)
	}
	s.Properties.Set("defaults", &jsonschema.Schema{Type: "object", Properties: defaults, AdditionalProperties: jsonschema.FalseSchema,
		Description: s.Properties.Value("defaults").Description})
	if in := s.Properties.Value("infer"); in != nil && in.Properties != nil {
		if cs := in.Properties.Value("controllers"); cs != nil && cs.Items != nil {
			var names []any
			var doc []string
			for _, c := range infer.Controllers {
				names = append(names, c.Name)
				doc = append(doc, fmt.Sprintf("%s: %s, %s (%s)", c.Name, c.Applies, c.Default, c.Source))
			}
			cs.Items.Enum = names
			cs.UniqueItems = true
			cs.Description += " " + strings.Join(doc, "; ") + "."
		}
	}
	return json.MarshalIndent(s, "", "  ")
}
