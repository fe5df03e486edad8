package manifest

import (
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HPA is the autoscaling/v2 HorizontalPodAutoscaler every HPA version is
// read into.
type HPA = autoscalingv2.HorizontalPodAutoscaler

// Workload is what scalelint reads of a scale target: its replica count
// and the pod template's containers and resources. Only these parts are
// decoded (and type-checked): validating the rest of a workload is a
// schema validator's job, and decoding it costs most of a run's time.
type Workload struct {
	Replicas *int32
	// HasTemplate is false when the object has no pod template (an Argo
	// Rollout with a workloadRef).
	HasTemplate bool
	// Pod is the CPU the pod template's containers ask for.
	Pod PodCPU
	// TemplatePath is where the pod template sits in the object.
	TemplatePath Path
	// TemplateRef is an Argo Rollout's spec.workloadRef: the object whose
	// pod template the Rollout runs (a Deployment or ReplicaSet of its
	// namespace), when it writes one; nil otherwise.
	TemplateRef *TemplateRef
}

// TemplateRef names the object a workload takes its pod template from.
type TemplateRef struct {
	APIVersion, Kind, Name string
}

// PodCPU is the CPU of a pod template: what an HPA's resource metrics
// divide by. It is read out of the decode (PodSubset) and kept small, as
// a workload's typed value lives as long as the run.
type PodCPU struct {
	Containers     []ContainerCPU
	InitContainers []ContainerCPU
	// Resources are the pod-level resources (PodLevelResources); nil when
	// the pod has none.
	Resources *CPU
}

// ContainerCPU is a container's name, restart policy and CPU, and
// whether it has a memory request.
type ContainerCPU struct {
	Name string
	// RestartAlways is a restartPolicy of Always: on an init container,
	// a sidecar.
	RestartAlways bool
	// MemoryRequest is a memory request written, or a memory limit, to
	// which Kubernetes defaults a missing request.
	MemoryRequest bool
	CPU
}

// CPU is a CPU request and limit in cores, each when written.
type CPU struct {
	Request, Limit       float64
	HasRequest, HasLimit bool
}

func cpuOf(r corev1.ResourceRequirements) CPU {
	var c CPU
	if q, ok := r.Requests[corev1.ResourceCPU]; ok {
		c.Request, c.HasRequest = q.AsApproximateFloat64(), true
	}
	if q, ok := r.Limits[corev1.ResourceCPU]; ok {
		c.Limit, c.HasLimit = q.AsApproximateFloat64(), true
	}
	return c
}

func podCPU(p PodSubset) PodCPU {
	out := PodCPU{}
	if p.Resources != nil {
		c := cpuOf(*p.Resources)
		out.Resources = &c
	}
	out.Containers, out.InitContainers = containersCPU(p.Containers), containersCPU(p.InitContainers)
	return out
}

func containersCPU(cs []ContainerSubset) []ContainerCPU {
	var out []ContainerCPU
	for _, ctr := range cs {
		_, memRequest := ctr.Resources.Requests[corev1.ResourceMemory]
		_, memLimit := ctr.Resources.Limits[corev1.ResourceMemory]
		out = append(out, ContainerCPU{Name: ctr.Name, CPU: cpuOf(ctr.Resources), MemoryRequest: memRequest || memLimit,
			RestartAlways: ctr.RestartPolicy != nil && *ctr.RestartPolicy == corev1.ContainerRestartPolicyAlways})
	}
	return out
}

// PodSubset is the part of a pod spec scalelint decodes (and so checks).
type PodSubset struct {
	Containers     []ContainerSubset            `json:"containers,omitempty"`
	InitContainers []ContainerSubset            `json:"initContainers,omitempty"`
	Resources      *corev1.ResourceRequirements `json:"resources,omitempty"`
}

// ContainerSubset is the part of a container scalelint reads.
type ContainerSubset struct {
	Name          string                         `json:"name"`
	Resources     corev1.ResourceRequirements    `json:"resources,omitempty"`
	RestartPolicy *corev1.ContainerRestartPolicy `json:"restartPolicy,omitempty"`
}

// podTemplateSubset is a pod template reduced to what scalelint reads.
type podTemplateSubset struct {
	Spec PodSubset `json:"spec"`
}

func init() {
	registerDecoder("autoscaling", "HorizontalPodAutoscaler", decodeHPA)
	for _, g := range []string{"apps", "extensions"} {
		registerDecoder(g, "Deployment", decodeAppsWorkload)
		registerDecoder(g, "ReplicaSet", decodeAppsWorkload)
	}
	registerDecoder("apps", "StatefulSet", decodeAppsWorkload)
	registerDecoder("argoproj.io", "Rollout", decodeRollout)
	registerDecoder("leaderworkerset.x-k8s.io", "LeaderWorkerSet", decodeLWS)
}

func decodeHPA(o *Object) (any, []FieldError) {
	lim := o.Doc.File.opts.Limits
	switch o.Version {
	case "v1":
		var v1 autoscalingv1.HorizontalPodAutoscaler
		errs := decodeInto(o.node, &v1, lim, true)
		return hpaFromV1(&v1), errs
	case "v2beta1":
		var b1 hpaV2beta1
		errs := decodeInto(o.node, &b1, lim, true)
		return b1.toV2(), errs
	default: // v2, v2beta2: the same shape
		var v2 HPA
		errs := decodeInto(o.node, &v2, lim, true)
		return &v2, errs
	}
}

func hpaFromV1(v1 *autoscalingv1.HorizontalPodAutoscaler) *HPA {
	h := &HPA{ObjectMeta: v1.ObjectMeta, TypeMeta: v1.TypeMeta}
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference(v1.Spec.ScaleTargetRef)
	h.Spec.MinReplicas = v1.Spec.MinReplicas
	h.Spec.MaxReplicas = v1.Spec.MaxReplicas
	if p := v1.Spec.TargetCPUUtilizationPercentage; p != nil {
		h.Spec.Metrics = []autoscalingv2.MetricSpec{{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{
				Name:   corev1.ResourceCPU,
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: p},
			},
		}}
	}
	return h
}

