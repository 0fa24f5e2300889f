package flashbench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/onfi"
	"github.com/fastdrain-sim/fastdrain/platforms"
)

// Flags is the command-line form of a flashbench configuration: the values of fastdrain
// flashbench's flags, each named after its flag. ParseConfig turns it into a Config.
type Flags struct {
	Channels, Ways, Dies                             int      // --channels, --ways, --dies (per package)
	Planes, Blocks, Pages, PageSize                  int      // --planes, --blocks, --pages, --page-size
	Flash, Scheme, ONFI, Policy, Mix, SLCTimes       string   // --flash, --scheme, --onfi, --policy, --mix, --slc-times
	ONFIMode, ONFIRate, QueueDepth                   int      // --onfi-mode, --onfi-rate, --qd
	Ops                                              int64    // --ops
	MultiPlane, Suspend, SLC, IndepReads, StatusPoll bool     // --multi-plane, --suspend, --slc, --independent-plane-reads, --status-poll
	CacheProgram                                     bool     // --cache-program
	Seed                                             uint64   // --seed
	Preset                                           string   // --preset
	Files                                            []string // --config
}

// DefaultFlags returns the flags' defaults: DefaultConfig's array, TLC flash, one die per package.
func DefaultFlags() Flags {
	d := DefaultConfig()
	return Flags{Channels: d.Channels, Ways: d.Channel.Dies, Dies: 1, Planes: d.Channel.Die.Planes,
		Blocks: d.Channel.Die.BlocksPerPlane, Pages: d.Channel.Die.PagesPerBlock, PageSize: d.Channel.Die.PageSize,
		Flash: "tlc", ONFI: d.Channel.ONFI.Interface.String(), ONFIMode: d.Channel.ONFI.Mode,
		Policy: d.Channel.Policy.String(), QueueDepth: d.QueueDepth, Ops: d.Ops,
		Mix: fmt.Sprintf("%d/%d/%d", d.ReadWeight, d.ProgramWeight, d.EraseWeight), Seed: d.Seed}
}

// ParseConfig turns the flags into a validated configuration; each error names its flag
// and what is wrong. changed tells whether a flag (named without dashes) was given
// explicitly: with --preset or --config the flash array comes from the platform and only
// flags given explicitly change it.
func ParseConfig(fl Flags, changed func(flag string) bool) (Config, error) {
	c := DefaultConfig()
	fromConfig := fl.Preset != "" || len(fl.Files) > 0
	set := func(name string) bool { return !fromConfig || changed(name) }
	if fromConfig {
		p, err := platforms.Load(platforms.Options{Preset: fl.Preset, Files: fl.Files})
		if err != nil && p.Flash.Channels == 0 {
			return c, fmt.Errorf("--preset/--config: %w", err)
		}
		// The flash section is what matters here; a preset refused for full-system use
		// (e.g. mqsim-ref's 8 KiB pages) is still a valid flash array.
		c.Channels, c.Channel = p.Flash.Channels, p.Flash.ChannelSpec()
		if !changed("ways") {
			fl.Ways = p.Flash.Ways
		}
		if !changed("dies") {
			fl.Dies = p.Flash.DiesPerPackage
		}
	}
	if set("channels") {
		c.Channels = fl.Channels
	}
	c.QueueDepth, c.Ops, c.MultiPlane, c.Seed = fl.QueueDepth, fl.Ops, fl.MultiPlane, fl.Seed
	errs := fl.die(&c, set, changed, fromConfig)
	errs = append(errs, fl.modes(&c, set, changed)...)
	if w, err := ParseMix(fl.Mix); err != nil {
		errs = append(errs, fmt.Errorf("--mix: %w", err))
	} else {
		c.ReadWeight, c.ProgramWeight, c.EraseWeight = w[0], w[1], w[2]
	}
	errs = append(errs, flagsOfFields(c.Validate())...)
	return c, errors.Join(errs...)
}

// die applies the die flags to c: the flash type, geometry, programming scheme and
// suspend; set tells whether a flag applies (given, or no preset).
func (fl *Flags) die(c *Config, set, changed func(string) bool, fromConfig bool) []error {
	var errs []error
	if fl.Ways < 1 || fl.Dies < 1 {
		errs = append(errs, fmt.Errorf("--ways %d and --dies %d must be positive", fl.Ways, fl.Dies))
	}
	c.Channel.Dies = fl.Ways * fl.Dies
	if set("flash") {
		var cell die.CellType
		if err := cell.UnmarshalText([]byte(fl.Flash)); err != nil {
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
	}{{"planes", &d.Planes, fl.Planes}, {"blocks", &d.BlocksPerPlane, fl.Blocks},
		{"pages", &d.PagesPerBlock, fl.Pages}, {"page-size", &d.PageSize, fl.PageSize}} {
		if set(f.name) || (fromConfig && changed("flash")) {
			*f.dst = f.v
		}
	}
	if set("suspend") {
		d.Suspend = fl.Suspend
	}
	if changed("scheme") {
		if err := d.Scheme.UnmarshalText([]byte(fl.Scheme)); err != nil {
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
func (fl *Flags) modes(c *Config, set, changed func(string) bool) []error {
	var errs []error
	if set("onfi") || set("onfi-mode") || changed("onfi-rate") {
		var iface onfi.Interface
		if err := iface.UnmarshalText([]byte(fl.ONFI)); err != nil {
			errs = append(errs, fmt.Errorf("--onfi: %w", err))
		} else if fl.ONFIRate > 0 {
			if s, err := onfi.SpecForRate(iface, fl.ONFIRate); err != nil {
				errs = append(errs, fmt.Errorf("--onfi-rate: %w", err))
			} else {
				c.Channel.ONFI = s
			}
		} else if s, err := onfi.SpecFor(iface, fl.ONFIMode); err != nil {
			errs = append(errs, fmt.Errorf("--onfi-mode: %w", err))
		} else {
			c.Channel.ONFI = s
		}
	}
	if set("policy") {
		if err := c.Channel.Policy.UnmarshalText([]byte(fl.Policy)); err != nil {
			errs = append(errs, fmt.Errorf("--policy: %w", err))
		}
	}
	if changed("slc-times") {
		if st, err := ParseSLCTimes(fl.SLCTimes); err != nil {
			errs = append(errs, fmt.Errorf("--slc-times: %w", err))
		} else {
			c.Channel.Die.SLC.TRead, c.Channel.Die.SLC.TProg = st[0], st[1]
		}
	}
	if set("slc") {
		c.SLC = fl.SLC
	}
	if set("independent-plane-reads") {
		c.Channel.Die.IndependentPlaneReads = fl.IndepReads
	}
	if set("status-poll") {
		c.Channel.StatusPoll = fl.StatusPoll
	}
	if set("cache-program") {
		c.Channel.Die.CacheProgram = fl.CacheProgram
	}
	return errs
}

// fieldFlags names the flag that sets each field Config.Validate reports on.
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
