package replay_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fiveRequests is a DiskSim ASCII trace (time in ns, device, 512 B sector, sectors, 1 = read,
// 0 = write) whose first request is at 7 ms: times relative to it are 0, 1, 1.5, 1.5 and
// 4 ms.
const fiveRequests = `7000000 0 0 8 0
8000000 0 8 8 1
8500000 0 64 16 0
8500000 0 128 8 1
11000000 0 256 8 0
`

// records parses the per-request CSV into rows of fields, checking the header.
func records(t *testing.T, b []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, strings.Split(strings.TrimSpace(replay.RecordsHeader), ","), rows[0])
	return rows[1:]
}

func field(t *testing.T, row []string, i int) int64 {
	t.Helper()
	v, err := strconv.ParseInt(row[i], 10, 64)
	require.NoError(t, err)
	return v
}

// TestTimedIssueTimes replays the five-request trace at TimeScale 1/2, starting 10 µs into
// the simulation: request k is issued exactly at 10 µs + its scaled trace time, i.e. at
// 10 µs + (0, 0.5, 0.75, 0.75, 2) ms, nothing is late, and every latency is positive.
func TestTimedIssueTimes(t *testing.T) {
	m, raw := tiny(t)
	var out bytes.Buffer
	var res *replay.Result
	run(t, m, func(p *sim.Proc) {
		p.Sleep(10 * sim.Microsecond)
		rd, err := trace.NewReader(strings.NewReader(fiveRequests), "five",
			replay.FitOptions(trace.Options{Format: trace.DiskSim, TimeScale: trace.Ratio{Num: 1, Den: 2}}, raw))
		require.NoError(t, err)
		res, err = replay.Run(p, raw, rd, replay.Options{Mode: replay.Timed, Records: &out})
		require.NoError(t, err)
	})
	start := 10 * sim.Microsecond
	want := []sim.Time{0, 500 * sim.Microsecond, 750 * sim.Microsecond, 750 * sim.Microsecond, 2 * sim.Millisecond}
	rows := records(t, out.Bytes())
	require.Len(t, rows, 5)
	issued := map[int64]sim.Time{} // trace line → issue time (records come in completion order)
	for _, row := range rows {
		line := field(t, row, 0)
		require.Equal(t, want[line-1], sim.Time(field(t, row, 1)), "trace time of line %d", line)
		issued[line] = sim.Time(field(t, row, 2))
		require.Positive(t, field(t, row, 6), "latency of line %d", line)
		require.Equal(t, "0", row[7], "late")
		require.Equal(t, "0", row[8], "error")
	}
	for k, w := range want {
		require.Equal(t, w, issued[int64(k+1)], "request %d issued at its scaled time after the start", k+1)
	}
	require.Equal(t, start, res.Start)
	require.Equal(t, start, res.FirstIssue)
	require.Equal(t, start+2*sim.Millisecond, res.LastIssue)
	require.Equal(t, int64(5), res.Requests)
	require.Equal(t, int64(2), res.Count[trace.Read])
	require.Equal(t, int64(3), res.Count[trace.Write])
	// Bytes by hand: reads 8+8 sectors, writes 8+16+8 sectors, of 512 B.
	require.Equal(t, int64(16*512), res.Bytes[trace.Read])
	require.Equal(t, int64(32*512), res.Bytes[trace.Write])
	require.Zero(t, res.Late)
	require.GreaterOrEqual(t, res.LastCompletion, res.LastIssue)
}

// TestTimedLate bounds the replay to one request in flight and gives it three requests due
// at once: the first is issued on time, each of the others as soon as its predecessor
// completes (issue = previous issue + previous latency), and both count as late by exactly
// that wait.
func TestTimedLate(t *testing.T) {
	m, raw := tiny(t)
	reqs := []trace.Request{
		{Op: trace.Write, Offset: 0, Size: 4096, Line: 1},
		{Op: trace.Read, Offset: 0, Size: 4096, Line: 2},
		{Op: trace.Read, Offset: 8192, Size: 4096, Line: 3},
	}
	var out bytes.Buffer
	var res *replay.Result
	run(t, m, func(p *sim.Proc) {
		var err error
		res, err = replay.Run(p, raw, replay.FromSlice(reqs), replay.Options{Mode: replay.Timed, MaxOutstanding: 1, Records: &out})
		require.NoError(t, err)
	})
	rows := records(t, out.Bytes())
	require.Len(t, rows, 3)
	var lateness sim.Time
	for k, row := range rows {
		require.Equal(t, int64(k+1), field(t, row, 0), "one at a time: completion order is trace order")
		if k == 0 {
			require.Zero(t, field(t, row, 2))
			require.Equal(t, "0", row[7])
			continue
		}
		prev := rows[k-1]
		require.Equal(t, field(t, prev, 2)+field(t, prev, 6), field(t, row, 2), "issued when the previous completed")
		require.Equal(t, "1", row[7])
		lateness += sim.Time(field(t, row, 2))
	}
	require.Equal(t, int64(2), res.Late)
	s, ok := res.Lateness.Sum()
	require.True(t, ok)
	require.Equal(t, int64(lateness), s)
	require.Equal(t, 1, res.Peak)
}

