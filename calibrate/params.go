package calibrate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Param is one parameter the fit can move: how to read it from a configuration and write
// it into one, in the unit it is reported in, and its search space — a continuous range
// searched on a log scale, or a list of values.
type Param struct {
	Name string // e.g. "t_read"
	What string // what it is, and the configuration keys it sets
	Unit string // the unit of its values ("us", "MHz", "pages", ""; a link is gen×100+lanes)
	// Values is the list a discrete parameter takes (nil for a continuous one).
	Values []float64
	// Lo and Hi bound a continuous parameter.
	Lo, Hi float64
	// Trade names a product the parameter shares with others (channels and dies per channel:
	// the die count): the search also tries moving a factor of 2 between them.
	Trade string
	// ReadTime marks the flash read time: fitted, after the overheads, on reads of one page
	// at one stream when there are any.
	ReadTime bool
	// Overhead marks a cost every IO pays whether or not it reads flash (the host link, the
	// controller's clock): fitted first on read-back points when there are any.
	Overhead bool
	get      func(c *platforms.Config) float64
	set      func(c *platforms.Config, v float64)
	format   func(v float64) string
}

// Discrete reports whether the parameter takes a list of values.
func (p *Param) Discrete() bool { return p.Values != nil }

// Format returns v as the parameter's value is written ("58us", "gen3 x4", "vanilla").
func (p *Param) Format(v float64) string {
	if p.format != nil {
		return p.format(v)
	}
	return fmt.Sprintf("%g%s", v, p.Unit)
}

// Get returns the parameter's value in c.
func (p *Param) Get(c *platforms.Config) float64 { return p.get(c) }

// us converts µs to sim.Time (rounded to the ps).
func us(v float64) sim.Time { return sim.Time(math.Round(v * float64(sim.Microsecond))) }

// toUs converts sim.Time to µs.
func toUs(t sim.Time) float64 { return float64(t) / float64(sim.Microsecond) }

// scaleTimes sets the LSB time to v µs and scales the CSB and MSB times by the same factor,
// keeping the base's ratios between page types (an SLC die has only an LSB time).
func scaleTimes(lsb, csb, msb *sim.Time, v float64) {
	f := v / toUs(*lsb)
	*lsb = us(v)
	if *csb > 0 {
		*csb = us(toUs(*csb) * f)
	}
	if *msb > 0 {
		*msb = us(toUs(*msb) * f)
	}
}

// keepCapacity sets blocks per plane so that the flash array holds at least raw bytes after
// a change of its die count.
func keepCapacity(c *platforms.Config, raw int64) {
	d := c.Flash.Die
	per := int64(c.Flash.Dies()) * int64(d.Planes) * int64(d.PagesPerBlock) * int64(d.PageSize)
	c.Flash.Die.BlocksPerPlane = int((raw + per - 1) / per)
}

// linkNames are the PCIe links the fit tries, ordered by bandwidth.
var links = []float64{101, 102, 104, 202, 204, 302, 304, 308, 404, 408, 504}

// bufferSizes are the write buffer sizes the fit tries: 2^k and 3·2^(k−1) pages from 64
// (256 KiB) to 2^20 (4 GiB), a grid of ratio √2 or so.
var bufferSizes = func() []float64 {
	var v []float64
	for k := 6; k <= 20; k++ {
		v = append(v, float64(int64(1)<<k))
		if k < 20 {
			v = append(v, float64(int64(3)<<(k-1)))
		}
	}
	return v
}()

// policies are the write buffer policies the fit tries (firmware/policy.go): evict on
// demand, or also drain in the background.
var policies = []firmware.Policy{firmware.Vanilla, firmware.FastDrain}

