package manifest

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// decodeTarget is one typed decode scalelint does (decodeHPA, keda.go's
// decoders, decodeAppsWorkload, decodeLWS): a fresh value of its type and
// whether unknown fields are problems.
type decodeTarget struct {
	name   string
	kinds  []string // the kinds decoded into it (the others are decoded too, as hostile input)
	new    func() any
	strict bool
}

var decodeTargets = []decodeTarget{
	{"autoscaling/v2 HPA", []string{"HorizontalPodAutoscaler"}, func() any { return new(HPA) }, true},
	{"autoscaling/v1 HPA", []string{"HorizontalPodAutoscaler"}, func() any { return new(autoscalingv1.HorizontalPodAutoscaler) }, true},
	{"autoscaling/v2beta1 HPA", []string{"HorizontalPodAutoscaler"}, func() any { return new(hpaV2beta1) }, true},
	{"ScaledObject", []string{"ScaledObject"}, func() any { return new(ScaledObject) }, true},
	{"ScaledJob", []string{"ScaledJob"}, func() any { return new(ScaledJob) }, true},
	{"keda v1 ScaledObject", []string{"ScaledObject"}, func() any { return new(ScaledObject) }, false},
	{"apps workload", []string{"Deployment", "StatefulSet", "ReplicaSet", "Rollout"}, func() any { return new(appsWorkload) }, false},
	{"LeaderWorkerSet", []string{"LeaderWorkerSet"}, func() any { return new(leaderWorkerSet) }, false},
}

// compareDecodes decodes n into a target on the fast path and on the
// JSON path (the reference: decodeInto before the fast path existed).
// When the fast path decodes, the JSON path must find no problem and
// decode the same value; when it gives up, it must leave the value zero
// for the JSON path. It returns whether the fast path decoded.
func compareDecodes(t *testing.T, where string, n *yaml.Node, tg decodeTarget) bool {
	t.Helper()
	panics := fastDecodePanics.Load()
	defer func() {
		if fastDecodePanics.Load() != panics {
			t.Errorf("%s as %s: the fast path panicked", where, tg.name)
		}
	}()
	lim := Limits{}.withDefaults()
	var read fieldTree
	if !tg.strict {
		read = fieldsRead(reflect.TypeOf(tg.new()))
	}
	fast, viaJSON := tg.new(), tg.new()
	ok := decodeFast(n, fast, lim, tg.strict, read, false)
	errs := decodeJSON(n, viaJSON, lim, tg.strict, read)
	if _, isObject := viaJSON.(metav1.Object); isObject {
		// As decodeInto decodes it: without the labels, annotations and
		// managed fields decodeTyped drops, which must not change
		// whether the fast path decodes, or anything else.
		dropped := tg.new()
		okDropped := decodeFast(n, dropped, lim, tg.strict, read, true)
		want := tg.new()
		reflect.ValueOf(want).Elem().Set(reflect.ValueOf(viaJSON).Elem())
		w := want.(metav1.Object)
		w.SetLabels(nil)
		w.SetAnnotations(nil)
		w.SetManagedFields(nil)
		switch {
		case okDropped != ok:
			t.Errorf("%s as %s: the fast path decodes %v, but %v leaving out the object's labels and annotations", where, tg.name, ok, okDropped)
		case ok && !reflect.DeepEqual(dropped, want):
			t.Errorf("%s as %s: without labels and annotations, the paths decode different values:\nfast %+v\njson %+v", where, tg.name, dropped, want)
		}
	}
	switch {
	case ok && len(errs) > 0:
		t.Errorf("%s as %s: the fast path decoded an object the JSON path finds problems in: %v", where, tg.name, errs)
	case ok && !reflect.DeepEqual(fast, viaJSON):
		t.Errorf("%s as %s: the paths decode different values:\nfast %+v\njson %+v", where, tg.name, fast, viaJSON)
	case !ok && !reflect.DeepEqual(fast, tg.new()):
		t.Errorf("%s as %s: the fast path gave up but left a value: %+v", where, tg.name, fast)
	}
	// decodeInto is one path or the other (the dropped fields aside),
	// with the JSON path's problems, node for node, word for word.
	got := decodeInto(n, tg.new(), lim, tg.strict)
	if ok && got != nil || !ok && !reflect.DeepEqual(got, errs) {
		t.Errorf("%s as %s: decodeInto gives %v, the paths %v (fast %v)", where, tg.name, got, errs, ok)
	}
	return ok
}

