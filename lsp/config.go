package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/suggest"
	"github.com/scalelint/scalelint/rules"
)

// The editor's settings (initializationOptions, and the "scalelint"
// section of workspace/didChangeConfiguration) carry the keys of
// .scalelint.yaml, which override the file's, and a few keys of the
// server's own.
var (
	configKeys = []string{"rules", "defaults", "exclude", "namespace", "overrides"}
	serverKeys = []string{"logLevel", "debounceMs", "maxIndexedFiles", "maxIndexedBytes"}
)

// settings are the editor's settings, as last received.
type settings struct {
	config   []byte // the .scalelint.yaml keys, as a JSON object (JSON is YAML)
	logLevel *slog.Level
	debounce *time.Duration
	// maxIndexedFiles caps the files the workspace index reads (0: not
	// set, DefaultMaxIndexedFiles).
	maxIndexedFiles int
	maxIndexedBytes int64 // and the bytes (0: DefaultMaxIndexedBytes)
	unknown         []string
}

// parseSettings reads an LSPAny settings object. A {"scalelint": {...}}
// wrapper (how VS Code sends a section) is unwrapped.
func parseSettings(raw []byte) (settings, error) {
	var st settings
	raw = []byte(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return st, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return st, fmt.Errorf("settings must be a JSON object: %v", err)
	}
	if inner, ok := obj["scalelint"]; ok && len(obj) == 1 {
		if err := json.Unmarshal(inner, &obj); err != nil {
			return st, fmt.Errorf("settings.scalelint must be a JSON object: %v", err)
		}
	}
	cfg := map[string]json.RawMessage{}
	for k, v := range obj {
		switch {
		case hasString(configKeys, k):
			if string(v) != "null" {
				cfg[k] = v
			}
		case k == "logLevel":
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return st, fmt.Errorf("logLevel must be a string")
			}
			lv, err := parseLevel(s)
			if err != nil {
				return st, err
			}
			st.logLevel = &lv
		case k == "debounceMs":
			var ms float64
			if err := json.Unmarshal(v, &ms); err != nil || ms < 0 {
				return st, fmt.Errorf("debounceMs must be a number of milliseconds, zero or more")
			}
			d := time.Duration(ms * float64(time.Millisecond))
			st.debounce = &d
		case k == "maxIndexedFiles":
			var n float64
			if err := json.Unmarshal(v, &n); err != nil || n < 1 || n != float64(int(n)) {
				return st, fmt.Errorf("maxIndexedFiles must be a whole number of files, one or more")
			}
			st.maxIndexedFiles = int(n)
		case k == "maxIndexedBytes":
			var n float64
			if err := json.Unmarshal(v, &n); err != nil || n < 1 || n != float64(int64(n)) {
				return st, fmt.Errorf("maxIndexedBytes must be a whole number of bytes, one or more")
			}
			st.maxIndexedBytes = int64(n)
		default:
			st.unknown = append(st.unknown, k)
		}
	}
	sort.Strings(st.unknown)
	if len(cfg) > 0 {
		st.config, _ = json.Marshal(cfg)
	}
	return st, nil
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseLevel reads a log level: error, warn, info, debug, or off.
func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none":
		return slog.LevelError + 4, nil
	case "error":
		return slog.LevelError, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "info", "messages":
		return slog.LevelInfo, nil
	case "debug", "verbose", "trace":
		return slog.LevelDebug, nil
	}
	return 0, fmt.Errorf("logLevel must be off, error, warn, info or debug, not %q", s)
}

// config merges the settings' configuration keys over the file's
// configuration: rules and defaults key by key, excludes and overrides
// appended, the namespace replaced. On an error in the settings it
// returns the file's configuration and the error.
func (st settings) merge(file *analyzer.Config, dir string) (*analyzer.Config, error) {
	if len(st.config) == 0 {
		return file, nil
	}
	over, err := analyzer.ParseConfig("settings", st.config, rules.All())
	if err != nil {
		return file, err
	}
	out := *file
	if out.Dir == "" || file.Path == "" {
		out.Dir = dir
	}
	out.Rules = map[string]analyzer.RuleConfig{}
	for k, v := range file.Rules {
		out.Rules[k] = v
	}
	for k, v := range over.Rules {
		out.Rules[k] = v
	}
	out.Defaults = scaling.Inputs{}
	for k, v := range file.Defaults {
		out.Defaults[k] = v
	}
	for k, v := range over.Defaults {
		out.Defaults[k] = v
	}
	out.Exclude = append(append([]string(nil), file.Exclude...), over.Exclude...)
	if over.Namespace != "" {
		out.Namespace = over.Namespace
	}
	out.Overrides = append(append([]analyzer.Override(nil), file.Overrides...), over.Overrides...)
	return &out, nil
}

