package apps

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Database operations.
const (
	OpSelect = "select" // point select by primary key
	OpUpdate = "update" // point update by primary key, committed
)

// DBSpec configures a MySQL/InnoDB-like database serving point selects or point updates
// from a table file opened with O_DIRECT (innodb_flush_method=O_DIRECT), with a redo log
// written through the page cache and fsynced at every commit
// (innodb_flush_log_at_trx_commit=1).
type DBSpec struct {
	// Op is "select" or "update".
	Op string `yaml:"op"`
	// Client holds the client connections.
	Client ClientSpec `yaml:",inline"`
	// TableSize is the size of the table's data file, a multiple of PageSize.
	TableSize Size `yaml:"table_size"`
	// PageSize is the database page size (innodb_page_size): the size of every data read
	// and write, aligned to it.
	PageSize Size `yaml:"page_size"`
	// ReadsPerOp is the number of data pages a query reads from the device (B-tree levels
	// that miss the buffer pool); pages are uniformly random over the table.
	ReadsPerOp int `yaml:"reads_per_op"`
	// CPUPerOp is the server's CPU time per query (parse, optimize, execute).
	CPUPerOp sim.Time `yaml:"cpu_per_op"`
	// LogFileSize is the redo log's size (update only); it is written circularly.
	LogFileSize Size `yaml:"log_file_size"`
	// LogWrite is the redo bytes appended per commit (update only).
	LogWrite Size `yaml:"log_write"`
	// PageWrite writes the modified page back with O_DIRECT after the commit (update
	// only), standing in for the page cleaner's write of that page.
	PageWrite bool `yaml:"page_write"`
}

// defaultDB holds what both database apps share.
func defaultDB() DBSpec {
	return DBSpec{
		Client:     defaultClients(),
		TableSize:  2 * GiB,
		PageSize:   16 * KiB,
		ReadsPerOp: 1,
	}
}

// DefaultDBS returns DB-S: point selects, each one random 16 KiB O_DIRECT page read.
func DefaultDBS() DBSpec {
	s := defaultDB()
	s.Op, s.CPUPerOp = OpSelect, 50*sim.Microsecond
	return s
}

// DefaultDBU returns DB-U: point updates, each a random 16 KiB O_DIRECT page read, a
// 512 B redo-log append and fsync (the commit), then the page written back with O_DIRECT.
func DefaultDBU() DBSpec {
	s := defaultDB()
	s.Op, s.CPUPerOp = OpUpdate, 100*sim.Microsecond
	s.LogFileSize, s.LogWrite, s.PageWrite = 96*MiB, 512, true
	return s
}

// Validate reports every problem with the spec, each naming its field.
func (s DBSpec) Validate() error { return errors.Join(s.problems("")...) }

func (s DBSpec) problems(path string) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf(path+field+": "+format, args...))
	}
	if s.Op != OpSelect && s.Op != OpUpdate {
		bad("op", "%q is not one of select, update", s.Op)
	}
	errs = append(errs, s.Client.problems(path)...)
	pageOK := s.PageSize >= 512 && s.PageSize <= 64*MiB && s.PageSize%512 == 0
	if !pageOK {
		bad("page_size", "%v must be a multiple of 512B between 512B and 64MiB", s.PageSize)
	}
	if s.TableSize < 1 || s.TableSize > 64*TiB {
		bad("table_size", "%v must be between 1B and 64TiB", s.TableSize)
	} else if pageOK && (s.TableSize < s.PageSize || s.TableSize%s.PageSize != 0) {
		bad("table_size", "%v must be a positive multiple of page_size (%v)", s.TableSize, s.PageSize)
	}
	minReads := 0
	if s.Op == OpSelect {
		minReads = 1 // a select that reads nothing does no storage I/O at all
	}
	if s.ReadsPerOp < minReads || s.ReadsPerOp > 64 {
		bad("reads_per_op", "%d must be between %d and 64", s.ReadsPerOp, minReads)
	}
	if s.CPUPerOp < 0 || s.CPUPerOp > sim.Second {
		bad("cpu_per_op", "%v must be between 0 and 1s", s.CPUPerOp)
	}
	if s.Op == OpUpdate {
		if s.LogWrite < 1 || s.LogWrite > 64*MiB {
			bad("log_write", "%v must be between 1B and 64MiB", s.LogWrite)
		}
		if s.LogFileSize < s.LogWrite || s.LogFileSize > 64*TiB {
			bad("log_file_size", "%v must be between log_write (%v) and 64TiB", s.LogFileSize, s.LogWrite)
		}
		if s.PageWrite && s.ReadsPerOp == 0 {
			bad("page_write", "true needs reads_per_op ≥ 1 (the page written back is the one read)")
		}
	} else {
		if s.LogWrite != 0 || s.LogFileSize != 0 {
			bad("log_write", "a select writes no redo log: log_write and log_file_size must be 0")
		}
		if s.PageWrite {
			bad("page_write", "true has no meaning for op select")
		}
	}
	return errs
}

// db is the running model of a DBSpec.
type db struct {
	name   string
	spec   DBSpec
	table  File
	log    File
	pages  int64
	logPos int64
}

func newDB(name string, spec DBSpec) *db {
	return &db{name: name, spec: spec, pages: int64(spec.TableSize / spec.PageSize)}
}

// setup creates the table (on the device, not cached) and, for updates, the redo log.
func (m *db) setup(p *sim.Proc, host OS, _ uint64) error {
	var err error
	if m.table, err = openOrCreate(p, host, m.name+"/table.ibd", int64(m.spec.TableSize)); err != nil {
		return err
	}
	if m.spec.Op == OpUpdate {
		m.log, err = openOrCreate(p, host, m.name+"/ib_logfile", int64(m.spec.LogFileSize))
	}
	return err
}

// request runs one query. A select computes, then reads its pages. An update reads its
// pages, computes, commits (redo append + fsync, write-ahead) and writes the page back.
func (m *db) request(p *sim.Proc, host OS, r *sim.RNG) (int64, error) {
	ps := int64(m.spec.PageSize)
	if m.spec.Op == OpSelect && m.spec.CPUPerOp > 0 {
		host.Compute(p, m.spec.CPUPerOp)
	}
	var page int64
	for range m.spec.ReadsPerOp {
		page = r.Int64N(m.pages)
		if err := host.ReadDirect(p, m.table, page*ps, ps); err != nil {
			return 0, err
		}
	}
	bytes := int64(m.spec.ReadsPerOp) * ps
	if m.spec.Op == OpSelect {
		return bytes, nil
	}
	if m.spec.CPUPerOp > 0 {
		host.Compute(p, m.spec.CPUPerOp)
	}
	lw := int64(m.spec.LogWrite)
	if m.logPos+lw > int64(m.spec.LogFileSize) {
		m.logPos = 0 // the redo log is circular
	}
	off := m.logPos
	m.logPos += lw
	if err := host.Write(p, m.log, off, lw); err != nil {
		return 0, err
	}
	if err := host.Fsync(p, m.log); err != nil {
		return 0, err
	}
	bytes += lw
	if m.spec.PageWrite {
		if err := host.WriteDirect(p, m.table, page*ps, ps); err != nil {
			return 0, err
		}
		bytes += ps
	}
	return bytes, nil
}

// after has no housekeeping for a database.
func (m *db) after(*sim.Proc, OS) error { return nil }
