package scaling

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// ParseQuantity reads a number the way Kubernetes and KEDA read
// thresholds and resources: a plain number, or a Kubernetes quantity
// (500m, 1.5, 2k).
func ParseQuantity(s string) (float64, error) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err == nil:
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, strconv.ErrSyntax
		}
		return f, nil
	case errors.Is(err, strconv.ErrRange):
		// A number past any float64 ("1e400"). Never handed to
		// resource.ParseQuantity: with a mantissa past int64 and an
		// exponent past int32 ("1000…0E000000010000000000", found by
		// FuzzClassifyTrigger) it raises 10 to the wrapped exponent, over
		// a billion, and does not return.
		return 0, strconv.ErrRange
	case manifest.HostileNumber(s) != "":
		return 0, strconv.ErrRange // what the typed decode refuses too
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	f = q.AsApproximateFloat64()
	// 1E400 is a quantity past any float; "E700" parses as a zero
	// mantissa times 10^700, which AsApproximateFloat64 turns into NaN.
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, strconv.ErrRange
	}
	return f, nil
}
