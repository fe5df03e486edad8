package output

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/scalelint/scalelint/rules/format"
)

// appendDiagnostic appends jd as json.Encoder with SetEscapeHTML(false)
// encodes it, compact and without the final newline: the fields in their
// order, the omitempty ones left out when empty, map keys sorted. It
// reads each field directly, where the encoder finds them by reflection,
// a third of the time of resolving and writing a finding
// (TestAppendDiagnosticAsEncoder compares the two). A string that needs
// an escape is encoded by e's encoder.
func (e *JSONEncoder) appendDiagnostic(b []byte, jd *JSONDiagnostic) ([]byte, error) {
	var err error
	b = append(b, `{"file":`...)
	b = e.appendString(b, jd.File)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(jd.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendInt(b, int64(jd.Column), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendInt(b, int64(jd.EndLine), 10)
	b = append(b, `,"endColumn":`...)
	b = strconv.AppendInt(b, int64(jd.EndColumn), 10)
	b = append(b, `,"severity":`...)
	b = e.appendString(b, jd.Severity)
	b = append(b, `,"rule":`...)
	b = e.appendString(b, jd.Rule)
	b = append(b, `,"message":`...)
	b = e.appendString(b, jd.Message)
	if o := jd.Object; o != nil {
		b = append(b, `,"object":{"apiVersion":`...)
		b = e.appendString(b, o.APIVersion)
		b = append(b, `,"kind":`...)
		b = e.appendString(b, o.Kind)
		b = append(b, `,"namespace":`...)
		b = e.appendString(b, o.Namespace)
		b = append(b, `,"name":`...)
		b = e.appendString(b, o.Name)
		b = append(b, '}')
	}
	if len(jd.Facts) > 0 {
		b = append(b, `,"facts":{`...)
		for i, k := range sortedKeys(jd.Facts) {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendString(b, k)
			b = append(b, ':')
			if b, err = appendFloat(b, jd.Facts[k]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if len(jd.Sources) > 0 {
		b = append(b, `,"sources":{`...)
		for i, k := range sortedKeys(jd.Sources) {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendString(b, k)
			s := jd.Sources[k]
			b = append(b, `:{"bound":`...)
			b = e.appendString(b, s.Bound)
			b = append(b, `,"origin":`...)
			b = e.appendString(b, s.Origin)
			if s.Text != "" {
				b = append(b, `,"source":`...)
				b = e.appendString(b, s.Text)
			}
			if s.File != "" {
				b = append(b, `,"file":`...)
				b = e.appendString(b, s.File)
			}
			if s.Line != 0 {
				b = append(b, `,"line":`...)
				b = strconv.AppendInt(b, int64(s.Line), 10)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	if jd.Source != "" {
		b = append(b, `,"source":`...)
		b = e.appendString(b, jd.Source)
	}
	if jd.Chart != "" {
		b = append(b, `,"chart":`...)
		b = e.appendString(b, jd.Chart)
	}
	if len(jd.ValueSets) > 0 {
		b = append(b, `,"valueSets":`...)
		b = e.appendStrings(b, jd.ValueSets)
	}
	if len(jd.Kustomizations) > 0 {
		b = append(b, `,"kustomizations":`...)
		b = e.appendStrings(b, jd.Kustomizations)
	}
	return append(b, '}'), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (e *JSONEncoder) appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.appendString(b, s)
	}
	return append(b, ']')
}

// appendString appends s quoted: printable ASCII as it is, a quote or a
// backslash after a backslash (what the encoder writes for them), and
// anything else (control characters, non-ASCII) as the encoder writes it.
func (e *JSONEncoder) appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			e.compact.Reset()
			e.enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(e.compact.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// appendFloat appends f as the encoder writes a json.Marshaler's output
// (compacted: format.Float writes no blank).
func appendFloat(b []byte, f format.Float) ([]byte, error) {
	m, err := f.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, m...), nil
}
