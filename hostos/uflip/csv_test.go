package uflip

import (
	"bytes"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestCSV(t *testing.T) {
	var b bytes.Buffer
	recs := []IORecord{
		{Label: "mix/SR-RW/ratio=1", Bench: BenchMix, Seq: 0, Pattern: 2, Base: RW, Op: OpWrite,
			LBA: 64, Sectors: 64, Submit: 0, Latency: 2 * sim.Millisecond, Ignored: true},
		{Label: "mix/SR-RW/ratio=1", Bench: BenchMix, Seq: 1, Pattern: 1, Base: SR, Op: OpRead,
			LBA: 0, Sectors: 64, Submit: 2 * sim.Millisecond, Latency: 150 * sim.Microsecond},
	}
	require.NoError(t, WriteIOCSV(&b, recs))
	require.Equal(t, "label,bench,rep,stream,seq,pattern,base,op,lba,sectors,submit_ps,latency_ps,ignored\n"+
		"mix/SR-RW/ratio=1,mix,0,0,0,2,RW,write,64,64,0,2000000000,true\n"+
		"mix/SR-RW/ratio=1,mix,0,0,1,1,SR,read,0,64,2000000000,150000000,false\n", b.String())

	b.Reset()
	require.NoError(t, WriteRunCSV(&b, []RunStats{{Label: "pause/SR/pause=100us", Bench: BenchPause,
		Point: 0, Rep: 2, Start: 5, End: 905, IOs: 3, Counted: 3, Mean: 300.25, Min: 100, Max: 500, StdDev: 163.3},
		{Label: "rw", Bench: BenchPause, IOs: 288, Counted: 163, Mean: 1e9, Min: 1e9, Max: 1e9,
			Auto: &Outcome{IOIgnore: 125, IOCount: 288, Precision: 0.012345, Converged: true}}}))
	require.Equal(t, "label,bench,point,rep,start_ps,end_ps,ios,counted,mean_ps,min_ps,max_ps,stddev_ps,"+
		"auto_io_ignore,auto_io_count,auto_precision,auto_converged\n"+
		"pause/SR/pause=100us,pause,0,2,5,905,3,3,300.2,100,500,163.3,,,,\n"+
		"rw,pause,0,0,0,0,288,163,1000000000.0,1000000000,1000000000,0.0,125,288,0.0123,true\n", b.String())

	b.Reset()
	require.NoError(t, WriteIOCSV(&b, nil))
	require.Equal(t, "label,bench,rep,stream,seq,pattern,base,op,lba,sectors,submit_ps,latency_ps,ignored\n", b.String())
}