// Params returns the parameters the fit can move, in the order a search round visits them:
// the array's structure, the flash times, the buffer, and last the host link and the
// controller's overhead, which every IO pays and which would otherwise absorb the error of
// a structure or a flash time not yet fitted. raw is the base configuration's flash bytes,
// which a change of die count keeps.
func Params(raw int64) []*Param {
	return []*Param{
		{Name: "channels", What: "flash channels (flash.channels; blocks per plane keep the capacity)", Values: []float64{1, 2, 4, 6, 8, 12, 16, 24, 32}, Trade: "dies",
			get: func(c *platforms.Config) float64 { return float64(c.Flash.Channels) },
			set: func(c *platforms.Config, v float64) { c.Flash.Channels = int(v); keepCapacity(c, raw) }},
		{Name: "dies_per_channel", What: "dies per channel (flash.ways × flash.dies_per_package; set as ways, one die a package)",
			Values: []float64{1, 2, 4, 8, 16, 32}, Trade: "dies",
			get: func(c *platforms.Config) float64 { return float64(c.Flash.Ways * c.Flash.DiesPerPackage) },
			set: func(c *platforms.Config, v float64) {
				c.Flash.Ways, c.Flash.DiesPerPackage = int(v), 1
				keepCapacity(c, raw)
			}},
		{Name: "t_read", What: "flash read time tR (flash.die.t_read; CSB and MSB keep their ratio to LSB)", Unit: "us",
			Lo: 1, Hi: 5000, ReadTime: true,
			get: func(c *platforms.Config) float64 { return toUs(c.Flash.Die.TRead.LSB) },
			set: func(c *platforms.Config, v float64) {
				t := &c.Flash.Die.TRead
				scaleTimes(&t.LSB, &t.CSB, &t.MSB, v)
			},
			format: func(v float64) string { return fmt.Sprintf("%.4gus", v) }},
		{Name: "t_prog", What: "flash program time tPROG (flash.die.t_prog; CSB and MSB keep their ratio to LSB)", Unit: "us",
			Lo: 5, Hi: 50000,
			get: func(c *platforms.Config) float64 { return toUs(c.Flash.Die.TProg.LSB) },
			set: func(c *platforms.Config, v float64) {
				t := &c.Flash.Die.TProg
				scaleTimes(&t.LSB, &t.CSB, &t.MSB, v)
			},
			format: func(v float64) string { return fmt.Sprintf("%.4gus", v) }},
		{Name: "buffer_pages", What: "write buffer size (firmware.buffer.pages; dram.capacity grows to hold it)", Unit: " pages", Values: bufferSizes,
			get: func(c *platforms.Config) float64 { return float64(c.Firmware.Buffer.Pages) },
			set: func(c *platforms.Config, v float64) {
				c.Firmware.Buffer.Pages = int(v)
				need := sim.Size(int64(v) * int64(c.Firmware.PageSize))
				for c.DRAM.Capacity < need {
					c.DRAM.Capacity *= 2
				}
			},
			format: func(v float64) string { return fmt.Sprintf("%d pages (%v)", int64(v), sim.Size(int64(v)*4096)) }},
		{Name: "buffer_policy", What: "write buffer policy (firmware.buffer.policy: 0 vanilla, evict on demand; 1 fastdrain, also drain in the background)",
			Values: []float64{0, 1},
			get: func(c *platforms.Config) float64 {
				return float64(max(slices.Index(policies, c.Firmware.Buffer.Policy), 0))
			},
			set:    func(c *platforms.Config, v float64) { c.Firmware.Buffer.Policy = policies[int(v)] },
			format: func(v float64) string { return string(policies[int(v)]) }},
		{Name: "t_erase", What: "flash erase time tBERS (flash.die.t_erase)", Unit: "us", Lo: 50, Hi: 100000,
			get:    func(c *platforms.Config) float64 { return toUs(c.Flash.Die.TErase) },
			set:    func(c *platforms.Config, v float64) { c.Flash.Die.TErase = us(v) },
			format: func(v float64) string { return fmt.Sprintf("%.4gus", v) }},
		{Name: "pcie", What: "host link (pcie.gen, pcie.lanes)", Values: links, Overhead: true,
			get: func(c *platforms.Config) float64 { return float64(c.PCIe.Gen*100 + c.PCIe.Lanes) },
			set: func(c *platforms.Config, v float64) { c.PCIe.Gen, c.PCIe.Lanes = int(v)/100, int(v)%100 },
			format: func(v float64) string {
				return fmt.Sprintf("gen%d x%d", int(v)/100, int(v)%100)
			}},
		{Name: "core_freq", What: "controller overhead: the firmware cores' clock (firmware.core_freq), every firmware step's cycles", Unit: "MHz",
			Lo: 10, Hi: 5000, Overhead: true,
			get:    func(c *platforms.Config) float64 { return float64(c.Firmware.CoreFreq) / float64(sim.MHz) },
			set:    func(c *platforms.Config, v float64) { c.Firmware.CoreFreq = sim.Freq(math.Round(v * float64(sim.MHz))) },
			format: func(v float64) string { return fmt.Sprintf("%.4gMHz", v) }},
	}
}

// ParamNames lists the names of Params, comma-separated.
func ParamNames() string {
	var n []string
	for _, p := range Params(0) {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// Unfitted lists the configuration the fit never moves, and why: what the patterns uFLIP
// and fio measure do not separate from the parameters above (docs/calibrate.md).
var Unfitted = []string{
	"pcie.latency: confounded with the controller's cycles (both a fixed cost per IO)",
	"flash.onfi (the channel's rate): confounded with t_read at queue depth 1 and with the channel count at depth",
	"flash.die.planes, pages_per_block, page_size: the mapping unit and the array's geometry below the die",
	"firmware.ftl (mapping, over-provisioning, GC thresholds and victim policy): visible only on a drive written far past its spare space",
	"host (page cache, block layer, NVMe driver): the real host's own stack is in every measured latency",
}