// TestReplayDeterminism replays the same 300-request trace (a mix of 4–16 KiB reads and
// writes every 20 µs) twice, timed, on fresh machines: the results and the per-request
// records are identical.
func TestReplayDeterminism(t *testing.T) {
	var reqs []trace.Request
	for i := range int64(300) {
		op := trace.Read
		if i%3 == 0 {
			op = trace.Write
		}
		reqs = append(reqs, trace.Request{Time: sim.Time(i) * 20 * sim.Microsecond, Op: op,
			Offset: (i * 7919 % 4096) * 4096, Size: 4096 * (1 + i%4), Line: int(i + 1)})
	}
	once := func() (*replay.Result, string) {
		m, raw := tiny(t)
		var out bytes.Buffer
		var res *replay.Result
		run(t, m, func(p *sim.Proc) {
			var err error
			res, err = replay.Run(p, raw, replay.FromSlice(reqs), replay.Options{Records: &out})
			require.NoError(t, err)
		})
		return res, out.String()
	}
	a, ra := once()
	b, rb := once()
	require.Equal(t, ra, rb)
	require.Equal(t, int64(300), a.Requests)
	for op := range replay.NumOps {
		ha, hb := &a.Latency[op], &b.Latency[op]
		require.Equal(t, ha.Count(), hb.Count())
		require.Equal(t, ha.Min(), hb.Min())
		require.Equal(t, ha.Max(), hb.Max())
		sa, _ := ha.Sum()
		sb, _ := hb.Sum()
		require.Equal(t, sa, sb)
		for _, q := range []float64{0.5, 0.9, 0.99} {
			require.Equal(t, ha.Quantile(q), hb.Quantile(q))
		}
	}
	require.Equal(t, a.LastCompletion, b.LastCompletion)
	require.Equal(t, a.Late, b.Late)
}

// TestReplayOps checks the mapping of every trace operation: a trim becomes one discard bio
// and a flush one flush bio; writes marked FUA in the trace never merge.
func TestReplayOps(t *testing.T) {
	m, raw := tiny(t)
	reqs := []trace.Request{
		{Op: trace.Write, Offset: 0, Size: 8192, Flags: trace.FlagFUA, Line: 1},
		{Op: trace.Write, Offset: 8192, Size: 8192, Flags: trace.FlagFUA, Line: 2},
		{Op: trace.Trim, Offset: 1 << 20, Size: 1 << 20, Line: 3},
		{Op: trace.Flush, Line: 4},
		{Op: trace.Read, Offset: 0, Size: 16384, Line: 5},
	}
	var res *replay.Result
	run(t, m, func(p *sim.Proc) {
		var err error
		res, err = replay.Run(p, raw, replay.FromSlice(reqs), replay.Options{Mode: replay.AsFastAsPossible, QueueDepth: 8})
		require.NoError(t, err)
	})
	require.Equal(t, [replay.NumOps]int64{1, 2, 1, 1}, res.Count)
	require.Equal(t, [replay.NumOps]int64{16384, 16384, 1 << 20, 0}, res.Bytes)
	st := m.Host.Queue.Stats()
	require.Equal(t, int64(5), st.Bios)
	require.Zero(t, st.BackMerges+st.FrontMerges+st.RequestMerges, "FUA writes do not merge")
	require.Equal(t, uint64(1), st.BioLatency[blk.OpDiscard].Count(), "one discard")
	require.Equal(t, uint64(1), st.BioLatency[blk.OpFlush].Count(), "one flush")
	require.Equal(t, 5, res.Peak, "QD 8 issues all five at once")
}

// TestReplayStops checks the requests that stop a replay, each with an error naming the
// request and its trace line; the requests issued before it still complete.
func TestReplayStops(t *testing.T) {
	ok := trace.Request{Op: trace.Read, Offset: 0, Size: 4096, Line: 1}
	cases := []struct {
		name string
		bad  trace.Request
		want string
	}{
		{"unaligned", trace.Request{Op: trace.Read, Offset: 512, Size: 4096, Line: 9}, "request 2 (trace line 9, read of 4096 B at 512): not aligned to the device's 4096-byte blocks"},
		{"past capacity", trace.Request{Op: trace.Write, Offset: 50331648, Size: 4096, Line: 9}, "past the device's 50331648 B"},
		{"empty", trace.Request{Op: trace.Write, Offset: 0, Size: 0, Line: 9}, "size is not positive"},
		{"bad op", trace.Request{Op: trace.Op(7), Offset: 0, Size: 4096, Line: 9}, "unknown operation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, raw := tiny(t)
			run(t, m, func(p *sim.Proc) {
				res, err := replay.Run(p, raw, replay.FromSlice([]trace.Request{ok, c.bad, ok}), replay.Options{})
				require.ErrorContains(t, err, c.want)
				require.Equal(t, int64(1), res.Requests)
			})
		})
	}
	// A malformed trace line stops the replay with the reader's error.
	m, raw := tiny(t)
	run(t, m, func(p *sim.Proc) {
		rd, err := trace.NewReader(strings.NewReader("0 0 0 8 1\n1000 0 8 x 1\n"), "bad", trace.Options{Format: trace.DiskSim})
		require.NoError(t, err)
		res, err := replay.Run(p, raw, rd, replay.Options{})
		require.ErrorContains(t, err, "bad:2:")
		require.Equal(t, int64(1), res.Requests)
	})
}

