package simulate

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWriteCSV(t *testing.T) {
	c := Kit(1)
	c.Hours = 1
	c.SampleEvery = 15e9
	r := mustRun(t, c)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "t_s,pods,consuming,backlog,desired" {
		t.Errorf("header %q", got)
	}
	if len(recs) != len(r.Samples)+1 {
		t.Fatalf("%d rows for %d samples", len(recs)-1, len(r.Samples))
	}
	// t = 15 s: 10 pods ordered at 1 s, 5 consuming, backlog 50 + 150·15.
	if got := strings.Join(recs[2], ","); got != "15,10,5,2300,20" {
		t.Errorf("row at 15 s: %q", got)
	}
	if err := WriteCSV(failWriter{}, r); err == nil {
		t.Error("a failing writer should return an error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("boom") }

// checkXML parses the SVG fully and returns its element names.
func checkXML(t *testing.T, b []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	names := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			names[se.Name.Local]++
		}
	}
	return names
}

func TestWriteSVG(t *testing.T) {
	r := mustRun(t, Kit(60))
	var buf bytes.Buffer
	if err := WriteSVG(&buf, r, 20); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	names := checkXML(t, buf.Bytes())
	if names["svg"] != 1 || names["polyline"] != 6 {
		t.Errorf("want one svg and three series in each of two panels, got %v", names)
	}
	for _, want := range []string{
		"first hour after the step", "last hour", "need 20", "pods", "backlog (messages)",
		"0:10", "19:10", "20:00", "hunts", `stroke-dasharray="6 4"`, "legacy normaliser, window 5m0s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Error("SVG contains NaN or Inf coordinates")
	}

	// need ≤ 0 takes the summary's; a behaviour title is escaped.
	c := Kit(150)
	c.Behavior = DownWindow(60)
	c.Hours = 1
	r = mustRun(t, c)
	buf.Reset()
	if err := WriteSVG(&buf, r, -1); err != nil {
		t.Fatal(err)
	}
	checkXML(t, buf.Bytes())
	if !strings.Contains(buf.String(), "need 20") || !strings.Contains(buf.String(), "scale-down window 60s") {
		t.Error("SVG lacks the need from the summary or the behaviour window")
	}

	// An empty result still draws valid XML.
	buf.Reset()
	if err := WriteSVG(&buf, Result{}, 0); err != nil {
		t.Fatal(err)
	}
	checkXML(t, buf.Bytes())
	if err := WriteSVG(failWriter{}, r, 0); err == nil {
		t.Error("a failing writer should return an error")
	}
}

func TestSparkline(t *testing.T) {
	for _, tc := range []struct {
		v     []float64
		width int
		want  string
	}{
		{nil, 10, ""},
		{[]float64{1, 2}, 0, ""},
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{[]float64{0, 7}, 8, "▁█"},
		{[]float64{3, 3, 3}, 5, "▅▅▅"},
		{[]float64{0, 0, 7, 7}, 2, "▁█"},
		{[]float64{0, 7, 0, 7, 0, 7}, 3, "▅▅▅"},
		{[]float64{0, nan(), 7}, 3, "▁ █"},
	} {
		if got := SparklineRange(tc.v, tc.width, nan(), nan()); got != tc.want {
			t.Errorf("SparklineRange(%v, %d, NaN, NaN) = %q, want %q", tc.v, tc.width, got, tc.want)
		}
	}
	r := mustRun(t, Kit(60))
	var pods []float64
	for _, s := range r.Samples {
		if s.T >= r.Summary.From {
			pods = append(pods, float64(s.Pods))
		}
	}
	line := SparklineRange(pods, 60, nan(), nan())
	if n := utf8.RuneCountInString(line); n != 60 {
		t.Errorf("%d runes, want 60", n)
	}
	if !strings.ContainsRune(line, '▁') || !strings.ContainsRune(line, '█') {
		t.Errorf("a hunting hour should span the blocks: %s", line)
	}
	t.Logf("kit D=60 s, last hour: %s", line)
}

func nan() float64 { var z float64; return z / z }

func TestNiceAxis(t *testing.T) {
	for _, tc := range []struct{ v, step, top float64 }{
		{100, 20, 100}, {2000, 500, 2000}, {35, 10, 40}, {24750, 5000, 25000}, {0, 1, 1}, {7, 2, 8},
	} {
		step, top := niceAxis(tc.v)
		if step != tc.step || top != tc.top {
			t.Errorf("niceAxis(%v) = %v, %v; want %v, %v", tc.v, step, top, tc.step, tc.top)
		}
	}
}
