package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
)

// A repository's CI says with what values it lints, renders or deploys
// its charts: `helm lint charts/web -f charts/web/values.lint.yaml` in a
// GitHub Actions workflow, `helm upgrade --install web ./chart -f
// deploy/prod.yaml -n prod` in a GitLab job. Each such command of a local
// chart is one more value set of the chart (a release, as a GitOps
// object's is), named after the file and line of the command, with its
// values files, --set values, release name and namespace. A command is
// read only when every word of it is known: one with a shell variable, a
// CI expression (${{ }}), a command substitution or a flag scalelint does
// not know is passed over, as is a values file the repository does not
// hold (CI may write it first) and a chart from a repository.

// IsCIFileName reports whether a path names a CI file whose helm commands
// are read: a GitHub Actions workflow (.github/workflows/*.yml or .yaml)
// or a GitLab CI file (.gitlab-ci.yml).
func IsCIFileName(p string) bool {
	// Asked of every path of a workspace at each edit in the language
	// server: the substring test rejects almost all first (11 ns against
	// 114 for the path's parts).
	if !strings.Contains(p, "workflows") && !strings.HasSuffix(p, ".gitlab-ci.yml") {
		return false
	}
	p = filepath.ToSlash(p)
	base := filepath.Base(p)
	if base == ".gitlab-ci.yml" {
		return true
	}
	ext := filepath.Ext(base)
	return (ext == ".yml" || ext == ".yaml") && strings.HasSuffix(filepath.Dir(p), ".github/workflows")
}

// ListsReleases reports whether a path names a file that may release a
// local chart with values of its own outside the GitOps objects: a
// helmfile, a CI file.
func ListsReleases(p string) bool { return IsHelmfileName(p) || IsCIFileName(p) }

// ciReleases reads the helm commands of a CI file that render a chart of
// charts (by absolute directory, to the unit's Dir) with values of their
// own (ciScript). It returns the file's bytes.
func ciReleases(file string, charts map[string]string, read func(string) ([]byte, error)) ([]release, []render.Problem, []byte) {
	data, err := read(file)
	if err != nil {
		return nil, nil, nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, nil, data
	}
	// Commands run at the repository's root: the directory above
	// .github, or the one holding .gitlab-ci.yml.
	root := filepath.Dir(file)
	if IsCIFileName(file) && filepath.Base(file) != ".gitlab-ci.yml" {
		root = filepath.Dir(filepath.Dir(root))
	}
	name := filepath.ToSlash(file)
	var rels []release
	seen := map[string]bool{}
	for _, s := range ciScripts(doc.Content[0], "") {
		for _, rel := range ciScript(name, s, filepath.Join(root, filepath.FromSlash(s.dir)), charts) {
			key := fmt.Sprint(rel.dir, rel.set.Files, rel.set.Set, rel.opts)
			if !seen[key] {
				seen[key] = true
				rels = append(rels, rel)
			}
		}
	}
	return rels, nil, data
}

// script is the text of a step's shell commands: where it is in the file
// and the directory it runs in, below the repository's root.
type script struct {
	text string
	line int // of its first line
	dir  string
}

// ciScripts finds the shell scripts of a CI file: a GitHub step's run
// (in its working-directory, or the job's or workflow's defaults.run
// working-directory), a GitLab job's script, before_script and
// after_script (one command per item).
func ciScripts(n *yaml.Node, dir string) []script {
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.SequenceNode {
			var out []script
			for _, c := range n.Content {
				out = append(out, ciScripts(c, dir)...)
			}
			return out
		}
		return nil
	}
	if d, ok := scalarAt(n, "defaults.run.working-directory"); ok {
		dir = d
	}
	if d, ok := scalarAt(n, "working-directory"); ok {
		dir = d
	}
	var out []script
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch {
		case k == "run" && v.Kind == yaml.ScalarNode:
			out = append(out, script{text: v.Value, line: scriptLine(v), dir: dir})
		case k == "script" || k == "before_script" || k == "after_script":
			items := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				items = v.Content
			}
			for _, it := range items {
				if it.Kind == yaml.ScalarNode {
					out = append(out, script{text: it.Value, line: scriptLine(it), dir: dir})
				}
			}
		default:
			out = append(out, ciScripts(v, dir)...)
		}
	}
	return out
}