// hpaV2beta1 is autoscaling/v2beta1, which k8s.io/api no longer ships;
// the fields are those of kubernetes v1.25's types.go.
type hpaV2beta1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		ScaleTargetRef autoscalingv2.CrossVersionObjectReference `json:"scaleTargetRef"`
		MinReplicas    *int32                                    `json:"minReplicas,omitempty"`
		MaxReplicas    int32                                     `json:"maxReplicas"`
		Metrics        []v2beta1Metric                           `json:"metrics,omitempty"`
	} `json:"spec,omitempty"`
	Status map[string]any `json:"status,omitempty"`
}

type v2beta1Metric struct {
	Type   autoscalingv2.MetricSourceType `json:"type"`
	Object *struct {
		Target       autoscalingv2.CrossVersionObjectReference `json:"target"`
		MetricName   string                                    `json:"metricName"`
		TargetValue  resource.Quantity                         `json:"targetValue"`
		Selector     *metav1.LabelSelector                     `json:"selector,omitempty"`
		AverageValue *resource.Quantity                        `json:"averageValue,omitempty"`
	} `json:"object,omitempty"`
	Pods *struct {
		MetricName         string                `json:"metricName"`
		TargetAverageValue resource.Quantity     `json:"targetAverageValue"`
		Selector           *metav1.LabelSelector `json:"selector,omitempty"`
	} `json:"pods,omitempty"`
	Resource          *v2beta1Resource `json:"resource,omitempty"`
	ContainerResource *struct {
		v2beta1Resource `json:",inline"`
		Container       string `json:"container"`
	} `json:"containerResource,omitempty"`
	External *struct {
		MetricName         string                `json:"metricName"`
		MetricSelector     *metav1.LabelSelector `json:"metricSelector,omitempty"`
		TargetValue        *resource.Quantity    `json:"targetValue,omitempty"`
		TargetAverageValue *resource.Quantity    `json:"targetAverageValue,omitempty"`
	} `json:"external,omitempty"`
}

type v2beta1Resource struct {
	Name                     corev1.ResourceName `json:"name"`
	TargetAverageUtilization *int32              `json:"targetAverageUtilization,omitempty"`
	TargetAverageValue       *resource.Quantity  `json:"targetAverageValue,omitempty"`
}

func (r *v2beta1Resource) target() autoscalingv2.MetricTarget {
	if r.TargetAverageUtilization != nil {
		return autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: r.TargetAverageUtilization}
	}
	return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: r.TargetAverageValue}
}

