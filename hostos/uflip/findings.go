package uflip

import (
	"fmt"
	"strings"
)

// uFLIP's published findings (the uFLIP paper, "Results"; docs/sources.md §12, "Findings on real devices") as
// checks on the points of a plan. Each check reads only the mean, min and max latencies of
// the points it needs and gives a verdict with the numbers behind it; for a finding that
// does not hold, Mechanism names what in the simulated device decides it, so a reader can
// check it with a control run (docs/uflip.md).
//
// uFLIP words its findings qualitatively ("close to", "more expensive", "no benefit"); the
// thresholds that turn them into checks are this project's and are named constants:
// "close to" is within a factor CloseRatio, "costs more" and "degrade" are at least a factor
// WorseRatio, "no benefit" is a throughput gain below GainRatio, and "pauses help" is a mean
// at most PauseRatio of the unpaused one.

// Thresholds of the finding checks (see above). The seed gives no number for "close to" or
// "costs more"; 2× is this project's reading, UnalignedRatio sits below the seed's one
// alignment example (Samsung 18 → 32 ms, 1.8×), and the others are round numbers.
const (
	CloseRatio     = 2.0  // focused random vs sequential writes, few partitions vs one
	WorseRatio     = 2.0  // larger areas and many partitions vs the cheap case
	UnalignedRatio = 1.2  // unaligned vs aligned
	GainRatio      = 1.25 // parallel throughput gain that counts as a benefit
	PauseRatio     = 0.8  // mean with the longest pause vs without pauses
	EraseRatio     = 5.0  // a random write's max vs its min: cheap writes alternate with costly ones
)

// Focused-area bounds of the locality finding (seed: "random writes within 4–16MB").
const (
	FocusedMin = 4 << 20
	FocusedMax = 16 << 20
)

// Verdict is the outcome of one finding check.
type Verdict uint8

// Verdicts.
const (
	NotEvaluated Verdict = iota // the plan did not run the points the check needs
	Held
	NotHeld
)

// String returns "held", "not held" or "not evaluated".
func (v Verdict) String() string {
	switch v {
	case Held:
		return "held"
	case NotHeld:
		return "not held"
	}
	return "not evaluated"
}

// Finding is the result of one check.
type Finding struct {
	ID        string  // short name, e.g. "locality"
	Claim     string  // uFLIP's finding in one sentence
	Verdict   Verdict // held, not held or not evaluated
	Evidence  string  // the numbers behind the verdict (or what is missing)
	Mechanism string  // when not held: the model mechanism that decides it
	// Values are Evidence's numbers, unit in the name (_us, _bytes; ratios are named
	// A_per_B), and the thresholds the verdict compared them with (_min: at least, _max: at
	// most, _below: strictly less), in a fixed order; empty when not evaluated.
	Values []Value
}

// Value is one named number behind a finding.
type Value struct {
	Name  string
	Value float64
}

// add appends a named number to the finding's values.
func (f *Finding) add(name string, v float64) {
	f.Values = append(f.Values, Value{Name: name, Value: v})
}

// psUs converts a latency in ps to µs for a Value.
func psUs(ps float64) float64 { return ps / 1e6 }

