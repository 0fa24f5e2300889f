package apps

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Server operations.
const (
	OpFetch  = "fetch"  // HTTP GET of a file of the data set
	OpUpload = "upload" // HTTP PUT/POST: the body is written to a new file
)

// Think-time distributions.
const (
	ThinkExponential = "exponential" // memoryless, as TPC-C's keying/think times
	ThinkConstant    = "constant"
)

// SizeClass is one class of file sizes: Percent of the requests go to the class, whose
// files have FilesPerClass sizes evenly spaced from Min to Max (SPECweb96/99's scheme:
// class 1 holds 1, 2, …, 9 KiB).
type SizeClass struct {
	Percent int  `yaml:"percent"`
	Min     Size `yaml:"min"`
	Max     Size `yaml:"max"`
}

// ClientSpec is the closed-loop client population that drives a latency-critical app: each
// client issues one request, waits for its response, thinks, and issues the next.
type ClientSpec struct {
	// Clients is the number of concurrent clients (ab -c, MySQL connections).
	Clients int `yaml:"clients"`
	// ThinkTime is the mean time a client waits between a response and its next request.
	ThinkTime sim.Time `yaml:"think_time"`
	// ThinkDistribution is "exponential" (mean ThinkTime) or "constant".
	ThinkDistribution string `yaml:"think_distribution"`
}

// defaultClients is the one client setting all six latency-critical apps share (see
// docs/workloads.md "Clients"): 4 clients, one per core of the default 4-core host, each
// thinking an exponentially distributed 10 ms between requests (≈ 400 requests/s offered).
func defaultClients() ClientSpec {
	return ClientSpec{Clients: 4, ThinkTime: 10 * sim.Millisecond, ThinkDistribution: ThinkExponential}
}

func (c ClientSpec) problems(path string) []error {
	var errs []error
	if c.Clients < 1 || c.Clients > 1<<16 {
		errs = append(errs, fmt.Errorf("%sclients: %d must be between 1 and 65536", path, c.Clients))
	}
	if c.ThinkTime < 0 || c.ThinkTime > 1000*sim.Second {
		errs = append(errs, fmt.Errorf("%sthink_time: %v must be between 0 and 1000s", path, c.ThinkTime))
	}
	if c.ThinkDistribution != ThinkExponential && c.ThinkDistribution != ThinkConstant {
		errs = append(errs, fmt.Errorf("%sthink_distribution: %q is not one of exponential, constant", path, c.ThinkDistribution))
	}
	return errs
}

// think draws one think time. An exponential draw is a float that is turned into whole
// picoseconds once; all time arithmetic after that is integer.
func (c ClientSpec) think(r *sim.RNG) sim.Time {
	if c.ThinkTime == 0 {
		return 0
	}
	if c.ThinkDistribution == ThinkConstant {
		return c.ThinkTime
	}
	d := r.ExpFloat64() * float64(c.ThinkTime)
	if d > float64(1000*c.ThinkTime) { // P < e^-1000: only guards the conversion
		return 1000 * c.ThinkTime
	}
	return sim.Time(d)
}

