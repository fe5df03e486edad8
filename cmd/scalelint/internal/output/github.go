package output

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

// GitHub prints GitHub Actions workflow commands, one annotation per
// finding:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE::message
//
// escaped as the runner expects (actions/toolkit, command.ts).
type GitHub struct{}

func (GitHub) Print(w io.Writer, r *report.Report) error {
	// Each finding is resolved and written out on one of the cores, and
	// the outputs written in order (report.Render).
	return r.Render(report.ShownFindings, w, func() report.Renderer {
		return func(_ int, f *report.Finding, w *bytes.Buffer) error {
			d, l := f.Diagnostic, f.Location
			level := "notice"
			switch d.Severity {
			case analyzer.Error:
				level = "error"
			case analyzer.Warning:
				level = "warning"
			}
			_, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
				escapeProperty(l.File), l.Line, l.Col, l.EndLine, l.EndCol, escapeProperty(d.Rule), escapeData(term.Clean(d.Message)))
			return err
		}
	})
}

// escapeData escapes a command's message: %, \r and \n.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a command property: also : and ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
