package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/compute"
)

const computeUsage = `Usage: scalelint compute [flags]

Evaluates every law its flags allow (rules/laws/README.md) and prints the numbers with verdicts.
Example: scalelint compute --dead-time 90s --window 300s --pod-rate 10 --threshold 10

Flags:`

func runCompute(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var in compute.Inputs
	fs := newFlagSet("compute", stderr)
	numVar(fs, &in.DeadTime, "dead-time", "dead time τ: ordering a pod to its first served request (90s)", "d")
	numVar(fs, &in.Window, "window", "scale-down stabilization window W (default 300s)", "d0")
	numVar(fs, &in.PodRate, "pod-rate", "rate of one pod c, in the signal's unit", "")
	numVar(fs, &in.Threshold, "threshold", "backlog threshold T per pod", "")
	numVar(fs, &in.Limit, "limit", "CPU limit ℓ (cores, summed over counted containers)", "")
	numVar(fs, &in.Request, "request", "CPU request r (cores)", "")
	numVar(fs, &in.Target, "target", "utilization target u* (0.5 or 50%)", "%")
	numVar(fs, &in.Overload, "overload", "design overload k (multiple of the load before it)", "")
	numVar(fs, &in.Demand, "demand", "design demand λ, in the pod rate's unit", "")
	numVar(fs, &in.MaxReplicas, "max-replicas", "replica ceiling M", "")
	numVar(fs, &in.Peak, "scalability-peak", "scalability peak N_max (pods)", "")
	numVar(fs, &in.ClientTimeout, "client-timeout", "shortest client timeout τ_out", "d")
	numVar(fs, &in.Bound, "admission-bound", "admission bound b", "d")
	numVar(fs, &in.Sampling, "sampling-delay", "sampling delay s (default 10s)", "d0")
	numVar(fs, &in.MetricWindow, "metric-window", "metric window m per round (default 30s)", "d0")
	numVar(fs, &in.Tolerance, "tolerance", "scale-up tolerance (default 0.1)", "0")
	numVar(fs, &in.LatencyTarget, "latency-target", "promised queue latency ℓ_acc", "d")
	numVar(fs, &in.Margin, "margin", "margin on the smallest resting threshold (default 0.1)", "0")
	retries := fs.String("retries", "", "retries per layer of callers, outermost first: 2 or 2,2")
	format := fs.String("format", "text", "text or json")
	rest, err := parseCommand(fs, computeUsage, args, stderr)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("compute takes flags only, not %q", rest[0])
	}
	if *retries != "" {
		spec, _ := scaling.SpecOf("retries")
		v, err := scaling.ParseValue(spec, *retries)
		if err != nil {
			return fmt.Errorf("--retries: %v", err)
		}
		in.Retries = v.List
	}
	if *format != "text" && *format != "json" {
		return fmt.Errorf("--format must be text or json, not %q", *format)
	}
	if err := in.Check(); err != nil {
		return err
	}
	res := compute.Compute(in)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res.Values)
	}
	if len(res.Lines) == 0 {
		fmt.Fprintln(stdout, "nothing to compute: give the numbers of at least one law (scalelint compute -h)")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	for _, l := range res.Lines {
		fmt.Fprintln(tw, l)
	}
	return tw.Flush()
}
