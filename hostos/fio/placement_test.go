package fio

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// streamDev is a device with n write streams that records each I/O's stream (0 for an I/O
// sent without one, −1 for a plain Do).
type streamDev struct {
	n       int
	streams []int
	ops     []uflip.Op
}

func (d *streamDev) Do(p *sim.Proc, op uflip.Op, _, _ int64) (sim.Time, error) {
	d.streams, d.ops = append(d.streams, -1), append(d.ops, op)
	p.Sleep(sim.Microsecond)
	return sim.Microsecond, nil
}

func (d *streamDev) WriteStreams() int { return d.n }

func (d *streamDev) DoStream(p *sim.Proc, op uflip.Op, _, _ int64, _ []uint64, stream int) (sim.Time, error) {
	d.streams, d.ops = append(d.streams, stream), append(d.ops, op)
	p.Sleep(sim.Microsecond)
	return sim.Microsecond, nil
}

// TestFDPOptions: fdp=1 in [global] reaches every job; fdp_pli lists indices and ranges
// (0,2-4 is 0, 2, 3, 4), plids is its alias, dataplacement=fdp is fdp=1, and
// fdp_pli_select takes roundrobin or random.
func TestFDPOptions(t *testing.T) {
	jobs, err := decodeINIString("[global]\nioengine=io_uring\ndirect=1\nfilename=/dev/nvme0n1\nrw=randwrite\n" +
		"[a]\nfdp=1\nfdp_pli=0,2-4\nfdp_pli_select=random\n[b]\nfdp=1\nplids=7\n[c]\ndataplacement=fdp\n[d]\n")
	require.NoError(t, err)
	require.True(t, jobs[0].FDP)
	require.Equal(t, []int{0, 2, 3, 4}, jobs[0].FDPPLI)
	require.Equal(t, "random", jobs[0].FDPSelect)
	require.Equal(t, []int{7}, jobs[1].FDPPLI)
	require.True(t, jobs[2].FDP)
	require.Nil(t, jobs[2].FDPPLI)
	require.False(t, jobs[3].FDP)
}

// TestFDPOptionErrors: each bad use names its line and what is wrong.
func TestFDPOptionErrors(t *testing.T) {
	head := "[global]\nioengine=io_uring\ndirect=1\nfilename=/dev/nvme0n1\n[a]\n"
	for _, c := range []struct{ doc, want string }{
		{head + "fdp_pli=1\n", "jobs.fio:6: [a] fdp_pli: needs fdp=1"},
		{"[a]\nioengine=libaio\ndirect=1\nfdp=1\n", "jobs.fio:4: [a] fdp: needs ioengine=io_uring"},
		{"[a]\nioengine=io_uring\nfdp=1\n", "jobs.fio:3: [a] fdp: needs direct=1"},
		{head + "fdp=1\nfdp_pli=0-16\n", `jobs.fio:7: [a] fdp_pli: "0-16" lists more than fio's 16 placement ID indices`},
		{head + "fdp=1\nfdp_pli=4-2\n", `jobs.fio:7: [a] fdp_pli: "4-2" is not a range a-b`},
		{head + "fdp=1\nfdp_pli=x\n", `jobs.fio:7: [a] fdp_pli: "x" is not a placement ID index`},
		{head + "fdp=1\nfdp_pli_select=scheme\n", "fdp_pli_select=scheme: placement by an offset scheme file (dp_scheme) is not modelled"},
		{head + "dataplacement=streams\n", "dataplacement=streams: the NVMe Streams directive is not modelled"},
		{head + "fdp=1\nverify=crc32c\n", "jobs.fio:6: [a] fdp: with verify is not modelled"},
	} {
		_, err := decodeINIString(c.doc)
		require.ErrorContains(t, err, c.want, c.doc)
	}
}

// TestFDPStreamSelection: fdp_pli=1,3 is write streams 2 and 4 (index i is stream i+1).
// Round robin sends 6 writes on 2, 4, 2, 4, 2, 4; a rw=randrw job's reads carry no stream
// (plain Do). random picks each write's from {2, 4} on the job's own stream, the same on
// every run. A device without streams, and an index past its streams, are errors.
func TestFDPStreamSelection(t *testing.T) {
	job := func(pli []int, sel string, rw RW) Job {
		return Job{Name: "a", RW: rw, BS: 4096, IODepth: 1, NumJobs: 1, Size: 6 * 4096, Direct: true,
			FDP: true, FDPPLI: pli, FDPSelect: sel, RWMixRead: 50}
	}
	d := &streamDev{n: 4}
	_, err := runJobs(t, d, []Job{job([]int{1, 3}, "", Write)})
	require.NoError(t, err)
	require.Equal(t, []int{2, 4, 2, 4, 2, 4}, d.streams)

	d = &streamDev{n: 4}
	_, err = runJobs(t, d, []Job{job([]int{1, 3}, "", RandRW)})
	require.NoError(t, err)
	writes := []int{}
	for i, op := range d.ops {
		if op == uflip.OpRead {
			require.Equal(t, -1, d.streams[i], "a read carries no stream")
		} else {
			writes = append(writes, d.streams[i])
		}
	}
	require.NotEmpty(t, writes)
	for i, s := range writes {
		require.Equal(t, []int{2, 4}[i%2], s, "write %d", i)
	}

	pick := func() []int {
		d := &streamDev{n: 4}
		_, err := runJobs(t, d, []Job{job([]int{1, 3}, "random", Write)})
		require.NoError(t, err)
		return d.streams
	}
	a := pick()
	require.Equal(t, a, pick())
	for _, s := range a {
		require.Contains(t, []int{2, 4}, s)
	}

	_, err = runJobs(t, &streamDev{}, []Job{job(nil, "", Write)})
	require.ErrorContains(t, err, "fdp=1: the namespace has no placement identifiers")
	_, err = runJobs(t, &streamDev{n: 4}, []Job{job([]int{4}, "", Write)})
	require.ErrorContains(t, err, "fdp_pli index 4: the namespace has 4 placement identifiers (0 … 3)")
}

// FuzzFDPPLI fuzzes fdp_pli's parser: it never panics, and a list it accepts holds 1 … 16
// indices, each a placement ID index 0 … 65535.
func FuzzFDPPLI(f *testing.F) {
	for _, s := range []string{"0", "0,2-4", "1, 3", "0-15", "0-16", "4-2", "", ",", "0x10", "-1", "1-", "65535", "65536", "0-65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var j Job
		if err := setFDPPLI(&j, s, setCtx{}); err != nil {
			return
		}
		if len(j.FDPPLI) < 1 || len(j.FDPPLI) > maxPlacementIDs {
			t.Fatalf("fdp_pli=%q gave %d indices", s, len(j.FDPPLI))
		}
		for _, i := range j.FDPPLI {
			if i < 0 || i > 0xFFFF {
				t.Fatalf("fdp_pli=%q gave index %d", s, i)
			}
		}
	})
}
