package mqsim

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Scenario is one IO_Scenario of an MQSim workload file converted to a fio-like job file
// (hostos/fio's YAML), to run with "fastdrain fio". MQSim runs its scenarios one after
// another, each on a fresh drive; so does a user running the files one by one.
type Scenario struct {
	Jobs  []byte // the job file (YAML)
	Flows int    // synthetic flows converted to jobs
	Notes []Note // what is approximate or has no equivalent
}

// flowElems are the leaves of one IO_Flow_Parameter_Set_* element, by name.
type flow struct {
	kind  string // "Synthetic" or "Trace_Based"
	line  int
	elems map[string]element
	order []string
}

// ImportWorkload reads an MQSim workload file (MQSim_IO_Scenarios of IO_Scenario elements,
// each holding IO_Flow_Parameter_Set_Synthetic or _Trace_Based flows) and converts each
// scenario for a device of capacity bytes: every synthetic flow becomes one job on its own
// 1/n of the device (MQSim gives each flow its own address space), its working set a
// percentage of that share.
func ImportWorkload(r io.Reader, name string, capacity int64) ([]Scenario, error) {
	if capacity < 1<<20 {
		return nil, fmt.Errorf("%s: device capacity %d B is too small to place flows on", name, capacity)
	}
	data, err := readInput(r, name, "an MQSim workload file")
	if err != nil {
		return nil, err
	}
	scs, err := readScenarios(data, name)
	if err != nil {
		return nil, err
	}
	var out []Scenario
	var errs []error
	for i, flows := range scs {
		sc, err := convertScenario(name, i, flows, capacity)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sc)
	}
	return out, errors.Join(errs...)
}

// readScenarios returns each scenario's flows in file order.
func readScenarios(data []byte, name string) ([][]*flow, error) {
	dec, line := newDecoder(data)
	var scs [][]*flow
	var cur *flow
	var leaf string
	var text strings.Builder
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not well-formed XML: %w", name, line(), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			n := t.Name.Local
			switch depth {
			case 1:
				if n != "MQSim_IO_Scenarios" {
					return nil, fmt.Errorf("%s:%d: root element <%s>: want <MQSim_IO_Scenarios> (an MQSim workload file)", name, line(), n)
				}
			case 2:
				if n != "IO_Scenario" {
					return nil, fmt.Errorf("%s:%d: <%s> in <MQSim_IO_Scenarios>: want <IO_Scenario>", name, line(), n)
				}
				scs = append(scs, nil)
			case 3:
				kind, ok := strings.CutPrefix(n, "IO_Flow_Parameter_Set_")
				if !ok || (kind != "Synthetic" && kind != "Trace_Based") {
					return nil, fmt.Errorf("%s:%d: <%s> in <IO_Scenario>: want IO_Flow_Parameter_Set_Synthetic or _Trace_Based", name, line(), n)
				}
				cur = &flow{kind: kind, line: line(), elems: map[string]element{}}
				scs[len(scs)-1] = append(scs[len(scs)-1], cur)
			case 4:
				leaf = n
				text.Reset()
			default:
				return nil, fmt.Errorf("%s:%d: <%s> inside <%s>, which holds a value", name, line(), n, leaf)
			}
		case xml.EndElement:
			if depth == 4 {
				if prev, ok := cur.elems[leaf]; ok {
					return nil, fmt.Errorf("%s:%d: %s is given twice in one flow (first on line %d)", name, line(), leaf, prev.line)
				}
				cur.elems[leaf] = element{name: leaf, value: strings.TrimSpace(text.String()), line: line()}
				cur.order = append(cur.order, leaf)
			}
			depth--
		case xml.CharData:
			if depth == 4 {
				text.Write(t)
			} else if s := strings.TrimSpace(string(t)); s != "" {
				return nil, fmt.Errorf("%s:%d: text %q outside a value element", name, line(), s)
			}
		}
	}
	if len(scs) == 0 {
		return nil, fmt.Errorf("%s: no <IO_Scenario>: not an MQSim workload file", name)
	}
	return scs, nil
}

