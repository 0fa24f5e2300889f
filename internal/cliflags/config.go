package cliflags

import (
	"strings"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/spf13/cobra"
)

// Config are the flags every command that loads a platform shares.
type Config struct {
	Preset  string   // --preset
	Variant string   // --variant
	Files   []string // --config, applied over the preset in order
	Sets    []string // --set, applied last
}

// Register adds --preset (default defPreset), --variant, --config and --set to cmd.
func (cf *Config) Register(cmd *cobra.Command, defPreset string) {
	cf.RegisterPlatform(cmd, defPreset)
	cmd.Flags().StringVar(&cf.Variant, "variant", "", "system variant ("+strings.Join(platforms.Variants(), ", ")+")")
}

// RegisterPlatform adds --preset (default defPreset), --config and --set to cmd, not
// --variant: for a command that takes a list of variants of its own (powercut --variants).
func (cf *Config) RegisterPlatform(cmd *cobra.Command, defPreset string) {
	f := cmd.Flags()
	f.StringVar(&cf.Preset, "preset", defPreset, "platform preset ("+strings.Join(platforms.Presets(), ", ")+")")
	f.StringArrayVar(&cf.Files, "config", nil, "YAML file applied over the preset (repeatable)")
	f.StringArrayVar(&cf.Sets, "set", nil, "override one field: path.to.key=value, the value a YAML scalar, [list] or {mapping} as in a --config file (repeatable)")
}

// Load resolves the configuration of the flags (platforms.Load).
func (cf *Config) Load() (platforms.Config, error) {
	return cf.LoadVariant(cf.Variant)
}

// LoadVariant resolves the flags' configuration with variant v instead of --variant.
func (cf *Config) LoadVariant(v string) (platforms.Config, error) {
	return platforms.Load(platforms.Options{Preset: cf.Preset, Variant: v, Files: cf.Files, Sets: cf.Sets})
}
