package scaling

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Kind is the kind of an autoscaler.
type Kind int

const (
	HPA Kind = iota
	ScaledObject
	ScaledJob
)

func (k Kind) String() string {
	return [...]string{"HorizontalPodAutoscaler", "ScaledObject", "ScaledJob"}[k]
}

// Kubernetes and KEDA defaults the laws read (rules/laws/README.md §8).
const (
	DefaultTolerance       = 0.1 // kube-controller-manager --horizontal-pod-autoscaler-tolerance
	DefaultDownWindow      = 300 // seconds: --horizontal-pod-autoscaler-downscale-stabilization
	DefaultCPUUtilization  = 80  // percent: the metric of an HPA that lists none
	DefaultHPAMinReplicas  = 1
	DefaultKEDAMinReplicas = 0
)

// Num is a number read from a manifest, or a default.
type Num struct {
	V float64
	// At is the written value, with its key, when set; otherwise where the
	// default applies (the nearest existing parent), for reporting.
	At  manifest.Field
	Set bool // false: the default applies
	// Invalid is set when the field is written but is not a number
	// (invalid-field reports it; rules leave the value alone). Beside
	// Set: the two flags share a word (64 bytes, not 72, in every
	// autoscaler, metric and container a run keeps).
	Invalid bool
}

// Ref is a scaleTargetRef.
type Ref struct {
	APIVersion, Group, Kind, Name string
	At                            manifest.Field // the scaleTargetRef mapping, or the nearest node
	NameAt                        manifest.Field // its name, or the nearest node
	Defaulted                     bool           // KEDA's default apps/v1 Deployment applies
}

// Metric is one HPA metric or KEDA trigger.
type Metric struct {
	Index      int
	At         manifest.Field // the metric entry or trigger mapping; invalid for the implicit metric
	TypeAt     manifest.Field // the entry's type value, when written
	Type       string         // HPA: Resource, ContainerResource, Pods, Object, External; KEDA: the trigger type
	Resource   string         // cpu or memory for resource metrics and triggers
	Container  string         // containerResource / cpu trigger containerName
	TargetType string         // Utilization, AverageValue or Value
	Signal     Signal
	Mode       string // the KEDA scaler's mode, when it has one
	// Utilization is the CPU utilization target in percent.
	Utilization Num
	// Threshold is the per-pod threshold T of a backlog or rate signal.
	Threshold    Num
	ThresholdKey string // the KEDA metadata key, or the HPA field
	Implicit     bool   // the HPA's default metric: no metric is written
	// SignalFrom says what the signal class was read from (a trigger's
	// type or mode, a query, the scalelint.dev/signal annotation).
	SignalFrom string
	// ThresholdRefused says why KEDA would refuse the threshold as
	// written ("" when it would not); Threshold is then not usable.
	ThresholdRefused string
	// Delay is set when the threshold is the standing delay itself, in
	// seconds (rabbitmq ExpectedQueueConsumptionTime with a Value target).
	Delay bool
	// NotPerPod says why the latency floor does not describe a trigger
	// that measures waiting work ("" when it does).
	NotPerPod string
	// CachedMetrics is a KEDA trigger's useCachedMetrics: the HPA reads
	// values up to one pollingInterval old.
	CachedMetrics bool
	// Composite says why the HPA does not read this trigger's metric
	// (KEDA's scalingModifiers replace it with a formula's); "" when it
	// does.
	Composite string
	// Deprecated are the parameters (or the scaler) of a KEDA trigger
	// that KEDA deprecated or removed (DeprecatedParams).
	Deprecated []DeprecatedUse
}

