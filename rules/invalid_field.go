package rules

import "github.com/scalelint/scalelint/analyzer"

// InvalidField reports typed-decode errors at the offending field.
var InvalidField = &analyzer.Analyzer{
	Name:     "invalid-field",
	Severity: analyzer.Error,
	Doc: analyzer.Doc{
		Title: "Field with a value of the wrong type, unknown or duplicated",
		What: "Reports a field of an autoscaler that Kubernetes would not accept: a value of the wrong " +
			"type (`maxReplicas: \"ten\"`, a number where KEDA wants a string), an unknown field (a typo such as " +
			"`behaviour`, with a did-you-mean), a duplicate key, or a number JSON cannot carry (NaN, infinity); " +
			"and, in the workloads autoscalers scale, the same for the fields scalelint reads (replicas, the pod " +
			"template's containers, their resources and restart policies). Values are read as kubectl reads them " +
			"(YAML 1.1 booleans, case-sensitive field names). The rest of a workload is a schema validator's " +
			"job (kubeconform, kubectl --dry-run).",
		Why: "The API server rejects the object, or, for an unknown field without strict validation, silently drops " +
			"it: a misspelled `behavior` leaves the autoscaler on its defaults while the manifest says otherwise. " +
			"KEDA's CRD types every trigger metadata value as a string, so `lagThreshold: 50` is refused at apply " +
			"time.",
		Example: "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: orders\nspec:\n  scaleTargetRef:\n    name: orders\n" +
			"  triggers:\n  - type: kafka\n    metadata:\n      lagThreshold: 50",
		UseInstead: "  triggers:\n  - type: kafka\n    metadata:\n      lagThreshold: \"50\"",
		Fix:        "A safe fix quotes a number or boolean where a string is wanted.",
		References: []string{
			"kubectl strict field validation: https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation",
			"sigs.k8s.io/json (case-sensitive, strict decoding as in Kubernetes)",
		},
	},
	Run: func(pass *analyzer.Pass) error {
		decoded := reportProblems(pass, "invalid-field")
		// Values the decode accepts and KEDA does not: a trigger threshold
		// its scaler cannot read, or that makes the HPA it creates invalid
		// (once per field: the decode may have refused it already).
		for _, a := range pass.Workspace.Autoscalers() {
			for _, p := range a.FieldProblems {
				if !decoded[p.Pos] {
					pass.Report(analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message, Object: p.Object})
				}
			}
		}
		return nil
	},
}
