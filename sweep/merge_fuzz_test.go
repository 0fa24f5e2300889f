package sweep

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// shardJSON writes shard i/n of s as "fastdrain sweep --shard" would, with made-up metrics
// (point k's metrics are k, k+1, …): a valid merge input built without simulating.
func shardJSON(s Spec, i, n int) []byte {
	s.Base.SHA256 = strings.Repeat("ab", 32)
	r := &Result{Format: FormatVersion, Spec: s, Shard: Shard{i, n}, Points: s.Size(), Columns: s.Columns()}
	for _, k := range r.Shard.Points(r.Points) {
		w := Row{Point: k, Values: s.Axes.Point(k).Values}
		for c := range r.Columns {
			w.Metrics = append(w.Metrics, float64(k+c))
		}
		if k == 3 {
			w.Metrics, w.Error = nil, "flashbench: a failed point"
		} else {
			// A small distribution: samples k+1 and 1000 ps ([1000, 1003] at exp 2).
			w.Latency = []Distribution{{Name: "read", Ps: sim.HistogramData{Count: 2, Min: int64(k + 1), Max: 1000,
				Sum: int64(k + 1001), SumExact: true, SumFloat: float64(k + 1001),
				Buckets: [][3]int64{{int64(k + 1), int64(k + 1), 1}, {1000, 1003, 1}}}}}
		}
		r.Rows = append(r.Rows, w)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// FuzzMerge fuzzes what "fastdrain merge" reads: two shard files, each read strictly with
// ReadJSON and, when both are accepted, merged. Neither step may panic; a file ReadJSON
// accepts must write back to JSON that reads back to the same result; a merge that succeeds
// must hold every point of the grid exactly once, in order, and pass ReadJSON's own checks.
func FuzzMerge(f *testing.F) {
	s := tinyBench()
	run := Spec{Kind: KindRun, Base: Base{Preset: "tiny", Variant: "fd"}, Run: &RunParams{Scenario: "db-s+ungzip", Duration: 1e12},
		Axes: Grid{{Key: "firmware.buffer.pages", Values: []string{"128", "256"}}}}
	f.Add(shardJSON(s, 0, 2), shardJSON(s, 1, 2))
	f.Add(shardJSON(s, 0, 1), []byte{})
	f.Add(shardJSON(s, 2, 3), shardJSON(s, 0, 3))
	f.Add(shardJSON(s, 0, 2), shardJSON(s, 0, 2))
	f.Add(shardJSON(run, 0, 2), shardJSON(run, 1, 2))
	f.Add(shardJSON(run, 1, 2), shardJSON(s, 0, 2))
	f.Add([]byte(`{"format":"fastdrain-sweep/1"}`), []byte("{"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var parts []*Result
		var names []string
		for i, data := range [][]byte{a, b} {
			if len(data) == 0 {
				continue
			}
			name := []string{"a.json", "b.json"}[i]
			r, err := ReadJSON(bytes.NewReader(data), name)
			if err != nil {
				if !strings.HasPrefix(err.Error(), name) {
					t.Fatalf("error does not start with the file name: %v", err)
				}
				return
			}
			var out bytes.Buffer
			if err := r.WriteJSON(&out); err != nil {
				t.Fatalf("WriteJSON of an accepted file: %v", err)
			}
			back, err := ReadJSON(bytes.NewReader(out.Bytes()), "back")
			if err != nil {
				t.Fatalf("an accepted file does not read back after writing: %v\n%s", err, out.Bytes())
			}
			var again bytes.Buffer
			if err := back.WriteJSON(&again); err != nil || !bytes.Equal(out.Bytes(), again.Bytes()) {
				t.Fatalf("JSON round trip is not stable (%v):\n%s\n%s", err, out.Bytes(), again.Bytes())
			}
			parts, names = append(parts, r), append(names, name)
		}
		if len(parts) == 0 {
			return
		}
		m, err := Merge(parts, names)
		if err != nil {
			return
		}
		if len(m.Rows) != m.Points {
			t.Fatalf("merged %d rows for %d points", len(m.Rows), m.Points)
		}
		for k, w := range m.Rows {
			if w.Point != k {
				t.Fatalf("merged rows[%d] is point %d", k, w.Point)
			}
		}
		var out bytes.Buffer
		if err := m.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJSON(bytes.NewReader(out.Bytes()), "merged"); err != nil {
			t.Fatalf("the merged result does not pass ReadJSON: %v", err)
		}
	})
}

// TestFuzzMergeSeedsMerge checks that the seeds reach the merge: the two halves of the
// 6-point grid (points 0, 2, 4 and 1, 3, 5) read back and merge into all six, in order.
func TestFuzzMergeSeedsMerge(t *testing.T) {
	s := tinyBench()
	var parts []*Result
	for i := range 2 {
		r, err := ReadJSON(bytes.NewReader(shardJSON(s, i, 2)), "seed")
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, r)
	}
	m, err := Merge(parts, []string{"a.json", "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 6 || m.Rows[5].Point != 5 || m.Rows[3].Error == "" || m.Failed() != 1 {
		t.Fatalf("merged rows %+v", m.Rows)
	}
}