// objectNodes returns the mapping nodes of a YAML text's documents as
// both parsers build them: manifest.Parse's objects (the fast parser's
// tree, or yaml.v3's where it declines; List items one by one) and
// yaml.v3's documents.
func objectNodes(name string, data []byte) (nodes []*yaml.Node, kinds []string) {
	f := Parse(token.NewFileSet(), name, data, Options{})
	for _, d := range f.Docs {
		for _, o := range d.Objects() {
			if o.node != nil && o.node.Kind == yaml.MappingNode {
				nodes, kinds = append(nodes, o.node), append(kinds, o.Kind)
			}
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var root yaml.Node
		if dec.Decode(&root) != nil { // the end, or an error Parse reports
			break
		}
		if len(root.Content) > 0 && root.Content[0].Kind == yaml.MappingNode {
			n := root.Content[0]
			nodes, kinds = append(nodes, n), append(kinds, scalarValue(mapValue(n, "kind")))
		}
	}
	return nodes, kinds
}

// repoYAML returns every YAML text of the repository's test data: the
// files under testdata (the real-world corpus, examples, repositories)
// and the YAML files of the txtar archives of the CLI scripts and the
// rule and inference fixtures.
func repoYAML(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	isYAML := func(p string) bool { return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") }
	for _, root := range []string{"../../testdata", "../../rules/testdata", "../infer/testdata", "../render/lint/testdata"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch {
			case isYAML(p) && !strings.Contains(p, "/templates/"): // chart templates are not YAML until rendered
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				out[p] = data
			case strings.HasSuffix(p, ".txtar"):
				a, err := txtar.ParseFile(p)
				if err != nil {
					return err
				}
				for _, f := range a.Files {
					if isYAML(f.Name) {
						out[p+":"+f.Name] = f.Data
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestFastDecodeMatchesJSON: the fast path of the typed decode gives the
// value the JSON path gives, for every object of the repository's test
// data decoded into every typed decode's type (its own kind's objects
// and, as hostile input, all the others), and for the edge cases below;
// and it does decode the objects it is meant for.
func TestFastDecodeMatchesJSON(t *testing.T) {
	texts := repoYAML(t)
	if len(texts) < 100 {
		t.Fatalf("found %d YAML texts in the test data; the walk is broken", len(texts))
	}
	fastOwn := map[string]int{} // target -> objects of its kind decoded on the fast path
	ownKind := map[string]int{} // target -> objects of its kind
	objects := 0
	for name, data := range texts {
		nodes, kinds := objectNodes(name, data)
		objects += len(nodes)
		for i, n := range nodes {
			for _, tg := range decodeTargets {
				ok := compareDecodes(t, name, n, tg)
				for _, k := range tg.kinds {
					if kinds[i] == k {
						ownKind[tg.name]++
						if ok {
							fastOwn[tg.name]++
						}
					}
				}
			}
		}
	}
	for _, tg := range decodeTargets {
		t.Logf("%s: %d of %d objects of its kind on the fast path", tg.name, fastOwn[tg.name], ownKind[tg.name])
	}
	// The corpus holds plain HPAs, ScaledObjects, ScaledJobs and
	// Deployments: the fast path must be the one that decodes them (a
	// fast path that always gives up passes every comparison).
	for _, tg := range []string{"autoscaling/v2 HPA", "ScaledObject", "ScaledJob", "apps workload"} {
		if fastOwn[tg] == 0 {
			t.Errorf("%s: none of the %d objects of its kind decoded on the fast path", tg, ownKind[tg])
		}
	}
	t.Logf("%d YAML texts, %d objects", len(texts), objects)
}

// fastDecodeCases are objects chosen at the edges of the two paths'
// agreement. want is "fast" when the fast path must decode the object
// (into the target named by its kind), "json" when it must give up (the
// JSON path then reports a problem, or the fast path cannot be sure of
// the value); every case is also decoded into every other target.
var fastDecodeCases = []struct {
	name, want, src string
}{
	{"plain HPA", "fast", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: prod, labels: {app: web, tier: "1"}, annotations: {x: "5"}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
  - type: Pods
    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: 1k}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      selectPolicy: Max
      policies: [{type: Percent, value: 10, periodSeconds: 60}]
    scaleUp:
      tolerance: 50m
`},
	{"HPA with nulls", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n  creationTimestamp: null\n  labels: ~\n  annotations: {a: null}\nspec:\n  minReplicas: null\n  maxReplicas: 3\n  metrics: null\n  behavior:\n  scaleTargetRef: {name: web}\nstatus: {}\n"},
	{"HPA with numbers in other bases", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  minReplicas: 0x2\n  maxReplicas: 1_0\n  scaleTargetRef: {name: web}\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 0o17}}\n"},
	{"HPA with a YAML 1.1 octal", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 010, scaleTargetRef: {name: web}}\n"},
	{"HPA with a quantity written as a number", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  maxReplicas: 3\n  scaleTargetRef: {name: web}\n  metrics:\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: 1.5}}\n  - type: External\n    external: {metric: {name: q}, target: {type: AverageValue, averageValue: 30}}\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: 1e3}}\n"},
	{"HPA with managedFields and a timestamp", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n  creationTimestamp: \"2024-01-02T03:04:05Z\"\n  managedFields:\n  - manager: kubectl\n    operation: Update\n    time: \"2024-01-02T03:04:05Z\"\n    fieldsType: FieldsV1\n    fieldsV1: {f:spec: {f:maxReplicas: {}}, f:metadata: {f:labels: {.: {}, f:app: {}}}}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA float into an int", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 3.0, scaleTargetRef: {name: web}}\n"},
	{"HPA int32 overflow", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 2147483648, scaleTargetRef: {name: web}}\n"},
	{"HPA quoted int", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: \"3\", scaleTargetRef: {name: web}}\n"},
	{"HPA number as a name", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: 5}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA YAML 1.1 boolean as a name", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 3, scaleTargetRef: {name: yes}}\n"},
	{"HPA unknown field", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 3, maxReplica: 4, scaleTargetRef: {name: web}}\n"},
	{"HPA field in the wrong case", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {MaxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA duplicate key", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  maxReplicas: 3\n  maxReplicas: 4\n  scaleTargetRef: {name: web}\n"},
	{"HPA alias", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: &n web}\nspec: {maxReplicas: 3, scaleTargetRef: {name: *n}}\n"},
	{"HPA merge key", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nbase: &b {maxReplicas: 3}\nspec: {<<: *b, scaleTargetRef: {name: web}}\n"},
	{"HPA explicit tag", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: !!str 5}\nspec: {maxReplicas: !!int \"3\", scaleTargetRef: {name: web}}\n"},
	{"HPA binary", "json", "apiVersion: autoscaling/v2\nkind: !!binary SG9yaXpvbnRhbFBvZEF1dG9zY2FsZXI=\nmetadata: {name: web}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA bad quantity", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  maxReplicas: 3\n  scaleTargetRef: {name: web}\n  metrics:\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: lots}}\n"},
	{"HPA hostile number", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  maxReplicas: 3\n  scaleTargetRef: {name: web}\n  metrics:\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: 2E6024865272343}}\n"},
	{"HPA hostile number in a label", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, labels: {a: \"2E6024865272343\"}}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA NaN", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  maxReplicas: 3\n  scaleTargetRef: {name: web}\n  metrics:\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: .nan}}\n"},
	{"HPA sequence for a mapping", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: [web]\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA mapping for a string", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: {a: b}}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA non-scalar key", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  ? [a]\n  : 1\n  maxReplicas: 3\n"},
	{"HPA bad timestamp", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, creationTimestamp: yesterday}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA unicode and escapes", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: \"w\\u00e9b\\t<&>\"\n  annotations: {\"k\\u2028\": \"\\x01\\\"q\\\\\", é: ü}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA empty collections", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, labels: {}, finalizers: []}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}, metrics: []}\n"},
	{"HPA spec a scalar", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: 5\n"},
	{"HPA spec null", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n"},
	{"HPA negative into a pointer int", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, generation: -3}\nspec: {minReplicas: -1, maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA +1 and -0", "fast", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {minReplicas: +1, maxReplicas: -0, scaleTargetRef: {name: web}}\n"},
	{"HPA boolean spellings", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\nstatus: {conditions: [{type: A, status: \"True\", lastTransitionTime: null}]}\nx: on\n"},
	{"HPA label a number", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, labels: {tier: 1}}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA annotation a mapping", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, annotations: {a: {b: c}}}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"HPA managedFields bad time", "json", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, managedFields: [{manager: m, time: soon}]}\nspec: {maxReplicas: 3, scaleTargetRef: {name: web}}\n"},
	{"plain ScaledObject", "fast", `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: so}
spec:
  scaleTargetRef: {name: web}
  pollingInterval: 15
  cooldownPeriod: 300
  minReplicaCount: 0
  maxReplicaCount: 50
  fallback: {failureThreshold: 3, replicas: 6}
  advanced:
    restoreToOriginalReplicaCount: yes
    horizontalPodAutoscalerConfig:
      behavior: {scaleDown: {stabilizationWindowSeconds: 60}}
  triggers:
  - type: kafka
    metadata: {topic: t, lagThreshold: "10", bootstrapServers: "k:9092"}
    authenticationRef: {name: auth}
  - type: cpu
    metricType: Utilization
    metadata: {value: "60"}
`},
	{"ScaledObject metadata number", "json", "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: so}\nspec:\n  scaleTargetRef: {name: web}\n  triggers:\n  - type: kafka\n    metadata: {lagThreshold: 10}\n"},
	{"ScaledObject boolean in a string map", "json", "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: so}\nspec:\n  scaleTargetRef: {name: web}\n  triggers:\n  - type: kafka\n    metadata: {allowIdleConsumers: true}\n"},
	{"plain ScaledJob", "fast", `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata: {name: sj}
spec:
  maxReplicaCount: 10
  scalingStrategy: {strategy: accurate}
  jobTargetRef:
    parallelism: 1
    backoffLimit: 4
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: w
          image: w:1
          args: [--once]
          env: [{name: A, value: "1"}, {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
          ports: [{containerPort: 8080, protocol: TCP}]
          resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 1, memory: 1Gi}}
          livenessProbe: {httpGet: {path: /, port: http}, periodSeconds: 10}
          readinessProbe: {tcpSocket: {port: 8080}}
        volumes: [{name: v, emptyDir: {}}]
  triggers:
  - type: rabbitmq
    metadata: {queueName: q, mode: QueueLength, value: "5"}
`},
	{"Deployment", "fast", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {v: 1.5}}\nspec:\n  replicas: 3\n  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}\n  template:\n    spec:\n      initContainers: [{name: s, restartPolicy: Always, resources: {limits: {cpu: 2}}}]\n      containers:\n      - name: a\n        image: x\n        env: [{name: A, value: yes}]\n        resources: {requests: {cpu: 250m}, limits: {cpu: \"1\"}}\n      resources: {requests: {cpu: 1}}\n"},
	{"Deployment hostile number in an unread field", "fast", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: a, env: [{name: N, value: 2E6024865272343}]}]\n"},
	{"Deployment hostile number in a read field", "json", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: a, resources: {requests: {cpu: 2E6024865272343}}}]\n"},
	{"Deployment NaN in an unread field", "json", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    metadata:\n      annotations: {x: .nan}\n    spec:\n      containers: [{name: a}]\n"},
	{"Deployment duplicate in an unread field", "json", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n        image: y\n"},
	{"Deployment unknown field", "fast", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicaz: 3\n  template: {spec: {containers: [{name: a, resourcez: {}}]}}\n"},
	{"Deployment big int in an unread field", "fast", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  minReadySeconds: 99999999999999999999999\n  template: {spec: {containers: [{name: a}]}}\n"},
	{"Deployment replicas as a string", "json", "apiVersion: apps/v1\nkind: Deployment\nspec: {replicas: three}\n"},
	{"Deployment quantity with an exponent", "fast", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template: {spec: {containers: [{name: a, resources: {requests: {cpu: 1e-1, memory: 0x10}, limits: {cpu: 1000m}}}]}}\n"},
	{"Deployment template null", "fast", "apiVersion: apps/v1\nkind: Deployment\nspec: {replicas: 1, template: null}\n"},
	{"LeaderWorkerSet", "fast", "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\nspec:\n  replicas: 2\n  leaderWorkerTemplate:\n    size: 4\n    workerTemplate: {spec: {containers: [{name: w, resources: {requests: {cpu: 500m}}}]}}\n"},
	{"keda v1 ScaledObject", "fast", "apiVersion: keda.k8s.io/v1alpha1\nkind: ScaledObject\nmetadata: {name: so}\nspec:\n  scaleTargetRef: {deploymentName: web}\n  triggers: [{type: cpu, metadata: {value: \"50\"}}]\n"},
}

// targetOf is the target a fast case's kind is decoded into.
func targetOf(t *testing.T, src string) decodeTarget {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	n := root.Content[0]
	api, kind := scalarValue(mapValue(n, "apiVersion")), scalarValue(mapValue(n, "kind"))
	name := map[string]string{"HorizontalPodAutoscaler": "autoscaling/v2 HPA", "ScaledObject": "ScaledObject", "ScaledJob": "ScaledJob",
		"Deployment": "apps workload", "LeaderWorkerSet": "LeaderWorkerSet"}[kind]
	if strings.HasPrefix(api, "keda.k8s.io/") {
		name = "keda v1 ScaledObject"
	}
	for _, tg := range decodeTargets {
		if tg.name == name {
			return tg
		}
	}
	t.Fatalf("no target for %s %s", api, kind)
	return decodeTarget{}
}

// TestFastDecodeCases: each edge case decodes the same both ways into
// every target, and into its own kind's target on the path it names
// (fast: the fast path must not give up on it; json: it must, as the
// JSON path reports a problem or the case is one the fast path leaves
// to it, such as an alias or a float into an integer).
func TestFastDecodeCases(t *testing.T) {
	for _, c := range fastDecodeCases {
		nodes, _ := objectNodes(c.name, []byte(c.src))
		if len(nodes) == 0 {
			t.Fatalf("%s: no object", c.name)
		}
		own := targetOf(t, c.src)
		for i, n := range nodes {
			for _, tg := range decodeTargets {
				ok := compareDecodes(t, fmt.Sprintf("%s (tree %d)", c.name, i), n, tg)
				if tg.name == own.name && ok != (c.want == "fast") {
					t.Errorf("%s (tree %d) as %s: fast path %v, want %s", c.name, i, tg.name, ok, c.want)
				}
			}
		}
	}
}

// FuzzFastDecode: for any YAML, the fast path decodes what the JSON path
// decodes, or gives up and leaves the value zero (compareDecodes), into
// every typed decode's type.
func FuzzFastDecode(f *testing.F) {
	for _, c := range fastDecodeCases {
		f.Add([]byte(c.src))
	}
	texts := repoYAML(f)
	names := make([]string, 0, len(texts))
	for name := range texts {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		if i%4 == 0 && len(texts[name]) < 16<<10 { // a quarter: the fuzz seeds ran in go test
			f.Add(texts[name])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		nodes, _ := objectNodes("fuzz.yaml", data)
		for i, n := range nodes {
			for _, tg := range decodeTargets {
				compareDecodes(t, fmt.Sprintf("tree %d", i), n, tg)
			}
		}
	})
}

// productionTarget is the target decodeTyped decodes an object into, by
// its apiVersion and kind (decodeHPA, keda.go, decodeAppsWorkload,
// decodeLWS), or false.
func productionTarget(n *yaml.Node) (decodeTarget, bool) {
	api, kind := scalarValue(mapValue(n, "apiVersion")), scalarValue(mapValue(n, "kind"))
	name := ""
	switch {
	case kind == "HorizontalPodAutoscaler" && api == "autoscaling/v1":
		name = "autoscaling/v1 HPA"
	case kind == "HorizontalPodAutoscaler" && api == "autoscaling/v2beta1":
		name = "autoscaling/v2beta1 HPA"
	case kind == "HorizontalPodAutoscaler":
		name = "autoscaling/v2 HPA"
	case kind == "ScaledObject" && strings.HasPrefix(api, "keda.k8s.io/"):
		name = "keda v1 ScaledObject"
	case kind == "ScaledObject" || kind == "ScaledJob" || kind == "LeaderWorkerSet":
		name = kind
	case kind == "Deployment" || kind == "StatefulSet" || kind == "ReplicaSet" || kind == "Rollout":
		name = "apps workload"
	}
	for _, tg := range decodeTargets {
		if tg.name == name {
			return tg, true
		}
	}
	return decodeTarget{}, false
}

// BenchmarkDecode decodes every object of the real-world corpus of a
// kind scalelint decodes, into the type decodeTyped decodes it into: as
// decodeInto does (the fast path, the JSON path where it gives up), and
// through the JSON path alone.
func BenchmarkDecode(b *testing.B) {
	type job struct {
		n  *yaml.Node
		tg decodeTarget
	}
	var jobs []job
	for name, data := range repoYAML(b) {
		if !strings.Contains(name, "realworld") {
			continue
		}
		nodes, _ := objectNodes(name, data)
		for _, n := range nodes {
			if tg, ok := productionTarget(n); ok {
				jobs = append(jobs, job{n, tg})
			}
		}
	}
	lim := Limits{}.withDefaults()
	fast := 0
	for _, j := range jobs {
		var read fieldTree
		if !j.tg.strict {
			read = fieldsRead(reflect.TypeOf(j.tg.new()))
		}
		if decodeFast(j.n, j.tg.new(), lim, j.tg.strict, read, true) {
			fast++
		}
	}
	b.Run("decodeInto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, j := range jobs {
				decodeInto(j.n, j.tg.new(), lim, j.tg.strict)
			}
		}
		b.ReportMetric(float64(fast)/float64(len(jobs)), "fast/object")
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, j := range jobs {
				var read fieldTree
				if !j.tg.strict {
					read = fieldsRead(reflect.TypeOf(j.tg.new()))
				}
				decodeJSON(j.n, j.tg.new(), lim, j.tg.strict, read)
			}
		}
	})
}