// Mechanisms named for findings that do not hold. They describe the page-mapped,
// write-back firmware of this project (firmware/buffer, firmware/ftl, firmware/sched.go),
// page-level mapping being the default (firmware.ftl.mapping=bast, the hybrid log-block
// FTL, is compared in docs/uflip.md); docs/uflip.md shows each with a control run.
const (
	mechBuffer = "write-back DRAM buffer (firmware/buffer): a write completes when its pages are in the buffer, " +
		"whatever its address; a random write over an area not much larger than the buffer often overwrites a page " +
		"still buffered, which needs no new room, while a sequential write to a fresh area always does"
	mechMapping = "page-level mapping with dynamic allocation (firmware/ftl alloc.go): every written page goes to the next " +
		"free page of the open blocks whatever its logical address, so random and sequential writes, and any number of " +
		"interleaved sequential streams, cost the same flash work per page; uFLIP's devices used block or hybrid mapping, " +
		"where scattered writes cost merges (firmware.ftl.mapping=bast selects one, the BAST log-block FTL: docs/uflip.md)"
	mechArea = "areas up to the size of the DRAM buffer are absorbed as overwrite hits (firmware/buffer) and beyond it the " +
		"page-level mapping (firmware/ftl alloc.go) makes a wide area cost the same flash work per page as a narrow one; " +
		"a drive whose back end drains the buffer as fast as one synchronous stream fills it shows neither"
	mechAlign = "4 KiB mapping unit with whole-page buffering (firmware/hil.go): a shifted IO touches one more page and " +
		"read-modify-writes its partial first and last pages, which costs little while those pages are buffered"
	mechParallel = "die and channel parallelism behind an NVMe queue (firmware/sched.go, channel): D synchronous streams keep D " +
		"IOs in flight and the flash scheduler spreads them over the dies, so throughput grows with D; " +
		"uFLIP's 2009 devices served one IO at a time, a modern NVMe model is expected to differ here"
	mechPause = "the deferred work is buffer eviction (firmware/evict.go) and, on a full device, GC (firmware/gc.go): a pause " +
		"helps only as much as the buffer is backed up, and a back end that drains the buffer about as fast as one " +
		"synchronous stream fills it leaves little to defer"
	mechErase = "write latency is decided by buffer admission (firmware/buffer): a write waits only when the buffer is full, " +
		"for an eviction, whatever its address, so random and sequential writes pay the same waits; erases " +
		"(firmware/gc.go) reach the host only when GC must copy, which needs the device written well past its spare space"
)

// Mechanisms of a device with the hybrid log-block FTL (firmware.ftl.mapping=bast,
// firmware/ftl/bast.go, bastmerge.go), for the findings whose page-mapped mechanism above
// names page-level mapping or buffer admission.
const (
	mechLogBlockLocality = "hybrid log-block mapping (firmware.ftl.mapping=bast, firmware/ftl/bastmerge.go): random writes in an " +
		"area the log blocks cover fill log blocks that are full-merged, and a merge copies each valid page through the " +
		"controller (no copy-back: the page crosses the channel out and back in), so a focused random page costs its own " +
		"transfer plus a copy's two against a sequential page's one, which fills its log block in order and is switched in"
	mechLogBlock = "hybrid log-block mapping (firmware.ftl.mapping=bast, firmware/ftl/bast.go, bastmerge.go): a write goes to a " +
		"log block of its logical block, and when a die's pool of firmware.ftl.log_blocks runs out one is switched in " +
		"(written in order), partially merged or fully merged (a copy of the logical block's valid pages and two erases); " +
		"what this pattern costs is how many logical blocks it keeps open against that pool"
)

// FindingsLogBlock is Findings for a device whose FTL is the hybrid log-block one: the same
// checks and verdicts, with the log-block mechanism for the findings whose page-mapped
// mechanism would name page-level mapping or buffer admission (sequential, locality,
// erases, partitions).
func FindingsLogBlock(pts []Point, ioSize int64) []Finding {
	fs := Findings(pts, ioSize)
	for i := range fs {
		f := &fs[i]
		if f.Verdict != NotHeld {
			continue
		}
		switch f.ID {
		case "locality":
			if f.value("focused_per_sw") > CloseRatio {
				f.Mechanism = mechLogBlockLocality
			} else {
				f.Mechanism = mechLogBlock
			}
		case "sequential", "erases", "partitions":
			f.Mechanism = mechLogBlock
		}
	}
	return fs
}

// value returns the finding's value named name (0 if it has none).
func (f *Finding) value(name string) float64 {
	for _, v := range f.Values {
		if v.Name == name {
			return v.Value
		}
	}
	return 0
}

