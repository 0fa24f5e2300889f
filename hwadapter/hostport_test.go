package hwadapter_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// The NVMe controller model is the firmware's host port through hwadapter.Host, which is
// the controller's firmware and data sink.
var (
	_ firmware.HostPort = (*hwadapter.Host)(nil)
	_ nvmectrl.Firmware = (*hwadapter.Host)(nil)
	_ nvmectrl.DataSink = (*hwadapter.Host)(nil)
)

// plainFW takes commands and keeps no reports.
type plainFW struct{ got []*hal.HostCmd }

func (f *plainFW) Submit(_ sim.Time, cmd *hal.HostCmd) { f.got = append(f.got, cmd) }

// reportingFW keeps every report (hal.HostReports), each with a value the controller's
// defaults do not have.
type reportingFW struct{ plainFW }

func (reportingFW) FDPInfo() nvme.FDPInfo                         { return nvme.FDPInfo{} }
func (reportingFW) HealthInfo() nvme.HealthInfo                   { return nvme.HealthInfo{AvailableSpare: 37} }
func (reportingFW) VolatileWriteCache() bool                      { return false }
func (reportingFW) ZoneInfo(uint32) ([]nvme.ZoneDescriptor, bool) { return nil, false }
func (reportingFW) NamespaceInfo(nsid uint32) (nvme.NamespaceInfo, bool) {
	return nvme.NamespaceInfo{Blocks: 1000, Used: 10, LBASize: 512}, nsid == 1
}

func newCtrl(t *testing.T, cs nvmectrl.Spec) *nvmectrl.Controller {
	eng := sim.NewEngine()
	t.Cleanup(eng.Close)
	return nvmectrl.New("ssd.nvme", cs, eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())
}

// TestHostForwardsReports: the controller asks the firmware behind the host port for its
// reports. With a firmware that keeps them, the SMART / Health log's Available Spare (byte
// 3) is the firmware's 37 %, Identify Controller's VWC bit 0 is clear (its cache is not
// volatile) and Identify Namespace 1's NSZE (bytes 0–7) and NUSE (16–23) are its 1000 and
// 10 blocks. With a firmware that keeps none, the controller's own answers stand: 100 %
// spare, VWC set, NSZE 0 (nvmectrl: HealthLog, IdentifyController, identifyNamespace).
func TestHostForwardsReports(t *testing.T) {
	c := newCtrl(t, nvmectrl.DefaultSpec())
	h := hwadapter.NewHost(c)
	h.SetFirmware(&reportingFW{})
	log := c.HealthLog()
	require.Equal(t, byte(37), log[nvme.HealthAvailableSpare])
	id := c.IdentifyController()
	require.Zero(t, id[nvmectrl.IdentifyVWC]&nvmectrl.VWCPresent)
	ns, ok := c.IdentifyNamespace(1)
	require.True(t, ok)
	require.Equal(t, byte(1000&0xFF), ns[0])
	require.Equal(t, byte(1000>>8), ns[1])
	require.Equal(t, byte(10), ns[nvmectrl.IdentifyNUSE])

	c = newCtrl(t, nvmectrl.DefaultSpec())
	h = hwadapter.NewHost(c)
	h.SetFirmware(&plainFW{})
	log = c.HealthLog()
	require.Equal(t, byte(100), log[nvme.HealthAvailableSpare])
	id = c.IdentifyController()
	require.Equal(t, byte(nvmectrl.VWCPresent), id[nvmectrl.IdentifyVWC]&nvmectrl.VWCPresent)
	ns, ok = c.IdentifyNamespace(1)
	require.True(t, ok)
	require.Zero(t, ns[0])
}

// TestHostSpec: the firmware's view of a controller spec with no namespaces configured is
// its command slots and the one whole-capacity namespace of the controller's LBA size.
func TestHostSpec(t *testing.T) {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	hs := hwadapter.HostSpec(cs)
	require.Equal(t, cs.MaxCommands, hs.Slots)
	require.Equal(t, []nvme.Namespace{{LBASize: 4096}}, hs.Namespaces)
	require.False(t, hs.FDP.Enabled)
	require.Equal(t, hs, hwadapter.NewHost(newCtrl(t, cs)).Spec())
}
