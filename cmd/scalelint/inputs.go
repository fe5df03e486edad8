package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

// readInputs reads what check, audit and simulate read (load.Read) and
// prints, as they are found, the paths that could not be read and the
// warnings. err is set when some path could not be read: the command goes
// on with what it read, and ends with exit status 2.
func readInputs(paths []string, stdin io.Reader, stderr io.Writer, configPath, namespace string, progress bool, values *load.Options) (*load.Inputs, error) {
	for _, f := range values.Values {
		if st, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("--values: %v", err)
		} else if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("--values %s: not a regular file", f)
		}
	}
	var p io.Writer
	if progress {
		p = stderr
	}
	in, err := load.Read(paths, stdin, load.Options{ConfigPath: configPath, Namespace: namespace, Progress: p, Values: values.Values, Set: values.Set, Mark: phaseMark})
	if err != nil {
		return nil, err
	}
	for _, e := range in.Errs {
		fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
	}
	for _, w := range in.Warnings {
		fmt.Fprintf(stderr, "scalelint: warning: %s\n", term.Clean(w))
	}
	if len(in.Errs) > 0 {
		return in, reported{errors.Join(in.Errs...)}
	}
	return in, nil
}

// changed prints the files that changed while the run read them
// (load.Inputs.Changed): their findings cannot be trusted, exit status 2.
func changed(in *load.Inputs, stderr io.Writer) error {
	errs := in.Changed()
	for _, e := range errs {
		fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
	}
	if len(errs) > 0 {
		return reported{errors.Join(errs...)}
	}
	return nil
}

// reportInputs is what a report says of the inputs besides the findings.
func reportInputs(in *load.Inputs) report.Inputs {
	out := report.Inputs{ConfigFiles: in.ConfigFiles}
	for _, s := range in.Skipped {
		out.Skipped = append(out.Skipped, report.Skipped{Path: s.Path, Reason: s.Reason})
	}
	return out
}

// describeInputs prints, for --verbose, how the inputs were read: the
// configuration files, the repository root and the deployment roots
// GitOps paths were resolved against, and the files set aside.
func describeInputs(in *load.Inputs, w io.Writer) {
	if len(in.ConfigFiles) == 0 {
		fmt.Fprintln(w, "scalelint: configuration: built-in (no .scalelint.yaml above the inputs)")
	}
	for _, c := range in.ConfigFiles {
		fmt.Fprintf(w, "scalelint: configuration: %s\n", c)
	}
	roots := in.Workspace.AllRoots()
	gitops := false
	for _, r := range roots {
		if r.Object != nil {
			gitops = true
		}
	}
	if gitops && in.Root.Dir != "" {
		fmt.Fprintf(w, "scalelint: repository root (GitOps paths are relative to it): %s\n", in.Root)
	}
	seen := map[string]bool{}
	for _, r := range roots {
		line := rootLine(r)
		if !seen[line] { // an ApplicationSet's generators may match a directory twice
			seen[line] = true
			fmt.Fprintf(w, "scalelint: deployment root: %s\n", line)
		}
	}
	for _, s := range in.Skipped {
		fmt.Fprintf(w, "scalelint: skipped %s: %s\n", s.Path, s.Reason)
	}
}

// rootLine describes a deployment root for --verbose: what declares it (a
// kustomization, or a GitOps object and where it is written: objects in
// different files often share a name, an example's "guestbook") and what
// it deploys.
func rootLine(r *workspace.Root) string {
	paths := slices.Compact(slices.Clone(r.Paths)) // source and sources may name one path
	if len(paths) == 0 {
		paths = []string{r.Path}
	}
	if r.Object == nil {
		return r.Path + " (a kustomization no other includes: built as one)"
	}
	o := r.Object
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + o.Name
	}
	f := o.File()
	what := strings.Join(paths, ", ")
	switch {
	case r.Empty:
		what += ", which holds no input"
	case r.Helm:
		what = "the chart " + what + " (rendered, not read)"
	case r.Recurse:
		what += " and below"
	}
	return fmt.Sprintf("%s %q (%s:%d) deploys %s", r.Kind, name, f.Path, f.LineOf(o.At.Pos), what)
}
