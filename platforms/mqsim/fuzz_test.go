package mqsim

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/platforms"
)

// FuzzImport feeds arbitrary bytes to Import: it must never panic; an accepted file must
// give YAML that the configuration decoder reads (its values may still fail validation,
// which is reported, never a panic).
func FuzzImport(f *testing.F) {
	def, err := os.ReadFile("../../examples/mqsim/ssdconfig.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(def)
	f.Add([]byte(`<Execution_Parameter_Set><Device_Parameter_Set><Flash_Channel_Count>4</Flash_Channel_Count></Device_Parameter_Set></Execution_Parameter_Set>`))
	f.Add([]byte(`<Execution_Parameter_Set><Device_Parameter_Set><Block_No_Per_Plane>16</Block_No_Per_Plane><GC_Exec_Threshold>0.5</GC_Exec_Threshold><GC_Hard_Threshold>0.9</GC_Hard_Threshold></Device_Parameter_Set></Execution_Parameter_Set>`))
	f.Add([]byte(`<?xml version="1.0" encoding="latin1"?><Execution_Parameter_Set/>`))
	f.Add([]byte(strings.Replace(string(def), "NVDDR2", "TOGGLE", 1)))
	f.Add([]byte("<a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Import(strings.NewReader(string(data)), "f.xml")
		if err != nil {
			return
		}
		y, err := r.YAML("f.xml")
		if err != nil {
			t.Fatalf("accepted file gives no YAML: %v", err)
		}
		_, _ = platforms.Decode(platforms.Source{Name: "imported", Data: y})
	})
}

// FuzzImportWorkload feeds arbitrary bytes to ImportWorkload: never a panic, and every job
// file of an accepted workload decodes as fio jobs or fails with an error.
func FuzzImportWorkload(f *testing.F) {
	wl, err := os.ReadFile("testdata/workload.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(wl)
	f.Add([]byte(`<MQSim_IO_Scenarios><IO_Scenario><IO_Flow_Parameter_Set_Synthetic><Average_Request_Size>65536</Average_Request_Size><Total_Requests_To_Generate>9</Total_Requests_To_Generate></IO_Flow_Parameter_Set_Synthetic></IO_Scenario></MQSim_IO_Scenarios>`))
	f.Add([]byte(`<MQSim_IO_Scenarios/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		scs, err := ImportWorkload(strings.NewReader(string(data)), "w.xml", 64<<20)
		if err != nil {
			return
		}
		for _, sc := range scs {
			_, _ = fio.Decode(strings.NewReader(string(sc.Jobs)), "s.yaml")
		}
	})
}
