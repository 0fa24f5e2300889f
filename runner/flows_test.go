package runner

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// traceEvent is one event of the timeline's JSON, as a trace viewer reads it.
type traceEvent struct {
	Ph   string          `json:"ph"`
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	ID   *int            `json:"id"`
	Bp   string          `json:"bp"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Ts   json.Number     `json:"ts"`
	Dur  json.Number     `json:"dur"`
	Args json.RawMessage `json:"args"`
}

// ps reads a trace time (µs with six decimals) back to picoseconds.
func ps(t *testing.T, n json.Number) sim.Time {
	whole, frac, _ := strings.Cut(string(n), ".")
	frac = (frac + "000000")[:6]
	v, err := sim.ParseTime(whole + frac + "ps")
	require.NoError(t, err, n)
	return v
}

// fewCommands runs, on the tiny preset, one page write of logical page w, a read of page r
// (preconditioned, on flash), a read of w (in the buffer) and a flush (which has w
// evicted), one after the other, and returns the machine and their latencies.
func fewCommands(t *testing.T, tl *report.Timeline) (*platforms.Machine, int64, int64, []sim.Time) {
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	if tl != nil {
		tl.Attach(m.Resources()...)
		TraceFlows(m.SSD, tl)
	}
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	dev, err := hostos.NewRawDevice(m.Host, capacity)
	require.NoError(t, err)
	page := int64(c.Firmware.PageSize)
	r, w := int64(-1), int64(-1)
	for l := range m.SSD.FW.LogicalPages() {
		mapped := m.SSD.FW.FTL().Lookup(l) != ftl.NoUnit
		if mapped && r < 0 {
			r = l
		}
		if !mapped && w < 0 {
			w = l
		}
	}
	require.True(t, r >= 0 && w >= 0, "the tiny preset is half preconditioned")
	var lat []sim.Time
	m.Eng.Spawn("io", func(p *sim.Proc) {
		defer m.Eng.Stop()
		for _, io := range []struct {
			op       uflip.Op
			off, len int64
		}{{uflip.OpWrite, w * page, page}, {uflip.OpRead, r * page, page}, {uflip.OpRead, w * page, page}, {uflip.OpFlush, 0, 0}} {
			d, err := dev.Do(p, io.op, io.off, io.len)
			require.NoError(t, err)
			lat = append(lat, d)
		}
	})
	m.Eng.Run()
	m.SSD.Sync(m.Eng.Now())
	return m, r, w, lat
}

func TestFlowsOfAFewCommands(t *testing.T) {
	tl := report.NewTimeline(0, sim.Second)
	m, r, w, lat := fewCommands(t, tl)
	defer m.Eng.Close()
	var b bytes.Buffer
	require.NoError(t, tl.WriteJSON(&b))
	var doc struct {
		DisplayTimeUnit string       `json:"displayTimeUnit"`
		TraceEvents     []traceEvent `json:"traceEvents"`
	}
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc), "the file is one JSON document")

	type key struct{ pid, tid int }
	track := map[key]string{}
	slices := map[key][]traceEvent{}
	starts := map[int]traceEvent{}
	var ends []traceEvent
	for _, e := range doc.TraceEvents {
		k := key{e.Pid, e.Tid}
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				var a struct{ Name string }
				require.NoError(t, json.Unmarshal(e.Args, &a))
				track[k] = a.Name
			}
		case "X":
			slices[k] = append(slices[k], e)
		case "s":
			require.NotNil(t, e.ID)
			require.NotContains(t, starts, *e.ID, "one start per flow id")
			starts[*e.ID] = e
		case "f":
			require.NotNil(t, e.ID)
			require.Equal(t, "e", e.Bp, "the end binds to the slice enclosing it")
			ends = append(ends, e)
		}
	}
	// enclosing returns the slice of track k that holds time ts: the one a viewer binds a
	// flow event to.
	enclosing := func(k key, ts sim.Time) *traceEvent {
		for i, x := range slices[k] {
			if from := ps(t, x.Ts); from <= ts && ts < from+ps(t, x.Dur) {
				return &slices[k][i]
			}
		}
		return nil
	}

	// The four commands, one after the other, each in controller slot 0 (the run is at
	// queue depth 1), named by opcode, SQ and CID.
	var cmds []traceEvent
	for k, xs := range slices {
		if strings.HasPrefix(track[k], "nvme.slot[") {
			for _, x := range xs {
				if !strings.HasPrefix(x.Name, "admin") {
					cmds = append(cmds, x)
				}
			}
		}
	}
	require.Len(t, cmds, 4)
	var names []string
	for _, x := range cmds {
		names = append(names, strings.Fields(x.Name)[0])
	}
	require.ElementsMatch(t, []string{"Write", "Read", "Read", "Flush"}, names)

	// Every flow's two ends, by hand: which command it leaves and which interval it ends on.
	geo := m.SSD.FW.FTL().Geometry()
	dieTrack := func(l int64) (die, ch string) {
		g := geo.Addr(m.SSD.FW.FTL().PageOf(m.SSD.FW.FTL().Lookup(l))).Die
		per := m.SSD.Channels[0].NumDies()
		return "ch[" + itoa(g/per) + "].die[" + itoa(g%per) + "]", "ch[" + itoa(g/per) + "]"
	}
	rDie, rCh := dieTrack(r)
	wDie, _ := dieTrack(w) // where the flush's eviction programmed w
	type link struct{ cmd, target, slice string }
	var got []link
	for _, f := range ends {
		s, ok := starts[*f.ID]
		require.True(t, ok, "flow %d has a start", *f.ID)
		require.Equal(t, s.Cat, f.Cat)
		src := enclosing(key{s.Pid, s.Tid}, ps(t, s.Ts))
		require.NotNil(t, src, "flow %d starts inside a command's slice", *f.ID)
		require.Equal(t, src.Name, s.Name)
		dst := enclosing(key{f.Pid, f.Tid}, ps(t, f.Ts))
		require.NotNil(t, dst, "flow %d ends inside an interval", *f.ID)
		got = append(got, link{strings.Fields(src.Name)[0] + " " + itoa(int(ps(t, src.Ts))), track[key{f.Pid, f.Tid}], dst.Name})
	}
	// The write: its data written into DRAM (one DMA chunk, one page), and the eviction the
	// flush waited for, which programs the version the write stored on the die the FTL
	// mapped w to. The first read (page r, on flash): the sense on r's die and the data-out
	// on that die's channel. The second read (w, in the buffer) and the flush cause no
	// flash or DRAM work of their own: no flows.
	wr, rd := earliest(t, cmds, "Write"), earliest(t, cmds, "Read")
	progs := map[string]bool{"program-lsb": true, "program-csb": true, "program-msb": true}
	var prog link
	for _, l := range got {
		if l.target == wDie && l.cmd == wr {
			prog = l
		}
	}
	require.True(t, progs[prog.slice], "the eviction's program: %+v in %+v", prog, got)
	require.ElementsMatch(t, []link{
		{wr, "dram.bus", "write"},
		{wr, wDie, prog.slice},
		{rd, rDie, "read"},
		{rd, rCh, "data-out"},
	}, got)
	require.Equal(t, 4, tl.Flows())

	// Tracing changes nothing that is simulated: the same commands without a timeline take
	// the same times.
	m2, _, _, lat2 := fewCommands(t, nil)
	defer m2.Eng.Close()
	require.Equal(t, lat, lat2)
}

// earliest returns "OP <start in ps>" of the earliest command slice of opcode op.
func earliest(t *testing.T, cmds []traceEvent, op string) string {
	best := sim.Time(-1)
	for _, x := range cmds {
		if strings.HasPrefix(x.Name, op+" ") {
			if ts := ps(t, x.Ts); best < 0 || ts < best {
				best = ts
			}
		}
	}
	return op + " " + itoa(int(best))
}

func itoa(i int) string { return strconv.Itoa(i) }
