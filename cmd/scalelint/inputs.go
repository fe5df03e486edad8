package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

// readInputs reads what check, audit and simulate read (load.Read) and
// prints, as they are found, the paths that could not be read and the
// warnings. err is set when some path could not be read: the command goes
// on with what it read, and ends with exit status 2.
func readInputs(paths []string, stdin io.Reader, stderr io.Writer, configPath, namespace string, progress bool) (*load.Inputs, error) {
	cfg, err := load.Config(configPath, namespace)
	if err != nil {
		return nil, err
	}
	var p io.Writer
	if progress {
		p = stderr
	}
	in := load.Read(paths, stdin, cfg, p)
	for _, e := range in.Errs {
		fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
	}
	for _, w := range in.Warnings {
		fmt.Fprintf(stderr, "scalelint: warning: %s\n", term.Clean(w))
	}
	if len(in.Errs) > 0 {
		return in, reported{errors.Join(in.Errs...)}
	}
	return in, nil
}

// changed prints the files that changed while the run read them
// (load.Inputs.Changed): their findings cannot be trusted, exit status 2.
func changed(in *load.Inputs, stderr io.Writer) error {
	errs := in.Changed()
	for _, e := range errs {
		fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
	}
	if len(errs) > 0 {
		return reported{errors.Join(errs...)}
	}
	return nil
}
