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

// deadTimeFloor reads the lower bound the pod template's probes put on the
// dead time: a new pod serves no request before every container is Ready,
// and a container with a readiness probe is Ready no earlier than
// max(its startup probe's initialDelaySeconds, the readiness probe's) +
// (successThreshold − 1)·periodSeconds after it starts. Without a probe the
// bound is 0, which is still a bound (the dead time is never negative).
// Nothing else bounds it from below: image pulls, scheduling and node
// provisioning have no floor a manifest states, and the HPA's
// --horizontal-pod-autoscaler-initial-readiness-delay only chooses which
// CPU samples count.
func (w *Workload) readDeadTimeFloor(o *manifest.Object, spec manifest.Path, pod manifest.PodCPU) {
	w.DeadTimeFloor = Input{Name: "dead-time", Bound: AtLeast, Origin: FromInference, Object: o,
		Source: "no readiness or startup probe: the dead time is at least 0"}
	if f, ok := o.FieldAt(spec); ok {
		w.DeadTimeFloor.At = f
	}
	type ctr struct {
		name string
		path manifest.Path
	}
	var cs []ctr
	for i, c := range pod.InitContainers {
		if c.RestartAlways { // a sidecar: the pod is Ready only when it is
			cs = append(cs, ctr{c.Name, spec.Append(manifest.Key("initContainers"), manifest.Index(i))})
		}
	}
	for i, c := range pod.Containers {
		cs = append(cs, ctr{c.Name, spec.Append(manifest.Key("containers"), manifest.Index(i))})
	}
	best := -1.0
	for _, c := range cs {
		node := o.Get(c.path)
		if node == nil || node.Kind != yaml.MappingNode {
			continue
		}
		ready, readyAt := readProbe(o, node, "readinessProbe")
		start, startAt := readProbe(o, node, "startupProbe")
		if ready == nil && start == nil {
			continue
		}
		var v float64
		var parts []string
		at := readyAt
		if start != nil && (ready == nil || start.initialDelay > ready.initialDelay) {
			v = start.initialDelay
			parts = append(parts, "startupProbe initialDelaySeconds "+fmtSeconds(start.initialDelay))
			at = startAt
		} else if ready != nil {
			v = ready.initialDelay
			parts = append(parts, "readinessProbe initialDelaySeconds "+fmtSeconds(ready.initialDelay))
		}
		if ready != nil && ready.success > 1 {
			v += (ready.success - 1) * ready.period
			parts = append(parts, fmt.Sprintf("(successThreshold %s − 1) × periodSeconds %s", fmtSeconds(ready.success), fmtSeconds(ready.period)))
		}
		if v > best {
			best = v
			what := "readinessProbe"
			if ready == nil {
				what = "startupProbe"
			}
			w.DeadTimeFloor.Value, w.DeadTimeFloor.At = v, at
			w.DeadTimeFloor.Source = fmt.Sprintf("%s of container %s: %s", what, c.name, strings.Join(parts, " + "))
		}
	}
}

type probe struct{ initialDelay, period, success float64 }

// readProbe reads a container's probe timing fields as the API server
// defaults them; a field that is not a non-negative integer makes the
// probe unreadable (the API server refuses it; no bound is read).
func readProbe(o *manifest.Object, container *yaml.Node, key string) (*probe, manifest.Field) {
	k, n := mappingEntry(container, key)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, manifest.Field{}
	}
	pr := &probe{period: defaultProbePeriod, success: defaultProbeSuccess}
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
			return nil, manifest.Field{}
		}
		if x > 0 { // 0 is defaulted, as if absent (SetDefaults_Probe)
			*dst = float64(x)
		}
	}
	return pr, o.FieldOf(k, n)
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
