package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
)

// InlayHint shows the computed numbers after the fields they are about:
// after a backlog threshold, the standing delay, the delay the loop needs
// and the smallest threshold that rests ("D 1s · needs ≥ 89.5s · rests at
// ≥ 985"); after a CPU utilization target, the growth factor and rounds;
// after maxReplicas, the ceiling band.
func (s *Server) InlayHint(ctx context.Context, params *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	from, to, err := h.Mapper().OffsetRange(params.Range)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	var hints []protocol.InlayHint
	padding := true
	add := func(o *manifest.Object, f manifest.Field, label, tooltip string) {
		if !f.IsValid() {
			return
		}
		_, _, end := snap.fieldSpan(o, f)
		if end < from || end > to {
			return
		}
		hints = append(hints, protocol.InlayHint{
			Position:    h.Mapper().Position(end),
			Label:       protocol.String(label),
			Tooltip:     protocol.String(tooltip),
			PaddingLeft: &padding,
		})
	}
	ws := snap.Workspace()
	for _, a := range ws.Autoscalers().All() {
		o := a.Object
		oh, start, end := snap.fieldSpan(o, o.At)
		if oh != h || end < from || start > to {
			continue
		}
		e := evaluate(snap, a)
		for _, b := range e.Backlog {
			n := a.ThresholdField(b.Metric)
			var label, tooltip string
			switch {
			case b.HasDelay && b.Threshold > 0:
				label = fmt.Sprintf("D %s · needs ≥ %s · rests at ≥ %s", format.Secs(b.StandingDelay), format.Secs(b.Required), format.Num(fixThreshold(snap, a, b), 0))
				tooltip = "latency-floor (rules/laws/README.md §2): standing delay D = T/c against τ_eff·Φ(W_eff/τ_eff); the smallest threshold that rests includes the configured margin"
			case b.HasPodRateCeiling:
				label = fmt.Sprintf("hunts unless c < %s/s · needs T/c ≥ %s", format.SigUp(b.PodRateCeiling, 2), format.Secs(b.Required))
				tooltip = "latency-floor without a pod rate (rules/laws/README.md §10.1): the loop rests only if T/c ≥ τ_eff·Φ(W_eff/τ_eff), so it hunts whenever one pod serves more than c* = T/(τ_eff·Φ)"
			default:
				continue
			}
			if b.Bounded {
				tooltip += "; the dead time is a lower bound read from the manifests: dead time " + rules.InputText(e.Inputs["dead-time"], o.File())
			}
			if !b.Metric.Threshold.Set {
				label = fmt.Sprintf("%s %s (default) · %s", b.Metric.ThresholdKey, format.Num(b.Threshold, 3), label)
			}
			add(o, n, label, tooltip)
		}
		if g := e.Growth; g != nil && g.Metric.Utilization.Set {
			label := fmt.Sprintf("g %s", format.Apart(g.G, 1+g.Tolerance, 3))
			if g.Trapped {
				label += fmt.Sprintf(" ≤ %s: trapped", format.Exact(1+g.Tolerance))
			} else if g.HasOverload && g.Rounds >= 0 {
				label += fmt.Sprintf(" · %d rounds to %s×", g.Rounds, format.Num(g.Overload, 2))
			}
			add(o, g.Metric.Utilization.At, label, "tolerance-trap and scale-up-rounds (rules/laws/README.md §1): the growth factor of a saturated pod")
		}
		if c := e.Ceiling; c != nil && a.Max.Set {
			var parts []string
			if c.HasFloor {
				parts = append(parts, "floor "+format.Num(c.Floor, 1))
			}
			if c.HasTop {
				parts = append(parts, "top "+format.Num(c.Top, 1))
			}
			add(o, a.Max.At, strings.Join(parts, " · "), "ceiling band (rules/laws/README.md §4): floor A·λ/c, top 0.8·N_max")
		}
	}
	sort.SliceStable(hints, func(i, j int) bool {
		pi, pj := hints[i].Position, hints[j].Position
		return pi.Line < pj.Line || (pi.Line == pj.Line && pi.Character < pj.Character)
	})
	return hints, nil
}
