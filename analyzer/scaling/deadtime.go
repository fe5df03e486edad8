package scaling

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Kubernetes probe defaults (Probe in
// https://github.com/kubernetes/api/blob/master/core/v1/types.go, and
// SetDefaults_Probe in pkg/apis/core/v1/defaults.go of kubernetes/kubernetes,
// which defaults 0 as absent): the kubelet first probes after
// initialDelaySeconds and then every periodSeconds, and a container is
// Ready after successThreshold consecutive successes. Readiness probes
// wait for the startup probe to succeed.
const (
	defaultProbePeriod  = 10
	defaultProbeSuccess = 1
)

// probeFloor is what the probes of a pod template say of the dead time,
// kept as numbers: the Input, with its words, is made when an autoscaler
// asks (DeadTimeFloor), not for every workload of a repository.
type probeFloor struct {
	value     float64
	container string
	startup   bool  // the startup probe's delay is the larger
	ready     probe // the readiness probe's timing (zero when none)
	hasReady  bool
	delay     float64 // the larger initial delay
	at        manifest.Field
	line      int  // at's line, read while the file's line table is at hand
	none      bool // no probe at all
}

// readDeadTimeFloor reads the lower bound the pod template's probes put
// on the dead time: a new pod serves no request before every container is
// Ready, and a container with a readiness probe is Ready no earlier than
// max(its startup probe's initialDelaySeconds, the readiness probe's) +
// (successThreshold − 1)·periodSeconds after it starts. Without a probe
// the bound is 0, which is still a bound (the dead time is never
// negative). Nothing else bounds it from below: image pulls, scheduling
// and node provisioning have no floor a manifest states, and the HPA's
// --horizontal-pod-autoscaler-initial-readiness-delay only chooses which
// CPU samples count.
func (w *Workload) readDeadTimeFloor(o *manifest.Object, spec manifest.Path) {
	w.deadTime = probeFloor{none: true}
	sn := o.Get(spec)
	if sn == nil || sn.Kind != yaml.MappingNode {
		return
	}
	best := -1.0
	scan := func(list string, sidecarsOnly bool) {
		_, seq := mappingEntry(sn, list)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		for _, c := range seq.Content {
			if c.Kind != yaml.MappingNode {
				continue
			}
			if sidecarsOnly { // a sidecar: the pod is Ready only when it is
				if _, rp := mappingEntry(c, "restartPolicy"); rp == nil || rp.Value != "Always" {
					continue
				}
			}
			ready, hasReady, readyNode := readProbe(c, "readinessProbe")
			start, hasStart, startNode := readProbe(c, "startupProbe")
			if !hasReady && !hasStart {
				continue
			}
			f := probeFloor{hasReady: hasReady}
			if hasReady {
				f.ready, f.delay = ready, ready.initialDelay
			}
			at := readyNode
			if hasStart && (!hasReady || start.initialDelay > ready.initialDelay) {
				f.startup, f.delay, at = true, start.initialDelay, startNode
			}
			f.value = f.delay
			if hasReady && ready.success > 1 {
				f.value += (ready.success - 1) * ready.period
			}
			if f.value > best {
				best = f.value
				if _, n := mappingEntry(c, "name"); n != nil {
					f.container = strings.Clone(n.Value) // nothing of the tree (or its arena) kept
				}
				f.at = o.FieldOf(at[0], at[1])
				// The line now, while the file's line table is at hand: a
				// finding that cites the probe must not read a workload's
				// file again (a file without an autoscaler drops its table).
				f.line = o.File().LineOf(f.at.Start())
				w.deadTime = f
			}
		}
	}
	scan("initContainers", true)
	scan("containers", false)
}

// DeadTimeFloor returns the lower bound the pod template's probes put on
// the dead time, as an inferred input (0 without probes), made once.
func (w *Workload) DeadTimeFloor() Input {
	w.floorOnce.Do(func() {
		in := w.deadTimeFloor()
		w.floor = &in
	})
	return *w.floor
}

func (w *Workload) deadTimeFloor() Input {
	f := w.deadTime
	in := Input{Name: "dead-time", Value: f.value, Text: fmtSeconds(f.value) + "s", Bound: AtLeast, Origin: FromInference, Object: w.Object, At: f.at, Line: f.line}
	if f.none {
		in.Source, in.From = "no readiness or startup probe: the dead time is at least 0", "no probe"
		return in
	}
	var parts []string
	what := "readinessProbe"
	if f.startup {
		parts = append(parts, "startupProbe initialDelaySeconds "+fmtSeconds(f.delay))
		if !f.hasReady {
			what = "startupProbe"
		}
	} else {
		parts = append(parts, "readinessProbe initialDelaySeconds "+fmtSeconds(f.delay))
	}
	if f.hasReady && f.ready.success > 1 {
		parts = append(parts, fmt.Sprintf("(successThreshold %s − 1) × periodSeconds %s", fmtSeconds(f.ready.success), fmtSeconds(f.ready.period)))
	}
	in.Source = fmt.Sprintf("%s of container %s: %s", what, f.container, strings.Join(parts, " + "))
	in.From = what
	return in
}

type probe struct{ initialDelay, period, success float64 }

// readProbe reads a container's probe timing fields as the API server
// defaults them; a field that is not a non-negative integer makes the
// probe unreadable (the API server refuses it; no bound is read). It
// returns the probe's key and value nodes.
func readProbe(container *yaml.Node, key string) (probe, bool, [2]*yaml.Node) {
	k, n := mappingEntry(container, key)
	if n == nil || n.Kind != yaml.MappingNode {
		return probe{}, false, [2]*yaml.Node{}
	}
	pr := probe{period: defaultProbePeriod, success: defaultProbeSuccess}
	for i := 0; i+1 < len(n.Content); i += 2 {
		var dst *float64
		switch n.Content[i].Value {
		case "initialDelaySeconds":
			dst = &pr.initialDelay
		case "periodSeconds":
			dst = &pr.period
		case "successThreshold":
			dst = &pr.success
		default:
			continue
		}
		v := n.Content[i+1]
		x, err := strconv.ParseInt(strings.TrimSpace(v.Value), 10, 32)
		if err != nil || v.Kind != yaml.ScalarNode || x < 0 {
			return probe{}, false, [2]*yaml.Node{}
		}
		if x > 0 { // 0 is defaulted, as if absent (SetDefaults_Probe)
			*dst = float64(x)
		}
	}
	return pr, true, [2]*yaml.Node{k, n}
}

// mappingEntry returns the key and value nodes of a mapping's entry.
func mappingEntry(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return k, m.Content[i+1]
		}
	}
	return nil, nil
}

func fmtSeconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
