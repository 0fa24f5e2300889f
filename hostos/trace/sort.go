package trace

import (
	"io"
	"os"
	"sort"
)

// ReadSorted reads the whole trace at path and returns its requests in time order, for a
// trace whose lines are not in time order (which a Reader refuses: "earlier than the
// previous request"). It reads the file twice: first for the earliest timestamp, then with
// every time relative to it; the sort is stable, so requests with equal times keep their
// order in the file (Request.Line). The whole trace is held in memory, about 56 bytes a
// request. The stats and the format are the second pass's.
func ReadSorted(path string, opt Options) ([]Request, Stats, Format, error) {
	open := func() (*os.File, *Reader, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		rd, err := NewReader(f, path, opt)
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		return f, rd, nil
	}
	// Pass 1: the earliest timestamp of a request line (malformed lines as Next treats them).
	f, rd, err := open()
	if err != nil {
		return nil, Stats{}, Auto, err
	}
	var earliest stamp
	seen := false
	for {
		ok, err := rd.nextRaw()
		if err == io.EOF {
			break
		}
		if err == errStop {
			f.Close()
			return nil, rd.Stats(), rd.Format(), rd.err
		}
		if err != nil {
			if ferr := rd.skip(err); ferr != nil {
				f.Close()
				return nil, rd.Stats(), rd.Format(), ferr
			}
			continue
		}
		if ok && (!seen || rd.cur.ts.less(earliest)) {
			earliest, seen = rd.cur.ts, true
		}
	}
	f.Close()
	// Pass 2: every request, its time relative to the earliest.
	f, rd, err = open()
	if err != nil {
		return nil, Stats{}, Auto, err
	}
	defer f.Close()
	rd.unordered, rd.base = true, earliest
	var reqs []Request
	for {
		req, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, rd.Stats(), rd.Format(), err
		}
		reqs = append(reqs, req)
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Time < reqs[j].Time })
	st := rd.Stats()
	if n := len(reqs); n > 0 {
		st.Last = reqs[n-1].Time
	}
	return reqs, st, rd.Format(), nil
}