// ServerSpec configures a file-serving HTTP server (Apache, the image server): clients
// fetch files of a pre-existing data set, or upload new files that are written and,
// with Fsync, made durable before the response.
type ServerSpec struct {
	// Op is "fetch" or "upload".
	Op string `yaml:"op"`
	// Client holds the client population.
	Client ClientSpec `yaml:",inline"`
	// Dirs is the number of directories of the data set (fetch): the unit of popularity.
	Dirs int `yaml:"dirs"`
	// FilesPerClass is the number of files of each size class in a directory; their sizes
	// are evenly spaced from the class's Min to Max. Uploads draw sizes from the same set.
	FilesPerClass int `yaml:"files_per_class"`
	// Classes is the size mix; the percents add up to 100.
	Classes []SizeClass `yaml:"classes"`
	// ZipfAlpha is the exponent of directory popularity (rank k drawn ∝ 1/k^alpha);
	// 0 is uniform. Fetch only.
	ZipfAlpha float64 `yaml:"zipf_alpha"`
	// IOSize is the size of each read() or write() call a request makes.
	IOSize Size `yaml:"io_size"`
	// Fsync makes an upload fsync its file before responding. Upload only.
	Fsync bool `yaml:"fsync"`
	// CPUPerRequest is the server's CPU time per request (HTTP parsing, headers, logging),
	// beyond the kernel's own per-call costs, which the host charges.
	CPUPerRequest sim.Time `yaml:"cpu_per_request"`
	// CPUPerMiB is the server's CPU time per MiB of body moved to or from the network.
	CPUPerMiB sim.Time `yaml:"cpu_per_mib"`
	// Retain, for uploads, unlinks the oldest uploaded file once more than Retain exist;
	// 0 keeps them all.
	Retain int `yaml:"retain"`
}

// specwebClasses is the SPECweb96/99 static file mix (spec.org/osg/web96/workload.html,
// Table 1 and 2): 35 % of requests to 102–922 B files, 50 % to 1–9 KiB, 14 % to
// 10–90 KiB, 1 % to 100–900 KiB; nine sizes per class.
func specwebClasses() []SizeClass {
	return []SizeClass{
		{Percent: 35, Min: 102, Max: 922},
		{Percent: 50, Min: 1 * KiB, Max: 9 * KiB},
		{Percent: 14, Min: 10 * KiB, Max: 90 * KiB},
		{Percent: 1, Min: 100 * KiB, Max: 900 * KiB},
	}
}

// imageClasses is one class of web photos from 100 KiB to 1 MiB (docs/design.md "Workloads").
func imageClasses() []SizeClass {
	return []SizeClass{{Percent: 100, Min: 100 * KiB, Max: 1 * MiB}}
}

// defaultServer holds what every server app shares; the callers set Op, Classes and Fsync.
func defaultServer() ServerSpec {
	return ServerSpec{
		Client:        defaultClients(),
		Dirs:          200,
		FilesPerClass: 9,
		ZipfAlpha:     1,
		IOSize:        128 * KiB,
		CPUPerRequest: 50 * sim.Microsecond,
		CPUPerMiB:     200 * sim.Microsecond,
	}
}

// DefaultApacheF returns Apache-F: HTTP fetches of a SPECweb99-like static file set
// (200 directories of 36 files, ≈ 977 MiB) with Zipf(1) directory popularity.
func DefaultApacheF() ServerSpec {
	s := defaultServer()
	s.Op, s.Classes = OpFetch, specwebClasses()
	return s
}

// DefaultApacheU returns Apache-U: uploads of files with the SPECweb99 size mix, each
// written through the page cache and fsynced before the response.
func DefaultApacheU() ServerSpec {
	s := defaultServer()
	s.Op, s.Classes, s.Fsync = OpUpload, specwebClasses(), true
	return s
}

// DefaultImgServerF returns ImgServer-F: fetches of 100 KiB–1 MiB images (200 albums of
// 9 images, ≈ 988 MiB) with Zipf(1) album popularity.
func DefaultImgServerF() ServerSpec {
	s := defaultServer()
	s.Op, s.Classes = OpFetch, imageClasses()
	return s
}

// DefaultImgServerU returns ImgServer-U: uploads of 100 KiB–1 MiB images, fsynced.
func DefaultImgServerU() ServerSpec {
	s := defaultServer()
	s.Op, s.Classes, s.Fsync = OpUpload, imageClasses(), true
	return s
}

// maxDataSetFiles bounds dirs × classes × files_per_class, so a configuration cannot ask
// for more file handles than a simulation can hold.
const maxDataSetFiles = 1 << 22

// Validate reports every problem with the spec, each naming its field.
func (s ServerSpec) Validate() error { return errors.Join(s.problems("")...) }

