package scaling

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// KEDA scalers read their metadata with a typed config
// (https://github.com/kedacore/keda/blob/main/pkg/scalers/scalersconfig/typed_config.go):
// a value is trimmed, an empty one counts as absent (the default applies),
// and a number field is filled by json.Unmarshal of the text. So an int64
// threshold takes only a JSON integer ("10"; not "10.5", "1e3", "+10",
// "0x10" or "10Ki") and a float64 one a JSON number ("10.5", "1e3"; not
// ".5", "NaN" or "10m"). What a scaler reads is then handed to the HPA as
// the metric's target, which the API server refuses unless it is positive
// (a float one at KEDA's milli precision: GetMetricTargetMili in
// https://github.com/kedacore/keda/blob/main/pkg/scalers/scaler.go).

// numberKind is the Go type a scaler's threshold field has.
type numberKind int

const (
	kedaInt   numberKind = iota // int64 (or int): a JSON integer
	kedaFloat                   // float64: any JSON number
)

func (k numberKind) String() string {
	if k == kedaInt {
		return "an integer"
	}
	return "a number"
}

// goType says how the scaler reads the value.
func (k numberKind) goType() string {
	if k == kedaInt {
		return "a 64-bit integer (a JSON integer: no fraction, exponent, unit or leading +)"
	}
	return "a JSON number (no unit, no leading + or .)"
}

// thresholdSpec is how one scaler reads its per-pod threshold.
type thresholdSpec struct {
	keys       []string // metadata keys, the first present wins (KEDA's name=a;b)
	def        float64  // KEDA's default when every key is absent
	hasDefault bool     // false: the key is required
	kind       numberKind
	// ownCheck is the scaler's own refusal of a value ≤ 0 (its Validate),
	// "" when only the HPA refuses it.
	ownCheck string
}

// readThreshold reads a threshold as the scaler does. It returns the key
// read (the first of spec.keys when none is present), the value, whether
// KEDA's default applies, and why KEDA would refuse the value ("" when it
// would not).
func readThreshold(scaler string, spec thresholdSpec, md map[string]string) (key string, v float64, defaulted bool, refused string) {
	key = spec.keys[0]
	text, found := "", false
	for _, k := range spec.keys {
		if t := strings.TrimSpace(md[k]); t != "" {
			key, text, found = k, t, true
			break
		}
	}
	if !found {
		if !spec.hasDefault {
			return key, 0, false, fmt.Sprintf("the %s trigger has no %s, which KEDA's %s scaler requires", scaler, key, scaler)
		}
		return key, spec.def, true, ""
	}
	v, ok := parseKEDANumber(text, spec.kind)
	if !ok {
		return key, 0, false, fmt.Sprintf("%s %q is not %s: KEDA's %s scaler reads it as %s and fails", key, text, spec.kind, scaler, spec.kind.goType())
	}
	switch {
	case v <= 0 && spec.ownCheck != "":
		return key, 0, false, fmt.Sprintf("%s %q must be positive: KEDA's %s scaler refuses it (%s)", key, text, scaler, spec.ownCheck)
	case v <= 0:
		return key, 0, false, fmt.Sprintf("%s %q is not positive: the HPA KEDA creates for it is refused (a metric target must be positive)", key, text)
	case spec.kind == kedaFloat && math.Round(v*1000) < 1:
		return key, 0, false, fmt.Sprintf("%s %q rounds to 0 at KEDA's milli precision: the HPA KEDA creates for it is refused (a metric target must be positive)", key, text)
	}
	// A threshold KEDA reads is used as it is, however large: the laws
	// and every output write an unbounded result (∞), and a finding of
	// invalid-field would claim KEDA refuses what it accepts.
	return key, v, false, ""
}

// parseKEDANumber reads text as json.Unmarshal fills an int64 or float64
// field (KEDA's typed config). "null" leaves KEDA's field unset (its
// reflection then fails), so it is refused too.
func parseKEDANumber(text string, kind numberKind) (float64, bool) {
	if text == "null" {
		return 0, false
	}
	if kind == kedaInt {
		var i int64
		if json.Unmarshal([]byte(text), &i) != nil {
			return 0, false
		}
		return float64(i), true
	}
	var f float64
	if json.Unmarshal([]byte(text), &f) != nil {
		return 0, false
	}
	return f, true
}
