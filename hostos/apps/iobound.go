package apps

import "github.com/fastdrain-sim/fastdrain/sim"

// IOBytesBound returns the most bytes the scenario's applications read and write through
// the page cache in d of simulated time, from their configuration alone (what the memory
// estimate takes a run's I/O to be: platforms.EstimateMemory). Ungzip produces output at
// most at OutputRate (OpenLoopRate when set) and reads CompressedPercent of it as input
// (none open loop: its input is in memory). A server's or database's client issues a
// request at most every ThinkTime + CPU time of a request (CPUPerRequest,
// CPUPerOp), each moving the mean size of the classes (a server), or ReadsPerOp pages and
// the redo record and page write of an update (a database). Think time is exponential
// by default, so the bound holds for the mean, not for every seed. An application whose
// clients have neither think time nor CPU time is bounded by the device, not by itself,
// and counts nothing here.
func (s Spec) IOBytesBound(sc Scenario, d sim.Time) int64 {
	perSecond := func(rate Rate) int64 { return int64(float64(rate) * float64(d) / float64(sim.Second)) }
	requests := func(c ClientSpec, cpu sim.Time) int64 {
		if c.ThinkTime+cpu <= 0 {
			return 0
		}
		return int64(c.Clients) * int64(d/(c.ThinkTime+cpu))
	}
	server := func(sp ServerSpec) int64 {
		var mean int64 // the classes' mean request size, in bytes
		for _, cl := range sp.Classes {
			mean += int64(cl.Percent) * int64(cl.Min+cl.Max) / 2 / 100
		}
		return requests(sp.Client, sp.CPUPerRequest) * mean
	}
	db := func(sp DBSpec) int64 {
		per := int64(sp.ReadsPerOp) * int64(sp.PageSize)
		if sp.Op == OpUpdate {
			per += int64(sp.LogWrite)
			if sp.PageWrite {
				per += int64(sp.PageSize)
			}
		}
		return requests(sp.Client, sp.CPUPerOp) * per
	}
	servers := map[string]ServerSpec{ApacheF: s.ApacheF, ApacheU: s.ApacheU, ImgServerF: s.ImgServerF, ImgServerU: s.ImgServerU}
	dbs := map[string]DBSpec{DBS: s.DBS, DBU: s.DBU}
	var total int64
	for _, name := range sc.Apps {
		if sp, ok := servers[name]; ok {
			total += server(sp)
		} else if sp, ok := dbs[name]; ok {
			total += db(sp)
		} else if u := s.Ungzip; name == Ungzip && u.OpenLoopRate > 0 {
			total += perSecond(u.OpenLoopRate)
		} else if name == Ungzip {
			out := perSecond(u.OutputRate)
			total += out + out*int64(u.CompressedPercent)/100
		}
	}
	return total
}
