package scaling

import (
	yaml "go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Container is a container whose CPU the HPA counts.
type Container struct {
	Name       string
	Node       *yaml.Node // the container's mapping node
	NameNode   *yaml.Node
	Sidecar    bool // a restartable init container
	PodLevel   bool // the pod-level resources stand for every container
	CPURequest Num  // cores
	CPULimit   Num  // cores
}

// Workload is a scale target as the laws see it.
type Workload struct {
	Object      *manifest.Object
	Replicas    Num  // spec.replicas; Set when the manifest writes it
	HasTemplate bool // false for a Rollout with a workloadRef
	// Containers are the containers the HPA counts for a Resource metric:
	// the pod's containers and its sidecars, or the pod-level resources
	// when they set a CPU request (PodLevelResources).
	Containers  []Container
	Annotations map[string]Input
	Problems    []manifest.Problem
}

// WorkloadFromObject reads a scale target; nil when o is not one.
func WorkloadFromObject(o *manifest.Object) *Workload {
	t, ok := o.Typed.(*manifest.Workload)
	if !ok {
		return nil
	}
	w := &Workload{Object: o}
	rp := manifest.ParsePath("spec.replicas")
	if t.Replicas != nil && o.Get(rp) != nil {
		w.Replicas = Num{V: float64(*t.Replicas), Set: true, Node: o.Get(rp), Key: o.GetKey(rp)}
	} else {
		w.Replicas = Num{V: 1, Node: o.Nearest(rp)}
	}
	w.Annotations, w.Problems = ReadAnnotations(o, FromTarget)
	if !t.HasTemplate {
		return w
	}
	w.HasTemplate = true
	spec := t.TemplatePath.Append(manifest.Key("spec"))
	if r := t.Pod.Resources; r != nil {
		if _, ok := r.Requests[corev1.ResourceCPU]; ok {
			c := Container{Name: "(pod)", PodLevel: true, Node: o.Get(spec.Append(manifest.Key("resources")))}
			c.NameNode = c.Node
			readCPU(o, &c, spec.Append(manifest.Key("resources")), *r)
			w.Containers = []Container{c}
			return w
		}
	}
	add := func(list string, i int, ctr manifest.ContainerSubset, sidecar bool) {
		p := spec.Append(manifest.Key(list), manifest.Index(i))
		c := Container{Name: ctr.Name, Node: o.Get(p), Sidecar: sidecar}
		c.NameNode = o.Get(p.Append(manifest.Key("name")))
		if c.NameNode == nil {
			c.NameNode = c.Node
		}
		readCPU(o, &c, p.Append(manifest.Key("resources")), ctr.Resources)
		w.Containers = append(w.Containers, c)
	}
	for i, ctr := range t.Pod.InitContainers {
		if ctr.RestartPolicy != nil && *ctr.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			add("initContainers", i, ctr, true)
		}
	}
	for i, ctr := range t.Pod.Containers {
		add("containers", i, ctr, false)
	}
	return w
}

func readCPU(o *manifest.Object, c *Container, res manifest.Path, r corev1.ResourceRequirements) {
	rq := res.Append(manifest.Key("requests"), manifest.Key("cpu"))
	lp := res.Append(manifest.Key("limits"), manifest.Key("cpu"))
	if q, ok := r.Requests[corev1.ResourceCPU]; ok {
		c.CPURequest = Num{V: q.AsApproximateFloat64(), Set: true, Node: o.Get(rq), Key: o.GetKey(rq)}
	} else {
		c.CPURequest = Num{Node: o.Nearest(rq)}
	}
	if q, ok := r.Limits[corev1.ResourceCPU]; ok {
		c.CPULimit = Num{V: q.AsApproximateFloat64(), Set: true, Node: o.Get(lp), Key: o.GetKey(lp)}
		if !c.CPURequest.Set {
			// Kubernetes defaults a missing request to the limit.
			c.CPURequest = Num{V: c.CPULimit.V, Set: true, Node: c.CPULimit.Node, Key: c.CPULimit.Key}
		}
	} else {
		c.CPULimit = Num{Node: o.Nearest(lp)}
	}
}

// Counted returns the containers an HPA counts for a resource metric: all
// of them, or only the named one for a containerResource metric.
func (w *Workload) Counted(container string) []Container {
	if container == "" {
		return w.Containers
	}
	for _, c := range w.Containers {
		if c.Name == container && !c.PodLevel {
			return []Container{c}
		}
	}
	return nil
}
