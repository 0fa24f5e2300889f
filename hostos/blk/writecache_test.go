package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// cacheDev is a fakeDev whose driver reports the device's volatile write cache, as the
// NVMe driver does from Identify Controller VWC bit 0.
type cacheDev struct {
	*fakeDev
	vwc bool
}

func (d cacheDev) VolatileWriteCache() bool { return d.vwc }

// cacheQueue builds a queue over a device reporting vwc, with setting wc and no merges.
func cacheQueue(t *testing.T, wc WriteCache, vwc bool, lat func(sim.Time, *Request) sim.Time) (*sim.Engine, *Queue, *fakeDev) {
	spec := DefaultSpec()
	spec.Merges = false
	spec.WriteCache = wc
	eng := sim.NewEngine()
	dev := &fakeDev{eng: eng, latency: lat, record: true}
	q, err := New("nvme0n1", eng, spec, cacheDev{dev, vwc})
	require.NoError(t, err)
	dev.q = q
	return eng, q, dev
}

// TestWriteCacheResolves: auto takes what the driver reports; true and false override it
// (writing sysfs queue/write_cache); a driver that reports nothing is write back.
func TestWriteCacheResolves(t *testing.T) {
	for _, c := range []struct {
		wc        WriteCache
		vwc, want bool
	}{{WriteCacheAuto, false, false}, {WriteCacheAuto, true, true}, {WriteCacheOn, false, true},
		{WriteCacheOff, true, false}} {
		_, q, _ := cacheQueue(t, c.wc, c.vwc, fixed(sim.Microsecond))
		require.Equal(t, c.want, q.WriteCache(), "%v over a device with VWC %v", c.wc, c.vwc)
	}
	_, q, _ := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	require.True(t, q.WriteCache(), "auto over a driver that reports nothing")
}

// TestWriteCacheAutoWBT: ten REQ_BACKGROUND 4 KiB writes at 0, write i (at 64 KiB × i)
// taking (i+1) × 10 µs on the device, wbt at step 0 (wb_background 4, wb_normal 8), no
// recent dirty sleep. Worked by hand from wbt_rqw_done (limit 0 with a write cache,
// wb_normal without; wake if the count is 0 or limit − inflight ≥ wb_background/2 = 2):
//
//   - Device without a volatile write cache (VWC 0, auto → write through): writes 0–3 go
//     at 0 and complete at 10, 20, 30, 40 µs. Each completion leaves 3 in flight,
//     8 − 3 = 5 ≥ 2: the first waiter goes then. Write 4 at 10 → done 60; 5 at 20 → 80;
//     6 at 30 → 100; 7 at 40 → 120; 8 at 60 (write 4's completion) → 150; 9 at 80 → 180.
//   - Device with one (VWC 1, auto → write back): waiters wake only at 0 in flight, at
//     40 µs: writes 4–7 go and complete at 90, 100, 110, 120; at 120 the count is 0
//     again and writes 8 and 9 go, done at 210 and 220 µs.
//
// A flush bio completes at 0 without reaching the device in the first case and reaches
// it in the second.
func TestWriteCacheAutoWBT(t *testing.T) {
	us := sim.Microsecond
	lat := func(_ sim.Time, rq *Request) sim.Time { return sim.Time(rq.Offset/(64*kib)+1) * 10 * us }
	for _, c := range []struct {
		vwc     bool
		want    []sim.Time // write i's completion, µs
		devices int        // requests the device saw, the flush's included
	}{
		{false, []sim.Time{10, 20, 30, 40, 60, 80, 100, 120, 150, 180}, 10},
		{true, []sim.Time{10, 20, 30, 40, 90, 100, 110, 120, 210, 220}, 11},
	} {
		eng, q, dev := cacheQueue(t, WriteCacheAuto, c.vwc, lat)
		done := newDoneLog()
		bios := make([]*Bio, 10)
		for i := range bios {
			bios[i] = &Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib, Background: true, Done: done}
			q.Submit(bios[i])
		}
		flush := &Bio{Op: OpFlush, Done: done}
		q.Submit(flush)
		eng.Run()
		for i, b := range bios {
			require.Equal(t, []sim.Time{c.want[i] * us}, done.at[b], "VWC %v: write %d", c.vwc, i)
		}
		require.Len(t, dev.log, c.devices, "VWC %v", c.vwc)
		if !c.vwc {
			require.Equal(t, []sim.Time{0}, done.at[flush], "write through: the flush is done at once")
		}
	}
}

// TestWriteCacheYAML: the key takes auto, true or false; anything else names the line.
func TestWriteCacheYAML(t *testing.T) {
	for in, want := range map[string]WriteCache{"auto": WriteCacheAuto, "true": WriteCacheOn, "false": WriteCacheOff} {
		s := DefaultSpec()
		require.NoError(t, yaml.Unmarshal([]byte("write_cache: "+in), &s))
		require.Equal(t, want, s.WriteCache)
		out, err := yaml.Marshal(s)
		require.NoError(t, err)
		var back Spec
		require.NoError(t, yaml.Unmarshal(out, &back), "config show's output reads back")
		require.Equal(t, want, back.WriteCache)
	}
	s := DefaultSpec()
	err := yaml.Unmarshal([]byte("scheduler: none\nwrite_cache: yes please"), &s)
	require.ErrorContains(t, err, `line 2: write cache "yes please" is not one of auto, true, false`)
	err = yaml.Unmarshal([]byte("write_cache: [true]"), &s)
	require.ErrorContains(t, err, "line 1: write_cache must be auto, true or false")
	s.WriteCache = 7
	require.ErrorContains(t, s.Validate(), "blk.write_cache: WriteCache(7) is not one of auto, true, false")
}

// FuzzParseWriteCache: ParseWriteCache accepts exactly the three names, each of which
// String gives back, and rejects anything else with an error naming the value.
func FuzzParseWriteCache(f *testing.F) {
	for _, s := range []string{"auto", "true", "false", "", "True", "on", "write back", "auto "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseWriteCache(s)
		if err != nil {
			require.ErrorContains(t, err, "is not one of auto, true, false")
			return
		}
		require.Equal(t, s, w.String())
		var y Spec
		require.NoError(t, yaml.Unmarshal([]byte("write_cache: "+w.String()), &y))
		require.Equal(t, w, y.WriteCache)
	})
}
