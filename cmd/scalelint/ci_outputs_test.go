package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/tools/txtar"
	sigsyaml "sigs.k8s.io/yaml"
)

var (
	sarifSchemaOnce sync.Once
	sarifSchema     *jsonschema.Schema
	sarifSchemaErr  error
)

// validateSARIF validates a SARIF log against the official OASIS SARIF
// 2.1.0 JSON schema, vendored in testdata/sarif.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	sarifSchemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		sarifSchema, sarifSchemaErr = c.Compile(filepath.Join(repoRoot(t), "testdata", "sarif", "sarif-schema-2.1.0.json"))
	})
	if sarifSchemaErr != nil {
		t.Fatal(sarifSchemaErr)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sarifSchema.Validate(inst); err != nil {
		t.Errorf("SARIF does not validate against the 2.1.0 schema: %v", err)
	}
}

// TestSARIFOfEveryScriptValidates runs every CLI script that writes SARIF
// (to stdout or a file) and validates what it wrote against the schema.
func TestSARIFOfEveryScriptValidates(t *testing.T) {
	n := 0
	for _, path := range cliScripts(t) {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var cmd string
		for _, f := range ar.Files {
			if f.Name == "cmd" {
				cmd = string(f.Data)
			}
		}
		if !strings.Contains(cmd, "sarif") {
			continue
		}
		res := execScript(t, ar)
		words := splitWords(cmd)
		checked := false
		for i, w := range words {
			if w == "--output" && i+1 < len(words) && strings.HasSuffix(words[i+1], ".sarif") {
				data, err := os.ReadFile(filepath.Join(res.dir, words[i+1]))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				validateSARIF(t, data)
				checked = true
			}
		}
		if !checked && strings.Contains(res.stdout, `"version": "2.1.0"`) {
			validateSARIF(t, []byte(res.stdout))
			checked = true
		}
		if checked {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no CLI script writes SARIF")
	}
}

// TestOutputsCarryTheSameFindings runs one check with four outputs and
// compares the findings each carries: file, line, column and rule.
func TestOutputsCarryTheSameFindings(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "examples", "shop", "checkout", "hpa.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "hpa.yaml"), src, 0o644))
	dep, _ := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "examples", "shop", "checkout", "deployment.yaml"))
	must(t, os.WriteFile(filepath.Join(dir, "deployment.yaml"), dep, 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	cmd := exec.Command(binary, "check", "--format", "json", "--output", "out.json", "--format", "sarif", "--output", "out.sarif",
		"--format", "github", "--output", "out.github", "--format", "text", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	text, _ := cmd.Output()

	key := func(file string, line, col int, rule string) string {
		return file + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + " " + rule
	}
	var fromJSON, fromSARIF, fromGitHub, fromText []string
	var rep jsonOut
	data, _ := os.ReadFile(filepath.Join(dir, "out.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Diagnostics {
		fromJSON = append(fromJSON, key(d.File, d.Line, d.Column, d.Rule))
	}
	// The fields this test reads, decoded apart from the writer's types.
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, _ = os.ReadFile(filepath.Join(dir, "out.sarif"))
	validateSARIF(t, data)
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		fromSARIF = append(fromSARIF, key(l.ArtifactLocation.URI, l.Region.StartLine, l.Region.StartColumn, r.RuleID))
	}
	data, _ = os.ReadFile(filepath.Join(dir, "out.github"))
	ghRe := regexp.MustCompile(`^::\w+ file=([^,]+),line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+,title=([^:]+)::`)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		m := ghRe.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		fromGitHub = append(fromGitHub, key(m[1], l, c, m[4]))
	}
	textRe := regexp.MustCompile(`(?m)^(\S+):(\d+):(\d+): \w+: .* \[([a-z-]+)\]$`)
	for _, m := range textRe.FindAllStringSubmatch(string(text), -1) {
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		fromText = append(fromText, key(m[1], l, c, m[4]))
	}
	for _, s := range [][]string{fromJSON, fromSARIF, fromGitHub, fromText} {
		sort.Strings(s)
	}
	if len(fromJSON) == 0 {
		t.Fatal("no findings")
	}
	for name, got := range map[string][]string{"sarif": fromSARIF, "github": fromGitHub, "text": fromText} {
		if strings.Join(got, "\n") != strings.Join(fromJSON, "\n") {
			t.Errorf("%s findings differ from json:\n%s\nvs\n%s", name, strings.Join(got, "\n"), strings.Join(fromJSON, "\n"))
		}
	}
}

// TestConfigSchema checks the shipped JSON Schema of .scalelint.yaml is the
// generated one, that it accepts the example configurations and that it
// refuses unknown keys and severities.
func TestConfigSchema(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"schema"}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	path := filepath.Join(repoRoot(t), "analyzer", "config.schema.json")
	shipped, err := os.ReadFile(path)
	if *update {
		must(t, os.WriteFile(path, out.Bytes(), 0o644))
	} else if err != nil || !bytes.Equal(shipped, out.Bytes()) {
		t.Errorf("analyzer/config.schema.json is not the generated schema; run go test ./cmd/scalelint -run ConfigSchema -update")
	}
	// Descriptions are whole: a struct tag's description once lost
	// everything after its first comma.
	var top struct {
		Properties map[string]struct{ Description string } `json:"properties"`
	}
	if err := json.Unmarshal(out.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"rules": "off, info, warning or error, or a mapping", "exclude": "** across segments; a pattern"} {
		if !strings.Contains(top.Properties[key].Description, want) {
			t.Errorf("description of %s is cut: %q", key, top.Properties[key].Description)
		}
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.schema.json", mustJSON(t, out.Bytes())); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(yamlText string) error {
		j, err := sigsyaml.YAMLToJSON([]byte(yamlText))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(mustJSON(t, j))
	}
	example, _ := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "examples", "shop", ".scalelint.yaml"))
	for _, good := range []string{string(example),
		"rules:\n  latency-floor: {severity: warning, margin: 0.2}\n  tolerance-trap: off\ndefaults:\n  retries: \"2,2\"\n  pod-rate: 10\noverrides:\n- paths: [legacy/**]\n  rules: {retry-trap: info}\n",
		"infer:\n  controllers: [ingress-nginx, contour]\n"} {
		if err := validate(good); err != nil {
			t.Errorf("schema refuses a valid config: %v\n%s", err, good)
		}
	}
	for _, bad := range []string{"rulez: {}\n", "rules:\n  latency-floor: loud\n", "rules:\n  no-such-rule: error\n",
		"rules:\n  latency-floor: {margn: 1}\n", "defaults:\n  deadtime: 90s\n", "overrides:\n- rules: {}\n",
		"infer:\n  controllers: [nginx]\n", "infer: {controler: [kong]}\n", "infer:\n  controllers: [kong, kong]\n"} {
		if err := validate(bad); err == nil {
			t.Errorf("schema accepts an invalid config:\n%s", bad)
		}
	}
}

func mustJSON(t *testing.T, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
