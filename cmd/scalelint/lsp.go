package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/scalelint/scalelint/lsp"
)

// stdio joins the process's standard input and output into the stream the
// language server speaks over.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "log to stderr at debug level (default: warnings and errors only)")
	logLevel := fs.String("log-level", "", "log level on stderr: off, error, warn, info or debug")
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "delay between an edit and the lint it triggers; 0 lints at once")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the session to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile to this file when the session ends")
	// Clients launching a server over stdio often pass these (the VS Code
	// client does): stdio is the only transport, and the server exits when
	// its input closes, so both are accepted and need nothing more.
	fs.Bool("stdio", false, "accepted and ignored: stdio is the only transport")
	fs.Int("clientProcessId", 0, "accepted and ignored: the server exits when its input closes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: scalelint lsp [flags]\n\nSpeak the Language Server Protocol on stdin/stdout. Logs go to stderr only.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitError
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	switch *logLevel {
	case "":
	case "off":
		level = slog.LevelError + 4
	case "error":
		level = slog.LevelError
	case "warn", "warning":
		level = slog.LevelWarn
	case "info":
		level = slog.LevelInfo
	case "debug":
		level = slog.LevelDebug
	default:
		fmt.Fprintf(stderr, "scalelint: --log-level must be off, error, warn, info or debug, not %q\n", *logLevel)
		return exitError
	}
	if *debounce < 0 {
		fmt.Fprintf(stderr, "scalelint: --debounce must be zero or more, not %s\n", *debounce)
		return exitError
	}
	stop, err := startProfiles(*cpuProfile, *memProfile)
	if err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	}
	defer func() { heapSnapshot(); stop() }()
	srv := lsp.NewServer(lsp.Options{Debounce: debounceOption(*debounce), LogLevel: level, Log: stderr, Version: versionString(), MemoryLimit: true})
	if stdin == nil {
		stdin = os.Stdin
	}
	// lsp.NewStream, not jsonrpc2's header framer: it refuses a declared
	// length it would have to allocate and recovers the framing after
	// garbage (lsp/abuse_test.go runs its cases against this binary).
	ok, err := srv.Serve(context.Background(), lsp.NewStream(stdio{stdin, stdout}))
	if err != nil {
		fmt.Fprintf(stderr, "scalelint lsp: %v\n", err)
	}
	if !ok {
		return exitFindings // the client exited without shutdown (LSP: exit code 1)
	}
	return exitOK
}

// debounceOption turns the --debounce flag into lsp.Options.Debounce,
// where zero means the default: the flag's zero means no delay.
func debounceOption(flag time.Duration) time.Duration {
	if flag == 0 {
		return -1
	}
	return flag
}