// Autoscaler is an HPA, ScaledObject or ScaledJob in one shape.
type Autoscaler struct {
	Object *manifest.Object
	Kind   Kind
	Target Ref
	Min    Num
	Max    Num
	// MaxDefaulted reports KEDA's default ceiling of 100.
	Metrics []*Metric
	// Behavior is true when a behavior is set: the HPA normalises with
	// behavior policies instead of the legacy path.
	Behavior    bool
	UpTolerance Num // behavior.scaleUp.tolerance
	DownWindow  Num // behavior.scaleDown.stabilizationWindowSeconds, seconds
	// BehaviorSpec is the written behavior (the HPA's, or a
	// ScaledObject's horizontalPodAutoscalerConfig), nil when none is.
	BehaviorSpec *autoscalingv2.HorizontalPodAutoscalerBehavior
	// KEDAFindings are what KEDA's admission webhook would refuse in a
	// ScaledObject or ScaledJob, found when the view is built: the decoded
	// object is not kept past it (manifest.Object.Typed).
	KEDAFindings []manifest.KEDAFinding
	// PollingInterval is a ScaledObject's pollingInterval in seconds
	// (KEDA's default 30 when unset; Invalid when it is not an int32);
	// zero for other kinds.
	PollingInterval Num
	// Annotations are the scalelint.dev annotations on the autoscaler.
	Annotations map[string]Input
	// Problems are its malformed or unknown scalelint.dev annotations.
	Problems []manifest.Problem
	// FieldProblems are values KEDA would refuse that the typed decode
	// accepts (a threshold its scaler cannot read): invalid-field.
	FieldProblems []manifest.Problem
	// NameLine is the line of the object's name (Object.NameAt), read
	// while the file's line table was at hand: a report lists every
	// autoscaler whose laws lack inputs by line, and a large run drops
	// the line tables of the files it read (workspace.LoadReleased).
	NameLine int
}

// kedaDefaultPollingInterval is KEDA's default pollingInterval, in
// seconds, asked of KEDA once.
var kedaDefaultPollingInterval = sync.OnceValue(manifest.KEDADefaultPollingInterval)

// IsAutoscaler reports whether the object is an autoscaler scalelint reads.
func IsAutoscaler(o *manifest.Object) bool {
	switch o.TypedShape().(type) {
	case *manifest.HPA, *manifest.ScaledObject, *manifest.ScaledJob:
		return true
	}
	return false
}

type autoscalerKey struct{}

// FromObject reads an autoscaler. It returns nil for other objects. The
// view is built once per object and shared: callers must not change it.
func FromObject(o *manifest.Object) *Autoscaler {
	return o.Memo(autoscalerKey{}, func() any { return fromObject(o) }).(*Autoscaler)
}

func fromObject(o *manifest.Object) *Autoscaler {
	var a *Autoscaler
	switch t := o.Typed().(type) {
	case *manifest.HPA:
		a = fromHPA(o, t)
	case *manifest.ScaledObject:
		a = fromKEDA(o, ScaledObject, t.Spec.ScaleTargetRef, t.Spec.MinReplicaCount, t.Spec.MaxReplicaCount, t.Spec.Triggers, t.Spec.Advanced)
		poll := kedaDefaultPollingInterval()
		if t.Spec.PollingInterval != nil {
			poll = float64(*t.Spec.PollingInterval)
		}
		// An int32 of KEDA's ScaledObjectSpec: 30.5 or "30" is refused by
		// the API server, not read as a float or a quantity.
		a.PollingInterval = a.intNum("spec.pollingInterval", poll, t.Spec.PollingInterval != nil)
		a.KEDAFindings = append(manifest.ValidateScaledObject(t), manifest.CheckScaledObjectName(t)...)
	case *manifest.ScaledJob:
		a = fromKEDA(o, ScaledJob, nil, t.Spec.MinReplicaCount, t.Spec.MaxReplicaCount, t.Spec.Triggers, nil)
		a.KEDAFindings = manifest.ValidateScaledJob(t)
	default:
		return nil
	}
	a.Annotations, a.Problems = ReadAnnotations(o, FromAutoscaler)
	a.NameLine = o.File().LineOf(o.NameAt.Pos)
	if p, ok := unnamed(o); ok {
		a.FieldProblems = append(a.FieldProblems, p)
	}
	return a
}

