package scaling

import (
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Container is a container whose requests the HPA counts for a resource
// metric: its CPU, and whether it requests memory.
type Container struct {
	Name     string
	At       manifest.Field // the container's mapping (the pod-level resources)
	NameAt   manifest.Field // its name value, or At
	Sidecar  bool           // a restartable init container
	PodLevel bool           // the pod-level resources stand for every container
	// MemoryRequest is a memory request written, or a memory limit
	// (Kubernetes defaults the request to it); false for PodLevel.
	MemoryRequest bool
	// Index is the container's place in its list (initContainers for a
	// sidecar, containers otherwise); -1 for PodLevel.
	Index      int32
	CPURequest Num // cores
	CPULimit   Num // cores
}

// Workload is a scale target as the laws see it.
type Workload struct {
	Object   *manifest.Object
	Replicas Num // spec.replicas; Set when the manifest writes it
	// ReplicasLine is the line spec.replicas is written on, as
	// manifest.File.LineBounds gives it (start and end offsets), when it
	// is written and the view was built with the file's text in memory
	// (ok): replicas-managed-by-autoscaler's fix deletes it, and at
	// thousands of workloads reading each file again for it was most of
	// the rule's time.
	ReplicasLine struct {
		Start, End int
		OK         bool
	}
	HasTemplate bool // false for a Rollout with a workloadRef
	// PodResources is set when the pod template writes pod-level
	// resources (PodLevelResources), whatever they set.
	PodResources bool
	// TemplateRef is an Argo Rollout's workloadRef, which names the
	// object whose pod template it runs (workspace.Resolution.Pods).
	TemplateRef *manifest.TemplateRef
	// Containers are the containers the HPA counts for a Resource metric:
	// the pod's containers and its sidecars, or the pod-level resources
	// when they set a CPU request (PodLevelResources).
	Containers  []Container
	Annotations map[string]Input
	Problems    []manifest.Problem
	// deadTime is what the pod template's probes say of the dead time
	// (DeadTimeFloor).
	deadTime probeFloor
	// floor is deadTime as an input, made on first use (DeadTimeFloor):
	// the language server evaluates a workload's autoscalers on every
	// snapshot that relints them.
	floorOnce sync.Once
	floor     *Input
	// podLabels are the pod template's labels, which Services select,
	// packed into one string (Labels, HasLabels).
	podLabels string
}

type workloadKey struct{}

// IsWorkload reports whether the object is a scale target scalelint reads
// (WorkloadFromObject returns its view).
func IsWorkload(o *manifest.Object) bool {
	_, ok := o.TypedShape().(*manifest.Workload)
	return ok
}

// WorkloadFromObject reads a scale target; nil when o is not one. The view
// is built once per object and shared: callers must not change it.
func WorkloadFromObject(o *manifest.Object) *Workload {
	return o.Memo(workloadKey{}, func() any { return workloadFromObject(o) }).(*Workload)
}

func workloadFromObject(o *manifest.Object) *Workload {
	t, ok := o.Typed().(*manifest.Workload)
	if !ok {
		return nil
	}
	w := &Workload{Object: o}
	rp := pathOf("spec.replicas")
	if f, ok := o.FieldAt(rp); ok && t.Replicas != nil {
		w.Replicas = Num{V: float64(*t.Replicas), Set: true, At: f}
		l := &w.ReplicasLine
		l.Start, l.End, l.OK = o.File().HeldLineBounds(f.Start())
	} else {
		w.Replicas = Num{V: 1, At: o.NearestField(rp)}
	}
	w.Annotations, w.Problems = ReadAnnotations(o, FromTarget)
	w.TemplateRef = t.TemplateRef
	if !t.HasTemplate {
		return w
	}
	w.HasTemplate = true
	spec := t.TemplatePath.Append(manifest.Key("spec"))
	w.readDeadTimeFloor(o, spec)
	w.podLabels = readLabels(o, t.TemplatePath)
	if r := t.Pod.Resources; r != nil {
		w.PodResources = true
		if r.HasRequest {
			c := Container{Name: "(pod)", PodLevel: true, Index: -1}
			c.At, _ = o.FieldAt(spec.Append(manifest.Key("resources")))
			c.NameAt = c.At
			readCPU(o, &c, spec.Append(manifest.Key("resources")), *r)
			w.Containers = []Container{c}
			return w
		}
	}
	add := func(list string, i int, ctr manifest.ContainerCPU, sidecar bool) {
		var pb, nb, rb [pathRoom]manifest.PathElem
		p := with(pb[:], spec, manifest.Key(list), manifest.Index(i))
		c := Container{Name: ctr.Name, Sidecar: sidecar, MemoryRequest: ctr.MemoryRequest, Index: int32(i)}
		c.At, _ = o.FieldAt(p)
		var ok bool
		if c.NameAt, ok = o.FieldAt(with(nb[:], p, manifest.Key("name"))); !ok {
			c.NameAt = c.At
		}
		readCPU(o, &c, with(rb[:], p, manifest.Key("resources")), ctr.CPU)
		w.Containers = append(w.Containers, c)
	}
	for i, ctr := range t.Pod.InitContainers {
		if ctr.RestartAlways {
			add("initContainers", i, ctr, true)
		}
	}
	for i, ctr := range t.Pod.Containers {
		add("containers", i, ctr, false)
	}
	return w
}

// pathRoom is the length of the paths a view builds on its goroutine's
// stack (with): a container's fields are a few steps below the pod
// template, itself at most a few steps deep (a CronJob's is four).
const pathRoom = 12

// with returns p with elems appended, in buf's memory when they fit: the
// paths of each container of thousands of workloads are looked up and
// not kept, and building each anew (Path.Append) was 15 MB of garbage at
// 10,000 services.
func with(buf []manifest.PathElem, p manifest.Path, elems ...manifest.PathElem) manifest.Path {
	return append(append(buf[:0], p...), elems...)
}

func readCPU(o *manifest.Object, c *Container, res manifest.Path, r manifest.CPU) {
	var qb, lb [pathRoom]manifest.PathElem
	rq := with(qb[:], res, manifest.Key("requests"), manifest.Key("cpu"))
	lp := with(lb[:], res, manifest.Key("limits"), manifest.Key("cpu"))
	if r.HasRequest {
		f, _ := o.FieldAt(rq)
		c.CPURequest = Num{V: r.Request, Set: true, At: f}
	} else {
		c.CPURequest = Num{At: o.NearestField(rq)}
	}
	if r.HasLimit {
		f, _ := o.FieldAt(lp)
		c.CPULimit = Num{V: r.Limit, Set: true, At: f}
		if !c.CPURequest.Set {
			// Kubernetes defaults a missing request to the limit.
			c.CPURequest = Num{V: c.CPULimit.V, Set: true, At: c.CPULimit.At}
		}
	} else {
		c.CPULimit = Num{At: o.NearestField(lp)}
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

// readLabels reads a pod template's metadata.labels, keeping the entries whose key and
// value are scalars, packed as "\x00key\x01value" pairs followed by a
// final "\x00": one allocation per workload, however many labels it has.
func readLabels(o *manifest.Object, template manifest.Path) string {
	var n *yaml.Node
	if tn := o.Get(template); tn != nil && tn.Kind == yaml.MappingNode {
		if _, m := mappingEntry(tn, "metadata"); m != nil && m.Kind == yaml.MappingNode {
			_, n = mappingEntry(m, "labels")
		}
	}
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return ""
	}
	size := 1
	for i := 0; i+1 < len(n.Content); i += 2 {
		size += 2 + len(n.Content[i].Value) + len(n.Content[i+1].Value)
	}
	var b strings.Builder
	b.Grow(size)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode &&
			!strings.ContainsAny(k.Value, "\x00\x01") && !strings.ContainsAny(v.Value, "\x00\x01") {
			b.WriteByte(0)
			b.WriteString(k.Value)
			b.WriteByte(1)
			b.WriteString(v.Value)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteByte(0)
	return b.String()
}

// Label returns the value of a pod template label, and whether the
// template carries it.
func (w *Workload) Label(key string) (string, bool) {
	if w.podLabels == "" || strings.ContainsAny(key, "\x00\x01") {
		return "", false
	}
	i := strings.Index(w.podLabels, "\x00"+key+"\x01")
	if i < 0 {
		return "", false
	}
	rest := w.podLabels[i+len(key)+2:]
	return rest[:strings.IndexByte(rest, 0)], true
}

// EachLabel calls fn with each pod template label, in the template's
// order.
func (w *Workload) EachLabel(fn func(key, value string)) {
	for p := range strings.SplitSeq(strings.Trim(w.podLabels, "\x00"), "\x00") {
		if k, v, ok := strings.Cut(p, "\x01"); ok {
			fn(k, v)
		}
	}
}

// HasLabels reports whether the pod template carries every label of a
// selector (a Service's spec.selector); an empty selector selects nothing
// here, as a Service without one selects no pods by label.
func (w *Workload) HasLabels(selector map[string]string) bool {
	if len(selector) == 0 || w.podLabels == "" {
		return false
	}
	for k, v := range selector {
		if !strings.Contains(w.podLabels, "\x00"+k+"\x01"+v+"\x00") {
			return false
		}
	}
	return true
}
