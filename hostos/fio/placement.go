package fio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flexible Data Placement from fio (fio HOWTO, fdp, fdp_pli, fdp_pli_select,
// dataplacement; fio's dataplacement.c). fio sends them with NVMe passthrough
// (io_uring_cmd on /dev/ngXnY), which bypasses the block layer and is not modelled; the
// simulator takes them on ioengine=io_uring with direct=1 on the namespace instead, as
// Linux 6.16's write streams carry them: each write names a stream (io_uring's
// sqe->write_stream), which the block layer keeps (requests of different streams do not
// merge) and the NVMe driver sends as the namespace's placement identifier of that index.
// fio's placement ID index i is write stream i+1 here. As in fio, only writes carry one:
// roundrobin (the default) takes the job's indices in turn, one a write, random takes one
// uniformly at random from the job's own stream; without fdp_pli every placement
// identifier of the namespace is used.

// StreamTarget is a Target whose writes can carry a write stream: the namespace opened
// O_DIRECT.
type StreamTarget interface {
	Target
	// WriteStreams returns the streams the namespace offers (one per FDP placement
	// identifier), 0 without Flexible Data Placement.
	WriteStreams() int
	// DoStream performs one I/O whose write carries write stream stream (1 …), with data
	// versions as DataTarget's DoData (nil: none).
	DoStream(p *sim.Proc, op uflip.Op, offset, size int64, stamps []uint64, stream int) (sim.Time, error)
}

// maxPlacementIDs bounds fdp_pli's list (fio's FIO_MAX_DP_IDS).
const maxPlacementIDs = 16

// Placement ID selection (fdp_pli_select).
const (
	pliRoundRobin = "roundrobin"
	pliRandom     = "random"
)

func setFDP(j *Job, v string, _ setCtx) error { return setParsed(&j.FDP, v, ParseBool) }

// setDataPlacement reads dataplacement: none or fdp; streams (the NVMe Streams directive)
// is refused.
func setDataPlacement(j *Job, v string, _ setCtx) error {
	switch strings.ToLower(v) {
	case "none":
		j.FDP = false
	case "fdp":
		j.FDP = true
	case "streams":
		return refuse("dataplacement=streams: the NVMe Streams directive is not modelled (the controller offers Flexible Data Placement: dataplacement=fdp)")
	default:
		return fmt.Errorf("%q is not one of none, fdp, streams", v)
	}
	return nil
}

// setFDPPLI reads fdp_pli (plids): a comma-separated list of placement ID indices, each a
// number or a range a-b, at most 16.
func setFDPPLI(j *Job, v string, _ setCtx) error {
	var ids []int
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.ParseUint(strings.TrimSpace(lo), 0, 16)
		if err != nil {
			return fmt.Errorf("%q is not a placement ID index (0 … 65535) or a range a-b", f)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(strings.TrimSpace(hi), 0, 16); err != nil || b < a {
				return fmt.Errorf("%q is not a range a-b of placement ID indices with a ≤ b", f)
			}
		}
		for i := a; i <= b; i++ {
			if len(ids) == maxPlacementIDs {
				return fmt.Errorf("%q lists more than fio's %d placement ID indices", v, maxPlacementIDs)
			}
			ids = append(ids, int(i))
		}
	}
	j.FDPPLI = ids
	return nil
}

func setFDPSelect(j *Job, v string, _ setCtx) error {
	switch v {
	case pliRoundRobin, pliRandom:
		j.FDPSelect = v
		return nil
	case "scheme":
		return refuse("fdp_pli_select=scheme: placement by an offset scheme file (dp_scheme) is not modelled; use roundrobin or random")
	}
	return fmt.Errorf("%q is not one of roundrobin, random, scheme", v)
}

// placementProblems checks the job's FDP options.
func (j Job) placementProblems(bad func(field, format string, a ...any)) {
	if !j.FDP {
		if len(j.FDPPLI) > 0 {
			bad("fdp_pli", "needs fdp=1 (or dataplacement=fdp)")
		}
		return
	}
	if j.IOEngine != "" && j.IOEngine != "io_uring" {
		bad("fdp", "needs ioengine=io_uring (the write streams that carry placement identifiers, Linux 6.16), not %s", j.IOEngine)
	}
	if !j.Direct {
		bad("fdp", "needs direct=1 (write streams are per O_DIRECT write)")
	}
	if j.Verify != "" {
		bad("fdp", "with verify is not modelled")
	}
}

// placer chooses the write stream of each of a copy's writes.
type placer struct {
	streams []int // the candidates, 1 …
	next    int   // roundrobin: the next candidate
	rng     *sim.RNG
}

// newPlacer resolves job j's placement ID indices against t's write streams for copy k.
func newPlacer(j Job, k int, t Target, name string) (*placer, error) {
	st, ok := t.(StreamTarget)
	if !ok || st.WriteStreams() == 0 {
		return nil, fmt.Errorf("%s: fdp=1: the namespace has no placement identifiers (Flexible Data Placement is off: --set nvme.fdp.enabled=true)", name)
	}
	n := st.WriteStreams()
	pl := &placer{}
	if len(j.FDPPLI) == 0 {
		for i := range n {
			pl.streams = append(pl.streams, i+1)
		}
	}
	for _, i := range j.FDPPLI {
		if i >= n {
			return nil, fmt.Errorf("%s: fdp_pli index %d: the namespace has %d placement identifiers (0 … %d)", name, i, n, n-1)
		}
		pl.streams = append(pl.streams, i+1)
	}
	if j.FDPSelect == pliRandom {
		pl.rng = sim.NewRNG(j.RandSeed, fmt.Sprintf("fio/%s/%d/fdp", j.Name, k))
	}
	return pl, nil
}

// stream returns the next write's stream.
func (pl *placer) stream() int {
	if pl.rng != nil {
		return pl.streams[pl.rng.IntN(len(pl.streams))]
	}
	s := pl.streams[pl.next]
	pl.next = (pl.next + 1) % len(pl.streams)
	return s
}
