package calibrate

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SimOptions configures how a Set is replayed on a simulated machine.
type SimOptions struct {
	// MaxIOs caps the IOs of each replayed point per stream (a uFLIP run's IOCount, its
	// IOIgnore scaled alike; a fio job copy's io_size in blocks); 0 replays them all.
	MaxIOs int64
	// Seed is the uFLIP executor's root seed (fio jobs keep their randseed); 0 takes the
	// measurements' own (Set.Seed), which gives their random IOs again.
	Seed uint64
}

// Prepare returns c as Simulate builds it for s: 512-byte LBAs (uFLIP issues IOs down to a
// sector), and preconditioning that writes at least the bytes the measurements address
// (they were taken on a drive whose measured space had been written: uFLIP's device state
// enforcement, or fio's layout).
func Prepare(c platforms.Config, s *Set) platforms.Config {
	c.NVMe.LBASize = 512
	logical := float64(c.Flash.Bytes()) * (1 - c.Firmware.FTL.OverProvisioning)
	if logical > 0 {
		c.Precondition.Fill = min(1, max(c.Precondition.Fill, float64(s.Capacity)/logical*1.01))
	}
	return c
}

// Simulate replays s on machines built from c (Prepare applied) and returns each point's
// simulated mean latency in µs, in s's order. Each measurement file is replayed on a
// machine of its own, freshly built (a file is a session on the drive from its prepared
// state; what an earlier session left on the real drive is not known). Within a file,
// points run group by group in order; between groups the machine settles as the
// measurements did (s.Settle: a flush after a group that wrote, then s.RunPause idle).
func Simulate(c platforms.Config, s *Set, o SimOptions) ([]float64, error) {
	c = Prepare(c, s)
	out := make([]float64, len(s.Points))
	for i := 0; i < len(s.Points); {
		j := i
		for j < len(s.Points) && s.Points[j].Source == s.Points[i].Source {
			j++
		}
		if err := session(c, s, o, i, j, out); err != nil {
			return nil, err
		}
		i = j
	}
	return out, nil
}

// session replays points i…j−1 (one file's) on a new machine built from c into out.
func session(c platforms.Config, s *Set, o SimOptions, i, j int, out []float64) error {
	m, err := platforms.Build(c)
	if err != nil {
		return err
	}
	defer m.Eng.Close()
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	if capacity < s.Capacity {
		return fmt.Errorf("calibrate: the simulated drive holds %d bytes, the measurements address %d", capacity, s.Capacity)
	}
	dev, err := hostos.NewRawDevice(m.Host, capacity)
	if err != nil {
		return err
	}
	r := &replay{s: s, o: o, dev: dev, capacity: capacity, out: out, lo: i, hi: j,
		x: &uflip.Executor{Dev: dev, Seed: cmp.Or(o.Seed, s.Seed), IOSink: func(uflip.IORecord) {}}}
	var runErr error
	m.Eng.Spawn("calibrate", func(p *sim.Proc) {
		defer m.Eng.Stop()
		runErr = r.all(p)
	})
	m.Eng.Run()
	if err := m.Stall(); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	return runErr
}

// replay is one Simulate's state.
type replay struct {
	s        *Set
	o        SimOptions
	dev      *hostos.RawDevice
	x        *uflip.Executor
	capacity int64
	out      []float64
	lo, hi   int // the points of this session
}

// all replays the session's groups in order, settling between them.
func (r *replay) all(p *sim.Proc) error {
	pts := r.s.Points[:r.hi]
	for i := r.lo; i < len(pts); {
		j := i
		for j < len(pts) && pts[j].Group == pts[i].Group {
			j++
		}
		if i > r.lo {
			if err := r.settle(p, pts[i-1]); err != nil {
				return err
			}
		}
		var err error
		if pts[i].uflip != nil {
			err = r.uflipRun(p, i)
		} else {
			err = r.fioGroup(p, i, j)
		}
		if err != nil {
			return fmt.Errorf("calibrate: replaying %s: %w", pts[i].Name, err)
		}
		i = j
	}
	return nil
}

