package simulate

import "time"

// The configurations the tests run.

// Kit returns the cluster kit of "The Delay a Window Demands" (the setting of
// its falsification criteria; rules/laws/README.md §9): demand 50 →
// 200 msg/s, 10 msg/s per pod, 90 s dead time, replicas 1..100, the legacy
// path with its default 300 s window, at the given standing delay.
func Kit(standingDelay float64) Config {
	return Config{
		DeadTime:   90 * time.Second,
		PodRate:    10,
		Threshold:  10 * standingDelay,
		DemandFrom: 50,
		DemandTo:   200,
	}
}

// Specimen returns the deployed model of "The Delay a Window Demands": demand steps from 50 pods'
// worth of work to 200 pods' worth (500 → 2,000 msg/s at 10 msg/s per
// pod), 90 s dead time, replicas 1..2,000, the legacy path, at the given
// standing delay.
func Specimen(standingDelay float64) Config {
	return Config{
		DeadTime:    90 * time.Second,
		PodRate:     10,
		Threshold:   10 * standingDelay,
		MinReplicas: 1,
		MaxReplicas: 2000,
		DemandFrom:  500,
		DemandTo:    2000,
	}
}

// DownWindow returns the behaviour most KEDA users write to change the
// window: only scaleDown.stabilizationWindowSeconds set, everything else
// defaulted.
func DownWindow(seconds int32) *Behavior {
	return &Behavior{ScaleDown: &Rules{StabilizationWindowSeconds: Int32(seconds)}}
}
