package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/onfi"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// flashbenchFlags holds the command-line form of a flashbench configuration.
type flashbenchFlags struct {
	channels, ways, diesPerWay    int
	planes, blocks, pages, pageSz int
	flash, iface, policy, mix     string
	scheme                        string
	mode, qd, rate                int
	ops                           int64
	multiPlane, suspend, poll     bool
	slc, indepReads               bool
	slcTimes                      string
	seed                          uint64
	preset                        string
	files                         []string // --config layers on the preset
	outputFlags
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
	d := flashbench.DefaultConfig()
	f := cmd.Flags()
	f.IntVar(&fb.channels, "channels", d.Channels, "number of channels")
	f.IntVar(&fb.ways, "ways", d.Channel.Dies, "packages (ways) per channel")
	f.IntVar(&fb.diesPerWay, "dies", 1, "dies per package")
	f.IntVar(&fb.planes, "planes", d.Channel.Die.Planes, "planes per die")
	f.IntVar(&fb.blocks, "blocks", d.Channel.Die.BlocksPerPlane, "blocks per plane")
	f.IntVar(&fb.pages, "pages", d.Channel.Die.PagesPerBlock, "pages per block")
	f.IntVar(&fb.pageSz, "page-size", d.Channel.Die.PageSize, "page size in bytes")
	f.StringVar(&fb.flash, "flash", "tlc", "flash type: slc, mlc, tlc or qlc (timings: die.SpecFor)")
	f.StringVar(&fb.scheme, "scheme", "", "programming scheme: page, one-shot or two-pass (default: the flash type's)")
	f.StringVar(&fb.iface, "onfi", d.Channel.ONFI.Interface.String(), "NAND interface: sdr, nv-ddr, nv-ddr2, nv-ddr3, nv-lpddr4 or toggle")
	f.IntVar(&fb.mode, "onfi-mode", d.Channel.ONFI.Mode, "ONFI timing mode")
	f.IntVar(&fb.rate, "onfi-rate", 0, "NAND bus data rate in MT/s, up to 3600 (nv-ddr3 past 800, nv-lpddr4, toggle); replaces --onfi-mode")
	f.StringVar(&fb.policy, "policy", d.Channel.Policy.String(), "channel arbitration: fifo or read-first")
	f.IntVar(&fb.qd, "qd", d.QueueDepth, "operations outstanding across the array")
	f.Int64Var(&fb.ops, "ops", d.Ops, "operations to complete")
	f.StringVar(&fb.mix, "mix", fmt.Sprintf("%d/%d/%d", d.ReadWeight, d.ProgramWeight, d.EraseWeight),
		"read/program/erase weights")
	f.BoolVar(&fb.multiPlane, "multi-plane", false, "use all planes of a die in every operation")
	f.BoolVar(&fb.suspend, "suspend", false, "let reads suspend programs and erases")
	f.BoolVar(&fb.slc, "slc", false, "read and program every block in the dies' pSLC mode (die.slc, or --slc-times)")
	f.StringVar(&fb.slcTimes, "slc-times", "", "the dies' pSLC mode: tR/tPROG, e.g. 25us/300us")
	f.BoolVar(&fb.indepReads, "independent-plane-reads", false, "let each plane of a die read while its other planes read")
	f.BoolVar(&fb.poll, "status-poll", false, "poll die status on the bus after every array operation")
	f.Uint64Var(&fb.seed, "seed", d.Seed, "random seed")
	f.StringVar(&fb.preset, "preset", "", "take the flash array from a platform preset; other flags given explicitly override it")
	fb.outputFlags.register(cmd, "flashbench", "json: flashbench.json's document; csv: flashbench.csv, the operations table as numbers",
		"0s:10ms", "the operations table, flashbench.json and flashbench.csv")
	f.StringArrayVar(&fb.files, "config", nil, "YAML configuration layered on --preset (repeatable), e.g. from config import mqsim; its flash section is used")
}

