package apps

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// opKind is the kind of an OS call the fake host saw.
type opKind int

const (
	kCreate opKind = iota
	kUnlink
	kRead
	kWrite
	kFsync
	kReadDirect
	kWriteDirect
	kCompute
	nKinds
)

var kindNames = [nKinds]string{"create", "unlink", "read", "write", "fsync", "read-direct", "write-direct", "compute"}

func (k opKind) String() string { return kindNames[k] }

// fakeOp is one call.
type fakeOp struct {
	kind   opKind
	file   string
	off, n int64
	proc   string
	start  sim.Time
}

type fakeFile struct {
	name     string
	size     int64
	unlinked bool
}

func (f *fakeFile) Name() string { return f.name }
func (f *fakeFile) Size() int64  { return f.size }

// fakeOS is a host whose every call takes a fixed latency per kind (Compute takes exactly
// the CPU time asked for), counting calls and bytes by kind and logging them in order.
type fakeOS struct {
	lat      [nKinds]sim.Time
	count    [nKinds]int64
	bytes    [nKinds]int64
	cpu      sim.Time
	files    map[string]*fakeFile
	log      []fakeOp
	noLog    bool
	inflight int // processes inside an I/O call
	peak     int
	failOn   opKind // with failAt > 0: the failAt-th call of this kind fails
	failAt   int64
	slowOn   opKind // with slowAt > 0: the slowAt-th call of this kind takes slowLat more
	slowAt   int64
	slowLat  sim.Time
	// ioOn, with ioEvery > 0: every ioEvery-th call of this kind fails with an I/O error
	// (ErrIO) after its latency, as a device's error comes back.
	ioOn    opKind
	ioEvery int64
}

func newFakeOS() *fakeOS {
	return &fakeOS{files: map[string]*fakeFile{}, failOn: -1, slowOn: -1, ioOn: -1}
}

var errFake = errors.New("fake I/O error")

func (o *fakeOS) op(p *sim.Proc, k opKind, f File, off, n int64) error {
	o.count[k]++
	o.bytes[k] += n
	name := ""
	if f != nil {
		name = f.Name()
	}
	if !o.noLog {
		o.log = append(o.log, fakeOp{kind: k, file: name, off: off, n: n, proc: p.Name(), start: p.Now()})
	}
	if k == o.failOn && o.count[k] == o.failAt {
		return errFake
	}
	o.inflight++
	o.peak = max(o.peak, o.inflight)
	lat := o.lat[k]
	if k == o.slowOn && o.count[k] == o.slowAt {
		lat += o.slowLat
	}
	if lat > 0 {
		p.Sleep(lat)
	}
	o.inflight--
	if k == o.ioOn && o.count[k]%o.ioEvery == 0 {
		return fmt.Errorf("%w: call %d of %v failed", ErrIO, o.count[k], k)
	}
	return nil
}

func (o *fakeOS) Create(p *sim.Proc, name string, size int64) (File, error) {
	f := &fakeFile{name: name, size: size}
	if err := o.op(p, kCreate, f, 0, size); err != nil {
		return nil, err
	}
	o.files[name] = f
	return f, nil
}

func (o *fakeOS) Open(name string) (File, bool) {
	f, ok := o.files[name]
	if !ok || f.unlinked {
		return nil, false
	}
	return f, true
}

func (o *fakeOS) Unlink(p *sim.Proc, f File) error {
	ff := f.(*fakeFile)
	if ff.unlinked {
		return fmt.Errorf("unlink of unlinked %s", ff.name)
	}
	ff.unlinked = true
	delete(o.files, ff.name)
	return o.op(p, kUnlink, f, 0, 0)
}

func (o *fakeOS) check(f File, off, n int64, write bool) error {
	ff := f.(*fakeFile)
	if ff.unlinked || off < 0 || n <= 0 || (!write && off+n > ff.size) {
		return fmt.Errorf("bad I/O %s off %d n %d size %d", ff.name, off, n, ff.size)
	}
	if write && off+n > ff.size {
		ff.size = off + n
	}
	return nil
}

func (o *fakeOS) Read(p *sim.Proc, f File, off, n int64) error {
	if err := o.check(f, off, n, false); err != nil {
		return err
	}
	return o.op(p, kRead, f, off, n)
}

func (o *fakeOS) Write(p *sim.Proc, f File, off, n int64) error {
	if err := o.check(f, off, n, true); err != nil {
		return err
	}
	return o.op(p, kWrite, f, off, n)
}

func (o *fakeOS) Fsync(p *sim.Proc, f File) error { return o.op(p, kFsync, f, 0, 0) }

func (o *fakeOS) ReadDirect(p *sim.Proc, f File, off, n int64) error {
	if err := o.check(f, off, n, false); err != nil {
		return err
	}
	return o.op(p, kReadDirect, f, off, n)
}

func (o *fakeOS) WriteDirect(p *sim.Proc, f File, off, n int64) error {
	if err := o.check(f, off, n, false); err != nil {
		return err
	}
	return o.op(p, kWriteDirect, f, off, n)
}

func (o *fakeOS) Compute(p *sim.Proc, d sim.Time) {
	o.count[kCompute]++
	o.cpu += d
	p.Sleep(d)
}

// ops returns the logged calls of kind k.
func (o *fakeOS) ops(k opKind) []fakeOp {
	var out []fakeOp
	for _, op := range o.log {
		if op.kind == k {
			out = append(out, op)
		}
	}
	return out
}

// runOne runs scenario apps for d on a fresh engine and fake host and returns the run.
func runOne(t testing.TB, o *fakeOS, spec Spec, d sim.Time, apps ...string) *Run {
	t.Helper()
	sc := Scenario{Name: "test", Apps: apps, Duration: d, Seed: 7}
	r, err := Execute(sim.NewEngine(), o, spec, sc)
	require.NoError(t, err)
	require.True(t, r.Done())
	return r
}

// oneClient sets every latency-critical app to a single client with no think time.
func oneClient(s Spec) Spec {
	for _, c := range []*ClientSpec{&s.ApacheF.Client, &s.ApacheU.Client, &s.DBS.Client, &s.DBU.Client,
		&s.ImgServerF.Client, &s.ImgServerU.Client} {
		c.Clients, c.ThinkTime = 1, 0
	}
	return s
}
