package figures

import "fmt"

// QuickPreset is the platform of `figures --quick`: fastdrain-tlc scaled down QuickScale×
// as a whole (platforms/presets/fastdrain-tlc-8x.yaml). On fastdrain-tlc itself a 3 s run
// ends before Vanilla's 512 MiB buffer first fills, so no claim's mechanism engages
// (issue 20 item 8).
const QuickPreset = "fastdrain-tlc-8x"

// QuickScale is the factor QuickPreset and the applications' data sets are divided by.
const QuickScale = 8

// QuickNote is what `figures --quick` prints under its headline: which platform and why.
var QuickNote = fmt.Sprintf("quick mode: %s is fastdrain-tlc scaled down %d× as a whole (host memory, write buffer, "+
	"capacity, LSB-only region and the applications' data sets; same 480 dies, timings and loads), so that the "+
	"buffer fills and overflows within the run; --preset chooses another platform", QuickPreset, QuickScale)

// Quick returns o on the quick platform, QuickPreset. Run scales the applications' data
// sets down by QuickScale (apps.Spec.Scaled) whenever the preset is QuickPreset, so that the
// platform and the data on it are scaled together however it was chosen.
func Quick(o Options) Options {
	o.Preset = QuickPreset
	return o
}
