package rules

import (
	"context"
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestRemovedTargetRefSeverity: a scaleTargetRef in a removed version is
// an error only when its group serves the kind in no version any more
// (extensions/v1beta1 Deployment: the HPA controller's RESTMappings of
// the GroupKind {extensions, Deployment} find nothing, FailedGetScale);
// in a group that serves it still (apps/v1beta1, apps/v1beta2: the
// controller maps {apps, Deployment} to apps/v1 and scales) it is an info
// (pkg/controller/podautoscaler/horizontal.go, reconcileAutoscaler).
func TestRemovedTargetRefSeverity(t *testing.T) {
	for apiVersion, want := range map[string]analyzer.Severity{
		"extensions/v1beta1": analyzer.Error,
		"apps/v1beta1":       analyzer.Info,
		"apps/v1beta2":       analyzer.Info,
	} {
		src := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: api}\nspec:\n" +
			"  scaleTargetRef: {apiVersion: " + apiVersion + ", kind: Deployment, name: api}\n  maxReplicas: 10\n"
		fset := token.NewFileSet()
		f := manifest.Parse(fset, "f.yaml", []byte(src), manifest.Options{Eager: manifest.IsReadKind})
		ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
		var got []analyzer.Severity
		for _, d := range analyzer.Run(context.Background(), ws, []*analyzer.Analyzer{RemovedAPI}, nil) {
			got = append(got, d.Severity)
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("scaleTargetRef %s: severities %v, want one %v", apiVersion, got, want)
		}
	}
}
