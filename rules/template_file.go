package rules

import "github.com/scalelint/scalelint/analyzer"

// TemplateFile reports Helm/Go template files, which are not YAML.
var TemplateFile = &analyzer.Analyzer{
	Name:     "template-file",
	Severity: analyzer.Info,
	Doc: analyzer.Doc{
		Title: "Helm or Go template that is not YAML until rendered",
		What: "Reports, once per file, a file holding `{{ }}` template syntax that does not read as valid manifests, " +
			"and skips it. Rendered output that merely quotes template text in a string (alerting rules, " +
			"annotations) is YAML and is linted as usual.",
		Why: "A template's values are decided at render time, so its autoscalers cannot be checked as written. " +
			"Lint what will be applied: the rendered manifests.",
		Example:    "{{- if .Values.autoscaling.enabled }}\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {{ include \"app.fullname\" . }}",
		UseInstead: "# render, then lint:\n# helm template my-release ./chart -f values.yaml | scalelint check -",
		Fix:        "None: pipe `helm template` (or `kustomize build`) output into `scalelint check -`.",
		References: []string{"helm template: https://helm.sh/docs/helm/helm_template/"},
	},
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "template-file")
		return nil
	},
}
