package uflip

import (
	"fmt"
	"testing"
)

// FuzzPlan fuzzes uFLIP plans: a plan spec given as YAML over DefaultPlanSpec (the field
// names of PlanSpec's yaml tags) and a device capacity. A spec Validate accepts must plan
// without panicking on any capacity, and every run step of the plan must be a valid run
// inside the planned capacity with its target aligned to the spec's alignment; the first IOs
// of every stream of the first run steps must fall inside the device.
func FuzzPlan(f *testing.F) {
	for _, s := range []struct {
		doc string
		cap int64
	}{
		{"", 1 << 30},
		{"", 8 << 20},
		{"benches: [granularity, locality]\nio_count: {sr: 16, rr: 16, sw: 64, rw: 64}\nio_ignore: {rw: 8}\n", 64 << 20},
		{"io_size: 4096\nalign: 4096\nbenches: [partitioning, parallelism, order]\n", 16 << 20},
		{"benches: [mix]\nratios: [0, 1, 3]\n", 4 << 20},
		{"benches: [pause, bursts]\npauses: [0s, 1ms]\nbursts: [1, 3]\nburst_pause: 2ms\n", 1 << 20},
		{"format: sequential\nnb_run: 1\nbenches: [alignment]\nio_shifts: [0, 512, 32768]\n", 2 << 20},
		{"format: none\nbenches: [order]\nincrs: [-1, 0, 1, 1000000]\n", 256 << 20},
		{"io_size: 1536\nalign: 512\nlocalities: [1, 3, 5]\n", 3 << 20},
		{"align: 131072\n", 100000},
		{"auto: {rel_err: 0.05, min: 100}\nbenches: [granularity]\n", 16 << 20},
		{"auto: {rel_err: 1.5, min: 7}\n", 16 << 20},
		{"nb_run: 3\nsettle: flush\nbenches: [granularity, partitioning]\nio_sizes: [524288]\n", 3 << 20},
		{"nb_run: 2.5\nio_count: ~\n", 16 << 20},
		{"benches: [readback, granularity]\nio_sizes: [4096, 1048576]\nreadback_bytes: 262144\n", 3 << 20},
		{"benches: [readback]\nreadback_bytes: 512\nio_sizes: [512, 3072]\nalign: 512\n", 1 << 20},
	} {
		f.Add([]byte(s.doc), s.cap)
	}
	f.Fuzz(func(t *testing.T, doc []byte, capacity int64) {
		spec := DefaultPlanSpec()
		if err := DecodePlanSpec(doc, &spec); err != nil {
			return
		}
		plan, err := NewPlan(spec, capacity)
		if err != nil {
			return
		}
		if plan.Capacity <= 0 || plan.Capacity > capacity || plan.Capacity%spec.Align != 0 {
			t.Fatalf("capacity %d planned as %d (align %d)", capacity, plan.Capacity, spec.Align)
		}
		runs := 0
		for _, st := range plan.Steps {
			if st.Kind != StepRun {
				continue
			}
			if len(st.Reps) != int(st.Run.NbRun) {
				t.Fatalf("%s: %d repetitions placed for nb_run %d", st.Label, len(st.Reps), st.Run.NbRun)
			}
			for rep := range st.Reps {
				r := st.RepRun(rep)
				if err := r.Validate(); err != nil {
					t.Fatalf("%s rep %d: an invalid run: %v", st.Label, rep, err)
				}
				if r.End() > plan.Capacity {
					t.Fatalf("%s rep %d: ends at %d past the capacity %d", st.Label, rep, r.End(), plan.Capacity)
				}
				if r.TargetOffset%spec.Align != 0 {
					t.Fatalf("%s rep %d: target offset %d not aligned to %d", st.Label, rep, r.TargetOffset, spec.Align)
				}
			}
			r := st.Run
			if runs++; runs > 40 {
				continue
			}
			for k := range min(r.degree(), 4) {
				s := NewRunStream(r, k, 1, st.Label)
				for range 32 {
					io := s.Next()
					if io.LBA < 0 || io.Sectors <= 0 || (io.LBA+io.Sectors)*SectorSize > plan.Capacity {
						t.Fatalf("%s stream %d: IO %s past the device of %d B", st.Label, k, fmt.Sprint(io), plan.Capacity)
					}
				}
			}
		}
	})
}

// TestFuzzPlanSeedsDecode checks that FuzzPlan's YAML reaches the planner: the names of
// PlanSpec's yaml tags and the text forms of benches, formats and times decode, so a seed
// such as "benches: [mix]" plans 6 pairs × 3 ratios = 18 mix runs and nothing else.
func TestFuzzPlanSeedsDecode(t *testing.T) {
	spec := DefaultPlanSpec()
	if err := DecodePlanSpec([]byte("benches: [mix]\nratios: [0, 1, 3]\nformat: none\nrun_pause: 1ms\n"), &spec); err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(spec, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(plan.Runs(BenchMix)); n != 18 || len(plan.Steps) != 18 {
		t.Fatalf("%d mix runs in %d steps, want 18 and 18", n, len(plan.Steps))
	}
}
