package render

import "time"

// Limits bound what rendering one chart or kustomization may cost.
type Limits struct {
	// Timeout bounds the time to render one value set of a chart or to
	// build one kustomization (default 10 s). A render that takes longer
	// is abandoned and reported.
	Timeout time.Duration
	// MaxOutput bounds the rendered bytes of one value set or build
	// (default 64 MiB).
	MaxOutput int
	// MaxInput bounds the bytes read from one chart or kustomization tree
	// (default 64 MiB), and MaxFiles the number of files (default 10,000).
	MaxInput int
	MaxFiles int
}

// Default limits, when a Limits field is zero.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultMaxOutput = 64 << 20
	DefaultMaxInput  = 64 << 20
	DefaultMaxFiles  = 10000
)

// WithDefaults returns the limits with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = DefaultMaxOutput
	}
	if l.MaxInput <= 0 {
		l.MaxInput = DefaultMaxInput
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	return l
}