// scriptLine is the line a scalar's text starts on: a block scalar's
// text starts below its indicator.
func scriptLine(v *yaml.Node) int {
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return v.Line + 1
	}
	return v.Line
}

// ciScript returns the releases of a script's helm commands, run in dir
// (a path on disk), following the cd commands before them.
func ciScript(file string, s script, dir string, charts map[string]string) []release {
	var out []release
	lines := strings.Split(s.text, "\n")
	for i := 0; i < len(lines); i++ {
		line, at := lines[i], s.line+i
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + lines[i]
		}
		words, ok := shellWords(line)
		if !ok {
			continue
		}
		for _, cmd := range commands(words) {
			switch {
			case len(cmd) == 2 && cmd[0] == "cd" && known(cmd[1]):
				dir = filepath.Join(dir, cmd[1])
			case len(cmd) > 0 && cmd[0] == "cd":
				return out // a directory scalelint cannot follow
			case len(cmd) > 2 && filepath.Base(cmd[0]) == "helm":
				if rel, ok := helmCommand(file, at, cmd, dir, charts); ok {
					out = append(out, rel)
				}
			}
		}
	}
	return out
}

// known reports whether a word is the text itself: no expansion the shell
// or the CI would make first.
func known(w string) bool { return !strings.ContainsAny(w, "$`*?~") }

// commands splits a line's words at the shell's command separators.
func commands(words []string) [][]string {
	var out [][]string
	var cur []string
	for _, w := range words {
		switch w {
		case "&&", "||", ";", "|":
			out = append(out, cur)
			cur = nil
		default:
			cur = append(cur, w)
		}
	}
	return append(out, cur)
}

// shellWords splits a line into words as the shell would, without
// expansions: single and double quotes, backslash escapes, and the
// separators &&, ||, ; and | as words of their own. A comment ends the
// line. It reports false for a line it cannot split (an open quote, a
// redirection or subshell it does not follow).
func shellWords(line string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	in := false // a word is open
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '#' && !in:
			flush()
			return words, true
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(line[i+1 : i+1+j])
			in, i = true, i+1+j
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
			}
			if j >= len(line) {
				return nil, false
			}
			// Inside double quotes the shell expands $ and `: keep them
			// so that known() sees them.
			cur.WriteString(strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(line[i+1 : j]))
			in, i = true, j
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1])
			in, i = true, i+1
		case c == '&' || c == '|' || c == ';':
			flush()
			op := string(c)
			switch {
			case c != ';' && i+1 < len(line) && line[i+1] == c:
				op += op // && or ||
				i++
			case c == '&':
				return nil, false // a background job
			}
			words = append(words, op)
		case c == '<' || c == '>' || c == '(' || c == ')':
			if c == '>' {
				// Output redirected: the command's words end here.
				flush()
				return words, true
			}
			return nil, false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	flush()
	return words, true
}

