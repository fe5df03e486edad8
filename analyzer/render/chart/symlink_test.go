package chart

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestLinkIntoRepository: a chart's directory that is a symbolic link to
// another directory of its git repository (nginxinc/kubernetes-ingress
// links charts/nginx-ingress/crds to ../../config/crd/bases) is read as
// the chart's own, as Helm's loader reads it (it follows links and only
// logs them). A link out of the repository is not followed: one
// render-incomplete problem at the link, not an error, and the chart
// renders without it.
func TestLinkIntoRepository(t *testing.T) {
	outside := rendertest.WriteTree(t, "", map[string]string{"cm.yaml": cm("outside")})
	repo := rendertest.WriteTree(t, "", map[string]string{
		".git/HEAD":                       "ref: refs/heads/main\n",
		"shared/templates/cm.yaml":        cm("shared"),
		"charts/web/Chart.yaml":           "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"charts/web/templates/local.yaml": cm("local"),
	})
	for link, target := range map[string]string{
		"charts/web/templates/shared": filepath.Join(repo, "shared/templates"),
		"charts/web/templates/out":    outside,
	} {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	c, problems := Load(filepath.Join(repo, "charts/web"), LoadOptions{Charts: anyChart})
	if c == nil {
		t.Fatalf("Load: %s", messages(problems))
	}
	if len(problems) != 1 || problems[0].Rule != render.RuleIncomplete || !strings.Contains(problems[0].Path, filepath.Join("templates", "out")) {
		t.Errorf("problems: %s; want one %s at templates/out, the link out of the repository", messages(problems), render.RuleIncomplete)
	}
	out, ps := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
	if out == nil {
		t.Fatalf("Render: %s", messages(ps))
	}
	var rendered string
	for _, f := range out.Files {
		rendered += string(f.Text)
	}
	for name, want := range map[string]bool{"local": true, "shared": true, "outside": false} {
		if got := strings.Contains(rendered, "name: "+name+"\n"); got != want {
			t.Errorf("ConfigMap %q rendered: %v, want %v:\n%s", name, got, want, rendered)
		}
	}
}
