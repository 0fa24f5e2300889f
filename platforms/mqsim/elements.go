package mqsim

import (
	"fmt"
	"math"
	"strings"

	"github.com/fastdrain-sim/fastdrain/onfi"
)

// noEquivalent lists the elements fastdrain has no counterpart for, with the reason.
var noEquivalent = map[string]string{
	"Enable_ResponseTime_Logging":            "fastdrain records every request's latency (histograms, series, --records); there is no logging switch",
	"ResponseTime_Logging_Period_Length":     "series are sampled at runner.Options.SampleInterval (10 ms by default)",
	"Data_Cache_Sharing_Mode":                "one write buffer serves every queue",
	"Data_Cache_DRAM_Data_Busrt_Size":        "DRAM bursts follow dram.burst_length and dram.bus_width",
	"Ideal_Mapping_Table":                    "the whole mapping table is in controller DRAM: there are no mapping-cache misses to idealise",
	"CMT_Capacity":                           "no cached mapping table is modelled (the whole table is in DRAM)",
	"CMT_Sharing_Mode":                       "no cached mapping table is modelled",
	"Plane_Allocation_Scheme":                "fastdrain's allocators stripe over channels, then dies, then planes (firmware.ftl.allocator); the order is not configurable",
	"Use_Copyback_for_GC":                    "GC moves pages through the controller (read, then program); copyback is not modelled",
	"Preemptible_GC_Enabled":                 "GC is weighted against host work in the flash scheduler (firmware.scheduler.gc_weight), not preempted",
	"Dynamic_Wearleveling_Enabled":           "wear levelling is not modelled",
	"Static_Wearleveling_Enabled":            "wear levelling is not modelled",
	"Static_Wearleveling_Threshold":          "wear levelling is not modelled",
	"Preferred_suspend_erase_time_for_read":  "suspend decisions are the die's (flash.die.suspend, max_suspends), not a preferred time",
	"Preferred_suspend_erase_time_for_write": "suspend decisions are the die's (flash.die.suspend, max_suspends), not a preferred time",
	"Preferred_suspend_write_time_for_read":  "suspend decisions are the die's (flash.die.suspend, max_suspends), not a preferred time",
	"Block_PE_Cycles_Limit":                  "wear-out is not modelled yet",
	"Page_Metadat_Capacity":                  "the out-of-band area is not modelled as space",
	"Queue_Fetch_Size":                       "the controller fetches commands as nvme.fetch_batch and nvme.max_commands allow",
	"Suspend_Erase_Time":                     "one suspend latency (flash.die.t_suspend) serves programs and erases: Suspend_Program_Time is used",
	"SATA_Processing_Delay":                  "the command delay of MQSim's SATA host interface; fastdrain models NVMe only, whose submission and completion costs are its own (nvmectrl, host.nvme)",
	"Caching_Mechanism":                      "MQSim's SIMPLE or ADVANCED data-cache manager; fastdrain's write buffer is firmware.buffer (policy, watermarks), the FastDrain variants",
}

// pcieLane is the payload-level bandwidth of one lane per generation in GB/s (10⁹ B/s):
// 2.5 and 5 GT/s with 8b/10b coding, 8, 16 and 32 GT/s with 128b/130b (docs/sources.md §2).
var pcieLane = [...]float64{1: 0.25, 2: 0.5, 3: 8.0 / 8 * 128 / 130, 4: 16.0 / 8 * 128 / 130, 5: 32.0 / 8 * 128 / 130}