// config turns the flags into a validated flashbench configuration; each error names its
// flag. With --preset the flash array comes from the preset and only flags given
// explicitly change it.
func (fb *flashbenchFlags) config(cmd *cobra.Command) (flashbench.Config, error) {
	c := flashbench.DefaultConfig()
	fromConfig := fb.preset != "" || len(fb.files) > 0
	set := func(name string) bool { return !fromConfig || cmd.Flags().Changed(name) }
	if fromConfig {
		p, err := platforms.Load(platforms.Options{Preset: fb.preset, Files: fb.files})
		if err != nil && p.Flash.Channels == 0 {
			return c, fmt.Errorf("--preset/--config: %w", err)
		}
		// The flash section is what matters here; a preset refused for full-system use
		// (e.g. mqsim-ref's 8 KiB pages) is still a valid flash array.
		c.Channels, c.Channel = p.Flash.Channels, p.Flash.ChannelSpec()
		if !cmd.Flags().Changed("ways") {
			fb.ways = p.Flash.Ways
		}
		if !cmd.Flags().Changed("dies") {
			fb.diesPerWay = p.Flash.DiesPerPackage
		}
	}
	if set("channels") {
		c.Channels = fb.channels
	}
	c.QueueDepth, c.Ops, c.MultiPlane, c.Seed = fb.qd, fb.ops, fb.multiPlane, fb.seed
	errs := fb.die(cmd, &c, set, fromConfig)
	errs = append(errs, fb.modes(cmd, &c, set)...)
	if w, err := flashbench.ParseMix(fb.mix); err != nil {
		errs = append(errs, fmt.Errorf("--mix: %w", err))
	} else {
		c.ReadWeight, c.ProgramWeight, c.EraseWeight = w[0], w[1], w[2]
	}
	if err := fb.outputFlags.parse(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, flagsOfFields(c.Validate())...)
	return c, errors.Join(errs...)
}

// die applies the die flags to c: the flash type, geometry, programming scheme and
// suspend; set tells whether a flag applies (given, or no preset).
func (fb *flashbenchFlags) die(cmd *cobra.Command, c *flashbench.Config, set func(string) bool, fromConfig bool) []error {
	var errs []error
	if fb.ways < 1 || fb.diesPerWay < 1 {
		errs = append(errs, fmt.Errorf("--ways %d and --dies %d must be positive", fb.ways, fb.diesPerWay))
	}
	c.Channel.Dies = fb.ways * fb.diesPerWay
	if set("flash") {
		var cell die.CellType
		if err := cell.UnmarshalText([]byte(fb.flash)); err != nil {
			errs = append(errs, fmt.Errorf("--flash: %w", err))
		} else {
			c.Channel.Die = die.SpecFor(cell)
		}
	}
	d := &c.Channel.Die
	for _, f := range []struct {
		name string
		dst  *int
		v    int
	}{{"planes", &d.Planes, fb.planes}, {"blocks", &d.BlocksPerPlane, fb.blocks},
		{"pages", &d.PagesPerBlock, fb.pages}, {"page-size", &d.PageSize, fb.pageSz}} {
		if set(f.name) || (fromConfig && cmd.Flags().Changed("flash")) {
			*f.dst = f.v
		}
	}
	if set("suspend") {
		d.Suspend = fb.suspend
	}
	if cmd.Flags().Changed("scheme") {
		if err := d.Scheme.UnmarshalText([]byte(fb.scheme)); err != nil {
			errs = append(errs, fmt.Errorf("--scheme: %w", err))
		} else if d.OneShot = false; d.Scheme != die.TwoPass {
			d.TProgFine = 0
		} else if d.TProgFine == 0 {
			d.TProgFine = die.SpecFor(die.QLC).TProgFine // the fine pass of die.SpecFor's two-pass QLC
		}
	}
	return errs
}

