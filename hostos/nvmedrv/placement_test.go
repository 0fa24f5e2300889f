package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/stretchr/testify/require"
)

// TestWriteStreamPlacement: with Flexible Data Placement on (Identify Controller CTRATT bit
// 19) and 4 reclaim unit handles, namespace 1 (no placement handle list: every handle) has
// placement identifiers 0 … 3, so 4 write streams; namespace 2, whose list is handles 3 and
// 1, has identifiers 0 and 1. A write of stream s carries DTYPE 2h (CDW12 bits 23:20: byte
// 50 = 0x20) and identifier s−1 in DSPEC (bytes 54–55), beside a victimization hint in
// CDW2; a write without a stream and a read carry neither. On namespace 2, stream 2 is
// identifier 1 (placement handle 1, which references reclaim unit handle 1).
func TestWriteStreamPlacement(t *testing.T) {
	cs := ctrlSpec()
	cs.HintCarrier = nvmectrl.HintCDW2
	cs.FDP = nvmectrl.FDP{Enabled: true, Handles: 4}
	cs.Namespaces = []nvmectrl.Namespace{{LBASize: 4096}, {LBASize: 4096, PlacementHandles: []int{3, 1}}}
	r := newRig(t, DefaultSpec(), cs, 1)
	require.Equal(t, 4, r.d.Namespace(1).WriteStreams())
	require.Equal(t, 2, r.d.Namespace(2).WriteStreams())
	ns1, ns2 := r.d.Namespace(1), r.d.Namespace(2)
	rqs := []struct {
		ns    *Namespace
		rq    blk.Request
		dtype byte
		dspec uint16
	}{
		{ns1, blk.Request{Op: blk.OpWrite, Offset: 0, Size: 4096, WriteStream: 3, Hint: blk.Hint{Victim: true, Pages: 7}}, 0x20, 2},
		{ns1, blk.Request{Op: blk.OpWrite, Offset: 4096, Size: 4096}, 0, 0},
		{ns1, blk.Request{Op: blk.OpRead, Offset: 4096, Size: 4096}, 0, 0},
		{ns2, blk.Request{Op: blk.OpWrite, Offset: 0, Size: 4096, WriteStream: 2}, 0x20, 1},
	}
	for i := range rqs {
		require.True(t, rqs[i].ns.QueueRequest(0, &rqs[i].rq))
		e := r.sqeAt(1, i)
		require.Equal(t, rqs[i].dtype, e[50], "request %d: DTYPE", i)
		require.Equal(t, rqs[i].dspec, uint16(e[54])|uint16(e[55])<<8, "request %d: DSPEC", i)
		pid, ok := e.PlacementID()
		require.Equal(t, rqs[i].dtype != 0, ok)
		require.Equal(t, rqs[i].dspec, pid)
	}
	e := r.sqeAt(1, 0)
	require.Equal(t, []byte{0x01, 7, 0, 0}, e[8:12], "the hint stays in CDW2")
	r.eng.Run()

	off := ctrlSpec()
	r = newRig(t, DefaultSpec(), off, 1)
	require.Zero(t, r.d.Namespace(1).WriteStreams(), "no FDP: no write streams")
}