// mergeAll merges the settings over a configuration and over each
// configuration file it scopes (analyzer.Config.Scoped): the editor's
// settings apply whichever file governs a document.
func (st settings) mergeAll(cfg *analyzer.Config, dir string) (*analyzer.Config, error) {
	base, err := st.merge(cfg, dir)
	if err != nil {
		return cfg, err
	}
	var scoped []*analyzer.Config
	for _, c := range cfg.ScopedConfigs() {
		m, _ := st.merge(c, dir) // the same settings: no error the base had not
		scoped = append(scoped, m)
	}
	return base.Scoped(scoped), nil
}

// takeSettingsLocked takes new settings: the log level and the debounce
// at once. It reports whether the configuration keys changed (the caller
// then reconfigures).
func (s *Server) takeSettingsLocked(st settings) bool {
	for _, k := range st.unknown {
		msg := fmt.Sprintf("unknown setting %q ignored", k)
		if c := suggest.Closest(k, append(append([]string(nil), configKeys...), serverKeys...)); c != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", c)
		}
		s.log.Warn(msg)
	}
	if st.debounce != nil {
		s.debounce = *st.debounce
		if s.debounce == 0 {
			s.debounce = -1
		}
	}
	changed := string(s.settings.config) != string(st.config)
	if st.logLevel == nil {
		st.logLevel = s.settings.logLevel // a change without logLevel keeps it
	}
	if st.maxIndexedFiles == 0 {
		st.maxIndexedFiles = s.settings.maxIndexedFiles // and one without the caps
	}
	if st.maxIndexedBytes == 0 {
		st.maxIndexedBytes = s.settings.maxIndexedBytes
	}
	s.settings = st
	s.applyLogLevelLocked()
	return changed
}

// applyLogLevelLocked sets the log level: the logLevel setting when there
// is one, else the command line's; then as verbose as the client's trace
// asks, if that is more. A setting can make the server quieter again.
func (s *Server) applyLogLevelLocked() {
	level := s.opts.LogLevel
	if s.settings.logLevel != nil {
		level = *s.settings.logLevel
	}
	if s.traceLevel != nil && *s.traceLevel < level {
		level = *s.traceLevel
	}
	s.logLevel.Set(level)
}

// applySettingsLocked takes new settings and, when their configuration
// keys changed, reconfigures (re-indexing when the excludes changed).
func (s *Server) applySettingsLocked(ctx context.Context, st settings) {
	prevFiles, prevBytes := s.settings.maxIndexedFiles, s.settings.maxIndexedBytes
	changed := s.takeSettingsLocked(st)
	if reindex := s.settings.maxIndexedFiles != prevFiles || s.settings.maxIndexedBytes != prevBytes; changed || reindex {
		s.reconfigureLocked(ctx, reindex)
	}
}

// DidChangeConfiguration takes new settings. When the client sends none
// (the pull model), the server asks for the "scalelint" section.
func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	raw := []byte(params.Settings)
	st, err := parseSettings(raw)
	if err != nil {
		s.showMessage(ctx, protocol.MessageTypeError, "scalelint: %v", err)
		return nil
	}
	if len(st.config) == 0 && st.logLevel == nil && st.debounce == nil && st.maxIndexedFiles == 0 && st.maxIndexedBytes == 0 && len(st.unknown) == 0 {
		s.mu.Lock()
		pull := s.caps.configuration
		s.mu.Unlock()
		if pull {
			go s.pullConfiguration(context.WithoutCancel(ctx))
			return nil
		}
	}
	s.mu.Lock()
	s.applySettingsLocked(ctx, st)
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

// pullConfiguration asks the client for the "scalelint" section
// (workspace/configuration) and applies it.
func (s *Server) pullConfiguration(ctx context.Context) {
	section := "scalelint"
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}})
	if err != nil || len(res) == 0 {
		s.log.Debug("workspace/configuration", "err", err)
		return
	}
	st, err := parseSettings([]byte(res[0]))
	if err != nil {
		s.showMessage(ctx, protocol.MessageTypeError, "scalelint: %v", err)
		return
	}
	s.mu.Lock()
	s.applySettingsLocked(ctx, st)
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.scheduleLint(snap)
}
