package nvmedrv

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// Stub device event kinds.
const (
	stubExec = iota // the fixed latency has passed: move data and complete
	stubDone        // a write's data has arrived: complete
)

// stubDevice is a minimal firmware: it executes every command a fixed latency after it
// arrives, moves data with the controller's data calls, keeps the 8-byte stamp of every
// 4 KiB page written, and completes with the next level of levels (or bufferlevel.Low).
type stubDevice struct {
	eng     *sim.Engine
	c       *nvmectrl.Controller
	latency sim.Time
	status  nvmectrl.Status
	levels  []bufferlevel.Level // consumed in completion order
	stamps  map[int64]uint64    // by device page; a test oracle, never iterated
	sqes    []nvmectrl.SQE      // entries as fetched, if keep
	sqids   []uint16
	hints   []nvmectrl.Hint
	ranges  []Range
	keep    bool
	b8      [8]byte
}

func (s *stubDevice) Submit(now sim.Time, cmd *nvmectrl.Command) {
	if s.keep {
		s.sqes = append(s.sqes, cmd.SQE)
		s.sqids = append(s.sqids, cmd.SQID)
		s.hints = append(s.hints, cmd.Hint)
	}
	s.eng.Schedule(now+s.latency, s, cmd, stubExec)
}

func (s *stubDevice) HandleEvent(ev *sim.Event) {
	cmd := ev.Data.(*nvmectrl.Command)
	now := ev.Time
	if ev.Code == stubDone {
		s.complete(now, cmd)
		return
	}
	lba := int64(s.c.Spec().LBASize)
	off := int64(cmd.SQE.SLBA()) * lba
	n := int64(cmd.DataLen)
	switch cmd.SQE.Opcode() {
	case nvmectrl.OpRead:
		for pg := (off + 4095) / 4096; pg*4096 < off+n; pg++ {
			binary.LittleEndian.PutUint64(s.b8[:], s.stamps[pg])
			s.c.CopyToHost(cmd, int(pg*4096-off), s.b8[:])
		}
		s.c.WriteHostData(now, cmd, 0, cmd.DataLen)
	case nvmectrl.OpWrite:
		for pg := (off + 4095) / 4096; pg*4096 < off+n; pg++ {
			s.c.CopyFromHost(cmd, int(pg*4096-off), s.b8[:])
			s.stamps[pg] = binary.LittleEndian.Uint64(s.b8[:])
		}
		s.eng.Schedule(s.c.ReadHostData(now, cmd, 0, cmd.DataLen), s, cmd, stubDone)
		return
	case nvmectrl.OpDatasetManagement:
		b := make([]byte, cmd.DataLen)
		s.c.CopyFromHost(cmd, 0, b)
		for i := 0; i < len(b); i += 16 {
			s.ranges = append(s.ranges, DecodeRange(b[i:]))
		}
	}
	s.complete(now, cmd)
}

func (s *stubDevice) complete(now sim.Time, cmd *nvmectrl.Command) {
	l := bufferlevel.Low
	if len(s.levels) > 0 {
		l, s.levels = s.levels[0], s.levels[1:]
	}
	s.c.Complete(now, cmd, s.status, 0, l)
}

// done is one completion the stub block layer saw.
type done struct {
	at  sim.Time
	rq  *blk.Request
	err error
}

// stubUpper is the block layer: it records completions and restarts.
type stubUpper struct {
	keep       bool
	dones      []done
	restarts   []sim.Time
	onComplete func(now sim.Time, rq *blk.Request)
	onRestart  func(now sim.Time)
}

func (u *stubUpper) Complete(now sim.Time, rq *blk.Request, err error) {
	if u.keep {
		u.dones = append(u.dones, done{now, rq, err})
	}
	if u.onComplete != nil {
		u.onComplete(now, rq)
	}
}

func (u *stubUpper) Restart(now sim.Time) {
	u.restarts = append(u.restarts, now)
	if u.onRestart != nil {
		u.onRestart(now)
	}
}

type rig struct {
	eng   *sim.Engine
	link  *pcie.Link
	ctrl  *nvmectrl.Controller
	dev   *stubDevice
	up    *stubUpper
	d     *Driver
	cores []*sim.Core
}

// hostFreq is the test hosts' core clock: 3 GHz, a 333.33 ps cycle.
const hostFreq = 3 * sim.GHz

// stubLatency is the stub device's fixed service time.
const stubLatency = 20 * sim.Microsecond

// ctrlSpec is the controller's DefaultSpec with a 4 KiB-LBA namespace.
func ctrlSpec() nvmectrl.Spec {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	return cs
}

func newRig(t testing.TB, spec Spec, cs nvmectrl.Spec, ncores int) *rig {
	eng := sim.NewEngine()
	link := pcie.NewLink("pcie", pcie.DefaultSpec())
	mem := nvmectrl.NewHostMemory()
	ctrl := nvmectrl.New("nvme", cs, eng, link, mem)
	dev := &stubDevice{eng: eng, c: ctrl, latency: stubLatency, stamps: map[int64]uint64{}, keep: true}
	ctrl.SetFirmware(dev)
	var cores []*sim.Core
	for i := range ncores {
		cores = append(cores, sim.NewCore("host.cpu"+string(rune('0'+i)), sim.NewClock(hostFreq)))
	}
	d, err := New("nvme0", spec, eng, ctrl, cores)
	require.NoError(t, err)
	up := &stubUpper{keep: true}
	d.SetUpper(up)
	return &rig{eng: eng, link: link, ctrl: ctrl, dev: dev, up: up, d: d, cores: cores}
}

// at runs f at time t.
func (r *rig) at(t sim.Time, f func()) { r.eng.At(t, f) }

// sqeAt returns the SQE in slot i of I/O queue qid's ring in host memory.
func (r *rig) sqeAt(qid int, i int) nvmectrl.SQE {
	var e nvmectrl.SQE
	r.ctrl.Memory().ReadSQE(r.d.queues[qid-1].sqBase+uint64(i)*nvmectrl.SQESize, &e)
	return e
}

func rw(op blk.Op, off, size int64) *blk.Request {
	return &blk.Request{Op: op, Offset: off, Size: size}
}