// modes applies the bus and mode flags to c: the ONFI interface and its mode or rate, the
// arbitration policy, the pSLC mode, independent plane reads and status polling.
func (fb *flashbenchFlags) modes(cmd *cobra.Command, c *flashbench.Config, set func(string) bool) []error {
	var errs []error
	if set("onfi") || set("onfi-mode") || cmd.Flags().Changed("onfi-rate") {
		var iface onfi.Interface
		if err := iface.UnmarshalText([]byte(fb.iface)); err != nil {
			errs = append(errs, fmt.Errorf("--onfi: %w", err))
		} else if fb.rate > 0 {
			if s, err := onfi.SpecForRate(iface, fb.rate); err != nil {
				errs = append(errs, fmt.Errorf("--onfi-rate: %w", err))
			} else {
				c.Channel.ONFI = s
			}
		} else if s, err := onfi.SpecFor(iface, fb.mode); err != nil {
			errs = append(errs, fmt.Errorf("--onfi-mode: %w", err))
		} else {
			c.Channel.ONFI = s
		}
	}
	if set("policy") {
		if err := c.Channel.Policy.UnmarshalText([]byte(fb.policy)); err != nil {
			errs = append(errs, fmt.Errorf("--policy: %w", err))
		}
	}
	if cmd.Flags().Changed("slc-times") {
		if st, err := flashbench.ParseSLCTimes(fb.slcTimes); err != nil {
			errs = append(errs, fmt.Errorf("--slc-times: %w", err))
		} else {
			c.Channel.Die.SLC.TRead, c.Channel.Die.SLC.TProg = st[0], st[1]
		}
	}
	if set("slc") {
		c.SLC = fb.slc
	}
	if set("independent-plane-reads") {
		c.Channel.Die.IndependentPlaneReads = fb.indepReads
	}
	if set("status-poll") {
		c.Channel.StatusPoll = fb.poll
	}
	return errs
}

// fieldFlags names the flag that sets each field flashbench.Config.Validate reports on.
var fieldFlags = []struct{ field, flag string }{{"channels:", "--channels"}, {"qd:", "--qd"}, {"ops:", "--ops"},
	{"die.planes:", "--planes"}, {"die.blocks_per_plane:", "--blocks"}, {"die.pages_per_block:", "--pages"},
	{"die.page_size:", "--page-size"}, {"mix:", "--mix"}, {"slc:", "--slc"}, {"die.slc", "--slc-times"}}

// flagsOfFields returns the problems of err, each prefixed with the flag of its field.
func flagsOfFields(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flagsOfFields(e)...)
		}
		return out
	}
	for _, f := range fieldFlags {
		if strings.HasPrefix(err.Error(), f.field) {
			return []error{fmt.Errorf("%s: %w", f.flag, err)}
		}
	}
	return []error{err}
}

func (fb *flashbenchFlags) run(cmd *cobra.Command) error {
	c, err := fb.config(cmd)
	if err != nil {
		return err
	}
	tl, err := fb.tl.build()
	if err != nil {
		return err
	}
	if tl != nil {
		c.Observe = func(rs []*sim.Resource) { tl.Attach(rs...) }
	}
	res, err := flashbench.Run(c)
	if err != nil {
		return err
	}
	res.Percentiles = fb.pcts.list
	if err := fb.tl.write(tl, cmd.ErrOrStderr(), nil); err != nil {
		return err
	}
	name := fmt.Sprintf("%dch-%ddies", c.Channels, c.Channels*c.Channel.Dies)
	if fb.preset != "" {
		name = fb.preset + "-" + name
	}
	dir, err := fb.runDir(name)
	if err != nil {
		return err
	}
	if dir != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "results written to %s\n", dir)
		if err := res.WriteDir(dir); err != nil {
			return err
		}
	}
	return fb.write(res.WriteText, res.WriteJSON, res.SummaryCSV().WriteCSV)
}