// plain are the elements that map to one key as an integer in [lo, hi], or as that many
// nanoseconds (ns).
var plain = map[string]struct {
	key    string
	lo, hi int64
	ns     bool
}{
	"Flash_Channel_Count":  {"flash.channels", 1, 1024, false},
	"Chip_No_Per_Channel":  {"flash.ways", 1, 1024, false},
	"Die_No_Per_Chip":      {"flash.dies_per_package", 1, 64, false},
	"Plane_No_Per_Die":     {"flash.die.planes", 1, 16, false},
	"Block_No_Per_Plane":   {"flash.die.blocks_per_plane", 1, 1 << 20, false},
	"Page_No_Per_Block":    {"flash.die.pages_per_block", 1, 1 << 16, false},
	"Data_Cache_DRAM_tRCD": {"dram.t_rcd", 0, 1e6, true},
	"Data_Cache_DRAM_tCL":  {"dram.cl", 0, 1e6, true},
	"Data_Cache_DRAM_tRP":  {"dram.t_rp", 0, 1e6, true},
	"Block_Erase_Latency":  {"flash.die.t_erase", 1, 1e12, true},
	"Suspend_Program_Time": {"flash.die.t_suspend", 0, 1e12, true},
}

// element maps one leaf element.
func (im *importer) element(e element) {
	if why, ok := noEquivalent[e.name]; ok {
		im.note(e, false, "%s", why)
		return
	}
	if p, ok := plain[e.name]; ok {
		if n, ok := im.integer(e, p.lo, p.hi); ok && p.ns {
			im.set(p.key, ns(n), e)
		} else if ok {
			im.set(p.key, int(n), e)
		}
		return
	}
	switch e.name {
	// Host_Parameter_Set
	case "PCIe_Lane_Count":
		if n, ok := im.integer(e, 1, 32); ok {
			if n != 1 && n != 2 && n != 4 && n != 8 && n != 16 {
				im.fail(e, "a PCIe link has 1, 2, 4, 8 or 16 lanes")
				return
			}
			im.set("pcie.lanes", int(n), e)
		}
	case "PCIe_Lane_Bandwidth":
		f, ok := im.fraction(e, 1e-6, 1000)
		if !ok {
			return
		}
		best := 1
		for g := 2; g < len(pcieLane); g++ {
			if math.Abs(pcieLane[g]-f) < math.Abs(pcieLane[best]-f) {
				best = g
			}
		}
		if math.Abs(pcieLane[best]-f) <= 0.15*pcieLane[best] {
			im.set("pcie.gen", best, e)
			return
		}
		im.note(e, false, "%v GB/s per lane matches no PCIe generation (Gen1 … Gen5: 0.25, 0.5, 0.985, 1.97, 3.94 GB/s); pcie.gen is left to the preset", f)
	// Device_Parameter_Set
	case "Seed":
		if n, ok := im.integer(e, 0, math.MaxInt64); ok {
			im.set("seed", int(n), e)
		}
	case "Enabled_Preconditioning":
		if b, ok := im.boolean(e); ok && !b {
			im.set("precondition.fill", 0.0, e)
		} else if ok {
			im.note(e, true, "fastdrain preconditions in closed form to the preset's precondition.fill and overwrite")
		}
	case "Memory_Type":
		im.oneOf(e, "FLASH")
	case "HostInterface_Type":
		if _, ok := im.oneOf(e, "NVME", "SATA"); ok && strings.EqualFold(e.value, "SATA") {
			im.fail(e, "fastdrain models an NVMe host interface only")
		}
	case "IO_Queue_Depth":
		n, ok := im.integer(e, 1, 1<<20)
		if !ok {
			return
		}
		if n < 2 || n > 4095 {
			im.note(e, false, "Linux's io_queue_depth (host.nvme.queue_depth) is 2 … 4095; the preset's is kept")
			return
		}
		im.set("host.nvme.queue_depth", int(n), e)
	case "Data_Cache_Capacity":
		if n, ok := im.integer(e, 4096, 1<<50); ok {
			im.set("firmware.buffer.pages", int(n/4096), e)
			im.note(e, true, "the write buffer holds %d pages of 4 KiB (firmware.buffer.pages); dram.capacity stays the preset's and must hold them", n/4096)
		}
	case "Data_Cache_DRAM_Row_Size":
		if n, ok := im.integer(e, 64, 1<<20); ok {
			im.set("dram.row_size", fmt.Sprintf("%dB", n), e)
		}
	case "Data_Cache_DRAM_Data_Rate":
		if n, ok := im.integer(e, 1, 100000); ok {
			// Double data rate: two transfers per clock, so t_CK = 2000 / rate ns.
			im.set("dram.t_ck", fmt.Sprintf("%gns", 2000/float64(n)), e)
			// fastdrain's controller moves every host read and write through its DRAM
			// (dram.bus_width bits per transfer); MQSim's data cache sees writes, and reads
			// only when they hit it. At n MT/s a 32-bit bus (fastdrain's presets) moves
			// n × 4 MB/s, a ceiling on all host traffic together that MQSim does not have.
			im.warn(e, "fastdrain sends every host read and write through controller DRAM: %d MT/s × 4 B (a 32-bit dram.bus_width) = %d MB/s for reads and writes together, while MQSim reads flash past its DRAM on a cache miss; reads can run slower than in MQSim (raise the rate with --set dram.t_ck=… to compare flash alone)", n, n*4)
		}
	case "Address_Mapping":
		if w, ok := im.oneOf(e, "PAGE_LEVEL", "HYBRID"); ok && w == "HYBRID" {
			im.note(e, true, "fastdrain maps pages only; the page-level FTL is used")
		}
	case "Transaction_Scheduling_Policy":
		if _, ok := im.oneOf(e, "OUT_OF_ORDER", "PRIORITY_OUT_OF_ORDER"); ok {
			im.note(e, true, "fastdrain's flash scheduler serves queued reads before unstarted programs (firmware.scheduler.read_first) and merges multi-plane operations; priorities are not modelled")
		}
	case "Overprovisioning_Ratio":
		if f, ok := im.fraction(e, 0, 0.99); ok {
			im.set("firmware.ftl.over_provisioning", f, e)
		}
	case "GC_Exec_Threshold", "GC_Hard_Threshold":
		// Converted with the plane's block count in derived.
	case "GC_Block_Selection_Policy":
		w, ok := im.oneOf(e, "GREEDY", "RGA", "RANDOM", "RANDOM_P", "RANDOM_PP", "FIFO")
		switch {
		case !ok:
		case w == "GREEDY":
			im.set("firmware.ftl.gc_victim", "greedy", e)
		default:
			im.set("firmware.ftl.gc_victim", "greedy", e)
			im.note(e, true, "fastdrain's victim policies are greedy and cost-benefit; %s is imported as greedy", w)
		}
	case "Flash_Channel_Width":
		if n, ok := im.integer(e, 1, 8); ok {
			im.set("flash.onfi.bus_width", int(8*n), e)
		}
	case "Channel_Transfer_Rate", "Flash_Comm_Protocol":
		// Read together in derived: the protocol and rate pick an ONFI timing mode.
	// Flash_Parameter_Set
	case "Flash_Technology":
		if w, ok := im.oneOf(e, "SLC", "MLC", "TLC"); ok {
			im.set("flash.die.cell", strings.ToLower(w), e)
		}
	case "CMD_Suspension_Support":
		w, ok := im.oneOf(e, "NONE", "PROGRAM", "PROGRAM_ERASE", "ERASE")
		switch {
		case !ok:
		case w == "NONE":
			im.set("flash.die.suspend", false, e)
		default:
			im.set("flash.die.suspend", true, e)
			if w != "PROGRAM_ERASE" {
				im.note(e, true, "flash.die.suspend lets reads suspend programs and erases alike; MQSim's %s suspends only one kind", w)
			}
		}
	case "Page_Read_Latency_LSB", "Page_Read_Latency_CSB", "Page_Read_Latency_MSB",
		"Page_Program_Latency_LSB", "Page_Program_Latency_CSB", "Page_Program_Latency_MSB":
		if n, ok := im.integer(e, 1, 1e12); ok {
			kind := "t_read"
			if strings.HasPrefix(e.name, "Page_Program") {
				kind = "t_prog"
			}
			im.set("flash.die."+kind+"."+strings.ToLower(e.name[len(e.name)-3:]), ns(n), e)
		}
	case "Page_Capacity":
		n, ok := im.integer(e, 512, 1<<20)
		if !ok {
			return
		}
		im.set("flash.die.page_size", int(n), e)
		if n != 4096 && n != 8192 && n != 16384 {
			im.note(e, true, "the firmware maps 4 KiB units into 4, 8 or 16 KiB flash pages (sub-page mapping): with %d B flash pages the imported drive runs flashbench and flash sweeps, not whole-system runs", n)
		}
	default:
		im.note(e, false, "not an element this importer knows (MQSim version or a typo?)")
	}
}

