package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
)

// newFlagSet returns a command's flag set, reporting to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseCommand parses a command's flags and paths, flags before, between
// or after the paths, with usage as the help text. Its error is
// flag.ErrHelp after --help, or a bad flag the flag package reported.
func parseCommand(fs *flag.FlagSet, usage string, args []string, stderr io.Writer) ([]string, error) {
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, reported{err}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// valuesFlags adds helm's --values (-f) and --set to a command: one more
// value set every chart among the inputs is rendered with.
func valuesFlags(fs *flag.FlagSet) *load.Options {
	o := &load.Options{}
	values := (*valuesFlag)(&o.Values)
	fs.Var(values, "values", "render every chart among the inputs with this values file too, as helm -f (repeatable, or comma-separated; one value set with --set)")
	fs.Var(values, "f", "shorthand for --values")
	fs.Var((*listFlag)(&o.Set), "set", "render every chart with this value set too, as helm --set key=value (repeatable)")
	return o
}

// valuesFlag is --values: repeatable, comma-separated, as helm's.
type valuesFlag []string

func (l *valuesFlag) String() string { return strings.Join(*l, ",") }
func (l *valuesFlag) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*l = append(*l, f)
		}
	}
	return nil
}

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// numFlag is a number flag that is nil until given and names itself in
// its error. kind: "d" a duration, "%" a fraction or percentage; a
// trailing "0" allows zero.
type numFlag struct {
	p        **float64
	name     string
	duration bool
	percent  bool // accepts 0.5 or 50%
	positive bool
}

// numVar defines a number flag.
func numVar(fs *flag.FlagSet, p **float64, name, usage, kind string) {
	fs.Var(numFlag{p: p, name: name, duration: strings.HasPrefix(kind, "d"), percent: kind == "%",
		positive: !strings.HasSuffix(kind, "0")}, name, usage)
}

func (f numFlag) String() string {
	if f.p == nil || *f.p == nil {
		return ""
	}
	return strconv.FormatFloat(**f.p, 'g', -1, 64)
}

func (f numFlag) Set(s string) error {
	var v float64
	var err error
	switch {
	case f.duration:
		v, err = scaling.ParseDuration(s)
	case f.percent && strings.HasSuffix(s, "%"):
		v, err = strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		v /= 100
	default:
		v, err = strconv.ParseFloat(s, 64)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		if f.duration {
			return fmt.Errorf("--%s: %q is not a duration (90s, 1m30s, or seconds)", f.name, s)
		}
		return fmt.Errorf("--%s: %q is not a number", f.name, s)
	}
	if v < 0 || (f.positive && v == 0) {
		return fmt.Errorf("--%s: %q must be positive", f.name, s)
	}
	if !f.duration {
		if err := scaling.CheckMagnitude(v); err != nil {
			return fmt.Errorf("--%s: %q %v", f.name, s, err)
		}
	}
	*f.p = &v
	return nil
}