// Helm's flags, as helm lint, template, install and upgrade take them: the
// ones that take a value (valueFlags), and the switches (boolFlags, which
// may also be written --flag=true). A command with any other flag is not
// read: which of its words are the chart and the release is not certain.
var (
	valueFlags = []string{"-f", "--values", "--set", "-n", "--namespace", "--version", "--kube-version",
		"-a", "--api-versions", "--repo", "--timeout", "--post-renderer", "--post-renderer-args",
		"--kube-context", "--kubeconfig", "-o", "--output", "--name-template", "-s", "--show-only",
		"--output-dir", "--description", "--history-max", "--label", "-l", "--labels", "--ca-file",
		"--cert-file", "--key-file", "--keyring", "--username", "--password", "--registry-config",
		"--repository-cache", "--repository-config", "--burst-limit", "--qps", "--kube-apiserver",
		"--kube-as-user", "--kube-as-group", "--kube-ca-file", "--kube-token", "--kube-tls-server-name",
		"--set-string", "--set-json", "--set-file", "--set-literal"}
	boolFlags = []string{"-i", "--install", "--atomic", "--wait", "--wait-for-jobs", "--create-namespace",
		"--dry-run", "--debug", "--devel", "--dependency-update", "--disable-openapi-validation", "--force",
		"--no-hooks", "--reset-values", "--reuse-values", "--reset-then-reuse-values", "--skip-crds",
		"--include-crds", "--skip-tests", "--validate", "--verify", "--render-subchart-notes",
		"--generate-name", "-g", "--replace", "--strict", "--with-subcharts", "--quiet", "--cleanup-on-fail",
		"--insecure-skip-tls-verify", "--plain-http", "--pass-credentials", "--enable-dns",
		"--take-ownership", "--hide-notes", "--hide-secret", "--rollback-on-failure", "--skip-schema-validation",
		"--release-name", "--is-upgrade", "--server-side", "--force-conflicts", "--force-replace"}
)

// helmCommand reads one helm command (words, the first "helm") run in dir:
// lint CHART..., template [NAME] CHART, install NAME CHART (or CHART with
// --generate-name), upgrade NAME CHART. It makes a release when the
// chart is one of charts and the command gives values of its own (the
// defaults are rendered anyway); a lint of several charts is not read.
func helmCommand(file string, line int, words []string, dir string, charts map[string]string) (release, bool) {
	sub := words[1]
	if !slices.Contains([]string{"lint", "template", "install", "upgrade"}, sub) {
		return release{}, false
	}
	var pos, files, sets []string
	var rel release
	for i := 2; i < len(words); i++ {
		w := words[i]
		if !known(w) {
			return release{}, false
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			pos = append(pos, w)
			continue
		}
		flag, value, hasValue := strings.Cut(w, "=")
		if !hasValue && len(flag) > 2 && flag[1] != '-' && slices.Contains(valueFlags, flag[:2]) {
			flag, value, hasValue = flag[:2], flag[2:], true // -fvalues.yaml
		}
		switch {
		case slices.Contains(boolFlags, flag):
			continue
		case !slices.Contains(valueFlags, flag):
			return release{}, false
		case !hasValue:
			if i+1 >= len(words) || !known(words[i+1]) {
				return release{}, false
			}
			i++
			value = words[i]
		}
		switch flag {
		case "-f", "--values":
			for _, f := range strings.Split(value, ",") {
				if strings.Contains(f, "://") {
					return release{}, false
				}
				p := filepath.Join(dir, f)
				if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
					return release{}, false
				}
				files = append(files, p)
			}
		case "--set":
			sets = append(sets, value)
		case "--set-string", "--set-json", "--set-file", "--set-literal":
			return release{}, false // values helm types otherwise than --set
		case "-n", "--namespace":
			rel.opts.Namespace = value
		case "--kube-version":
			rel.opts.KubeVersion = value
		case "-a", "--api-versions":
			rel.opts.APIVersions = append(rel.opts.APIVersions, strings.Split(value, ",")...)
		case "--repo":
			return release{}, false // a chart from a repository
		}
	}
	if len(files) == 0 && len(sets) == 0 {
		return release{}, false
	}
	var chartArg string
	switch {
	case sub == "lint" && len(pos) == 1:
		chartArg = pos[0]
	case (sub == "template" || sub == "install") && len(pos) == 1:
		chartArg = pos[0]
	case sub != "lint" && len(pos) == 2:
		rel.opts.ReleaseName, chartArg = pos[0], pos[1]
	default:
		return release{}, false
	}
	abs, err := filepath.Abs(filepath.Join(dir, chartArg))
	if err != nil || charts[abs] == "" {
		return release{}, false
	}
	rel.dir = charts[abs]
	rel.set = chart.ValueSet{Name: fmt.Sprintf("%s:%d helm %s", file, line, sub), Files: files, Set: sets}
	return rel, true
}
