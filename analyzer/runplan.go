package analyzer

import (
	"slices"
	"sync"
)

// runPlan is what RunWith derives from its list of rules alone: the rules
// by name, for stamping severities, and the names a suppression may cite.
// Its maps are only read once built, so runs may share it.
type runPlan struct {
	analyzers []*Analyzer // a copy of the list the plan is for
	byName    map[string]*Analyzer
	known     map[string]bool
	names     []string
	meta      map[string]*Analyzer // the suppression rules, for their findings' severity
}

func newRunPlan(analyzers []*Analyzer) *runPlan {
	p := &runPlan{analyzers: slices.Clone(analyzers), byName: map[string]*Analyzer{}, known: map[string]bool{}}
	for _, a := range analyzers {
		p.byName[a.Name] = a
	}
	for _, a := range analyzers {
		p.known[a.Name] = true
		p.names = append(p.names, a.Name)
	}
	if _, ok := p.byName[InvalidSuppression.Name]; !ok {
		p.known[InvalidSuppression.Name], p.known[UnusedSuppression.Name] = true, true
	}
	p.meta = map[string]*Analyzer{
		InvalidSuppression.Name: pick(p.byName, InvalidSuppression),
		UnusedSuppression.Name:  pick(p.byName, UnusedSuppression),
	}
	return p
}

// plans keeps the plans of the last few lists of rules run: the language
// server runs the same list at every edit, and its maps were a tenth of
// an edit's garbage. A list is matched by its elements, so a caller that
// builds a new list of the same rules shares the plan, and one that
// changes a list gets a new one.
var plans struct {
	mu   sync.Mutex
	last [4]*runPlan
	next int
}

func planFor(analyzers []*Analyzer) *runPlan {
	plans.mu.Lock()
	defer plans.mu.Unlock()
	for _, p := range plans.last {
		if p != nil && slices.Equal(p.analyzers, analyzers) {
			return p
		}
	}
	p := newRunPlan(analyzers)
	plans.last[plans.next] = p
	plans.next = (plans.next + 1) % len(plans.last)
	return p
}