// find returns the point of bench b, base base, varied value x, or ok false.
func find(pts []Point, b Bench, base Base, x float64) (Point, bool) {
	for _, p := range pts {
		if p.Bench == b && p.Base == base && p.Second == nil && p.X == x {
			return p, true
		}
	}
	return Point{}, false
}

// seriesOf returns the points of bench b and base base in plan order.
func seriesOf(pts []Point, b Bench, base Base) []Point {
	var out []Point
	for _, p := range pts {
		if p.Bench == b && p.Base == base && p.Second == nil && p.Counted > 0 {
			out = append(out, p)
		}
	}
	return out
}

// fmtLat formats ps as microseconds for evidence.
func fmtLat(ps float64) string {
	v := ps / 1e6
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.2fms", v/1000)
	case v >= 10:
		return fmt.Sprintf("%.1fus", v)
	}
	return fmt.Sprintf("%.2fus", v)
}

// fmtSize formats bytes.
func fmtSize(b float64) string {
	switch {
	case b >= 1<<20 && int64(b)%(1<<20) == 0:
		return fmt.Sprintf("%.0fMiB", b/(1<<20))
	case b >= 1<<10 && int64(b)%(1<<10) == 0:
		return fmt.Sprintf("%.0fKiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0fB", b)
}

func verdict(ok bool) Verdict {
	if ok {
		return Held
	}
	return NotHeld
}

// Findings evaluates uFLIP's seven findings on the points of one device (Points of a plan
// whose default IO size is ioSize). The order is fixed.
func Findings(pts []Point, ioSize int64) []Finding {
	return []Finding{
		findSequential(pts),
		findLocality(pts, ioSize),
		findAlignment(pts),
		findErases(pts, ioSize),
		findPartitions(pts),
		findParallel(pts),
		findPause(pts, ioSize),
	}
}

// findSequential: sequential writes are the cheapest write pattern. Checked at every IO
// size of the granularity benchmark run with both SW and RW: SW's mean ≤ RW's.
func findSequential(pts []Point) Finding {
	f := Finding{ID: "sequential", Claim: "sequential writes are the cheapest write pattern"}
	worst, n := 0.0, 0
	var wsw, wrw Point
	for _, sw := range seriesOf(pts, BenchGranularity, SW) {
		rw, ok := find(pts, BenchGranularity, RW, sw.X)
		if !ok || rw.Counted == 0 {
			continue
		}
		n++
		if r := sw.Mean / rw.Mean; n == 1 || r > worst {
			worst, wsw, wrw = r, sw, rw
		}
	}
	if n == 0 {
		f.Evidence = "needs the granularity benchmark with SW and RW"
		return f
	}
	f.Verdict = verdict(worst <= 1)
	f.Evidence = fmt.Sprintf("at %d IO sizes, SW/RW mean is at most %.2f (at %s: SW %s, RW %s)",
		n, worst, fmtSize(wsw.X), fmtLat(wsw.Mean), fmtLat(wrw.Mean))
	f.add("io_sizes", float64(n))
	f.add("sw_per_rw_mean", worst)
	f.add("sw_per_rw_mean_max", 1)
	f.add("io_size_bytes", wsw.X)
	f.add("sw_mean_us", psUs(wsw.Mean))
	f.add("rw_mean_us", psUs(wrw.Mean))
	if f.Verdict == NotHeld {
		f.Mechanism = mechMapping + "; where RW is the cheaper, the " + mechBuffer
	}
	return f
}

// findLocality: random writes in a 4–16 MiB area cost close to sequential writes (RW mean
// ≤ CloseRatio × SW mean at the default IO size, for the largest focused point), and over
// the largest area at least WorseRatio × the focused cost.
func findLocality(pts []Point, ioSize int64) Finding {
	f := Finding{ID: "locality", Claim: "random writes within a 4–16 MB area cost close to sequential writes; larger areas cost more"}
	rws := seriesOf(pts, BenchLocality, RW)
	sw, okSW := find(pts, BenchGranularity, SW, float64(ioSize))
	var focused, large *Point
	for i := range rws {
		p := &rws[i]
		if p.X >= FocusedMin && p.X <= FocusedMax && (focused == nil || p.Mean > focused.Mean) {
			focused = p
		}
		if p.X > FocusedMax && (large == nil || p.X > large.X) {
			large = p
		}
	}
	if !okSW || sw.Counted == 0 || focused == nil || large == nil {
		f.Evidence = "needs granularity SW at the default IO size and locality RW at a 4–16 MiB and a larger target (a span above 16 MiB)"
		return f
	}
	near := focused.Mean / sw.Mean
	worse := large.Mean / focused.Mean
	f.Verdict = verdict(near <= CloseRatio && worse >= WorseRatio)
	f.Evidence = fmt.Sprintf("RW in %s: %s = %.2f× SW (%s); RW in %s: %s = %.2f× the focused area",
		fmtSize(focused.X), fmtLat(focused.Mean), near, fmtLat(sw.Mean), fmtSize(large.X), fmtLat(large.Mean), worse)
	f.add("focused_area_bytes", focused.X)
	f.add("focused_rw_mean_us", psUs(focused.Mean))
	f.add("sw_mean_us", psUs(sw.Mean))
	f.add("focused_per_sw", near)
	f.add("focused_per_sw_max", CloseRatio)
	f.add("large_area_bytes", large.X)
	f.add("large_rw_mean_us", psUs(large.Mean))
	f.add("large_per_focused", worse)
	f.add("large_per_focused_min", WorseRatio)
	if f.Verdict == NotHeld {
		if near > CloseRatio {
			f.Mechanism = "focused random writes cost more than sequential ones: " + mechBuffer
		} else {
			f.Mechanism = mechArea
		}
	}
	return f
}

// findAlignment: unaligned IOs cost more than aligned ones: for some base, the largest
// mean over shifts 0 < s < IOSize is at least UnalignedRatio × the aligned mean.
func findAlignment(pts []Point) Finding {
	f := Finding{ID: "alignment", Claim: "unaligned IOs cost more than aligned ones"}
	best := 0.0
	var parts []string
	for _, base := range []Base{SR, RR, SW, RW} {
		al, ok := find(pts, BenchAlignment, base, 0)
		if !ok || al.Counted == 0 || al.Mean == 0 {
			continue
		}
		worst := 0.0
		var at Point
		for _, p := range seriesOf(pts, BenchAlignment, base) {
			if p.X > 0 && p.X < float64(p.Run.IOSize) && p.Mean/al.Mean > worst {
				worst, at = p.Mean/al.Mean, p
			}
		}
		if worst == 0 {
			continue
		}
		best = max(best, worst)
		parts = append(parts, fmt.Sprintf("%s %s → %s (%.2f×, shift %s)", base, fmtLat(al.Mean), fmtLat(at.Mean), worst, fmtSize(at.X)))
		b := strings.ToLower(base.String())
		f.add(b+"_aligned_mean_us", psUs(al.Mean))
		f.add(b+"_unaligned_mean_us", psUs(at.Mean))
		f.add(b+"_shift_bytes", at.X)
		f.add(b+"_unaligned_per_aligned", worst)
	}
	if len(parts) == 0 {
		f.Evidence = "needs the alignment benchmark with shift 0 and a shift below the IO size"
		return f
	}
	f.Verdict = verdict(best >= UnalignedRatio)
	f.Evidence = strings.Join(parts, "; ")
	f.add("unaligned_per_aligned", best)
	f.add("unaligned_per_aligned_min", UnalignedRatio)
	if f.Verdict == NotHeld {
		f.Mechanism = mechAlign
	}
	return f
}

// findErases: reads and sequential writes have small latency while random writes
// alternate with expensive operations: at the default IO size RW's mean is at least
// WorseRatio × the largest of the SR, RR, SW means, and RW's max is at least EraseRatio ×
// its min.
func findErases(pts []Point, ioSize int64) Finding {
	f := Finding{ID: "erases", Claim: "reads and sequential writes have small latency; random writes alternate with expensive erases"}
	x := float64(ioSize)
	rw, ok := find(pts, BenchGranularity, RW, x)
	small, which := 0.0, ""
	for _, base := range []Base{SR, RR, SW} {
		p, okb := find(pts, BenchGranularity, base, x)
		if !okb || p.Counted == 0 {
			ok = false
			break
		}
		if p.Mean > small {
			small, which = p.Mean, base.String()
		}
	}
	if !ok || rw.Counted == 0 || rw.Min == 0 || small == 0 {
		f.Evidence = "needs the granularity benchmark with all four bases at the default IO size"
		return f
	}
	costly := rw.Mean / small
	spread := float64(rw.Max) / float64(rw.Min)
	f.Verdict = verdict(costly >= WorseRatio && spread >= EraseRatio)
	f.Evidence = fmt.Sprintf("at %s: RW mean %s = %.1f× the slowest of SR/RR/SW (%s %s); RW min %s, max %s (%.0f×)",
		fmtSize(x), fmtLat(rw.Mean), costly, which, fmtLat(small), fmtLat(float64(rw.Min)), fmtLat(float64(rw.Max)), spread)
	f.add("io_size_bytes", x)
	f.add("rw_mean_us", psUs(rw.Mean))
	f.add("slowest_other_mean_us", psUs(small))
	f.add("rw_per_slowest_other", costly)
	f.add("rw_per_slowest_other_min", WorseRatio)
	f.add("rw_min_us", psUs(float64(rw.Min)))
	f.add("rw_max_us", psUs(float64(rw.Max)))
	f.add("rw_max_per_min", spread)
	f.add("rw_max_per_min_min", EraseRatio)
	if f.Verdict == NotHeld {
		f.Mechanism = mechErase
	}
	return f
}

// findPartitions: 4–8 concurrent sequential write partitions are cheap (mean ≤ CloseRatio ×
// one partition for every P in 2…8 measured) and more degrade (the largest P, above 8, at
// least WorseRatio × one partition).
func findPartitions(pts []Point) Finding {
	f := Finding{ID: "partitions", Claim: "4–8 concurrent sequential write partitions are cheap; more degrade"}
	sws := seriesOf(pts, BenchPartitioning, SW)
	one, ok := find(pts, BenchPartitioning, SW, 1)
	var few, many *Point
	for i := range sws {
		p := &sws[i]
		if p.X > 1 && p.X <= 8 && (few == nil || p.Mean > few.Mean) {
			few = p
		}
		if p.X > 8 && (many == nil || p.X > many.X) {
			many = p
		}
	}
	if !ok || one.Counted == 0 || few == nil || many == nil {
		f.Evidence = "needs partitioning SW at P = 1, some P in 2…8 and some P above 8"
		return f
	}
	cheap := few.Mean / one.Mean
	worse := many.Mean / one.Mean
	f.Verdict = verdict(cheap <= CloseRatio && worse >= WorseRatio)
	f.Evidence = fmt.Sprintf("SW P=1 %s; worst of P≤8 (P=%.0f) %s = %.2f×; P=%.0f %s = %.2f×",
		fmtLat(one.Mean), few.X, fmtLat(few.Mean), cheap, many.X, fmtLat(many.Mean), worse)
	f.add("one_partition_mean_us", psUs(one.Mean))
	f.add("few_partitions", few.X)
	f.add("few_partitions_mean_us", psUs(few.Mean))
	f.add("few_per_one", cheap)
	f.add("few_per_one_max", CloseRatio)
	f.add("many_partitions", many.X)
	f.add("many_partitions_mean_us", psUs(many.Mean))
	f.add("many_per_one", worse)
	f.add("many_per_one_min", WorseRatio)
	if f.Verdict == NotHeld {
		f.Mechanism = mechMapping
	}
	return f
}

// findParallel: parallel submission brings no benefit: for every base measured at D = 1 and
// a larger D, the throughput gain D·mean(1)/mean(D) at the largest D is below GainRatio.
func findParallel(pts []Point) Finding {
	f := Finding{ID: "parallel", Claim: "parallel IO submission brings no benefit (on uFLIP's 2009 devices)"}
	best := 0.0
	var parts []string
	for _, base := range []Base{SR, RR, SW, RW} {
		one, ok := find(pts, BenchParallelism, base, 1)
		if !ok || one.Counted == 0 {
			continue
		}
		var top *Point
		s := seriesOf(pts, BenchParallelism, base)
		for i := range s {
			if s[i].X > 1 && (top == nil || s[i].X > top.X) {
				top = &s[i]
			}
		}
		if top == nil || top.Mean == 0 {
			continue
		}
		gain := top.X * one.Mean / top.Mean
		best = max(best, gain)
		parts = append(parts, fmt.Sprintf("%s D=%.0f: %.2f× the throughput of D=1", base, top.X, gain))
		b := strings.ToLower(base.String())
		f.add(b+"_degree", top.X)
		f.add(b+"_throughput_gain", gain)
	}
	if len(parts) == 0 {
		f.Evidence = "needs the parallelism benchmark at D = 1 and a larger D"
		return f
	}
	f.Verdict = verdict(best < GainRatio)
	f.Evidence = strings.Join(parts, "; ")
	f.add("throughput_gain", best)
	f.add("throughput_gain_below", GainRatio)
	if f.Verdict == NotHeld {
		f.Mechanism = mechParallel
	}
	return f
}

// findPause: pauses let deferred work finish: for some write base, the mean with the
// longest pause is at most PauseRatio × the mean without pauses (granularity at the default
// IO size, or else the shortest pause).
func findPause(pts []Point, ioSize int64) Finding {
	f := Finding{ID: "pause", Claim: "pauses let deferred work finish (writes get cheaper with idle time)"}
	best := 0.0
	var parts []string
	for _, base := range []Base{SW, RW} {
		s := seriesOf(pts, BenchPause, base)
		if len(s) == 0 {
			continue
		}
		ref, ok := find(pts, BenchGranularity, base, float64(ioSize))
		refName := "no pause"
		lo, hi := s[0], s[0]
		for _, p := range s {
			if p.X < lo.X {
				lo = p
			}
			if p.X > hi.X {
				hi = p
			}
		}
		if !ok || ref.Counted == 0 {
			ref, refName = lo, fmt.Sprintf("pause %.0fus", lo.X)
		}
		if ref.Mean == 0 || hi.X == ref.X && refName != "no pause" {
			continue
		}
		r := hi.Mean / ref.Mean
		if len(parts) == 0 || r < best {
			best = r
		}
		parts = append(parts, fmt.Sprintf("%s: %s with %s, %s with pause %.0fus (%.2f×)", base, fmtLat(ref.Mean), refName, fmtLat(hi.Mean), hi.X, r))
		b := strings.ToLower(base.String())
		refPause := 0.0 // "no pause": the granularity run
		if refName != "no pause" {
			refPause = lo.X
		}
		f.add(b+"_ref_pause_us", refPause)
		f.add(b+"_ref_mean_us", psUs(ref.Mean))
		f.add(b+"_longest_pause_us", hi.X)
		f.add(b+"_paused_mean_us", psUs(hi.Mean))
		f.add(b+"_paused_per_ref", r)
	}
	if len(parts) == 0 {
		f.Evidence = "needs the pause benchmark with SW or RW"
		return f
	}
	f.Verdict = verdict(best <= PauseRatio)
	f.Evidence = strings.Join(parts, "; ")
	f.add("paused_per_ref", best)
	f.add("paused_per_ref_max", PauseRatio)
	if f.Verdict == NotHeld {
		f.Mechanism = mechPause
	}
	return f
}
