package main

import (
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/spf13/cobra"
)

func newRoot() *cobra.Command {
	cf := &compareFlags{}
	root := &cobra.Command{
		Use:   "fastdrain",
		Short: "Cycle-level full-stack NVMe SSD simulator",
		Long: `fastdrain simulates the whole NVMe storage stack — host page cache and writeback, block
layer, NVMe driver, PCIe, NVMe controller, SSD firmware, ONFI channels and NAND dies —
deterministically: the same configuration and seed give byte-identical output.

With no subcommand it runs the headline FastDrain comparison (see "fastdrain compare"):
Vanilla, FD-Buf, FD-FTL and FD on the fastdrain-tlc platform with each latency-critical
application co-located with Ungzip, and prints the p99 table.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cf.run(cmd)
		},
	}
	cf.register(root)
	(&profileFlags{}).register(root)
	startProfile := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := cliflags.CheckValues(cmd); err != nil {
			return err
		}
		return startProfile(cmd, args)
	}
	root.SetFlagErrorFunc(cliflags.FlagError)
	root.AddCommand(newCompare(), newRun(), newFigures(), newScenarios(), newUflip(), newReplay(), newFio(), newSweepCmd(), newMergeCmd(), newFlashbench(), newCalibrate(), newStats(), newPowercut(), newConfig(), newVersion())
	return root
}
