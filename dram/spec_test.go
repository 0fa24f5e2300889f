package dram

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

func TestDefaultSpecValid(t *testing.T) {
	s := DefaultSpec()
	require.NoError(t, s.Validate())
	// docs/sources.md §4.1: CL = tRCD = tRP = 11 nCK of 1.25 ns.
	require.Equal(t, 11*s.TCK, s.CL)
	require.Equal(t, 11*s.TCK, s.TRCD)
	require.Equal(t, 11*s.TCK, s.TRP)
	// 8 banks × 16 K rows × 4 KiB (two x16 devices, 2 KB page each) = 512 MiB.
	require.Equal(t, 8*16384*4*KiB, s.Capacity)
}

func TestValidateEachField(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"kind", func(s *Spec) { s.Kind = "ddr5" }, `dram.kind: "ddr5" is not one of ddr3, ddr4`},
		{"ddr3 banks", func(s *Spec) { s.Banks = 16 }, "dram.banks: 16 is not 8"},
		{"ddr4 banks", func(s *Spec) { s.Kind, s.Banks = "ddr4", 4 }, "dram.banks: 4 is not one of 8, 16"},
		{"bus width", func(s *Spec) { s.BusWidth = 24 }, "dram.bus_width: 24 is not one of 8, 16, 32, 64"},
		{"burst length", func(s *Spec) { s.BurstLength = 4 }, "dram.burst_length: 4 is not 8"},
		{"row size power", func(s *Spec) { s.RowSize = 3000 }, "dram.row_size: 3000B is not a positive power of two"},
		{"row size burst", func(s *Spec) { s.RowSize = 16 }, "dram.row_size: 16B is smaller than one burst (32 B)"},
		{"capacity zero", func(s *Spec) { s.Capacity = 0 }, "dram.capacity: 0B must be positive"},
		{"capacity rows", func(s *Spec) { s.Capacity = 512*MiB + 4*KiB }, "dram.capacity: 524292KiB is not a whole number of rows"},
		{"tck", func(s *Spec) { s.TCK = 0 }, "dram.t_ck: 0s must be positive"},
		{"cl", func(s *Spec) { s.CL = 0 }, "dram.cl: 0s must be positive"},
		{"cwl", func(s *Spec) { s.CWL = -1 }, "dram.cwl: -1ps must be positive"},
		{"trcd", func(s *Spec) { s.TRCD = 0 }, "dram.t_rcd: 0s must be positive"},
		{"trp", func(s *Spec) { s.TRP = 0 }, "dram.t_rp: 0s must be positive"},
		{"tras", func(s *Spec) { s.TRAS = 0 }, "dram.t_ras: 0s must be positive"},
		{"twr", func(s *Spec) { s.TWR = -1 }, "dram.t_wr: -1ps must not be negative"},
		{"trtp", func(s *Spec) { s.TRTP = -1 }, "dram.t_rtp: -1ps must not be negative"},
		{"twtr", func(s *Spec) { s.TWTR = -1 }, "dram.t_wtr: -1ps must not be negative"},
		{"trrd", func(s *Spec) { s.TRRD = -1 }, "dram.t_rrd: -1ps must not be negative"},
		{"tfaw", func(s *Spec) { s.TFAW = -1 }, "dram.t_faw: -1ps must not be negative"},
		{"tccd", func(s *Spec) { s.TCCD = -1 }, "dram.t_ccd: -1ps must not be negative"},
		{"trfc", func(s *Spec) { s.TRFC = 0 }, "dram.t_rfc: 0s must be positive when refresh is on"},
		{"trefi", func(s *Spec) { s.TREFI = 100 * sim.Nanosecond }, "dram.t_refi: 100ns must be longer than t_rfc (160ns)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSpec()
			tc.edit(&s)
			err := s.Validate()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
	// Refresh off: tRFC and tREFI are not needed.
	s := DefaultSpec()
	s.Refresh, s.TRFC, s.TREFI = false, 0, 0
	require.NoError(t, s.Validate())
}

func TestValidateReportsEveryProblem(t *testing.T) {
	err := Spec{}.Validate()
	require.Error(t, err)
	var joined interface{ Unwrap() []error }
	require.True(t, errors.As(err, &joined))
	// kind, bus_width, burst_length, row_size, capacity, t_ck, cl, cwl, t_rcd, t_rp, t_ras.
	require.Len(t, joined.Unwrap(), 11, err.Error())
	for _, e := range joined.Unwrap() {
		require.True(t, strings.HasPrefix(e.Error(), "dram."), e.Error())
	}
}

func TestSpecYAML(t *testing.T) {
	doc := `
kind: ddr4
capacity: 1GiB
banks: 16
bus_width: 64
row_size: 8KiB
t_ck: 0.833ns
cl: 13.32ns
refresh: false
`
	s := DefaultSpec()
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&s))
	require.NoError(t, s.Validate())
	require.Equal(t, "ddr4", s.Kind)
	require.Equal(t, 1<<30, int(s.Capacity))
	require.Equal(t, sim.Time(833), s.TCK)
	require.Equal(t, 8192, int(s.RowSize))
	require.Equal(t, 35*sim.Nanosecond, s.TRAS, "unset keys keep the default")

	dec = yaml.NewDecoder(strings.NewReader("t_rdc: 13ns\n"))
	dec.KnownFields(true)
	require.Error(t, dec.Decode(&s), "a misspelt key is rejected")
	require.Error(t, yaml.Unmarshal([]byte("capacity: 512KB\n"), &s), "KB is ambiguous")

	out, err := yaml.Marshal(DefaultSpec())
	require.NoError(t, err)
	require.Contains(t, string(out), "capacity: 512MiB\n")
	require.Contains(t, string(out), "cl: 13.75ns\n")
	var back Spec
	require.NoError(t, yaml.Unmarshal(out, &back))
	require.Equal(t, DefaultSpec(), back, "a marshalled spec reads back unchanged")
}
