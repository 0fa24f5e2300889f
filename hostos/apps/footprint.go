package apps

import "fmt"

// filePage is the file system's allocation unit: the page cache allocates device space
// in whole 4 KiB pages (pagecache.PageSize).
const filePage = 4096

// DataSet is the device space one application's data set takes at set-up.
type DataSet struct {
	App   string
	Field string // the config section that sizes it, e.g. "apps.db_s"
	Bytes int64  // whole 4 KiB pages, as the file system allocates them
}

// DataSets returns, in scenario order, the device space each application's data set
// takes when the scenario sets up (before any request): a fetch server's
// dirs × classes × files_per_class files, a database's table (and redo log for updates),
// Ungzip's compressed input. Uploads and Ungzip's outputs start empty and grow during the
// run, so they are not counted. Each file is rounded up to whole pages.
func (s Spec) DataSets(sc Scenario) []DataSet {
	pages := func(n int64) int64 { return (n + filePage - 1) / filePage * filePage }
	server := func(sp ServerSpec) int64 {
		if sp.Op != OpFetch {
			return 0
		}
		var per int64 // one directory's files
		for c := range sp.Classes {
			for i := range sp.FilesPerClass {
				per += pages(sp.classSize(c, i))
			}
		}
		return per * int64(sp.Dirs)
	}
	db := func(sp DBSpec) int64 {
		n := pages(int64(sp.TableSize))
		if sp.Op == OpUpdate {
			n += pages(int64(sp.LogFileSize))
		}
		return n
	}
	var out []DataSet
	for _, name := range sc.Apps {
		d := DataSet{App: name}
		switch name {
		case ApacheF:
			d.Field, d.Bytes = "apps.apache_f", server(s.ApacheF)
		case ApacheU:
			d.Field, d.Bytes = "apps.apache_u", server(s.ApacheU)
		case ImgServerF:
			d.Field, d.Bytes = "apps.imgserver_f", server(s.ImgServerF)
		case ImgServerU:
			d.Field, d.Bytes = "apps.imgserver_u", server(s.ImgServerU)
		case DBS:
			d.Field, d.Bytes = "apps.db_s", db(s.DBS)
		case DBU:
			d.Field, d.Bytes = "apps.db_u", db(s.DBU)
		case Ungzip:
			d.Field, d.Bytes = "apps.ungzip", pages(s.Ungzip.inputSize())
		}
		out = append(out, d)
	}
	return out
}

// CheckFits reports, before anything runs, a scenario whose data sets cannot all be
// created on a file system of capacity bytes (what set-up would otherwise fail on with
// ENOSPC), naming each application's share and the config sections that size them.
func (s Spec) CheckFits(sc Scenario, capacity int64) error {
	ds := s.DataSets(sc)
	var total int64
	for _, d := range ds {
		total += d.Bytes
	}
	if total <= capacity {
		return nil
	}
	msg := fmt.Sprintf("scenario %s: its data sets need %s at set-up but the device's file system holds %s:",
		sc.Name, binary(total), binary(capacity))
	for _, d := range ds {
		if d.Bytes > 0 {
			msg += fmt.Sprintf(" %s %s (%s);", d.App, binary(d.Bytes), d.Field)
		}
	}
	return fmt.Errorf("%s use a preset with a larger device or shrink those sections", msg)
}

// binary formats a byte count for a message: MiB below 1 GiB, GiB above, one decimal.
func binary(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