// unnamed reports an autoscaler with neither metadata.name nor
// metadata.generateName: the API server refuses it ("name or generateName
// is required", ValidateObjectMetaAccessor in k8s.io/apimachinery
// pkg/api/validation/objectmeta.go), and kubectl apply cannot look it up.
// A chart that forgets the name (or writes it twice over another key)
// renders one. It is reported at the name's empty value, else at the
// metadata mapping, else at the kind.
func unnamed(o *manifest.Object) (manifest.Problem, bool) {
	if o.Name != "" {
		return manifest.Problem{}, false
	}
	if g, ok := o.FieldAt(pathOf("metadata.generateName")); ok && g.Value != "" {
		return manifest.Problem{}, false
	}
	at := o.KindAt
	if f, ok := o.FieldAt(pathOf("metadata.name")); ok {
		at = f
	} else if f, ok := o.FieldAt(pathOf("metadata")); ok {
		at = f
		at.Pos, at.End = f.KeyPos(), f.KeyEnd() // the key: the mapping may be long
		if !at.Pos.IsValid() {
			at = f
		}
	}
	return manifest.Problem{Rule: "invalid-field", Pos: at.Pos, End: at.End, Object: o,
		Message: fmt.Sprintf("this %s has no metadata.name: the API server refuses an object without a name or generateName, and kubectl apply needs the name", o.Kind)}, true
}

// The written value is read as kubectl reads it: a number YAML reads as
// one in any base ("0x28" is 40: manifest.Field.Number), else a quantity
// ("500m"); null ("~") is no value, and the default applies. A value that
// reads as neither is invalid (invalid-field reports it), and so is one
// whose reading differs from the decoded v past the 32-bit range (it
// decoded as 0).
func (a *Autoscaler) num(path string, v float64, set bool) Num {
	p := pathOf(path)
	if f, ok := a.Object.FieldAt(p); ok {
		if f.IsNull() {
			return Num{V: v, At: f}
		}
		q, ok := f.Number()
		if !ok {
			var err error
			q, err = ParseQuantity(f.Value)
			ok = err == nil && f.Kind() == yaml.ScalarNode
		}
		if !ok || (q != v && math.Abs(q) > math.MaxInt32) {
			return Num{V: v, Set: true, At: f, Invalid: true}
		}
		if set {
			return Num{V: v, Set: true, At: f}
		}
	}
	return Num{V: v, Set: set, At: a.Object.NearestField(p)}
}

// intNum is num for an integer field of the API (replica bounds, a CPU
// utilization, a window in seconds): only a number YAML reads as one is
// read (a quoted "40" is a string the API server refuses, and decodes as
// nothing), and it must be the value decoded (40.5 does not decode into
// an integer); otherwise the field is invalid, which invalid-field
// reports, and the rules leave it alone.
func (a *Autoscaler) intNum(path string, v float64, set bool) Num {
	p := pathOf(path)
	if f, ok := a.Object.FieldAt(p); ok {
		if f.IsNull() {
			return Num{V: v, At: f}
		}
		if q, ok := f.Number(); !ok || q != v {
			return Num{V: v, Set: true, At: f, Invalid: true}
		}
		if set {
			return Num{V: v, Set: true, At: f}
		}
	}
	return Num{V: v, Set: set, At: a.Object.NearestField(p)}
}

