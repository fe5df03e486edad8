package scaling

import (
	"math"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// ParseQuantity reads a number the way Kubernetes and KEDA read
// thresholds and resources: a plain number, or a Kubernetes quantity
// (500m, 1.5, 2k).
func ParseQuantity(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, strconv.ErrSyntax
		}
		return f, nil
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	f := q.AsApproximateFloat64()
	// 1E400 is a quantity past any float; "E700" parses as a zero
	// mantissa times 10^700, which AsApproximateFloat64 turns into NaN.
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, strconv.ErrRange
	}
	return f, nil
}