// settle does what the measurements did between runs after point last's group.
func (r *replay) settle(p *sim.Proc, last Point) error {
	wrote := last.fio != nil && last.fio.job.RW != fio.Read && last.fio.job.RW != fio.RandRead
	if u := last.uflip; u != nil {
		wrote = u.run.Fill || u.run.Base.Op() == uflip.OpWrite || (u.run.Second != nil && u.run.Second.Base.Op() == uflip.OpWrite)
	}
	if r.s.Settle == uflip.SettleFlush && wrote {
		if _, err := r.dev.Do(p, uflip.OpFlush, 0, 0); err != nil {
			return err
		}
	}
	p.Sleep(r.s.RunPause)
	return nil
}

// capped returns n limited to MaxIOs.
func (r *replay) capped(n int64) int64 {
	if r.o.MaxIOs > 0 {
		return min(n, r.o.MaxIOs)
	}
	return n
}

// uflipRun replays point i, a uFLIP run, with its counts (capped).
func (r *replay) uflipRun(p *sim.Proc, i int) error {
	pt := &r.s.Points[i]
	u := pt.uflip
	run := u.run
	run.IOCount = r.capped(u.count)
	run.IOIgnore = min(u.ignore*run.IOCount/u.count, run.IOCount-1)
	var res uflip.Result
	r.x.Dev = r.dev
	if u.serial {
		r.x.Dev = &serial{dev: r.dev}
	}
	// The measured repetition's own label and index: the same random streams as measured.
	if err := r.x.RunRep(p, u.label, u.bench, 0, run, u.rep, &res); err != nil {
		return err
	}
	st := res.Runs[len(res.Runs)-1]
	r.out[i] = st.Mean / float64(sim.Microsecond)
	return nil
}

// serial is a Device that lets one IO through at a time, as fastdrain uflip --target's
// FileDevice does: a stream's IO waits for the one in progress, and its latency is its own
// service time, without the wait, as the FileDevice measured it.
type serial struct {
	dev  uflip.Device
	busy bool
	free sim.Signal
}

// Do waits until no IO is in progress, then performs one.
func (d *serial) Do(p *sim.Proc, op uflip.Op, offset, size int64) (sim.Time, error) {
	for d.busy {
		p.Wait(&d.free)
	}
	d.busy = true
	lat, err := d.dev.Do(p, op, offset, size)
	d.busy = false
	d.free.Notify()
	return lat, err
}

// fioGroup replays points i…j−1, the directions of one fio group's jobs, side by side.
func (r *replay) fioGroup(p *sim.Proc, i, j int) error {
	var jobs []fio.Job
	var which []*fio.Job
	for k := i; k < j; k++ {
		jp := r.s.Points[k].fio.job
		if len(which) > 0 && which[len(which)-1] == jp {
			continue
		}
		job := *jp
		if r.o.MaxIOs > 0 {
			job.IOSize = min(job.IOSize, r.o.MaxIOs*job.BS)
		}
		jobs = append(jobs, job)
		which = append(which, jp)
	}
	res, err := fio.Run(p, r.dev, r.capacity, jobs)
	if err != nil {
		return err
	}
	var errs []error
	for k := i; k < j; k++ {
		pt := &r.s.Points[k]
		for n, jp := range which {
			if jp != pt.fio.job {
				continue
			}
			d := res[n].Dir(pt.fio.dir)
			if d.Lat.Count() == 0 {
				errs = append(errs, fmt.Errorf("%s: no %s IO on the simulated drive", pt.Name, pt.fio.dir))
				continue
			}
			r.out[k] = d.Lat.Mean() / float64(sim.Microsecond)
		}
	}
	return errors.Join(errs...)
}

// Objective returns the weighted mean squared log error of sim against the measured
// points: Σ wᵢ ln²(simᵢ/measuredᵢ) / Σ wᵢ, with w nil for all weights 1. A point's scale
// does not count: a 10 % error costs as much on a 20 µs read as on a 200 ms merge; Fit
// weighs each point by its noise.
func Objective(s *Set, simUs, w []float64) float64 {
	var sum, total float64
	for i, p := range s.Points {
		d := math.Log(simUs[i] / p.Measured)
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		sum += wi * d * d
		total += wi
	}
	return sum / total
}