func fromHPA(o *manifest.Object, h *manifest.HPA) *Autoscaler {
	a := &Autoscaler{Object: o, Kind: HPA}
	ref := h.Spec.ScaleTargetRef
	g, _ := manifest.SplitAPIVersion(ref.APIVersion)
	a.Target = Ref{APIVersion: ref.APIVersion, Group: g, Kind: ref.Kind, Name: ref.Name,
		At: o.NearestField(pathOf("spec.scaleTargetRef")), NameAt: o.NearestField(pathOf("spec.scaleTargetRef.name"))}
	min := int32(DefaultHPAMinReplicas)
	if h.Spec.MinReplicas != nil {
		min = *h.Spec.MinReplicas
	}
	a.Min = a.intNum("spec.minReplicas", float64(min), h.Spec.MinReplicas != nil)
	a.Max = a.intNum("spec.maxReplicas", float64(h.Spec.MaxReplicas), o.Get(pathOf("spec.maxReplicas")) != nil)
	a.readBehavior("spec.behavior", h.Spec.Behavior)

	switch o.Version {
	case "v1":
		m := &Metric{Index: 0, Type: "Resource", Resource: "cpu", TargetType: "Utilization", Signal: SignalCPU}
		p := h.Spec.Metrics
		set := len(p) > 0
		v := float64(DefaultCPUUtilization)
		if set {
			v = float64(*p[0].Resource.Target.AverageUtilization)
		}
		m.Utilization = a.intNum("spec.targetCPUUtilizationPercentage", v, set)
		m.At, m.Implicit = m.Utilization.At, !set
		a.Metrics = []*Metric{m}
		return a
	}
	beta1 := o.Version == "v2beta1"
	for i, ms := range h.Spec.Metrics {
		base := "spec.metrics[" + itoa(i) + "]"
		m := &Metric{Index: i, Type: string(ms.Type)}
		a.locateMetric(m, base)
		var target *autoscalingv2.MetricTarget
		var src string // the metric source's field name
		switch {
		case ms.Resource != nil:
			m.Resource, target, src = string(ms.Resource.Name), &ms.Resource.Target, "resource"
		case ms.ContainerResource != nil:
			m.Resource, m.Container, target, src = string(ms.ContainerResource.Name), ms.ContainerResource.Container, &ms.ContainerResource.Target, "containerResource"
		case ms.External != nil:
			target, src = &ms.External.Target, "external"
		case ms.Object != nil:
			target, src = &ms.Object.Target, "object"
		case ms.Pods != nil:
			target, src = &ms.Pods.Target, "pods"
		}
		if target != nil && target.Type == "" && !beta1 && o.Get(pathOf(base+"."+src+".targetAverageUtilization")) != nil {
			// An autoscaling/v2(beta2) metric written with v2beta1's field
			// names: invalid-field reports the fields; the laws read the
			// author's intent so the workload is still checked.
			beta1 = true
			if u := o.Get(pathOf(base + "." + src + ".targetAverageUtilization")); u != nil {
				if v, err := ParseQuantity(u.Value); err == nil {
					p := int32(v)
					target = &autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &p}
				}
			}
		}
		if target != nil {
			m.TargetType = string(target.Type)
			// Where the target's value is written: autoscaling/v2 nests it
			// in target; v2beta1 names it targetAverage*/averageValue.
			util, avg := base+"."+src+".target.averageUtilization", base+"."+src+".target.averageValue"
			if beta1 {
				util, avg = base+"."+src+".targetAverageUtilization", base+"."+src+".targetAverageValue"
				if src == "object" {
					avg = base + ".object.averageValue"
				}
			}
			a.readHPATarget(m, target, util, avg)
		}
		beta1 = o.Version == "v2beta1"
		a.Metrics = append(a.Metrics, m)
	}
	if len(h.Spec.Metrics) == 0 {
		// The API defaults an HPA without metrics to 80% average CPU
		// utilization (autoscaling/v2 types.go).
		m := &Metric{Type: "Resource", Resource: "cpu", TargetType: "Utilization", Signal: SignalCPU, Implicit: true}
		m.Utilization = Num{V: DefaultCPUUtilization, At: o.NearestField(pathOf("spec.metrics"))}
		m.At = m.Utilization.At
		a.Metrics = []*Metric{m}
	}
	return a
}

// readHPATarget reads an HPA metric target's value, written at util or
// avg, and classifies the signal.
func (a *Autoscaler) readHPATarget(m *Metric, t *autoscalingv2.MetricTarget, util, avg string) {
	switch t.Type {
	case autoscalingv2.UtilizationMetricType:
		if t.AverageUtilization != nil {
			m.Utilization = a.intNum(util, float64(*t.AverageUtilization), true)
		}
		if m.Resource == string(corev1.ResourceCPU) {
			m.Signal = SignalCPU
		}
	case autoscalingv2.AverageValueMetricType:
		if t.AverageValue != nil {
			m.ThresholdKey = "averageValue"
			m.Threshold = a.num(avg, t.AverageValue.AsApproximateFloat64(), true)
		}
		if m.Type == "External" || m.Type == "Object" || m.Type == "Pods" {
			switch a.signalMark() {
			case "backlog":
				m.Signal = SignalBacklog
			case "rate":
				m.Signal = SignalRate
			}
		}
	}
}

