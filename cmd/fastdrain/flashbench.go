package main

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// flashbenchFlags holds the command-line form of a flashbench configuration.
type flashbenchFlags struct {
	fl flashbench.Flags
	cliflags.Output
}

func newFlashbench() *cobra.Command {
	fb := &flashbenchFlags{}
	cmd := &cobra.Command{
		Use:   "flashbench",
		Short: "Drive a bare flash array with synthetic reads, programs and erases",
		Long: `flashbench builds a flash array (channels × ways × dies per way × planes) of the chosen
flash type and ONFI bus, keeps --qd operations outstanding on uniformly random dies with the
given read/program/erase mix, and reports bandwidth, IOPS, latency per operation kind and a
utilization table of every channel bus and die by activity; --out/flashbench/ gets
flashbench.json and flashbench.csv (unless --no-files).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return fb.run(cmd) },
	}
	fb.register(cmd)
	return cmd
}

func (fb *flashbenchFlags) register(cmd *cobra.Command) {
	fb.fl = flashbench.DefaultFlags()
	fl, f := &fb.fl, cmd.Flags()
	f.IntVar(&fl.Channels, "channels", fl.Channels, "number of channels")
	f.IntVar(&fl.Ways, "ways", fl.Ways, "packages (ways) per channel")
	f.IntVar(&fl.Dies, "dies", fl.Dies, "dies per package")
	f.IntVar(&fl.Planes, "planes", fl.Planes, "planes per die")
	f.IntVar(&fl.Blocks, "blocks", fl.Blocks, "blocks per plane")
	f.IntVar(&fl.Pages, "pages", fl.Pages, "pages per block")
	f.IntVar(&fl.PageSize, "page-size", fl.PageSize, "page size in bytes")
	f.StringVar(&fl.Flash, "flash", fl.Flash, "flash type: slc, mlc, tlc or qlc (timings: die.SpecFor)")
	f.StringVar(&fl.Scheme, "scheme", "", "programming scheme: page, one-shot or two-pass (default: the flash type's)")
	f.StringVar(&fl.ONFI, "onfi", fl.ONFI, "NAND interface: sdr, nv-ddr, nv-ddr2, nv-ddr3, nv-lpddr4 or toggle")
	f.IntVar(&fl.ONFIMode, "onfi-mode", fl.ONFIMode, "ONFI timing mode")
	f.IntVar(&fl.ONFIRate, "onfi-rate", 0, "NAND bus data rate in MT/s, up to 3600 (nv-ddr3 past 800, nv-lpddr4, toggle); replaces --onfi-mode")
	f.StringVar(&fl.Policy, "policy", fl.Policy, "channel arbitration: fifo or read-first")
	f.IntVar(&fl.QueueDepth, "qd", fl.QueueDepth, "operations outstanding across the array")
	f.Int64Var(&fl.Ops, "ops", fl.Ops, "operations to complete")
	f.StringVar(&fl.Mix, "mix", fl.Mix, "read/program/erase weights")
	f.BoolVar(&fl.MultiPlane, "multi-plane", false, "use all planes of a die in every operation")
	f.BoolVar(&fl.Suspend, "suspend", false, "let reads suspend programs and erases")
	f.BoolVar(&fl.SLC, "slc", false, "read and program every block in the dies' pSLC mode (die.slc, or --slc-times)")
	f.StringVar(&fl.SLCTimes, "slc-times", "", "the dies' pSLC mode: tR/tPROG, e.g. 25us/300us")
	f.BoolVar(&fl.IndepReads, "independent-plane-reads", false, "let each plane of a die read while its other planes read")
	f.BoolVar(&fl.StatusPoll, "status-poll", false, "poll die status on the bus after every array operation")
	f.BoolVar(&fl.CacheProgram, "cache-program", false, "let a die take the next program's data while its array programs (ONFI 80h-15h)")
	f.Uint64Var(&fl.Seed, "seed", fl.Seed, "random seed")
	f.StringVar(&fl.Preset, "preset", "", "take the flash array from a platform preset; other flags given explicitly override it")
	fb.Output.Register(cmd, "flashbench", "json: flashbench.json's document; csv: flashbench.csv, the operations table as numbers",
		"0s:10ms", "the operations table, flashbench.json and flashbench.csv")
	f.StringArrayVar(&fl.Files, "config", nil, "YAML configuration layered on --preset (repeatable), e.g. from config import mqsim; its flash section is used")
}

func (fb *flashbenchFlags) run(cmd *cobra.Command) error {
	c, err := flashbench.ParseConfig(fb.fl, cmd.Flags().Changed)
	if err := errors.Join(err, fb.Output.Parse()); err != nil {
		return err
	}
	tl := fb.Timeline.Trace()
	if tl != nil {
		c.Observe = func(rs []*sim.Resource) { tl.Attach(rs...) }
	}
	res, err := flashbench.Run(c)
	if err != nil {
		return err
	}
	res.Percentiles = fb.Percentiles.List
	if err := fb.Timeline.Write(cmd.ErrOrStderr(), nil); err != nil {
		return err
	}
	name := fmt.Sprintf("%dch-%ddies", c.Channels, c.Channels*c.Channel.Dies)
	if fb.fl.Preset != "" {
		name = fb.fl.Preset + "-" + name
	}
	if err := fb.Save(name, res.WriteDir); err != nil {
		return err
	}
	return fb.Write(res.WriteText, res.WriteJSON, res.SummaryCSV().WriteCSV)
}