// derived maps the elements that need others: GC thresholds (fractions of a plane's
// blocks) and the ONFI mode (protocol and rate together).
func (im *importer) derived() {
	blocks := int64(0)
	if e, ok := im.seen["Block_No_Per_Plane"]; ok {
		blocks, _ = im.quiet(e)
	}
	threshold := func(name string) (int, element, bool) {
		e, ok := im.seen[name]
		if !ok {
			return 0, e, false
		}
		if blocks <= 0 {
			im.note(e, false, "a fraction of a plane's blocks, but Block_No_Per_Plane is not given; the preset's value is kept")
			return 0, e, false
		}
		f, ok := im.fraction(e, 0, 1)
		if !ok {
			return 0, e, false
		}
		return int(math.Ceil(f * float64(blocks))), e, true
	}
	// MQSim runs GC on a plane when its free blocks fall below GC_Exec_Threshold of its
	// blocks, and makes it urgent below GC_Hard_Threshold; fastdrain's gc_threshold and
	// gc_reserve count free blocks per plane: ⌈fraction × Block_No_Per_Plane⌉.
	reserve, re, okR := threshold("GC_Hard_Threshold")
	if okR {
		reserve = max(reserve, 1)
		im.set("firmware.ftl.gc_reserve", reserve, re)
		im.note(re, true, "⌈%s × %d blocks⌉ = %d free blocks per plane held for GC (host writes wait below it)", re.value, blocks, reserve)
	}
	if th, e, ok := threshold("GC_Exec_Threshold"); ok {
		if okR {
			th = max(th, reserve+1)
		}
		im.set("firmware.ftl.gc_threshold", th, e)
		im.note(e, true, "⌈%s × %d blocks⌉ = %d free blocks per plane start GC", e.value, blocks, th)
	}
	im.onfiMode()
}