// TestFitOptions checks the reader options derived from the device: capacity and sector.
func TestFitOptions(t *testing.T) {
	_, raw := tiny(t)
	cases := []struct {
		in               trace.Options
		capacity, sector int64
	}{
		{trace.Options{}, 50331648, 4096},
		{trace.Options{Capacity: 1 << 20, SectorSize: 512}, 1 << 20, 4096},
		{trace.Options{Capacity: 1 << 40, SectorSize: 8192}, 50331648, 8192},
	}
	for _, c := range cases {
		o := replay.FitOptions(c.in, raw)
		require.Equal(t, c.capacity, o.Capacity, "%+v", c.in)
		require.Equal(t, c.sector, o.SectorSize, "%+v", c.in)
		require.NoError(t, o.Validate())
	}
}

// TestOptionsValidate checks that every problem is reported with its field.
func TestOptionsValidate(t *testing.T) {
	require.NoError(t, replay.Options{}.Validate(), "zero means defaults")
	require.NoError(t, replay.DefaultOptions().Validate())
	err := replay.Options{Mode: 5, QueueDepth: -1, MaxOutstanding: 1 << 20, MaxRequests: -3}.Validate()
	for _, want := range []string{"replay.mode: 5", "replay.queue_depth: -1", "replay.max_outstanding: 1048576", "replay.max_requests: -3"} {
		require.ErrorContains(t, err, want)
	}
	m, raw := tiny(t)
	_, err = replay.Start(m.Eng, raw, replay.FromSlice(nil), replay.Options{QueueDepth: -1})
	require.ErrorContains(t, err, "queue_depth")
	_, err = replay.Start(m.Eng, nil, replay.FromSlice(nil), replay.Options{})
	require.Error(t, err)
}

// TestParseMode checks the mode names and the text round trip.
func TestParseMode(t *testing.T) {
	cases := []struct {
		in   string
		want replay.Mode
		ok   bool
	}{
		{"timed", replay.Timed, true}, {"AFAP", replay.AsFastAsPossible, true},
		{"as_fast_as_possible", replay.AsFastAsPossible, true}, {" Timed ", replay.Timed, true},
		{"fast", 0, false}, {"", 0, false},
	}
	for _, c := range cases {
		m, err := replay.ParseMode(c.in)
		if !c.ok {
			require.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, m)
		b, err := m.MarshalText()
		require.NoError(t, err)
		var back replay.Mode
		require.NoError(t, back.UnmarshalText(b))
		require.Equal(t, m, back)
	}
	_, err := replay.Mode(9).MarshalText()
	require.Error(t, err)
	require.Equal(t, "mode(9)", replay.Mode(9).String())
}

// FuzzParseMode checks that ParseMode never panics and that what it accepts round-trips.
func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"timed", "afap", "as-fast-as-possible", "TIMED", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := replay.ParseMode(s)
		if err != nil {
			return
		}
		back, err := replay.ParseMode(m.String())
		if err != nil || back != m {
			t.Fatalf("%q → %v does not round-trip", s, m)
		}
	})
}

// ExampleRun replays three requests as fast as possible, two at a time, on the tiny machine.
func ExampleRun() {
	m, raw := tinyMachine()
	defer m.Eng.Close()
	reqs := []trace.Request{
		{Op: trace.Write, Offset: 0, Size: 8192, Line: 1},
		{Op: trace.Read, Offset: 0, Size: 4096, Line: 2},
		{Op: trace.Read, Offset: 1 << 20, Size: 4096, Line: 3},
	}
	m.Eng.Spawn("replay", func(p *sim.Proc) {
		res, err := replay.Run(p, raw, replay.FromSlice(reqs), replay.Options{Mode: replay.AsFastAsPossible, QueueDepth: 2})
		fmt.Println("error:", err)
		fmt.Println("reads:", res.Count[trace.Read], "writes:", res.Count[trace.Write], "bytes written:", res.Bytes[trace.Write])
		fmt.Println("peak in flight:", res.Peak)
	})
	m.Eng.Run()
	// Output:
	// error: <nil>
	// reads: 2 writes: 1 bytes written: 8192
	// peak in flight: 2
}