func (s ServerSpec) problems(path string) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf(path+field+": "+format, args...))
	}
	if s.Op != OpFetch && s.Op != OpUpload {
		bad("op", "%q is not one of fetch, upload", s.Op)
	}
	errs = append(errs, s.Client.problems(path)...)
	if s.Dirs < 1 {
		bad("dirs", "%d must be at least 1", s.Dirs)
	}
	if s.FilesPerClass < 1 {
		bad("files_per_class", "%d must be at least 1", s.FilesPerClass)
	}
	if len(s.Classes) == 0 {
		bad("classes", "at least one size class is needed")
	}
	total := 0
	for i, c := range s.Classes {
		f := "classes[" + strconv.Itoa(i) + "]."
		if c.Percent < 1 || c.Percent > 100 {
			bad(f+"percent", "%d must be between 1 and 100", c.Percent)
		} else {
			total += c.Percent
		}
		if c.Min < 1 || c.Min > TiB {
			bad(f+"min", "%v must be between 1B and 1TiB", c.Min)
		}
		if c.Max < c.Min || c.Max > TiB {
			bad(f+"max", "%v must be between min (%v) and 1TiB", c.Max, c.Min)
		}
	}
	if len(s.Classes) > 0 && total != 100 && len(errs) == 0 {
		bad("classes", "percents add up to %d, not 100", total)
	}
	if s.Dirs >= 1 && s.FilesPerClass >= 1 && len(s.Classes) > 0 &&
		int64(s.Dirs)*int64(s.FilesPerClass)*int64(len(s.Classes)) > maxDataSetFiles {
		bad("dirs", "%d × %d classes × %d files_per_class is more than %d files",
			s.Dirs, len(s.Classes), s.FilesPerClass, maxDataSetFiles)
	}
	if math.IsNaN(s.ZipfAlpha) || s.ZipfAlpha < 0 || s.ZipfAlpha > 10 {
		bad("zipf_alpha", "%v must be between 0 and 10", s.ZipfAlpha)
	}
	if s.IOSize < 1 || s.IOSize > GiB {
		bad("io_size", "%v must be between 1B and 1GiB", s.IOSize)
	}
	if s.Fsync && s.Op == OpFetch {
		bad("fsync", "true has no meaning for op fetch")
	}
	if s.CPUPerRequest < 0 || s.CPUPerRequest > sim.Second {
		bad("cpu_per_request", "%v must be between 0 and 1s", s.CPUPerRequest)
	}
	if s.CPUPerMiB < 0 || s.CPUPerMiB > sim.Second {
		bad("cpu_per_mib", "%v must be between 0 and 1s", s.CPUPerMiB)
	}
	if s.Retain < 0 {
		bad("retain", "%d must not be negative", s.Retain)
	}
	return errs
}

// classSize returns the i-th of the FilesPerClass sizes of class c.
func (s ServerSpec) classSize(c, i int) int64 {
	cl := s.Classes[c]
	if s.FilesPerClass == 1 {
		return int64(cl.Min)
	}
	return int64(cl.Min) + int64(i)*int64(cl.Max-cl.Min)/int64(s.FilesPerClass-1)
}

// server is the running model of a ServerSpec.
type server struct {
	name  string
	spec  ServerSpec
	files []File      // fetch: dirs × classes × files_per_class, in that order
	pop   *popularity // fetch: directory popularity
	// upload state
	seq     int64
	kept    []File // uploaded files, oldest first, when Retain > 0
	nameBuf []byte
}

func newServer(name string, spec ServerSpec) *server { return &server{name: name, spec: spec} }

// setup creates (or reopens) the fetch data set; uploads start from an empty directory.
func (m *server) setup(p *sim.Proc, host OS, seed uint64) error {
	if m.spec.Op != OpFetch {
		return nil
	}
	m.pop = newPopularity(m.spec.Dirs, m.spec.ZipfAlpha, sim.NewRNG(seed, "apps/"+m.name+"/layout"))
	nc, fpc := len(m.spec.Classes), m.spec.FilesPerClass
	m.files = make([]File, 0, m.spec.Dirs*nc*fpc)
	for d := range m.spec.Dirs {
		for c := range nc {
			for i := range fpc {
				name := fmt.Sprintf("%s/dir%05d/class%d_%d", m.name, d, c, i)
				f, err := openOrCreate(p, host, name, m.spec.classSize(c, i))
				if err != nil {
					return err
				}
				m.files = append(m.files, f)
			}
		}
	}
	return nil
}

