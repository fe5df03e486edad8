package chart

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/scalelint/scalelint/analyzer/render"
)

// Helm's engine stops a render at the first template that fails
// (engine.render returns that template's error and no output), so one
// template that reads a value of a dependency not vendored would leave a
// chart of fifty templates unlinted, and its autoscalers with it. A value
// set whose render stops is rendered again without the template that
// stopped it, until the rest renders: each template Helm renders from the
// same values renders alike whether or not another fails (a template's
// output is its own; helpers are only parsed, and a template that stops is
// left out whole). Its objects are what helm template would print for it
// once the failing templates are mended, and the problems say which
// templates were left out and why.

// maxStopped bounds the renders one value set may cost: one more for each
// template that stops it. Past it (or past the render time limit, spent
// over all the renders) the value set is not linted, as before.
const maxStopped = 64

// stopped lists the templates that stop a value set's render, in the
// order the renders met them, with the error each stopped with.
type stopped struct {
	keys []string
	errs []error
}

func (s *stopped) has(key string) bool { return s != nil && slices.Contains(s.keys, key) }

// add records that key stopped a render with err (nil: it was skipped
// from the start, Options.Skip).
func (s *stopped) add(key string, err error) {
	s.keys = append(s.keys, key)
	s.errs = append(s.errs, err)
}

// stoppingTemplates renders the value set without markers, dropping each
// template the render stops at, until it renders. err is the first
// render's error. It reports false when the render cannot go on without a
// template: the error is not one template's (a helper's parse error, a
// limit), or it is the value set's (rendersAround).
func (c *Chart) stoppingTemplates(ctx context.Context, vs ValueSet, opts Options, err error, tpls map[string]*template, skip *stopped) (*stopped, bool) {
	s := &stopped{keys: slices.Clone(skip.keys), errs: slices.Clone(skip.errs)}
	start := time.Now()
	for err != nil {
		key := stoppedAt(err, tpls)
		if key == "" || !c.rendersAround(err, vs) || s.has(key) || len(s.keys) == maxStopped ||
			time.Since(start) > opts.Limits.Timeout || ctx.Err() != nil {
			return nil, false
		}
		s.add(key, err)
		// Afresh: a template may have changed the values it was given
		// (Helm's set on .Values) before it stopped.
		ch, top, perr := c.prepare(vs, opts)
		if perr != nil {
			return nil, false
		}
		c.walk(ch, nil, "", func(t *template, f *common.File) {
			if s.has(t.key) {
				f.Data = nil
			}
		})
		_, err = c.engineRender(ctx, ch, top, opts.Limits, nil)
	}
	return s, true
}

// rendersAny reports whether a template that renders objects is left
// when the stopped ones are left out: one not a helper, nor NOTES.txt.
func rendersAny(tpls map[string]*template, s *stopped) bool {
	for key := range tpls {
		base := path.Base(key)
		if !strings.HasPrefix(base, "_") && base != "NOTES.txt" && !s.has(key) {
			return true
		}
	}
	return false
}

// rendersAround reports whether a render that stopped with err goes on
// without the template: not when the value set is refused (Helm's
// required or fail, even inside an include: the chart wants values the
// set does not give), a limit was reached, or the chart has no
// values.yaml (its defaults do not render at all).
func (c *Chart) rendersAround(err error, vs ValueSet) bool {
	if _, ok := err.(*limitError); ok {
		return false
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	return !strings.Contains(msg, overLimit) && !strings.Contains(msg, requiredPrefix) && !c.noDefaults(vs)
}

// stoppedAt is the template a render stopped at: the first position the
// error names (Helm names the template it was executing first, then the
// helpers it included), when that is a template of the chart and not a
// helper (a file whose name starts with "_", which Helm only parses).
func stoppedAt(err error, tpls map[string]*template) string {
	for _, m := range errPos.FindAllStringSubmatch(err.Error(), -1) {
		if _, ok := tpls[m[1]]; !ok {
			continue
		}
		if strings.HasPrefix(path.Base(m[1]), "_") {
			return ""
		}
		return m[1]
	}
	return ""
}

// stoppedProblems makes one problem for each cause that stopped
// templates, saying which templates it stopped and were left out: the
// place the error names last (renderProblem's: the helper line many
// templates include), or, when that is each template's own line, what
// failed there (a helper of a dependency not vendored: backstage's
// templates each include common.names.fullname, which bitnami's common
// chart defines). The problem is placed where the first of them stopped.
func (c *Chart) stoppedProblems(s *stopped, vs ValueSet, tpls map[string]*template, chartFile string) []render.Problem {
	type cause struct{ rule, what string }
	var order []cause
	first := map[cause]render.Problem{}
	left := map[cause][]string{}
	for i, err := range s.errs {
		if err == nil {
			continue // skipped from the start: its base value set says why
		}
		p := c.renderProblem(err, vs, tpls, chartFile)
		k := cause{p.Rule, fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Col)}
		if t := tpls[s.keys[i]]; t != nil && p.Path == t.source {
			k.what = innermost(err.Error())
		}
		if _, ok := first[k]; !ok {
			order = append(order, k)
			first[k] = p
		}
		left[k] = append(left[k], tpls[s.keys[i]].display())
	}
	var out []render.Problem
	for _, k := range order {
		p := first[k]
		p.LeftOut = left[k]
		out = append(out, p)
	}
	return out
}

// innermost is what a render error says failed last: the text after the
// last include or tpl call it passed through, without its position.
func innermost(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	for _, call := range []string{"error calling include: ", "error calling tpl: "} {
		if i := strings.LastIndex(msg, call); i >= 0 {
			msg = msg[i+len(call):]
		}
	}
	return errPos.ReplaceAllString(msg, "")
}

// display names a template as a user finds it: its file, or for a
// packaged subchart its .tgz and its name in the engine.
func (t *template) display() string {
	if t.rel == "" {
		return t.source + " (" + t.key + ")"
	}
	return t.source
}