// quiet parses an integer already checked by element.
func (im *importer) quiet(e element) (int64, bool) {
	var n int64
	_, err := fmt.Sscan(e.value, &n)
	return n, err == nil
}

// onfiMode picks the ONFI interface and the timing mode whose rate is Channel_Transfer_Rate.
func (im *importer) onfiMode() {
	pe, okP := im.seen["Flash_Comm_Protocol"]
	re, okR := im.seen["Channel_Transfer_Rate"]
	if !okP && !okR {
		return
	}
	iface := onfi.NVDDR2
	if okP {
		w, ok := im.oneOf(pe, "SDR", "NVDDR", "NVDDR1", "NVDDR2", "NVDDR3", "TOGGLE")
		if !ok {
			return
		}
		switch w {
		case "SDR":
			iface = onfi.SDR
		case "NVDDR", "NVDDR1":
			iface = onfi.NVDDR
		case "NVDDR3":
			iface = onfi.NVDDR3
		case "TOGGLE":
			im.note(pe, true, "Toggle DDR is not modelled; NV-DDR2 at the same rate is used")
		}
		im.set("flash.onfi.interface", iface.String(), pe)
	}
	if !okR {
		return
	}
	rate, ok := im.integer(re, 1, 100000)
	if !ok {
		return
	}
	best, bestRate := -1, 0
	for m := 0; ; m++ {
		r, ok := onfi.RateMTps(iface, m)
		if !ok {
			break
		}
		if best < 0 || abs(int64(r)-rate) < abs(int64(bestRate)-rate) {
			best, bestRate = m, r
		}
	}
	im.set("flash.onfi.mode", best, re)
	if int64(bestRate) != rate {
		im.note(re, true, "%s has no %d MT/s timing mode; mode %d (%d MT/s) is the nearest", iface, rate, best, bestRate)
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
