package uflip

// Ratio is one row of a calibration report: for one micro-benchmark and base (a mix's pair
// as "SR-RW", or "all" for every base of the benchmark), the average of the point means on
// device A and on device B over the points both ran, and A/B. It is the first step toward
// fitting a preset to a drive (issue 25 item 6): a ratio far from 1 says which
// micro-benchmark the preset gets wrong.
type Ratio struct {
	Bench        Bench
	Base         string
	Points       int     // points both devices ran
	MeanA, MeanB float64 // average of the point means, ps
	Ratio        float64 // MeanA / MeanB (0 when MeanB is 0)
}

// baseKey names the base of a point: "SW", or "SR-RW" for a mix.
func (p Point) baseKey() string {
	if p.Second != nil {
		return p.Base.String() + "-" + p.Second.String()
	}
	return p.Base.String()
}

// Calibrate compares the points of the same plan run on two devices, matched by label: one
// row per micro-benchmark and base in a's order, then one "all" row per micro-benchmark.
func Calibrate(a, b []Point) []Ratio {
	byLabel := make(map[string]Point, len(b))
	for _, p := range b {
		byLabel[p.Label] = p
	}
	type key struct {
		bench Bench
		base  string
	}
	var order []key
	rows := map[key]*Ratio{}
	add := func(k key, ma, mb float64) {
		r := rows[k]
		if r == nil {
			r = &Ratio{Bench: k.bench, Base: k.base}
			rows[k] = r
			order = append(order, k)
		}
		r.Points++
		r.MeanA += ma
		r.MeanB += mb
	}
	var benches []Bench
	for _, pa := range a {
		pb, ok := byLabel[pa.Label]
		if !ok || pa.Counted == 0 || pb.Counted == 0 {
			continue
		}
		add(key{pa.Bench, pa.baseKey()}, pa.Mean, pb.Mean)
		if rows[key{pa.Bench, "all"}] == nil {
			benches = append(benches, pa.Bench)
		}
		add(key{pa.Bench, "all"}, pa.Mean, pb.Mean)
	}
	var out []Ratio
	emit := func(k key) {
		r := *rows[k]
		r.MeanA /= float64(r.Points)
		r.MeanB /= float64(r.Points)
		if r.MeanB > 0 {
			r.Ratio = r.MeanA / r.MeanB
		}
		out = append(out, r)
	}
	for _, k := range order {
		if k.base != "all" {
			emit(k)
		}
	}
	for _, b := range benches {
		emit(key{b, "all"})
	}
	return out
}
