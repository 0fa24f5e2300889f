package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPowerCapConfig: the scheduler's die powers come from energy.nand: max(icc2, icc3) ×
// vcc = 25 mA × 3.3 V = 82.5 mW and isb × vcc = 30 µA × 3.3 V = 99 µW by default; with
// icc3 raised to 40 mA a die erasing draws 132 mW, which the cap then counts for every
// slot. A cap below one die's power is refused naming the key, and so is a power
// without a unit.
func TestPowerCapConfig(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"firmware.scheduler.power_cap=3W"}})
	require.NoError(t, err)
	fw := firmwareSpec(c)
	require.EqualValues(t, 3_000_000, fw.Scheduler.PowerCap)
	require.EqualValues(t, 82_500, fw.Scheduler.DiePower)
	require.EqualValues(t, 99, fw.Scheduler.StandbyPower)
	c, err = Load(Options{Preset: "tiny", Sets: []string{"energy.nand.icc3=40mA"}})
	require.NoError(t, err)
	require.EqualValues(t, 132_000, firmwareSpec(c).Scheduler.DiePower)

	_, err = Load(Options{Preset: "tiny", Sets: []string{"firmware.scheduler.power_cap=50mW"}})
	require.ErrorContains(t, err, "firmware.scheduler.power_cap: 50mW is below one programming die's 82.5mW")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"firmware.scheduler.power_cap=3"}})
	require.ErrorContains(t, err, "power_cap")
	require.ErrorContains(t, err, "missing unit after the number")
}
