package manifest

// This is the only file of scalelint that imports KEDA: the ScaledObject
// and ScaledJob types, and KEDA's own offline validation functions, which
// scalelint calls instead of re-implementing them.

import (
	"fmt"
	"strings"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
)

// ScaledObject is KEDA's keda.sh/v1alpha1 ScaledObject.
type ScaledObject = kedav1alpha1.ScaledObject

// ScaledJob is KEDA's keda.sh/v1alpha1 ScaledJob.
type ScaledJob = kedav1alpha1.ScaledJob

// ScaleTarget is a ScaledObject's scaleTargetRef.
type ScaleTarget = kedav1alpha1.ScaleTarget

// AdvancedConfig is a ScaledObject's spec.advanced.
type AdvancedConfig = kedav1alpha1.AdvancedConfig

// ScaleTriggers is one trigger of a ScaledObject or ScaledJob.
type ScaleTriggers = kedav1alpha1.ScaleTriggers

// KEDADefaultMaxReplicaCount is maxReplicaCount when a ScaledObject sets
// none (keda apis/keda/v1alpha1 GetHPAMaxReplicas).
func KEDADefaultMaxReplicaCount() int32 {
	return (&ScaledObject{}).GetHPAMaxReplicas()
}

// KEDADefaultPollingInterval is the polling interval, in seconds, of a
// ScaledObject that sets none.
func KEDADefaultPollingInterval() float64 {
	w, err := kedav1alpha1.AsDuckWithTriggers(&ScaledObject{})
	if err != nil {
		return 30
	}
	return w.GetPollingInterval().Seconds()
}

// KEDAFinding is one finding of KEDA's own validation.
type KEDAFinding struct {
	Field   string // the field it is about: spec.minReplicaCount, spec.triggers, spec.fallback, ...
	Message string
}

// ValidateScaledObject runs the offline checks of KEDA's admission
// webhook that KEDA exports as functions: replica bounds, triggers,
// fallback, and scaling modifiers.
func ValidateScaledObject(so *ScaledObject) []KEDAFinding {
	var out []KEDAFinding
	if err := safeKEDA(func() error { return kedav1alpha1.CheckReplicaCountBoundsAreValid(so) }); err != nil {
		field := "spec.minReplicaCount"
		if so.Spec.IdleReplicaCount != nil && so.Spec.MinReplicaCount != nil && *so.Spec.MinReplicaCount <= so.GetHPAMaxReplicas() {
			field = "spec.idleReplicaCount"
		} else if so.Spec.IdleReplicaCount != nil && so.Spec.MinReplicaCount == nil {
			field = "spec.idleReplicaCount"
		}
		out = append(out, KEDAFinding{field, err.Error()})
	}
	if err := safeKEDA(func() error { return kedav1alpha1.ValidateTriggers(so.Spec.Triggers) }); err != nil {
		out = append(out, KEDAFinding{"spec.triggers", err.Error()})
	}
	if err := safeKEDA(func() error { return kedav1alpha1.CheckFallbackValid(so) }); err != nil {
		out = append(out, KEDAFinding{"spec.fallback", err.Error()})
	}
	if so.IsUsingModifiers() {
		cp := so.DeepCopy() // ValidateAndCompileScalingModifiers rewrites the formula
		if err := safeKEDA(func() error { _, err := kedav1alpha1.ValidateAndCompileScalingModifiers(cp); return err }); err != nil {
			out = append(out, KEDAFinding{"spec.advanced.scalingModifiers", err.Error()})
		}
	}
	return out
}

// CheckScaledObjectName re-implements KEDA's webhook verifyName (not
// exported): the ScaledObject's name, and the name of the HPA KEDA
// creates for it, must be valid names of at most 63 characters.
func CheckScaledObjectName(so *ScaledObject) []KEDAFinding {
	name, field := "keda-hpa-"+so.Name, "metadata.name"
	if adv := so.Spec.Advanced; adv != nil && adv.HorizontalPodAutoscalerConfig != nil && adv.HorizontalPodAutoscalerConfig.Name != "" {
		name, field = adv.HorizontalPodAutoscalerConfig.Name, "spec.advanced.horizontalPodAutoscalerConfig.name"
	}
	switch {
	case len(so.Name) > 63:
		return []KEDAFinding{{"metadata.name", fmt.Sprintf("its name is %d characters, over 63", len(so.Name))}}
	case len(name) > 63:
		return []KEDAFinding{{field, fmt.Sprintf("the HPA name %q is %d characters, over 63", name, len(name))}}
	}
	return nil
}

// ValidateScaledJob runs KEDA's exported trigger validation on a ScaledJob.
func ValidateScaledJob(sj *ScaledJob) []KEDAFinding {
	if err := safeKEDA(func() error { return kedav1alpha1.ValidateTriggers(sj.Spec.Triggers) }); err != nil {
		return []KEDAFinding{{"spec.triggers", err.Error()}}
	}
	return nil
}

// safeKEDA calls a KEDA function and turns a panic into an error: KEDA's
// functions are written for objects its API server already validated.
func safeKEDA(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("KEDA's validation failed on this object: %v", r)
		}
	}()
	return f()
}

func init() {
	registerDecoder("keda.sh", "ScaledObject", func(o *Object) (any, []FieldError) {
		var so ScaledObject
		return &so, decodeInto(o.node, &so, o.Doc.File.opts.Limits, true)
	})
	registerDecoder("keda.sh", "ScaledJob", func(o *Object) (any, []FieldError) {
		var sj ScaledJob
		return &sj, decodeInto(o.node, &sj, o.Doc.File.opts.Limits, true)
	})
	// keda.k8s.io/v1alpha1 is KEDA v1: its scaleTargetRef names a
	// Deployment by deploymentName. Read what v2 can read of it.
	registerDecoder("keda.k8s.io", "ScaledObject", func(o *Object) (any, []FieldError) {
		var so ScaledObject
		errs := decodeInto(o.node, &so, o.Doc.File.opts.Limits, false)
		if so.Spec.ScaleTargetRef != nil && so.Spec.ScaleTargetRef.Name == "" {
			if n := o.Get(ParsePath("spec.scaleTargetRef.deploymentName")); n != nil {
				so.Spec.ScaleTargetRef.Name = strings.Clone(n.Value)
				so.Spec.ScaleTargetRef.Kind = "Deployment"
				so.Spec.ScaleTargetRef.APIVersion = "apps/v1"
			}
		}
		return &so, errs
	})
}
