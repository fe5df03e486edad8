package main

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
)

// The JSON carries check's fact names, and `audit` sees every autoscaler
// `check` sees on the real corpus.
func TestAuditJSONRealworld(t *testing.T) {
	root := realworld(t)
	cmd := exec.Command(binary, "audit", "--format", "json", "--quiet", "real")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	var rep struct {
		Version int `json:"version"`
		Summary struct {
			Files, Autoscalers, Fail, Warn, Accepted, Pass, Partial, Unknown, NotApplicable int
		} `json:"summary"`
		Autoscalers []map[string]any `json:"autoscalers"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	chk, _ := checkJSON(t, root, "real")
	s := rep.Summary
	if rep.Version != 1 || s.Autoscalers != chk.Summary.Autoscalers || len(rep.Autoscalers) != s.Autoscalers || s.Files != chk.Summary.Files {
		t.Errorf("audit saw %d autoscalers in %d files (%d rows), check %d in %d", s.Autoscalers, s.Files, len(rep.Autoscalers),
			chk.Summary.Autoscalers, chk.Summary.Files)
	}
	if s.Fail+s.Warn+s.Accepted+s.Pass+s.Partial+s.Unknown+s.NotApplicable != s.Autoscalers {
		t.Errorf("verdict counts do not add up: %+v", s)
	}
	// Each error check reports on an autoscaler's law is a failing law.
	fails := map[string]bool{}
	for _, r := range rep.Autoscalers {
		o := r["object"].(map[string]any)
		for _, rule := range anyStrings(r["rules"]) {
			fails[r["file"].(string)+" "+o["name"].(string)+" "+rule] = true
		}
	}
	for _, d := range chk.Diagnostics {
		if audit.LawOf(d.Rule) == "" || d.Severity == "info" || d.Object == nil {
			continue
		}
		if !fails[d.File+" "+d.Object.Name+" "+d.Rule] {
			t.Errorf("check reports %s on %s %s, the audit does not list it", d.Rule, d.File, d.Object.Name)
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	if xs, ok := v.([]any); ok {
		for _, x := range xs {
			out = append(out, x.(string))
		}
	}
	return out
}
