package analyzer

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Fingerprint identifies a finding across runs in a way that survives
// unrelated edits: the rule, the file, the object (group, kind, namespace,
// name) and the field path, never a line or column. A finding without an
// object (a syntax error) is identified by its message with the numbers
// taken out, so moving it to another line keeps it.
func Fingerprint(ws *workspace.Workspace, d Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Rule)
	b.WriteByte(0)
	if f := ws.FileOf(d.Pos); f != nil {
		b.WriteString(f.Path)
	}
	b.WriteByte(0)
	if o := d.Object; o != nil {
		b.WriteString(o.Group + "/" + o.Kind + "/" + o.Namespace + "/" + o.Name)
		b.WriteByte(0)
		field := d.Field
		if field == "" {
			field = withoutDigits(d.Message)
		}
		b.WriteString(field)
	} else {
		b.WriteString(withoutDigits(d.Message))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:12])
}

// withoutDigits drops the digits of a message, so "line 12" and a value
// that moved do not make a new identity.
func withoutDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, s)
}
