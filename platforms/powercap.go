package platforms

import (
	"math/big"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/firmware"
)

// firmwareSpec returns c's firmware section with the scheduler's DiePower and
// StandbyPower filled in from the energy section, so a power cap
// (firmware.scheduler.power_cap) is kept with the same per-die powers the energy meter
// charges.
func firmwareSpec(c Config) firmware.Spec {
	fw := c.Firmware
	n := c.Energy.NAND
	fw.Scheduler.DiePower = microwatts(max(n.ICC2, n.ICC3), n.VCC)
	fw.Scheduler.StandbyPower = microwatts(n.ISB, n.VCC)
	return fw
}

// microwatts is i × v in microwatts rounded up (nA × µV = 10⁻¹⁵ W; 25 mA × 3.3 V =
// 82,500 µW, 30 µA × 3.3 V = 99 µW).
func microwatts(i energy.Current, v energy.Voltage) firmware.Power {
	p := new(big.Int).Mul(big.NewInt(int64(i)), big.NewInt(int64(v)))
	q, r := new(big.Int).QuoRem(p, big.NewInt(1_000_000_000), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return firmware.Power(1 << 62)
	}
	return firmware.Power(q.Int64())
}