func (b *hpaV2beta1) toV2() *HPA {
	h := &HPA{TypeMeta: b.TypeMeta, ObjectMeta: b.ObjectMeta}
	h.Spec.ScaleTargetRef = b.Spec.ScaleTargetRef
	h.Spec.MinReplicas = b.Spec.MinReplicas
	h.Spec.MaxReplicas = b.Spec.MaxReplicas
	for _, m := range b.Spec.Metrics {
		out := autoscalingv2.MetricSpec{Type: m.Type}
		switch {
		case m.Resource != nil:
			out.Resource = &autoscalingv2.ResourceMetricSource{Name: m.Resource.Name, Target: m.Resource.target()}
		case m.ContainerResource != nil:
			out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{
				Name: m.ContainerResource.Name, Container: m.ContainerResource.Container, Target: m.ContainerResource.target()}
		case m.Pods != nil:
			q := m.Pods.TargetAverageValue
			out.Pods = &autoscalingv2.PodsMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: m.Pods.MetricName, Selector: m.Pods.Selector},
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &q}}
		case m.External != nil:
			t := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: m.External.TargetValue}
			if m.External.TargetAverageValue != nil {
				t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: m.External.TargetAverageValue}
			}
			out.External = &autoscalingv2.ExternalMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: m.External.MetricName, Selector: m.External.MetricSelector}, Target: t}
		case m.Object != nil:
			q := m.Object.TargetValue
			t := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: &q}
			if m.Object.AverageValue != nil {
				t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: m.Object.AverageValue}
			}
			out.Object = &autoscalingv2.ObjectMetricSource{DescribedObject: m.Object.Target,
				Metric: autoscalingv2.MetricIdentifier{Name: m.Object.MetricName, Selector: m.Object.Selector}, Target: t}
		}
		h.Spec.Metrics = append(h.Spec.Metrics, out)
	}
	return h
}

// appsWorkload is the part of an apps workload (Deployment, ReplicaSet,
// StatefulSet, in every API version) scalelint reads.
type appsWorkload struct {
	Spec struct {
		Replicas *int32             `json:"replicas,omitempty"`
		Template *podTemplateSubset `json:"template,omitempty"`
	} `json:"spec"`
}

func decodeAppsWorkload(o *Object) (any, []FieldError) {
	var w appsWorkload
	errs := decodeInto(o.node, &w, o.Doc.File.opts.Limits, false)
	return appsWorkloadOf(w.Spec.Replicas, w.Spec.Template), errs
}

// appsWorkloadOf is the Workload of a spec.replicas and a spec.template.
func appsWorkloadOf(replicas *int32, template *podTemplateSubset) *Workload {
	out := &Workload{Replicas: replicas, TemplatePath: Path{Key("spec"), Key("template")}}
	if template != nil {
		out.HasTemplate, out.Pod = true, podCPU(template.Spec)
	}
	return out
}

// rollout is the part of an Argo Rollout scalelint reads: a Deployment's,
// and the workloadRef that names another object's pod template.
type rollout struct {
	Spec struct {
		Replicas    *int32             `json:"replicas,omitempty"`
		Template    *podTemplateSubset `json:"template,omitempty"`
		WorkloadRef *struct {
			APIVersion string `json:"apiVersion,omitempty"`
			Kind       string `json:"kind,omitempty"`
			Name       string `json:"name,omitempty"`
		} `json:"workloadRef,omitempty"`
	} `json:"spec"`
}

// decodeRollout reads an Argo Rollout as a Deployment, with its
// workloadRef.
func decodeRollout(o *Object) (any, []FieldError) {
	var r rollout
	errs := decodeInto(o.node, &r, o.Doc.File.opts.Limits, false)
	out := appsWorkloadOf(r.Spec.Replicas, r.Spec.Template)
	if ref := r.Spec.WorkloadRef; ref != nil && ref.Name != "" {
		out.TemplateRef = &TemplateRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
	}
	return out, errs
}

// leaderWorkerSet is the part of a LeaderWorkerSet scalelint reads. Its
// scale subresource selects the leader pods, which run the leader
// template when there is one, else the worker template.
type leaderWorkerSet struct {
	Spec struct {
		Replicas             *int32 `json:"replicas,omitempty"`
		LeaderWorkerTemplate struct {
			LeaderTemplate *podTemplateSubset `json:"leaderTemplate,omitempty"`
			WorkerTemplate podTemplateSubset  `json:"workerTemplate"`
		} `json:"leaderWorkerTemplate"`
	} `json:"spec"`
}

func decodeLWS(o *Object) (any, []FieldError) {
	var l leaderWorkerSet
	errs := decodeInto(o.node, &l, o.Doc.File.opts.Limits, false)
	w := &Workload{Replicas: l.Spec.Replicas, HasTemplate: true}
	if t := l.Spec.LeaderWorkerTemplate.LeaderTemplate; t != nil {
		w.Pod, w.TemplatePath = podCPU(t.Spec), Path{Key("spec"), Key("leaderWorkerTemplate"), Key("leaderTemplate")}
	} else {
		w.Pod, w.TemplatePath = podCPU(l.Spec.LeaderWorkerTemplate.WorkerTemplate.Spec), Path{Key("spec"), Key("leaderWorkerTemplate"), Key("workerTemplate")}
	}
	return w, errs
}
