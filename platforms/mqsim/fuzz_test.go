package mqsim

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
)

// FuzzImport feeds arbitrary bytes to Import: it must never panic; an accepted file must
// give YAML that the configuration decoder reads (its values may still fail validation,
// which is reported, never a panic).
func FuzzImport(f *testing.F) {
	def, err := os.ReadFile("testdata/mqsim-default.xml")
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