// openOrCreate reuses an existing file of the right size (a host shared by runs) or
// creates it.
func openOrCreate(p *sim.Proc, host OS, name string, size int64) (File, error) {
	if f, ok := host.Open(name); ok && f.Size() == size {
		return f, nil
	}
	return host.Create(p, name, size)
}

// pickClass draws a size class by the class percents.
func (m *server) pickClass(r *sim.RNG) int {
	u := r.IntN(100)
	for c, cl := range m.spec.Classes {
		if u < cl.Percent {
			return c
		}
		u -= cl.Percent
	}
	return len(m.spec.Classes) - 1
}

// request serves one request: CPU for the request, the file I/O, CPU for the body.
func (m *server) request(p *sim.Proc, host OS, r *sim.RNG) (int64, error) {
	if m.spec.CPUPerRequest > 0 {
		host.Compute(p, m.spec.CPUPerRequest)
	}
	c := m.pickClass(r)
	i := r.IntN(m.spec.FilesPerClass)
	var size int64
	var err error
	if m.spec.Op == OpFetch {
		d := m.pop.draw(r)
		f := m.files[(d*len(m.spec.Classes)+c)*m.spec.FilesPerClass+i]
		size = f.Size()
		err = m.fetch(p, host, f, size)
	} else {
		size = m.spec.classSize(c, i)
		err = m.upload(p, host, size)
	}
	if err != nil {
		return 0, err
	}
	if d := perMiB(size, m.spec.CPUPerMiB); d > 0 {
		host.Compute(p, d)
	}
	return size, nil
}

// fetch reads the whole file in IOSize calls, as a server copying it to the socket.
func (m *server) fetch(p *sim.Proc, host OS, f File, size int64) error {
	io := int64(m.spec.IOSize)
	for off := int64(0); off < size; off += io {
		if err := host.Read(p, f, off, min(io, size-off)); err != nil {
			return err
		}
	}
	return nil
}

// upload writes a new file in IOSize calls and, with Fsync, fsyncs it.
func (m *server) upload(p *sim.Proc, host OS, size int64) error {
	m.seq++
	m.nameBuf = append(append(m.nameBuf[:0], m.name...), "/upload/"...)
	m.nameBuf = strconv.AppendInt(m.nameBuf, m.seq, 10)
	f, err := host.Create(p, string(m.nameBuf), 0)
	if err != nil {
		return err
	}
	io := int64(m.spec.IOSize)
	for off := int64(0); off < size; off += io {
		if err := host.Write(p, f, off, min(io, size-off)); err != nil {
			return m.abandon(p, host, f, err)
		}
	}
	if m.spec.Fsync {
		if err := host.Fsync(p, f); err != nil {
			return m.abandon(p, host, f, err)
		}
	}
	if m.spec.Retain > 0 {
		m.kept = append(m.kept, f)
	}
	return nil
}

// abandon removes the file of an upload that failed with err, as a server cleans up after
// a failed upload (an upload that failed does not stay to fill the file system), and
// returns err.
func (m *server) abandon(p *sim.Proc, host OS, f File, err error) error {
	_ = host.Unlink(p, f) // err, not the removal's outcome, is what the client is told
	return err
}

// after runs once the response is recorded: housekeeping outside the response time.
func (m *server) after(p *sim.Proc, host OS) error {
	if m.spec.Retain == 0 || len(m.kept) <= m.spec.Retain {
		return nil
	}
	old := m.kept[0]
	m.kept = m.kept[1:]
	return host.Unlink(p, old)
}
