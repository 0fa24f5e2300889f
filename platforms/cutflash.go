package platforms

import (
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// CutFlash applies the flash's side of a power cut once the firmware has stopped after it
// (firmware.Firmware.PoweredOff): at the firmware's power-off instant — the cut, or with
// power-loss protection the end of the hold-up drain — every die loses what its
// programming scheme had not made final (die.Die.Cut), and the firmware's copy of the
// spare areas forgets those pages' records (firmware.Firmware.FlashLost), so recovery sees
// the flash as the dies hold it. It returns the pages lost. Call it once, before recovery.
func (m *Machine) CutFlash() ([]ftl.PPN, error) {
	fw := m.SSD.FW
	g := fw.FTL().Geometry()
	t := fw.PowerLossReport().Off
	var lost []ftl.PPN
	for d := 0; d < g.Dies(); d++ {
		for _, a := range m.SSD.Channels[g.Channel(d)].Die(d % g.DiesPerChannel).Cut(t) {
			lost = append(lost, g.PPN(ftl.Addr{Die: d, Plane: a.Plane, Block: a.Block, Page: a.Page}))
		}
	}
	return lost, fw.FlashLost(lost)
}

// RunningLoss returns the flash pages a power cut now would destroy because of the programs
// running on the dies (die.Die.RunningLoss): on 2D parts the lower pages, on the word line
// of an interrupted CSB or MSB program, that earlier programs wrote; on one-shot and
// two-pass parts the word lines being programmed. It changes nothing: the power-cut
// campaign aims cuts with it (powercut's "word-line" schedule).
func (m *Machine) RunningLoss() []ftl.PPN {
	fw := m.SSD.FW
	g := fw.FTL().Geometry()
	now := m.Eng.Now()
	var pages []ftl.PPN
	for d := 0; d < g.Dies(); d++ {
		for _, a := range m.SSD.Channels[g.Channel(d)].Die(d % g.DiesPerChannel).RunningLoss(now) {
			pages = append(pages, g.PPN(ftl.Addr{Die: d, Plane: a.Plane, Block: a.Block, Page: a.Page}))
		}
	}
	return pages
}

// RunningErases returns the blocks whose erase runs on a die now (die.Die.RunningErase). It
// changes nothing: the power-cut campaign aims cuts with it (powercut's "two-cut" schedule).
func (m *Machine) RunningErases() []ftl.BlockID {
	g := m.SSD.FW.FTL().Geometry()
	now := m.Eng.Now()
	var blocks []ftl.BlockID
	for d := 0; d < g.Dies(); d++ {
		for _, a := range m.SSD.Channels[g.Channel(d)].Die(d % g.DiesPerChannel).RunningErase(now) {
			blocks = append(blocks, g.BlockOf(g.PPN(ftl.Addr{Die: d, Plane: a.Plane, Block: a.Block})))
		}
	}
	return blocks
}
