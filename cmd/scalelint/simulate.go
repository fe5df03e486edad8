package main

import (
	"fmt"
	"go/token"
	"io"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/simulation"
	"github.com/scalelint/scalelint/rules"
)

const simulateUsage = `Usage: scalelint simulate [flags] [FILE...|-]

Runs the deployed control loop of a backlog-scaled autoscaler (an HPA with
an External/Object AverageValue metric marked scalelint.dev/signal: backlog,
or a KEDA ScaledObject with a backlog trigger) through a step in demand and
reports, over the last hour of the run, the pod count (min, p5, p95, max,
mean), the need and whether the loop hunts (its swing above 30% of the
need), beside the law's prediction: it rests iff its standing delay T/c is
at least τ_eff·Φ(W_eff/τ_eff) (rules/laws/README.md §2, §6).

The numbers come from the manifest: the threshold (KEDA's default when
absent), min and max replicas, the behavior (none: the controller's legacy
path), and the scalelint.dev annotations of the autoscaler, its target and
.scalelint.yaml's defaults: dead-time, pod-rate, sampling-delay, and demand
(the step goes from demand/4 to demand, a 4x step). Flags override.

With --find-boundary it bisects on the threshold for the smallest standing
delay at which the deployed loop rests and prints it beside the law's.

Examples:
  scalelint simulate deploy/consumer.yaml
  scalelint simulate --object orders --window 60s --format svg --output orders.svg .
  scalelint simulate --find-boundary deploy/

Exit status: 0 done, 2 usage or input error.

Flags:`

func runSimulate(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o simulation.Overrides
	var object, format, out, configPath, namespace string
	fs := newFlagSet("simulate", stderr)
	fs.StringVar(&object, "object", "", "the autoscaler to simulate, by name (or Kind/name, namespace/name), when the input holds several")
	fs.StringVar(&format, "format", "text", "text, json, svg (pods and backlog, first and last hour) or csv (the samples)")
	fs.StringVar(&out, "output", "", "write to this file (atomically) instead of stdout")
	fs.BoolVar(&o.FindBoundary, "find-boundary", false, "bisect on the threshold for the smallest standing delay at which the loop rests (text or json)")
	numVar(fs, &o.DeadTime, "dead-time", "dead time τ: ordering a pod to its first consumed message (default: scalelint.dev/dead-time)", "d0")
	numVar(fs, &o.PodRate, "pod-rate", "messages per second one pod consumes (default: scalelint.dev/pod-rate)", "")
	numVar(fs, &o.Threshold, "threshold", "per-pod threshold T, messages per pod (default: the manifest's)", "")
	numVar(fs, &o.Window, "window", "scale-down stabilization window: the behavior's, or the controller's on the legacy path (default: the manifest's, else 300s)", "d0")
	numVar(fs, &o.From, "from", "demand before the step, in the pod rate's unit (default: --to/4)", "0")
	numVar(fs, &o.To, "to", "demand after the step, in the pod rate's unit (default: scalelint.dev/demand)", "")
	numVar(fs, &o.Hours, "hours", "hours simulated after the step, 1 to 1000 (default 20)", "")
	numVar(fs, &o.Noise, "noise", "relative demand noise, a factor redrawn every minute from [1-noise, 1+noise] (default 0)", "0")
	fs.Int64Var(&o.Seed, "seed", 1, "seed of the demand noise")
	fs.StringVar(&configPath, "config", "", "configuration file for every input (default: for each file, the nearest .scalelint.yaml above it, up to the repository root)")
	fs.StringVar(&namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	values := valuesFlags(fs)
	paths, err := parseCommand(fs, simulateUsage, args, stderr)
	if err != nil {
		return err
	}
	switch format {
	case "text", "json":
	case "svg", "csv":
		if o.FindBoundary {
			return fmt.Errorf("--format %s: --find-boundary prints text or json", format)
		}
	default:
		return fmt.Errorf("--format must be text, json, svg or csv, not %q", format)
	}
	if err := o.Check(); err != nil {
		return err
	}
	in, err := readInputs(paths, stdin, stderr, configPath, namespace, false, values)
	if err != nil {
		return err // one autoscaler is simulated: every input must be read
	}
	if err := output.GuardInputs([]output.Named{{Flag: "--output", Path: out}}, in.InputFiles()); err != nil {
		return err
	}
	c, m, err := simulation.Pick(candidates(in), in.Files, object)
	if err != nil {
		return err
	}
	for _, p := range c.Problems() {
		fmt.Fprintf(stderr, "scalelint: warning: %s\n", p)
	}
	run, err := simulation.Setup(c, m, rules.Evaluate(c.Workspace, c.Autoscaler, in.Config), o)
	if err != nil {
		return err
	}
	run.Namespace = in.Config.Namespace
	if format == "svg" || format == "csv" {
		for _, n := range run.Notes {
			fmt.Fprintf(stderr, "scalelint: note: %s\n", n)
		}
	}
	if o.FindBoundary {
		err = run.FindBoundary()
	} else {
		err = run.Simulate()
	}
	if err != nil {
		return err
	}
	if output.IsStdout(out) {
		if err := run.Writer(format)(stdout); err != nil {
			return err
		}
	} else if err := output.WriteFile(out, run.Writer(format)); err != nil {
		return fmt.Errorf("--output: %v", err)
	}
	return changed(in, stderr)
}

// candidates are the autoscalers simulate may pick: those of the files
// read, and those the charts and kustomizations deploy (once per place in
// their sources), placed in the files users edit.
func candidates(in *load.Inputs) []simulation.Candidate {
	out := simulation.Candidates(in.Workspace)
	if in.Rendered == nil {
		return out
	}
	for _, ra := range in.Rendered.Autoscalers() {
		u := ra.Unit
		place := func(o *manifest.Object, pos token.Pos) string {
			if p, _, ok := in.Rendered.Place(u, pos, pos); ok {
				if f := in.Workspace.FileOf(p); f != nil {
					return fmt.Sprintf("%s:%d", f.Path, f.Lines().Line(p))
				}
			}
			return simulation.OwnFile(o, pos) + " (rendered)"
		}
		out = append(out, simulation.Candidate{Autoscaler: ra.Autoscaler, Workspace: u.Workspace, Place: place})
	}
	return out
}
