package simulate

import "testing"

func TestSparklineRange(t *testing.T) {
	for _, tc := range []struct {
		v      []float64
		width  int
		lo, hi float64
		want   string
	}{
		{[]float64{19, 21, 20}, 3, 0, 35, "▅▅▅"},
		{[]float64{0, 35}, 2, 0, 35, "▁█"},
		{[]float64{-5, 50}, 2, 0, 35, "▁█"},
		{[]float64{0, 7}, 2, nan(), nan(), "▁█"},
		{[]float64{3, 7}, 2, 0, nan(), "▄█"},
		{[]float64{2, 2}, 2, 2, 2, "▅▅"},
	} {
		if got := SparklineRange(tc.v, tc.width, tc.lo, tc.hi); got != tc.want {
			t.Errorf("SparklineRange(%v, %d, %v, %v) = %q, want %q", tc.v, tc.width, tc.lo, tc.hi, got, tc.want)
		}
	}
}