// synthetic lists the synthetic-flow elements this importer reads.
var synthetic = map[string]bool{"Priority_Class": true, "Device_Level_Data_Caching_Mode": true, "Channel_IDs": true,
	"Chip_IDs": true, "Die_IDs": true, "Plane_IDs": true, "Initial_Occupancy_Percentage": true,
	"Working_Set_Percentage": true, "Synthetic_Generator_Type": true, "Read_Percentage": true,
	"Address_Distribution": true, "Percentage_of_Hot_Region": true, "Request_Size_Distribution": true,
	"Average_Request_Size": true, "Variance_Request_Size": true, "Seed": true, "Average_No_of_Reqs_in_Queue": true,
	"Intensity": true, "Stop_Time": true, "Total_Requests_To_Generate": true, "Generated_Aligned_Addresses": true,
	"Address_Alignment_Unit": true, "Bandwidth": true}

// convertScenario converts scenario i's flows.
func convertScenario(name string, i int, flows []*flow, capacity int64) (Scenario, error) {
	im := &importer{name: name, res: &Result{}}
	var syn []*flow
	for _, f := range flows {
		if f.kind == "Trace_Based" {
			path := f.elems["File_Path"].value
			im.note(element{name: "IO_Flow_Parameter_Set_Trace_Based", value: path, line: f.line}, false,
				"a trace flow: replay it with \"fastdrain replay %s --mode timed\" (MQSim's Percentage_To_Be_Executed, Relay_Count and Time_Unit have no replay flags yet)",
				strings.ReplaceAll(path, `\`, "/"))
			continue
		}
		syn = append(syn, f)
	}
	sc := Scenario{Flows: len(syn)}
	root := &yaml.Node{Kind: yaml.MappingNode}
	jobs := &yaml.Node{Kind: yaml.SequenceNode}
	region := capacity / int64(max(len(syn), 1)) / (1 << 20) * (1 << 20) // whole MiB per flow
	for k, f := range syn {
		job := im.flowJob(f, k, region)
		if job != nil {
			jobs.Content = append(jobs.Content, job)
		}
	}
	if len(im.errs) > 0 {
		return sc, fmt.Errorf("scenario %d: %w", i+1, errors.Join(im.errs...))
	}
	sc.Notes = im.res.Notes
	sort.SliceStable(sc.Notes, func(a, b int) bool { return sc.Notes[a].Line < sc.Notes[b].Line })
	var head strings.Builder
	fmt.Fprintf(&head, "Scenario %d of MQSim's %s, converted by \"fastdrain config import mqsim-workload\"\n", i+1, name)
	fmt.Fprintf(&head, "for a device of %d bytes: each of the %d synthetic flows gets its own %d MiB region.\n", capacity, len(syn), region>>20)
	head.WriteString("Run it with: fastdrain fio THIS.yaml --preset PRESET\n")
	writeNotes(&head, "Not converted exactly:", sc.Notes)
	global := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar("direct", ""), scalarInt(1, "MQSim drives the device directly"),
		scalar("filename", ""), scalar("/dev/nvme0n1", "the namespace itself: each flow's region is at its own device offset")}}
	root.Content = append(root.Content, scalar("global", ""), global, scalar("jobs", ""), jobs)
	doc := &yaml.Node{Kind: yaml.DocumentNode, HeadComment: strings.TrimRight(head.String(), "\n"), Content: []*yaml.Node{root}}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return sc, err
	}
	sc.Jobs = b
	return sc, nil
}

func scalar(v, comment string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, LineComment: comment}
}

func scalarInt(v int64, comment string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10), LineComment: comment}
}

// flowJob converts synthetic flow k into a fio job on region bytes at k·region.
func (im *importer) flowJob(f *flow, k int, region int64) *yaml.Node {
	get := func(n string) (element, bool) { e, ok := f.elems[n]; return e, ok }
	for _, n := range f.order {
		if !synthetic[n] {
			im.note(f.elems[n], false, "not an element of a synthetic flow this importer knows")
		}
	}
	job := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { job.Content = append(job.Content, scalar(key, ""), v) }
	add("name", scalar(fmt.Sprintf("flow%d", k), ""))
	read := int64(0)
	if e, ok := get("Read_Percentage"); ok {
		read, _ = im.integer(e, 0, 100)
	}
	random, hot := true, int64(-1)
	if e, ok := get("Address_Distribution"); ok {
		// MQSim's source reads RANDOM_UNIFORM and RANDOM_HOTCOLD (src/exec/
		// IO_Flow_Parameter_Set.cpp); its releases before that read UNIFORM_RANDOM and
		// HOTCOLD_RANDOM, and the shipped workload files use both spellings.
		w, ok := im.oneOf(e, "RANDOM_UNIFORM", "UNIFORM_RANDOM", "RANDOM_HOTCOLD", "HOTCOLD_RANDOM", "STREAMING")
		switch {
		case !ok:
		case w == "STREAMING":
			random = false
		case w == "RANDOM_HOTCOLD" || w == "HOTCOLD_RANDOM":
			hot = 0
			if h, ok := get("Percentage_of_Hot_Region"); ok {
				hot, _ = im.integer(h, 0, 100)
			}
		}
	}
	rw := map[[2]bool]string{{true, false}: "randwrite", {true, true}: "randread", {false, false}: "write", {false, true}: "read"}
	switch read {
	case 0, 100:
		add("rw", scalar(rw[[2]bool{random, read == 100}], "MQSim Read_Percentage = "+strconv.FormatInt(read, 10)))
	default:
		mode := "rw"
		if random {
			mode = "randrw"
		}
		add("rw", scalar(mode, ""))
		add("rwmixread", scalarInt(read, "MQSim Read_Percentage"))
	}
	bs := int64(4096)
	if e, ok := get("Average_Request_Size"); ok {
		// MQSim gives request sizes in 512-byte sectors.
		if n, ok := im.integer(e, 1, 1<<16); ok {
			bs = n * 512
			add("bs", scalarInt(bs, fmt.Sprintf("MQSim Average_Request_Size = %d sectors of 512 B", n)))
		}
	}
	if e, ok := get("Request_Size_Distribution"); ok {
		if w, ok := im.oneOf(e, "FIXED", "NORMAL"); ok && w == "NORMAL" {
			im.note(e, true, "normally distributed sizes are not a fio job option: every request is Average_Request_Size")
		}
	}
	if hot > 0 && hot < 100 && random {
		// MQSim (IO_Flow_Parameter_Set.h): "(100-H)% of the whole I/O requests are going to
		// a H% hot region"; the hot region is put at the start of the working set.
		add("random_distribution", scalar(fmt.Sprintf("zoned:%d/%d:%d/%d", 100-hot, hot, hot, 100-hot),
			fmt.Sprintf("MQSim RANDOM_HOTCOLD with Percentage_of_Hot_Region = %d", hot)))
		add("norandommap", scalarInt(1, "fio draws skewed offsets with replacement"))
	}
	byRate := false
	if e, ok := get("Synthetic_Generator_Type"); ok {
		w, ok := im.oneOf(e, "QUEUE_DEPTH", "BANDWIDTH", "ARRIVAL_RATE")
		switch {
		case ok && w == "BANDWIDTH":
			if b, ok := get("Bandwidth"); ok {
				if n, ok := im.integer(b, 1, math.MaxInt64); ok {
					// MQSim's mean request gap is 10⁹ / ((Bandwidth / 512) / Average_Request_Size)
					// ns: Bandwidth bytes per second in requests of that size.
					add("rate", scalarInt(n, "MQSim Bandwidth (bytes/s)"))
					add("iodepth", scalarInt(1024, "MQSim does not bound a bandwidth flow's outstanding requests; 1024 (the NVMe queue) here"))
					byRate = true
				}
			} else {
				im.note(e, false, "a BANDWIDTH flow without Bandwidth: the job runs at Average_No_of_Reqs_in_Queue outstanding")
			}
		case ok && w == "ARRIVAL_RATE":
			im.note(e, false, "MQSim's earlier arrival-rate flows (Intensity) have no equivalent: the job runs at Average_No_of_Reqs_in_Queue (or 1) outstanding")
		}
	}
	if e, ok := get("Average_No_of_Reqs_in_Queue"); ok && !byRate {
		if n, ok := im.integer(e, 1, 65536); ok {
			add("iodepth", scalarInt(n, "MQSim Average_No_of_Reqs_in_Queue"))
		}
	}
	if e, ok := get("Generated_Aligned_Addresses"); ok && strings.EqualFold(e.value, "true") {
		if u, ok := get("Address_Alignment_Unit"); ok {
			if n, ok := im.integer(u, 1, 1<<20); ok && n*512 > bs && random {
				add("blockalign", scalarInt(n*512, fmt.Sprintf("MQSim Address_Alignment_Unit = %d sectors", n)))
			}
		}
	}
	ws := int64(100)
	if e, ok := get("Working_Set_Percentage"); ok {
		ws, _ = im.integer(e, 1, 100)
	}
	size := region * ws / 100 / bs * bs
	add("offset", scalarInt(int64(k)*region, fmt.Sprintf("flow %d's own region of %d MiB", k, region>>20)))
	add("size", scalarInt(max(size, bs), fmt.Sprintf("MQSim Working_Set_Percentage = %d of the region", ws)))
	if e, ok := get("Seed"); ok {
		if n, ok := im.integer(e, 0, math.MaxInt64); ok {
			add("randseed", scalarInt(n, "MQSim Seed"))
		}
	}
	total := int64(0)
	if e, ok := get("Total_Requests_To_Generate"); ok {
		total, _ = im.integer(e, 0, math.MaxInt64/(1<<16*512))
	}
	if e, ok := get("Stop_Time"); ok {
		if n, ok := im.integer(e, 1, math.MaxInt64/1000); ok {
			add("runtime", scalar(strconv.FormatInt(n, 10)+"ns", "MQSim Stop_Time"))
			if total == 0 {
				add("time_based", scalarInt(1, "MQSim runs the flow until Stop_Time"))
			}
		}
	}
	if total > 0 {
		add("io_size", scalarInt(total*bs, fmt.Sprintf("MQSim Total_Requests_To_Generate = %d", total)))
	}
	for _, n := range []string{"Priority_Class", "Device_Level_Data_Caching_Mode", "Intensity", "Variance_Request_Size"} {
		if e, ok := get(n); ok {
			im.note(e, false, "%s", workloadNoEquivalent[n])
		}
	}
	if e, ok := get("Initial_Occupancy_Percentage"); ok {
		if n, ok := im.integer(e, 0, 100); ok {
			im.note(e, true, "a device setting, not a job's: run with --set precondition.fill=%.2f", float64(n)/100)
		}
	}
	for _, n := range []string{"Channel_IDs", "Chip_IDs", "Die_IDs", "Plane_IDs"} {
		if e, ok := get(n); ok {
			im.note(e, false, "flows are not confined to resource subsets: every job's data is striped over the whole array")
		}
	}
	return job
}

// workloadNoEquivalent gives the reason per synthetic-flow element without a job option.
var workloadNoEquivalent = map[string]string{
	"Priority_Class":                 "NVMe queue priorities are per submission queue (nvme.wrr weights), not per job",
	"Device_Level_Data_Caching_Mode": "the write buffer is the device's (firmware.buffer), the same for every job",
	"Intensity":                      "MQSim's earlier arrival-rate setting; only its later Bandwidth (BANDWIDTH flows) is converted, to fio's rate",
	"Variance_Request_Size":          "request sizes are fixed",
}