// signalMark returns the scalelint.dev/signal annotation of the
// autoscaler, read before the annotations are parsed in full.
func (a *Autoscaler) signalMark() string {
	for _, an := range a.Object.Annotations {
		if an.Key == Prefix+"signal" {
			return strings.ToLower(strings.TrimSpace(an.Value))
		}
	}
	return ""
}

func (a *Autoscaler) readBehavior(base string, b *autoscalingv2.HorizontalPodAutoscalerBehavior) {
	a.Behavior, a.BehaviorSpec = b != nil, b
	tol := DefaultTolerance
	var tolSet bool
	win := float64(DefaultDownWindow)
	var winSet bool
	if b != nil {
		if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
			tol, tolSet = b.ScaleUp.Tolerance.AsApproximateFloat64(), true
		}
		if b.ScaleDown != nil && b.ScaleDown.StabilizationWindowSeconds != nil {
			win, winSet = float64(*b.ScaleDown.StabilizationWindowSeconds), true
		}
	}
	a.UpTolerance = a.num(base+".scaleUp.tolerance", tol, tolSet)
	a.DownWindow = a.intNum(base+".scaleDown.stabilizationWindowSeconds", win, winSet)
}

func fromKEDA(o *manifest.Object, kind Kind, ref *manifest.ScaleTarget, min, max *int32, triggers []manifest.ScaleTriggers, adv *manifest.AdvancedConfig) *Autoscaler {
	a := &Autoscaler{Object: o, Kind: kind}
	if kind == ScaledObject {
		r := Ref{APIVersion: "apps/v1", Kind: "Deployment", At: o.NearestField(pathOf("spec.scaleTargetRef")),
			NameAt: o.NearestField(pathOf("spec.scaleTargetRef.name"))}
		if ref != nil {
			r.Name = ref.Name
			if ref.APIVersion != "" {
				r.APIVersion = ref.APIVersion
			}
			if ref.Kind != "" {
				r.Kind = ref.Kind
			}
			r.Defaulted = ref.APIVersion == "" && ref.Kind == ""
		}
		r.Group, _ = manifest.SplitAPIVersion(r.APIVersion)
		a.Target = r
	}
	mn := int32(DefaultKEDAMinReplicas)
	if min != nil {
		mn = *min
	}
	a.Min = a.intNum("spec.minReplicaCount", float64(mn), min != nil)
	mx := manifest.KEDADefaultMaxReplicaCount()
	if max != nil {
		mx = *max
	}
	a.Max = a.intNum("spec.maxReplicaCount", float64(mx), max != nil)
	behaviorPath := "spec.advanced.horizontalPodAutoscalerConfig.behavior"
	var b *autoscalingv2.HorizontalPodAutoscalerBehavior
	if adv != nil && adv.HorizontalPodAutoscalerConfig != nil {
		b = adv.HorizontalPodAutoscalerConfig.Behavior
	}
	a.readBehavior(behaviorPath, b)
	mark := a.signalMark()
	for i, t := range triggers {
		base := "spec.triggers[" + itoa(i) + "]"
		m := &Metric{Index: i, Type: t.Type, TargetType: string(t.MetricType)}
		a.locateMetric(m, base)
		if m.TargetType == "" && t.Type != "cpu" && t.Type != "memory" {
			m.TargetType = "AverageValue" // KEDA's GetMetricTargetType default
		}
		// Read metadata from the nodes: a value written as a number
		// (invalid for KEDA's CRD, which invalid-field reports) still
		// says what the author meant.
		md := map[string]string{}
		for k, v := range t.Metadata {
			md[k] = v
		}
		mn := o.Get(pathOf(base + ".metadata"))
		m.Deprecated = deprecatedUses(o, mn, t.Type, m.TypeAt)
		if mn != nil && mn.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(mn.Content); j += 2 {
				if k, v := mn.Content[j], mn.Content[j+1]; k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode {
					md[k.Value] = strings.Clone(v.Value)
				}
			}
		}
		c := ClassifyTrigger(t.Type, md, string(t.MetricType), mark)
		m.Signal, m.Mode, m.SignalFrom = c.Signal, c.Mode, c.SignalFrom
		m.Delay, m.NotPerPod, m.CachedMetrics = c.Delay, c.NotPerPod, t.UseCachedMetrics
		switch t.Type {
		case "cpu", "memory":
			m.Resource, m.Container = t.Type, md["containerName"]
			if m.Signal == SignalCPU && c.Known {
				m.Utilization = a.num(base+".metadata.value", c.Threshold, true)
			}
		default:
			if c.Key == "" {
				break
			}
			m.ThresholdKey = c.Key
			at, written := o.FieldAt(pathOf(base + ".metadata." + c.Key))
			switch {
			case c.Refused != "":
				m.ThresholdRefused = c.Refused
				if !written {
					at = m.TypeAt
					if !at.IsValid() {
						at = m.At
					}
				}
				m.Threshold = Num{Set: written, At: at, Invalid: written}
				if at.IsValid() {
					a.FieldProblems = append(a.FieldProblems, manifest.Problem{Rule: "invalid-field", Pos: at.Pos, End: at.End,
						Message: c.Refused, Object: o})
				}
			case c.Defaulted || !written:
				m.Threshold = Num{V: c.Threshold, At: m.At}
			default:
				m.Threshold = Num{V: c.Threshold, Set: true, At: at}
			}
			if !c.Known {
				m.Threshold.V = 0
			}
		}
		a.Metrics = append(a.Metrics, m)
	}
	a.compositeMetric(adv)
	return a
}

