package analyzer

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// unusedExportsAllowed are exported names that no production code of the
// module uses yet, each with the reason it stays. Keep it short: an entry
// is a debt with a date of payment.
var unusedExportsAllowed = map[string]string{
	// Called by reflection: invopop/jsonschema asks a type for its schema
	// through an unexported interface.
	"github.com/scalelint/scalelint/analyzer.RuleSetting.JSONSchema": "called by invopop/jsonschema",
}

// TestExportsUsed: every exported name a library package of the module
// declares (a package-level function, variable, constant or type, or a
// method of an exported type) is used by production code of the module (a
// file that is not a _test.go file, in any package, main included), or is
// a method that implements an interface. An exported name used nowhere is
// dead API; one used only by tests is test code in a production file (it
// belongs in a _test.go file). Struct fields are not checked
// (encoding/json and templates use them by name), nor are the packages
// whose API is for tests, named as go/analysis's analysistest and the
// standard library's httptest and fstest are (analyzertest, rendertest).
func TestExportsUsed(t *testing.T) {
	mod := loadModule(t)
	decls := map[string]token.Position{}
	used := map[string]bool{}
	var methods []*types.Func
	for _, p := range mod.pkgs {
		for id, obj := range p.info.Defs {
			if obj == nil || !id.IsExported() || p.types.Name() == "main" || isTestSupport(p.types.Path()) {
				continue
			}
			if k := exportKey(obj); k != "" {
				decls[k] = mod.fset.Position(id.Pos())
				if f, ok := obj.(*types.Func); ok && f.Signature().Recv() != nil {
					methods = append(methods, f)
				}
			}
		}
		for _, obj := range p.info.Uses {
			if k := exportKey(obj); k != "" {
				used[k] = true
			}
		}
	}
	ifaces := mod.interfaces()
	var unused []string
	for k, pos := range decls {
		if used[k] || unusedExportsAllowed[k] != "" {
			continue
		}
		unused = append(unused, pos.String()+": "+strings.TrimPrefix(k, "github.com/scalelint/scalelint/"))
	}
	for _, m := range methods {
		k := exportKey(m)
		if used[k] || unusedExportsAllowed[k] != "" {
			continue
		}
		if implementsWith(m, ifaces) {
			for i, u := range unused {
				if strings.HasSuffix(u, ": "+strings.TrimPrefix(k, "github.com/scalelint/scalelint/")) {
					unused = append(unused[:i], unused[i+1:]...)
					break
				}
			}
		}
	}
	sort.Strings(unused)
	for _, u := range unused {
		t.Errorf("%s: exported and used by no production code (dead, or test code in a production file)", u)
	}
	for k := range unusedExportsAllowed {
		if _, ok := decls[k]; !ok {
			t.Errorf("unusedExportsAllowed lists %s, which is not declared", k)
		} else if used[k] {
			t.Errorf("unusedExportsAllowed lists %s, which is used now: remove the entry", k)
		}
	}
}

// exportKey names a package-level object or a method across type
// checks: "path.Name" or "path.Type.Method"; "" for anything else
// (locals, fields, objects of other modules).
func exportKey(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil || !strings.HasPrefix(obj.Pkg().Path(), "github.com/scalelint/scalelint/") {
		return ""
	}
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		if recv := o.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			n, ok := t.(*types.Named)
			if !ok || !n.Obj().Exported() {
				return "" // an interface's method, or one of an unexported type
			}
			return o.Pkg().Path() + "." + n.Origin().Obj().Name() + "." + o.Name()
		}
	case *types.Var:
		if o.IsField() {
			return ""
		}
	case *types.Const, *types.TypeName:
	default:
		return ""
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// implementsWith reports whether m's receiver type (or a pointer to it)
// implements one of ifaces that has a method of m's name: a method called
// through an interface (String, Error, Pos, a protocol handler) has no
// direct use.
func implementsWith(m *types.Func, ifaces []*types.Interface) bool {
	recv := m.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	for _, it := range ifaces {
		for i := 0; i < it.NumMethods(); i++ {
			if it.Method(i).Name() != m.Name() {
				continue
			}
			if types.Implements(recv, it) || types.Implements(types.NewPointer(recv), it) {
				return true
			}
		}
	}
	return false
}

type checkedPackage struct {
	types *types.Package
	info  *types.Info
}

type module struct {
	fset     *token.FileSet
	pkgs     []checkedPackage
	imported map[string]*types.Package // what the importer loaded, by path
}

// loadModule type-checks the non-test files of every package of the module
// from source, with every import read from the compiler's export data
// (go list -export).
func loadModule(t *testing.T) *module {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Name,Dir,GoFiles,Export,Module,Error", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	type listed struct {
		ImportPath, Name, Dir, Export string
		GoFiles                       []string
		Module                        *struct{ Path string }
		Error                         *struct{ Err string }
	}
	var own []listed
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		if p.Module != nil && p.Module.Path == "github.com/scalelint/scalelint" {
			own = append(own, p)
		}
	}
	m := &module{fset: token.NewFileSet(), imported: map[string]*types.Package{}}
	imp := importer.ForCompiler(m.fset, "gc", func(path string) (io.ReadCloser, error) {
		if f := exports[path]; f != "" {
			return os.Open(f)
		}
		return nil, errors.New("no export data for " + path)
	}).(types.ImporterFrom)
	recording := importerFunc(func(path string) (*types.Package, error) {
		p, err := imp.Import(path)
		if err == nil {
			m.imported[path] = p
		}
		return p, err
	})
	for _, p := range own {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(m.fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: recording}
		tp, err := conf.Check(p.ImportPath, m.fset, files, info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		m.pkgs = append(m.pkgs, checkedPackage{tp, info})
	}
	return m
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// interfaces returns every interface type the module's code can satisfy:
// error, those written in the module's packages (named or literal), and
// the package-level ones of every package they import, directly or not.
func (m *module) interfaces() []*types.Interface {
	out := []*types.Interface{types.Universe.Lookup("error").Type().Underlying().(*types.Interface)}
	add := func(t types.Type) {
		if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			out = append(out, it)
		}
	}
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
				add(tn.Type())
			}
		}
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	for _, p := range m.imported {
		walk(p)
	}
	for _, p := range m.pkgs {
		for _, obj := range p.info.Defs {
			if tn, ok := obj.(*types.TypeName); ok {
				add(tn.Type())
			}
		}
		for _, tv := range p.info.Types {
			if tv.Type != nil {
				add(tv.Type)
			}
		}
	}
	return out
}

// isTestSupport reports whether the package at path serves tests only:
// its name ends in "test", as analysistest's and httptest's do.
func isTestSupport(path string) bool {
	return strings.HasSuffix(path[strings.LastIndex(path, "/")+1:], "test")
}
