package output

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules"
)

// SARIF writes a SARIF 2.1.0 (OASIS) log, for GitHub code scanning and
// other viewers. Columns are Unicode code points and the run says so
// (columnKind); every result is located at its field; suppressed and
// baselined findings are listed with their suppression.
type SARIF struct {
	Version string // scalelint's, for the tool's driver
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                    `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc  `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                       `json:"columnKind"`
	Results            []sarifResult                `json:"results"`
	Invocations        []map[string]bool            `json:"invocations"`
	Properties         map[string]map[string]string `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifText         `json:"help"`
	HelpURI              string            `json:"helpUri"`
	DefaultConfiguration map[string]string `json:"defaultConfiguration"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifLocation struct {
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	Message          *sarifText     `json:"message,omitempty"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

type sarifChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifFix struct {
	Description     sarifText     `json:"description"`
	ArtifactChanges []sarifChange `json:"artifactChanges"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Properties          map[string]any     `json:"properties,omitempty"`
}

func sarifLevel(s analyzer.Severity) string {
	switch s {
	case analyzer.Error:
		return "error"
	case analyzer.Warning:
		return "warning"
	}
	return "note"
}

// sarifURI turns a file path into a URI reference: relative paths stay
// relative to %SRCROOT% (the working directory), absolute ones become file
// URIs; the path is cleaned ("sub/../a.yaml" is "a.yaml"), and every
// segment is escaped. A colon in the first segment of a relative
// reference is escaped too: "C:evil.yaml" would read as a URI of scheme
// "c" (RFC 3986 §4.2).
func sarifURI(p string) sarifArtifactLoc {
	slash := filepath.ToSlash(filepath.Clean(p))
	if filepath.IsAbs(p) {
		if !strings.HasPrefix(slash, "/") {
			slash = "/" + slash // a drive letter: file:///C:/x
		}
		u := url.URL{Scheme: "file", Path: slash}
		return sarifArtifactLoc{URI: u.String()}
	}
	parts := strings.Split(slash, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	parts[0] = strings.ReplaceAll(parts[0], ":", "%3A")
	return sarifArtifactLoc{URI: strings.Join(parts, "/"), URIBaseID: "%SRCROOT%"}
}

func (p SARIF) Print(w io.Writer, r *report.Report) error {
	all := rules.All()
	index := map[string]int{}
	var srules []sarifRule
	for i, a := range all {
		index[a.Name] = i
		srules = append(srules, sarifRule{
			ID:                   a.Name,
			ShortDescription:     sarifText{Text: a.Doc.Title},
			FullDescription:      sarifText{Text: a.Doc.What},
			Help:                 sarifText{Text: a.Doc.Text(a.Name, a.Severity), Markdown: a.Doc.Markdown(a.Name, a.Severity)},
			HelpURI:              a.URL,
			DefaultConfiguration: map[string]string{"level": sarifLevel(a.Severity)},
		})
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "scalelint", Version: p.Version, InformationURI: "https://github.com/scalelint/scalelint", Rules: srules}},
		ColumnKind:  "unicodeCodePoints",
		Results:     []sarifResult{},
		Invocations: []map[string]bool{{"executionSuccessful": true}},
	}
	if wd, err := os.Getwd(); err == nil {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(wd) + "/"}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{"%SRCROOT%": {URI: u.String()}}
	}
	region := func(l report.Location) sarifRegion {
		return sarifRegion{StartLine: l.Line, StartColumn: l.Col, EndLine: l.EndLine, EndColumn: l.EndCol}
	}
	r.Each(report.AllFindings, func(f *report.Finding) error {
		d, l := f.Diagnostic, f.Location
		res := sarifResult{
			RuleID:              d.Rule,
			RuleIndex:           index[d.Rule],
			Level:               sarifLevel(d.Severity),
			Message:             sarifText{Text: d.Message},
			PartialFingerprints: map[string]string{"scalelint/v1": r.Fingerprint(d)},
		}
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifURI(l.File), Region: region(l)}}
		if o := f.Object; o != nil {
			loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: o.APIVersion + "/" + o.Kind + "/" + o.Namespace + "/" + o.Name, Kind: "object"}}
		}
		res.Locations = []sarifLocation{loc}
		for i, n := range f.Notes {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, Message: &sarifText{Text: n.Message},
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifURI(n.Location.File), Region: region(n.Location)}})
		}
		for _, fix := range f.Fixes {
			sf := sarifFix{Description: sarifText{Text: fix.Message}}
			byFile := map[string]*sarifChange{}
			var order []string
			for _, e := range fix.Edits {
				c, ok := byFile[e.Location.File]
				if !ok {
					c = &sarifChange{ArtifactLocation: sarifURI(e.Location.File)}
					byFile[e.Location.File] = c
					order = append(order, e.Location.File)
				}
				rep := sarifReplacement{DeletedRegion: region(e.Location)}
				if e.NewText != "" {
					rep.InsertedContent = &sarifText{Text: e.NewText}
				}
				c.Replacements = append(c.Replacements, rep)
			}
			for _, file := range order {
				sf.ArtifactChanges = append(sf.ArtifactChanges, *byFile[file])
			}
			if len(sf.ArtifactChanges) > 0 {
				res.Fixes = append(res.Fixes, sf)
			}
		}
		if s := d.Suppression; s != nil {
			kind := "inSource"
			if s.Kind == "baseline" {
				kind = "external"
				res.BaselineState = "unchanged"
			}
			res.Suppressions = []sarifSuppression{{Kind: kind, Justification: s.Justification}}
		} else if r.Baseline != nil {
			res.BaselineState = "new"
		}
		props := map[string]any{}
		if f := roundFacts(d.Facts); len(f) > 0 {
			props["facts"] = f
		}
		if len(f.Sources) > 0 {
			props["sources"] = f.Sources
		}
		if l.Source != "" {
			props["source"] = l.Source
		}
		if len(props) > 0 {
			res.Properties = props
		}
		run.Results = append(run.Results, res)
		return nil
	})
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