// compositeMetric: with scalingModifiers (and a positive target), KEDA
// gives the HPA one composite External metric computed by the formula in
// place of every trigger's own, keeping only the cpu and memory triggers
// (getScaledObjectMetricSpecs in kedacore/keda controllers/keda/hpa.go).
// No other trigger's threshold is then a target the HPA holds, so no law
// of per-pod targets reads it.
func (a *Autoscaler) compositeMetric(adv *manifest.AdvancedConfig) {
	if adv == nil || strings.TrimSpace(adv.ScalingModifiers.Formula) == "" {
		return
	}
	// Without a positive target KEDA's webhook refuses the ScaledObject
	// (replica-bounds reports it): no trigger's threshold is held then
	// either.
	target := "its target"
	if t, err := strconv.ParseFloat(strings.TrimSpace(adv.ScalingModifiers.Target), 64); err == nil && t > 0 {
		target = "target " + strings.TrimSpace(adv.ScalingModifiers.Target)
	}
	for _, m := range a.Metrics {
		if m.Type == "cpu" || m.Type == "memory" {
			continue
		}
		m.Composite = fmt.Sprintf("scalingModifiers give the HPA the formula %q against %s in place of this trigger's metric, so its threshold is not a target the HPA holds",
			adv.ScalingModifiers.Formula, target)
	}
}

// locateMetric records where a metric entry and its type are written.
func (a *Autoscaler) locateMetric(m *Metric, base string) {
	p := pathOf(base)
	if f, ok := a.Object.FieldAt(p); ok {
		m.At = manifest.Field{Pos: f.Pos, End: f.End}
		m.At.SetNode(f.Style(), f.Kind(), "")
	}
	if f, ok := a.Object.FieldAt(p.Append(manifest.Key("type"))); ok {
		m.TypeAt = f
	}
}

// ThresholdField is where a metric's threshold is written or, when KEDA's
// default applies, the trigger's type; the trigger, then the autoscaler's
// kind, when those have no position (a trigger list under an alias key,
// which the typed decode reads and path lookups do not). latency-floor and
// retry-trap report there, and the language server shows the numbers of
// the same finding there.
func (a *Autoscaler) ThresholdField(m *Metric) manifest.Field {
	if m.Threshold.Set && m.Threshold.At.IsValid() {
		return m.Threshold.At
	}
	if m.TypeAt.IsValid() {
		return m.TypeAt
	}
	if m.At.IsValid() {
		return m.At
	}
	return a.Object.KindAt
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
