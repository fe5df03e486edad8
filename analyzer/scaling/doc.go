// Package scaling reads what an autoscaler says, in one shape for every
// kind: HorizontalPodAutoscalers of every version, KEDA ScaledObjects and
// ScaledJobs. It also reads the scale targets' pod templates and the
// scalelint.dev/* annotations that record what no manifest says.
//
// Data flow: manifest.Object (typed + node tree)
//
//	-> FromObject: Autoscaler{bounds, metrics/triggers with their signal class
//	   (CPU utilization, backlog, rate, other) and per-pod threshold, behavior
//	   windows and tolerance, annotations}, every value with the node it was
//	   read from (or marked as a default, with the node where the default applies)
//	-> WorkloadFromObject: Workload{replicas, counted containers with CPU request/limit}
//	-> Inputs: the law inputs merged from the autoscaler's annotations, its
//	   target's, and the repository's defaults, in that order of precedence
//
// Nothing here evaluates a law; rules do, from these values.
package scaling
