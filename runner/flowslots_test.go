package runner

import (
	"bytes"
	"encoding/json"
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

// slotSlice is one I/O command's slice on a controller slot track.
type slotSlice struct {
	track      string
	start, end sim.Time
}

func TestSlotTracksShowTheCommandsInFlight(t *testing.T) {
	// The tiny preset: two page reads of preconditioned (flash-resident) pages one after
	// the other, then four such reads submitted at the same time by four processes.
	//
	// The controller's free slots are a stack (nvmectrl takeSlot and releaseSlot) that
	// starts as 0, 1, 2, …: a command takes the top, and a released slot goes back on top.
	// The admin commands of the driver's start-up and the two serial reads each find every
	// slot free, so each takes slot 0 and gives it back before the next arrives. The four
	// reads of the burst are all held at once — each waits for a flash read (tR) and its
	// data-out, while the last SQE arrives within a few syscalls and fetches of the
	// first — so they take slots 0, 1, 2 and 3, one each. Every slice is on its slot's
	// track, so the serial reads are two slices on nvme.slot[0] and the burst is four
	// overlapping slices on nvme.slot[0] … nvme.slot[3]: a run's commands use nvme.slot[0]
	// up to nvme.slot[k−1], k the most commands the controller has held at once so far.
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	tl := report.NewTimeline(0, sim.Second)
	tl.Attach(m.Resources()...)
	TraceFlows(m.SSD, tl)
	page := int64(c.Firmware.PageSize)
	dev, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*page)
	require.NoError(t, err)
	// Six mapped pages no two of them adjacent, so that the block layer merges none of
	// the reads into another.
	var mapped []int64
	for l := int64(0); l < m.SSD.FW.LogicalPages() && len(mapped) < 6; l++ {
		if m.SSD.FW.FTL().Lookup(l) != ftl.NoUnit && (len(mapped) == 0 || l > mapped[len(mapped)-1]+1) {
			mapped = append(mapped, l)
		}
	}
	require.Len(t, mapped, 6, "the tiny preset is half preconditioned")
	read := func(p *sim.Proc, l int64) {
		_, err := dev.Do(p, uflip.OpRead, l*page, page)
		require.NoError(t, err)
	}
	var burst sim.Signal
	started := false
	m.Eng.Spawn("serial", func(p *sim.Proc) {
		read(p, mapped[0])
		read(p, mapped[1])
		started = true
		burst.Broadcast()
	})
	done := 0
	for i := range 4 {
		m.Eng.Spawn("burst", func(p *sim.Proc) {
			for !started {
				p.Wait(&burst)
			}
			read(p, mapped[2+i])
			if done++; done == 4 {
				m.Eng.Stop()
			}
		})
	}
	m.Eng.Run()
	require.Equal(t, 4, done)

	var b bytes.Buffer
	require.NoError(t, tl.WriteJSON(&b))
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc))
	type key struct{ pid, tid int }
	track := map[key]string{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct{ Name string }
			require.NoError(t, json.Unmarshal(e.Args, &a))
			track[key{e.Pid, e.Tid}] = a.Name
		}
	}
	var reads []slotSlice
	for _, e := range doc.TraceEvents {
		name := track[key{e.Pid, e.Tid}]
		if e.Ph != "X" || !strings.HasPrefix(name, "nvme.slot[") {
			continue
		}
		if strings.HasPrefix(e.Name, "admin") {
			require.Equal(t, "nvme.slot[0]", name, "start-up admin command %q", e.Name)
			continue
		}
		require.True(t, strings.HasPrefix(e.Name, "Read "), e.Name)
		from := ps(t, e.Ts)
		reads = append(reads, slotSlice{name, from, from + ps(t, e.Dur)})
	}
	require.Len(t, reads, 6)
	// The spans are written in the order the commands arrived (each takes a new record:
	// none ended before the window).
	require.Equal(t, "nvme.slot[0]", reads[0].track)
	require.Equal(t, "nvme.slot[0]", reads[1].track)
	require.LessOrEqual(t, reads[0].end, reads[1].start, "the serial reads do not overlap")
	var tracks []string
	for _, r := range reads[2:] {
		tracks = append(tracks, r.track)
		require.Less(t, reads[1].end, r.start, "the burst follows the serial reads")
		for _, o := range reads[2:] {
			require.Less(t, o.start, r.end, "the burst's four commands are in flight together")
		}
	}
	require.ElementsMatch(t, []string{"nvme.slot[0]", "nvme.slot[1]", "nvme.slot[2]", "nvme.slot[3]"}, tracks)
}
