package fio

import (
	"fmt"
	"io"

	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// fio's verify (fio HOWTO, verify) writes a header and checksum into every block and
// checks them when it reads the blocks back. The simulator has no data buffers; what it
// has is a data version per 4 KiB page: on the namespace opened O_DIRECT, each write
// carries a new 64-bit word per page (nvmedrv.Stamper: the page index in the high 32 bits,
// a run-wide version counting from 1 in the low 32) and the SSD returns the word it holds
// on a read; on a buffered file the page cache's data check does the same between the
// cache and the device. A verify failure is a page whose word is not the one last written:
// the data-integrity finding fio reports as a verify error. Whatever the checksum named,
// the check is the same.

// eilseq is fio's error number after a verify failure (EILSEQ on Linux).
const eilseq = 84

// pageVersions are the words last written to a target's pages (0: never written).
type pageVersions struct {
	words []uint64
}

// get returns page pg's word.
func (v *pageVersions) get(pg int64) uint64 {
	if pg < int64(len(v.words)) {
		return v.words[pg]
	}
	return 0
}

// set records page pg's word.
func (v *pageVersions) set(pg int64, w uint64) {
	if pg >= int64(len(v.words)) {
		n := max(pg+1, int64(2*len(v.words)))
		v.words = append(v.words, make([]uint64, n-int64(len(v.words)))...)
	}
	v.words[pg] = w
}

// versionsOf returns the version table of file i of copy c (by name: the jobs that open a
// file share its versions).
func (r *Execution) versionsOf(c *copyRun, i int) *pageVersions {
	name := ""
	if i < len(c.fileNames) {
		name = c.fileNames[i]
	}
	if r.versions == nil {
		r.versions = map[string]*pageVersions{}
	}
	v := r.versions[name]
	if v == nil {
		v = &pageVersions{}
		r.versions[name] = v
	}
	return v
}

// writeVersions writes io to t with a new data version in every page that starts inside
// it, when t carries versions; otherwise it is a plain write (the page cache keeps them).
func (r *Execution) writeVersions(q *sim.Proc, c *copyRun, t Target, io IO) (sim.Time, error) {
	dt, ok := t.(DataTarget)
	if !ok {
		return t.Do(q, io.Op, io.Offset, io.Size)
	}
	n := nvmedrv.StampPages(io.Offset, io.Size)
	stamps := make([]uint64, n)
	first := (io.Offset + nvmedrv.StampPage - 1) / nvmedrv.StampPage
	v := r.versionsOf(c, io.File)
	for i := range stamps {
		if r.version == 1<<32-1 {
			r.version = 0 // the low 32 bits wrap; a stale word would then match (2^32 writes)
		}
		r.version++
		pg := first + int64(i)
		stamps[i] = uint64(pg)<<32 | r.version
		v.set(pg, stamps[i])
	}
	return dt.DoData(q, io.Op, io.Offset, io.Size, stamps)
}

// readChecked reads io from t and checks its data versions; it returns the latency and a
// description of the first bad page ("" if none).
func (r *Execution) readChecked(q *sim.Proc, c *copyRun, t Target, io IO) (sim.Time, string, error) {
	name := fmt.Sprintf("file %d", io.File)
	if io.File < len(c.fileNames) {
		name = c.fileNames[io.File]
	}
	dt, ok := t.(DataTarget)
	if !ok {
		before, _ := r.m.DataMismatches()
		lat, err := t.Do(q, uflip.OpRead, io.Offset, io.Size)
		after, first := r.m.DataMismatches()
		if err == nil && after > before {
			return lat, fmt.Sprintf("verify: bad data at %s offset %d, length %d: %s", name, io.Offset, io.Size, first), nil
		}
		return lat, "", err
	}
	n := nvmedrv.StampPages(io.Offset, io.Size)
	stamps := make([]uint64, n)
	lat, err := dt.DoData(q, uflip.OpRead, io.Offset, io.Size, stamps)
	if err != nil {
		return lat, "", err
	}
	first := (io.Offset + nvmedrv.StampPage - 1) / nvmedrv.StampPage
	v := r.versionsOf(c, io.File)
	for i, got := range stamps {
		pg := first + int64(i)
		want := v.get(pg)
		if got == want && want != 0 {
			continue
		}
		what := fmt.Sprintf("read version %#x, wanted %#x", got, want)
		if want == 0 {
			what = fmt.Sprintf("read version %#x of a page this run never wrote (fio: bad header)", got)
		}
		return lat, fmt.Sprintf("verify: bad data at %s offset %d, length %d: page at %d: %s",
			name, io.Offset, io.Size, pg*nvmedrv.StampPage, what), nil
	}
	return lat, "", nil
}

// verifyBlocks reads back blocks copy c wrote and checks each (fio's verify phase, or a
// verify_backlog batch). The reads count as the job's reads, as in fio.
func (r *Execution) verifyBlocks(q *sim.Proc, c *copyRun, blocks []written) {
	j := r.jobs[c.job]
	for _, b := range blocks {
		if r.firstErr != nil || c.failed {
			return
		}
		io := IO{Op: uflip.OpRead, File: b.file, Offset: b.offset, Size: b.size}
		submit := q.Now()
		r.inFlight++
		lat, bad, err := r.readChecked(q, c, c.targets[b.file], io)
		r.inFlight--
		if err != nil {
			r.ioFailed(q, c, fmt.Sprintf("verify read of %d B at %d", b.size, b.offset), err)
			return
		}
		c.res.End = max(c.res.End, submit+lat)
		if submit >= c.gen.RampEnd() {
			r.record(c, io, submit, lat)
		}
		if bad != "" {
			r.verifyFailed(c, bad)
			if j.VerifyFatal {
				return
			}
		}
	}
}

// verifyFailed records a verify failure of copy c.
func (r *Execution) verifyFailed(c *copyRun, what string) {
	if c.res.Error == 0 {
		c.res.Error = eilseq // fio keeps a job's first error (td_verror)
	}
	c.res.VerifyFailures++
	if len(c.res.VerifyErrors) < maxVerifyErrors {
		c.res.VerifyErrors = append(c.res.VerifyErrors, what)
	}
	if r.jobs[c.job].VerifyFatal && c.gen != nil {
		c.gen.Stop()
	}
}

// NeedsDataCheck reports whether any job verifies data on a buffered file, which needs the
// page cache's data check turned on before the run.
func NeedsDataCheck(jobs []Job) bool {
	for _, j := range jobs {
		if j.Verify != "" && !j.Direct {
			return true
		}
	}
	return false
}

// WriteVerifyErrors prints each job copy's verify failures as fio reports them on stderr,
// and the job's error (EILSEQ).
func WriteVerifyErrors(w io.Writer, res []JobResult) {
	for i := range res {
		for _, c := range res[i].Copies {
			for _, e := range c.VerifyErrors {
				fmt.Fprintf(w, "fio: %s: %s\n", c.Name, e)
			}
			if c.VerifyFailures > int64(len(c.VerifyErrors)) {
				fmt.Fprintf(w, "fio: %s: %d more blocks failed verification\n", c.Name, c.VerifyFailures-int64(len(c.VerifyErrors)))
			}
			if c.VerifyFailures > 0 && c.Error == eilseq {
				fmt.Fprintf(w, "fio: %s: error=Invalid or incomplete multibyte or wide character (%d): verify failed\n", c.Name, c.Error)
			}
		}
	}
}
